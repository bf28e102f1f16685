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
  // shaderSignedZeroInfNanPreserveFloat32/64: whether a module may ask that -0, inf and NaN
  // be kept (no x + 0 -> x, x - x -> 0, x / x -> 1 folds).
  bool keep_special32 = false, keep_special64 = false;
  VkShaderFloatControlsIndependence denorm_independence =
      VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_NONE;
};

FloatControls query_float_controls(VkPhysicalDevice device);
std::string float_controls_report(const FloatControls& fc);

// `words` with the DenormPreserve execution mode (SPV_KHR_float_controls) for 32-bit floats
// when `f32`, and for 64-bit floats when `f64` and the module declares Float64.
std::vector<std::uint32_t> with_denorm_preserve(std::span<const std::uint32_t> words, bool f32,
                                                bool f64);

// `words` with the SignedZeroInfNanPreserve execution mode for the widths the device allows
// (`fc`): for generated kernels (vkt::compile), whose inlined literals and shared operands
// let a compiler fold x + 0.0 to x or x - x to 0 (both seen on lavapipe, x / x on the H200).
std::vector<std::uint32_t> with_special_values_kept(std::span<const std::uint32_t> words,
                                                    const FloatControls& fc);

}  // namespace vkt::vk
