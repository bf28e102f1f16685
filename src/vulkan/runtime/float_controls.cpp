// The SPIR-V is patched when a module is created rather than built twice: glslang's
// GL_EXT_spirv_intrinsics can emit the execution mode but not conditionally, and a module
// carrying DenormPreserve is invalid on a device without shaderDenormPreserveFloat32, so a
// build-time mode would double every shader variant. The patch is three instructions in
// sections whose order SPIR-V fixes (capabilities, extensions, ..., execution modes).
#include "vulkan/runtime/float_controls.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "vkt/error.h"
#include "vulkan/spirv/spirv_words.h"

namespace vkt::vk {
namespace {

constexpr std::uint32_t kOpExtension = 10, kOpEntryPoint = 15, kOpExecutionMode = 16,
                        kOpCapability = 17;
constexpr std::uint32_t kCapabilityFloat64 = 10, kCapabilityDenormPreserve = 4464,
                        kCapabilitySignedZeroInfNanPreserve = 4466;
constexpr std::uint32_t kExecutionModeDenormPreserve = 4459,
                        kExecutionModeSignedZeroInfNanPreserve = 4461;
constexpr std::uint32_t kHeaderWords = 5;

}  // namespace

FloatControls query_float_controls(VkPhysicalDevice device) {
  VkPhysicalDeviceVulkan12Properties p12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  p2.pNext = &p12;
  vkGetPhysicalDeviceProperties2(device, &p2);
  FloatControls fc;
  fc.preserve16 = p12.shaderDenormPreserveFloat16;
  fc.preserve32 = p12.shaderDenormPreserveFloat32;
  fc.preserve64 = p12.shaderDenormPreserveFloat64;
  fc.flush16 = p12.shaderDenormFlushToZeroFloat16;
  fc.flush32 = p12.shaderDenormFlushToZeroFloat32;
  fc.flush64 = p12.shaderDenormFlushToZeroFloat64;
  fc.denorm_independence = p12.denormBehaviorIndependence;
  fc.keep_special32 = p12.shaderSignedZeroInfNanPreserveFloat32;
  fc.keep_special64 = p12.shaderSignedZeroInfNanPreserveFloat64;
  return fc;
}

std::string float_controls_report(const FloatControls& fc) {
  std::ostringstream s;
  s << "shaderDenormPreserveFloat16/32/64=" << fc.preserve16 << "/" << fc.preserve32 << "/"
    << fc.preserve64 << " shaderDenormFlushToZeroFloat16/32/64=" << fc.flush16 << "/" << fc.flush32
    << "/" << fc.flush64 << " shaderSignedZeroInfNanPreserveFloat32/64=" << fc.keep_special32 << "/"
    << fc.keep_special64 << " denormBehaviorIndependence="
    << (fc.denorm_independence == VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL ? "all"
        : fc.denorm_independence == VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_32_BIT_ONLY
            ? "32-bit-only"
            : "none");
  return s.str();
}

namespace {
// `words` with capability `cap`, the float_controls extension and execution mode `mode`
// for each width in `widths` (64 only where the module declares Float64).
std::vector<std::uint32_t> with_execution_mode(std::span<const std::uint32_t> words,
                                               std::uint32_t cap, std::uint32_t mode, bool f32,
                                               bool f64) {
  if (words.size() < kHeaderWords) throw Error("[vulkan] SPIR-V module shorter than its header");
  // First pass: does the module use f64, and where do the sections end?
  bool has_f64 = false, has_extension = false;
  std::size_t after_caps = 0, after_entry = 0;
  std::vector<std::uint32_t> entries;
  const std::vector<std::uint32_t> name = spirv_string_words("SPV_KHR_float_controls");
  for (std::size_t i = kHeaderWords; i < words.size();) {
    const std::uint32_t op = words[i] & 0xffffu, count = words[i] >> 16;
    if (count == 0 || i + count > words.size()) throw Error("[vulkan] malformed SPIR-V module");
    if (op == kOpCapability) {
      has_f64 |= words[i + 1] == kCapabilityFloat64;
      after_caps = i + count;
    }
    if (op == kOpExtension && count == 1 + name.size() &&
        std::equal(name.begin(), name.end(), words.begin() + static_cast<std::ptrdiff_t>(i + 1))) {
      has_extension = true;
    }
    if (op == kOpEntryPoint) {
      entries.push_back(words[i + 2]);
      after_entry = i + count;
    }
    i += count;
  }
  std::vector<std::uint32_t> widths;
  if (f32) widths.push_back(32);
  if (f64 && has_f64) widths.push_back(64);
  if (widths.empty() || after_caps == 0 || after_entry == 0) {
    return {words.begin(), words.end()};
  }
  std::vector<std::uint32_t> out(words.begin(),
                                 words.begin() + static_cast<std::ptrdiff_t>(after_caps));
  out.push_back(2u << 16 | kOpCapability);
  out.push_back(cap);
  if (!has_extension) {  // a module patched twice declares the extension once
    out.push_back(static_cast<std::uint32_t>(1 + name.size()) << 16 | kOpExtension);
    out.insert(out.end(), name.begin(), name.end());
  }
  out.insert(out.end(), words.begin() + static_cast<std::ptrdiff_t>(after_caps),
             words.begin() + static_cast<std::ptrdiff_t>(after_entry));
  for (const std::uint32_t entry : entries) {
    for (const std::uint32_t w : widths) {
      out.insert(out.end(), {4u << 16 | kOpExecutionMode, entry, mode, w});
    }
  }
  out.insert(out.end(), words.begin() + static_cast<std::ptrdiff_t>(after_entry), words.end());
  return out;
}
}  // namespace

std::vector<std::uint32_t> with_denorm_preserve(std::span<const std::uint32_t> words, bool f32,
                                                bool f64) {
  return with_execution_mode(words, kCapabilityDenormPreserve, kExecutionModeDenormPreserve, f32,
                             f64);
}

std::vector<std::uint32_t> with_special_values_kept(std::span<const std::uint32_t> words,
                                                    const FloatControls& fc) {
  return with_execution_mode(words, kCapabilitySignedZeroInfNanPreserve,
                             kExecutionModeSignedZeroInfNanPreserve, fc.keep_special32,
                             fc.keep_special64);
}

}  // namespace vkt::vk
