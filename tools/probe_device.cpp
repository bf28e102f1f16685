#include "probe_device.h"

#include <fstream>

namespace probe {

Device::Device(const std::vector<const char*>& extensions, void* extra_features) {
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

Device::~Device() {
  vkDestroyDevice(device, nullptr);
  vkDestroyInstance(instance, nullptr);
}

StorageLayout::StorageLayout(const Device& dev, std::uint32_t bindings, std::uint32_t push_bytes)
    : d(dev) {
  std::vector<VkDescriptorSetLayoutBinding> slots(bindings);
  for (std::uint32_t b = 0; b < bindings; ++b) {
    slots[b] = {b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  }
  VkDescriptorSetLayoutCreateInfo lci{};
  lci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  lci.bindingCount = bindings;
  lci.pBindings = slots.data();
  check(vkCreateDescriptorSetLayout(d.device, &lci, nullptr, &set), "set layout");
  const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
  VkPipelineLayoutCreateInfo plci{};
  plci.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &set;
  plci.pushConstantRangeCount = 1;
  plci.pPushConstantRanges = &push;
  check(vkCreatePipelineLayout(d.device, &plci, nullptr, &pipeline), "pipeline layout");
}

StorageLayout::~StorageLayout() {
  vkDestroyPipelineLayout(d.device, pipeline, nullptr);
  vkDestroyDescriptorSetLayout(d.device, set, nullptr);
}

VkResult create_compute_pipeline(const Device& d, const std::vector<std::uint32_t>& words,
                                 VkPipelineLayout layout, VkPipelineCreateFlags flags,
                                 const std::vector<std::uint32_t>& spec, Pipeline* out) {
  VkShaderModuleCreateInfo mci{};
  mci.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  mci.codeSize = words.size() * 4;
  mci.pCode = words.data();
  VkShaderModule module = VK_NULL_HANDLE;
  check(vkCreateShaderModule(d.device, &mci, nullptr, &module), "vkCreateShaderModule");
  std::vector<VkSpecializationMapEntry> entries;
  for (std::uint32_t i = 0; i < spec.size(); ++i) entries.push_back({i, 4 * i, 4});
  const VkSpecializationInfo si{static_cast<std::uint32_t>(entries.size()), entries.data(),
                                spec.size() * 4, spec.data()};
  VkComputePipelineCreateInfo pci{};
  pci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  pci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pci.stage.module = module;
  pci.stage.pName = "main";
  pci.stage.pSpecializationInfo = spec.empty() ? nullptr : &si;
  pci.layout = layout;
  pci.flags = flags;
  VkPipeline pipeline = VK_NULL_HANDLE;
  const VkResult r =
      vkCreateComputePipelines(d.device, VK_NULL_HANDLE, 1, &pci, nullptr, &pipeline);
  vkDestroyShaderModule(d.device, module, nullptr);
  *out = r == VK_SUCCESS ? Pipeline(d.device, pipeline) : Pipeline();
  return r;
}

std::vector<std::uint32_t> read_spirv(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) {
    std::fprintf(stderr, "probe: cannot read %s\n", path.c_str());
    std::exit(1);
  }
  const auto bytes = static_cast<std::size_t>(f.tellg());
  if (bytes == 0 || bytes % 4 != 0) {
    std::fprintf(stderr, "probe: %s is %zu bytes, not SPIR-V words\n", path.c_str(), bytes);
    std::exit(1);
  }
  std::vector<std::uint32_t> words(bytes / 4);
  f.seekg(0);
  f.read(reinterpret_cast<char*>(words.data()), static_cast<std::streamsize>(bytes));
  return words;
}

}  // namespace probe
