// The Vulkan device of the developer probes (vkt-pipeline-time, vkt-coopmat-peak), apart
// from vktensor: the first non-CPU device (else the first), one queue of family 0, the 1.1
// and 1.2 features the device has, and the extensions asked for where it has them.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace probe {

[[noreturn]] inline void fail(const std::string& what, VkResult r) {
  std::fprintf(stderr, "probe: %s failed (VkResult %d)\n", what.c_str(), static_cast<int>(r));
  std::exit(1);
}

inline void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) fail(what, r);
}

inline bool has_extension(VkPhysicalDevice pd, const char* name) {
  std::uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> exts(n);
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, exts.data());
  for (const auto& e : exts) {
    if (std::strcmp(e.extensionName, name) == 0) return true;
  }
  return false;
}

struct Device {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties props{};
  std::vector<const char*> enabled;  // the asked extensions the device has

  // `extra_features` is chained after the 1.1/1.2 features (its pNext must be null).
  explicit Device(const std::vector<const char*>& extensions = {}, void* extra_features = nullptr) {
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ici{};
    ici.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    ici.pApplicationInfo = &app;
    check(vkCreateInstance(&ici, nullptr, &instance), "vkCreateInstance");
    std::uint32_t n = 0;
    vkEnumeratePhysicalDevices(instance, &n, nullptr);
    std::vector<VkPhysicalDevice> all(n);
    vkEnumeratePhysicalDevices(instance, &n, all.data());
    if (all.empty()) fail("no Vulkan device", VK_ERROR_INITIALIZATION_FAILED);
    physical = all[0];
    for (VkPhysicalDevice p : all) {
      VkPhysicalDeviceProperties pp;
      vkGetPhysicalDeviceProperties(p, &pp);
      if (pp.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) {
        physical = p;
        break;
      }
    }
    vkGetPhysicalDeviceProperties(physical, &props);
    for (const char* e : extensions) {
      if (has_extension(physical, e)) enabled.push_back(e);
    }
    VkPhysicalDeviceVulkan12Features f12{};
    f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    f12.pNext = extra_features;
    VkPhysicalDeviceVulkan11Features f11{};
    f11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    f11.pNext = &f12;
    VkPhysicalDeviceFeatures2 features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features.pNext = &f11;
    vkGetPhysicalDeviceFeatures2(physical, &features);
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo q{};
    q.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    q.queueCount = 1;
    q.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci{};
    dci.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    dci.pNext = &features;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &q;
    dci.enabledExtensionCount = static_cast<std::uint32_t>(enabled.size());
    dci.ppEnabledExtensionNames = enabled.data();
    check(vkCreateDevice(physical, &dci, nullptr, &device), "vkCreateDevice");
    vkGetDeviceQueue(device, 0, 0, &queue);
  }
  ~Device() {
    vkDestroyDevice(device, nullptr);
    vkDestroyInstance(instance, nullptr);
  }
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
};

// Reads a SPIR-V file, exiting with a message where it is not one.
std::vector<std::uint32_t> read_spirv(const std::string& path);

}  // namespace probe
