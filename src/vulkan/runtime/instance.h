// The process's Vulkan instance (created once; validation per VKT_VALIDATION).
#pragma once

#include <vulkan/vulkan.h>

#include <vector>

namespace vkt::vk {

// Throws NoDevice when no Vulkan loader/driver can create an instance.
VkInstance shared_instance();
// The instance's devices, in vkEnumeratePhysicalDevices order (enumerated once).
const std::vector<VkPhysicalDevice>& physical_devices();

}  // namespace vkt::vk
