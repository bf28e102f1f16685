#include <cstdio>
#include <fstream>
#include <map>
#include <stdexcept>
#include <tuple>

#include "commands.h"
#include "csv.h"

namespace vkt::bench {

void run_compare(const std::vector<std::string>& files, const std::string& column,
                 const std::string& out) {
  using Key = std::tuple<std::string, std::string, long long>;
  std::vector<std::string> labels;
  std::map<Key, std::vector<std::string>> cells;
  for (std::size_t f = 0; f < files.size(); ++f) {
    const std::vector<Row> rows = read_csv(files[f]);
    if (rows.empty()) throw std::invalid_argument("'" + files[f] + "' has no rows");
    bool has_column = false;
    for (const auto& [k, v] : rows[0]) has_column |= k == column;
    if (!has_column)
      throw std::invalid_argument("'" + files[f] + "' has no column '" + column + "'");
    const std::string lib = field(rows[0], "library");
    labels.push_back((lib.empty() ? "vktensor" : lib) + " " + field(rows[0], "host") + " (" +
                     field(rows[0], "device") + ")");
    for (const Row& r : rows) {
      const Key key{field(r, "op"), field(r, "dtype"), std::stoll(field(r, "size"))};
      auto& v = cells[key];
      v.resize(files.size());
      v[f] = field(r, column);
    }
  }
  std::string md = "| op | dtype | size |";
  for (const auto& l : labels) md += " " + l + " |";
  md += "\n|---|---|---:|";
  for (std::size_t i = 0; i < labels.size(); ++i) md += "---:|";
  md += "\n";
  for (const auto& [key, v] : cells) {
    md += "| " + std::get<0>(key) + " | " + std::get<1>(key) + " | " +
          std::to_string(std::get<2>(key)) + " |";
    for (std::size_t i = 0; i < labels.size(); ++i)
      md += " " + (i < v.size() ? v[i] : std::string()) + " |";
    md += "\n";
  }
  std::printf("%s: %s\n\n%s", column.c_str(), "side by side", md.c_str());
  if (!out.empty()) {
    std::ofstream f(out);
    if (!f) throw std::runtime_error("cannot write '" + out + "'");
    f << md;
  }
}

}  // namespace vkt::bench
