// Vulkan 1.2 float controls: what the device does with subnormals (denormals) in shader
// arithmetic, and the SPIR-V patch that asks it to keep them where it can.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace vkt::vk {

struct FloatControls {
  // VkPhysicalDeviceVulkan12Properties::shaderDenormPreserveFloat16/32/64 and
  // shaderDenormFlushToZeroFloat16/32/64: what the execution modes may ask for.
  bool preserve16 = false, preserve32 = false, preserve64 = false;
  bool flush16 = false, flush32 = false, flush64 = false;
  VkShaderFloatControlsIndependence denorm_independence =
      VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_NONE;
};

FloatControls query_float_controls(VkPhysicalDevice device);
std::string float_controls_report(const FloatControls& fc);

// `words` with the DenormPreserve execution mode (SPV_KHR_float_controls) for 32-bit floats
// when `f32`, and for 64-bit floats when `f64` and the module declares Float64.
std::vector<std::uint32_t> with_denorm_preserve(std::span<const std::uint32_t> words, bool f32,
                                                bool f64);

}  // namespace vkt::vk
