// When the elementwise families specialise their pipelines per op (elementwise_unary.cpp,
// elementwise_binary.cpp share this rule).
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/env_choice.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {

// The shaders' "read it from the push constants" value of a specialization constant.
inline constexpr std::uint32_t kDynamic = 0xffffffffu;

// A cpu device (lavapipe) compiles each pipeline through LLVM in a few hundred ms, which
// would dwarf the work: there one pipeline per dtype takes the op (and binary indexing
// mode) at run time. GPUs get pipelines specialised per op (and mode).
// VKT_VK_SPECIALISE=1 forces specialised pipelines anywhere (to test them on lavapipe).
inline bool specialise_elementwise(const VulkanBackend& b) {
  static const bool forced = common::env_switch("VKT_VK_SPECIALISE", "1", "0", false, "vulkan");
  return forced || b.context().properties().deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU;
}

// A family's three variant names (VulkanBackend::variant), built once: the elementwise ops
// are the batch's commonest, and a name per op would be a heap string each time.
inline std::string_view elementwise_variant(const std::array<std::string, 3>& names, DType d) {
  return names[VulkanBackend::variant_index({d})];
}

}  // namespace vkt::vk
