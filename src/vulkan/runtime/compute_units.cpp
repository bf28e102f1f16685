// Compute units from the vendor extensions that report them (each a properties structure
// chained to vkGetPhysicalDeviceProperties2), cached per physical device: enumerating the
// extensions costs more than a conv's host work.
#include "vulkan/runtime/compute_units.h"

#include <map>
#include <mutex>
#include <thread>

#include "vulkan/runtime/coopmat.h"

namespace vkt::vk {
namespace {

std::uint32_t query_compute_units(VkPhysicalDevice pd, VkPhysicalDeviceType type) {
  if (type == VK_PHYSICAL_DEVICE_TYPE_CPU) return std::thread::hardware_concurrency();
  if (has_device_extension(pd, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
    VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &sm};
    vkGetPhysicalDeviceProperties2(pd, &p2);
    return sm.shaderSMCount;
  }
  if (has_device_extension(pd, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME)) {
    VkPhysicalDeviceShaderCorePropertiesAMD core{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &core};
    vkGetPhysicalDeviceProperties2(pd, &p2);
    return core.shaderEngineCount * core.shaderArraysPerEngineCount *
           core.computeUnitsPerShaderArray;
  }
  if (has_device_extension(pd, VK_ARM_SHADER_CORE_BUILTINS_EXTENSION_NAME)) {
    VkPhysicalDeviceShaderCoreBuiltinsPropertiesARM core{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_BUILTINS_PROPERTIES_ARM};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &core};
    vkGetPhysicalDeviceProperties2(pd, &p2);
    return core.shaderCoreCount;
  }
  return 0;
}

}  // namespace

std::uint32_t compute_units(const Context& ctx) {
  static std::mutex mutex;
  static std::map<VkPhysicalDevice, std::uint32_t> known;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto it = known.find(ctx.physical());
  if (it != known.end()) return it->second;
  const std::uint32_t n = query_compute_units(ctx.physical(), ctx.properties().deviceType);
  known.emplace(ctx.physical(), n);
  return n;
}

}  // namespace vkt::vk
