// The smaller vkt-bench subcommands.
#pragma once

#include <string>
#include <vector>

namespace vkt::bench {

void run_info(int device);
// Writes the op x dtype coverage table (markdown) to `out` and prints it; a Nx callback
// counts as covered only when its test passed in one of the googletest JSON `reports`.
void run_coverage(int device, const std::string& out, const std::vector<std::string>& reports);
// The tests the Nx callback table links, one a line (for scripts/coverage.sh).
void print_coverage_tests();
// Joins CSVs on (op, dtype, size) and prints `column` side by side as markdown (each file
// labelled by its host/device/library); writes the table to `out` when given.
void run_compare(const std::vector<std::string>& files, const std::string& column,
                 const std::string& out);

}  // namespace vkt::bench
