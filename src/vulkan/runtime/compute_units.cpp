// Compute units from the vendor extensions that report them (each a properties structure
// chained to vkGetPhysicalDeviceProperties2), asked once by the Context (context.cpp):
// enumerating the extensions costs more than a conv's host work.
#include "vulkan/runtime/compute_units.h"

#include <optional>
#include <thread>

#include "vulkan/runtime/coopmat.h"

namespace vkt::vk {
namespace {

// The properties structure `T` (its sType `type`) where the device has `extension`.
template <class T>
std::optional<T> extension_properties(VkPhysicalDevice pd, const char* extension,
                                      VkStructureType type) {
  if (!has_device_extension(pd, extension)) return std::nullopt;
  T props{type};
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &props};
  vkGetPhysicalDeviceProperties2(pd, &p2);
  return props;
}

}  // namespace

std::uint32_t query_compute_units(VkPhysicalDevice pd, VkPhysicalDeviceType type) {
  if (type == VK_PHYSICAL_DEVICE_TYPE_CPU) return std::thread::hardware_concurrency();
  if (const auto sm = extension_properties<VkPhysicalDeviceShaderSMBuiltinsPropertiesNV>(
          pd, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV))
    return sm->shaderSMCount;
  if (const auto core = extension_properties<VkPhysicalDeviceShaderCorePropertiesAMD>(
          pd, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD))
    return core->shaderEngineCount * core->shaderArraysPerEngineCount *
           core->computeUnitsPerShaderArray;
  if (const auto core = extension_properties<VkPhysicalDeviceShaderCoreBuiltinsPropertiesARM>(
          pd, VK_ARM_SHADER_CORE_BUILTINS_EXTENSION_NAME,
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_BUILTINS_PROPERTIES_ARM))
    return core->shaderCoreCount;
  return 0;
}

}  // namespace vkt::vk
