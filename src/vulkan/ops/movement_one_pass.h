// concatenate and put_slice as one gather dispatch over the output (movement_one_pass.cpp):
// each output word is written once, from whichever input holds it, in words as wide as the
// runs allow (up to 16 bytes). Where the device copies faster by command, outer-axis
// concatenate and put_slice take movement.cpp's copies instead.
#pragma once

#include "vulkan/runtime/backend.h"

namespace vkt::vk {

// Whether concatenate / put_slice take the one-pass path on this device (the rule in
// movement_one_pass.cpp); `outer_axis`: every axis before the concatenated one has size 1
// (the copy path copies whole inputs; inner axes have no other path).
bool concatenate_one_pass(const VulkanBackend& b, const OpCall& call, bool outer_axis);
bool put_slice_one_pass(const VulkanBackend& b, const OpCall& call);

// Record the pass into `out` (not empty); false, recording nothing, where the call does not
// fit it (the caller then takes the copy path).
bool run_concatenate_one_pass(VulkanBackend& b, const OpCall& call, const Tensor& out);
bool run_put_slice_one_pass(VulkanBackend& b, const OpCall& call, const Tensor& out);

// The widest word (16, 8, 4, 2 or 1 bytes) dividing `bytes`.
inline std::size_t widest_word(std::uint64_t bytes) {
  for (std::size_t w : {16u, 8u, 4u, 2u}) {
    if (bytes % w == 0) return w;
  }
  return 1;
}

}  // namespace vkt::vk
