// The size limits every shader shares (backend.cpp's supports() and the word shaders of
// movement_words.h both check them): 32-bit signed invocation indices, and each tensor
// bound as one descriptor range.
#pragma once

#include <cstdint>

#include "vkt/backend/op_call.h"

namespace vkt::vk {

inline bool within_shader_limits(const OpCall& call, std::uint64_t max_storage_range) {
  auto fits = [&](std::uint64_t elements, std::uint64_t bytes) {
    return elements < (std::uint64_t{1} << 31) && bytes <= max_storage_range;
  };
  const auto out_elements = static_cast<std::uint64_t>(numel(call.out_shape));
  if (!fits(out_elements, out_elements * itemsize(call.out_dtype))) return false;
  for (const Tensor& t : call.inputs) {
    if (!fits(static_cast<std::uint64_t>(t.size()), t.nbytes())) return false;
  }
  return true;
}

}  // namespace vkt::vk
