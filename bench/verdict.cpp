#include "verdict.h"

#include <cstdlib>
#include <string>

namespace vkt::bench {
namespace {

std::string sizes_text(const std::vector<std::string>& sizes) {
  std::string out;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (i > 0) out += i + 1 == sizes.size() ? " and " : ", ";
    out += sizes[i];
  }
  return out;
}

}  // namespace

void print_verdicts(std::FILE* f, const std::vector<Row>& rows, const HostInfo& host) {
  if (host.device_type == "none") return;  // no device: the table is the cpu's alone
  std::fprintf(f, "\nWhere the device path (D) beats the cpu (B) for a consumer of the result:\n");
  for (std::size_t i = 0; i < rows.size();) {
    const std::string op = field(rows[i], "op");
    std::vector<std::string> wins, losses;
    for (; i < rows.size() && field(rows[i], "op") == op; ++i) {
      const std::string ratio = field(rows[i], "D_over_B");
      if (ratio.empty()) continue;
      (std::strtod(ratio.c_str(), nullptr) < 1.0 ? wins : losses)
          .push_back(field(rows[i], "size") + " (D/B " + ratio + ")");
    }
    if (wins.empty() && losses.empty()) continue;
    if (losses.empty()) {
      std::fprintf(f, "  %-12s the device at every size: %s\n", op.c_str(),
                   sizes_text(wins).c_str());
    } else if (wins.empty()) {
      std::fprintf(f, "  %-12s the cpu at every size: %s\n", op.c_str(),
                   sizes_text(losses).c_str());
    } else {
      std::fprintf(f, "  %-12s the device at %s; the cpu at %s\n", op.c_str(),
                   sizes_text(wins).c_str(), sizes_text(losses).c_str());
    }
  }
  if (host.device_type == "cpu") {
    std::fprintf(
        f,
        "\nThis device is a CPU emulation of Vulkan (%s):\n"
        "its columns C, D and E are the cost of the Vulkan dispatch path on the same\n"
        "cores as the cpu backend, not a GPU's. On a GPU the same command times the GPU.\n",
        host.device.c_str());
  }
}

}  // namespace vkt::bench
