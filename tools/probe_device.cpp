#include "probe_device.h"

#include <fstream>

namespace probe {

std::vector<std::uint32_t> read_spirv(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) {
    std::fprintf(stderr, "probe: cannot read %s\n", path.c_str());
    std::exit(1);
  }
  const auto bytes = static_cast<std::size_t>(f.tellg());
  if (bytes == 0 || bytes % 4 != 0) {
    std::fprintf(stderr, "probe: %s is %zu bytes, not SPIR-V words\n", path.c_str(), bytes);
    std::exit(1);
  }
  std::vector<std::uint32_t> words(bytes / 4);
  f.seekg(0);
  f.read(reinterpret_cast<char*>(words.data()), static_cast<std::streamsize>(bytes));
  return words;
}

}  // namespace probe
