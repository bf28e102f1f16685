// One VkInstance for the process, with the Khronos validation layer, synchronization
// validation and a counting debug messenger when VKT_VALIDATION=1.
#include "vulkan/runtime/instance.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <string>

#include "common/settings.h"
#include "vkt/error.h"
#include "vulkan/runtime/check.h"
#include "vulkan/runtime/validation.h"

namespace vkt::vk {
namespace {

std::atomic<std::uint64_t> g_messages{0};
bool g_validation = false;
std::uint32_t g_validation_version = 0;

VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                          VkDebugUtilsMessageTypeFlagsEXT,
                                          const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    g_messages += 1;
    std::cerr << "vktensor validation: " << (data->pMessage ? data->pMessage : "") << "\n";
  }
  return VK_FALSE;
}

// The layer's Vulkan header version; 0 where it is not installed.
std::uint32_t layer_version(const char* name) {
  std::uint32_t n = 0;
  vkEnumerateInstanceLayerProperties(&n, nullptr);
  std::vector<VkLayerProperties> layers(n);
  vkEnumerateInstanceLayerProperties(&n, layers.data());
  for (const auto& l : layers) {
    if (std::strcmp(l.layerName, name) == 0) return l.specVersion;
  }
  return 0;
}

struct Instance {
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
};

Instance create_instance() {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "vktensor";
  app.pEngineName = "vktensor";
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;

  const char* layer = "VK_LAYER_KHRONOS_validation";
  const char* ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  const VkValidationFeatureEnableEXT enables[] = {
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  VkDebugUtilsMessengerCreateInfoEXT messenger{
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger.pfnUserCallback = on_message;

  if (settings().validation) {
    if (const std::uint32_t version = layer_version(layer); version != 0) {
      g_validation = true;
      g_validation_version = version;
      info.enabledLayerCount = 1;
      info.ppEnabledLayerNames = &layer;
      info.enabledExtensionCount = 1;
      info.ppEnabledExtensionNames = &ext;
      messenger.pNext = &features;
      info.pNext = &messenger;  // also reports instance creation/destruction
    } else {
      std::cerr << "vktensor: VKT_VALIDATION=1 but VK_LAYER_KHRONOS_validation is not installed\n";
    }
  }
  Instance out;
  const VkResult r = vkCreateInstance(&info, nullptr, &out.instance);
  if (r != VK_SUCCESS) {
    throw NoDevice(std::string("[vulkan] vkCreateInstance failed: ") + result_name(r) +
                   " (no Vulkan driver?)");
  }
  if (g_validation) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(out.instance, "vkCreateDebugUtilsMessengerEXT"));
    messenger.pNext = nullptr;
    if (create != nullptr) VKT_VK(create, out.instance, &messenger, nullptr, &out.messenger);
  }
  return out;
}

}  // namespace

std::uint64_t validation_message_count() {
  return g_messages.load();
}
bool validation_enabled() {
  return g_validation;
}
bool validation_predates(std::uint32_t api_version) {
  return g_validation && g_validation_version < api_version;
}

VkInstance shared_instance() {
  // Created once and never destroyed: backends live for the whole process.
  static const Instance instance = create_instance();
  return instance.instance;
}

const std::vector<VkPhysicalDevice>& physical_devices() {
  // Enumerated once, with the instance: the loader rebuilds its whole device list (and
  // allocates for it) on every vkEnumeratePhysicalDevices, and vulkan() resolves through here.
  static const std::vector<VkPhysicalDevice> devices = [] {
    VkInstance inst = shared_instance();
    std::uint32_t n = 0;
    VKT_VK(vkEnumeratePhysicalDevices, inst, &n, nullptr);
    std::vector<VkPhysicalDevice> found(n);
    VKT_VK(vkEnumeratePhysicalDevices, inst, &n, found.data());
    found.resize(n);
    return found;
  }();
  return devices;
}

}  // namespace vkt::vk
