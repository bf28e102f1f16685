// SPIR-V modules compiled from shaders/ at build time and embedded (embed_spirv.cmake).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace vkt::vk {

struct SpirvModule {
  std::string_view name;  // the variant name given in CMakeLists.txt, e.g. "conversion_i64"
  std::span<const std::uint32_t> words;
};

const std::vector<SpirvModule>& embedded_spirv();

}  // namespace vkt::vk
