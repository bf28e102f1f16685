// How many compute units (NVIDIA SMs, AMD CUs, Arm shader cores, a CPU device's cores) a
// device reports, for rules that size a launch to fill the device (conv's split K).
#pragma once

#include <cstdint>

#include "vulkan/runtime/context.h"

namespace vkt::vk {

// The count from VK_NV_shader_sm_builtins, VK_AMD_shader_core_properties or
// VK_ARM_shader_core_builtins where the device has one of them (a property query: nothing
// needs enabling), a CPU device's hardware threads (lavapipe runs workgroups on one thread
// per core), else 0: core Vulkan has no such property. The Context asks once, when made.
std::uint32_t query_compute_units(VkPhysicalDevice pd, VkPhysicalDeviceType type);
// The count the Context kept (DeviceLimits::compute_units).
inline std::uint32_t compute_units(const Context& ctx) {
  return ctx.limits().compute_units;
}

}  // namespace vkt::vk
