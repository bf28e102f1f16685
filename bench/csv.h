// CSV output: a header and rows of named fields, written atomically (temp file, then
// rename) so a failed run never leaves a partial file.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace vkt::bench {

using Row = std::vector<std::pair<std::string, std::string>>;

std::string csv_escape(const std::string& field);
// Checks that `path` can be created (its folder exists and is writable) before any work.
// Throws std::runtime_error naming the path otherwise.
void check_writable(const std::string& path);
// Writes rows (all with the same keys, in the same order) to `path`.
void write_csv(const std::string& path, const std::vector<Row>& rows);
// Reads a CSV written by write_csv: a header and rows as key/value pairs.
std::vector<Row> read_csv(const std::string& path);
std::string field(const Row& row, const std::string& key);

std::string fmt_num(double v, int precision = 3);

}  // namespace vkt::bench
