// Small helpers shared by the SPIR-V patches (float_controls.cpp, coopmat_khr_spirv.cpp).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace vkt::vk {

// A literal string's words: its bytes and the terminating 0, padded with zeros to a word.
inline std::vector<std::uint32_t> spirv_string_words(const char* s) {
  const std::size_t bytes = std::strlen(s) + 1;
  std::vector<std::uint32_t> w((bytes + 3) / 4, 0);
  std::memcpy(w.data(), s, bytes);
  return w;
}

}  // namespace vkt::vk
