#include "table.h"

#include <algorithm>

namespace vkt::bench {

void Table::print(std::FILE* f) const {
  std::vector<std::size_t> width(header_.size());
  for (std::size_t i = 0; i < header_.size(); ++i) width[i] = header_[i].size();
  for (const auto& r : rows_) {
    for (std::size_t i = 0; i < r.size() && i < width.size(); ++i)
      width[i] = std::max(width[i], r[i].size());
  }
  auto line = [&](const std::vector<std::string>& r) {
    for (std::size_t i = 0; i < width.size(); ++i) {
      const std::string& cell = i < r.size() ? r[i] : std::string();
      std::fprintf(f, i == 0 ? "%-*s" : "  %*s", static_cast<int>(width[i]), cell.c_str());
    }
    std::fprintf(f, "\n");
  };
  line(header_);
  for (const auto& r : rows_) line(r);
}

}  // namespace vkt::bench
