// Reads googletest JSON reports (--gtest_output=json:FILE): each test's outcome by its full
// name, for the coverage table's computed count.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace vkt::bench {

// "Suite.Name" -> "passed", "failed" or "skipped"; a test in several reports is "failed" if
// any run failed. Throws std::runtime_error ("[coverage] ...") on an unreadable report.
std::map<std::string, std::string> read_gtest_reports(const std::vector<std::string>& files);

}  // namespace vkt::bench
