// vkt-pipeline-time: how long the driver takes to create one compute pipeline from each
// SPIR-V file given, on the first non-CPU device (else the first). A developer's probe for
// the first-call cost every op pays (issue 12's 100 ms), apart from vktensor: each file is
// created with a layout of 16 storage buffers and 128 bytes of push constants, its
// specialization constants at their defaults, no pipeline cache.
// Prints one CSV line per file: file,spirv_bytes,create_us (the first creation) and the
// repeats' creations. Run each file in its own process for a driver with an in-process cache.
// --disable-optimization creates them with VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT (a
// quick first tier, where the driver honours it).
//   vkt-pipeline-time [--repeats N] [--disable-optimization] FILE.spv...
#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string& what, VkResult r) {
  std::fprintf(stderr, "vkt-pipeline-time: %s failed (VkResult %d)\n", what.c_str(),
               static_cast<int>(r));
  std::exit(1);
}

void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) fail(what, r);
}

std::vector<std::uint32_t> read_spirv(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) {
    std::fprintf(stderr, "vkt-pipeline-time: cannot read %s\n", path.c_str());
    std::exit(1);
  }
  const auto bytes = static_cast<std::size_t>(f.tellg());
  if (bytes == 0 || bytes % 4 != 0) {
    std::fprintf(stderr, "vkt-pipeline-time: %s is %zu bytes, not SPIR-V words\n", path.c_str(),
                 bytes);
    std::exit(1);
  }
  std::vector<std::uint32_t> words(bytes / 4);
  f.seekg(0);
  f.read(reinterpret_cast<char*>(words.data()), static_cast<std::streamsize>(bytes));
  return words;
}

struct Device {
  VkInstance instance = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  std::string name;
  Device() {
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
    VkPhysicalDevice pick = all[0];
    for (VkPhysicalDevice p : all) {
      VkPhysicalDeviceProperties props;
      vkGetPhysicalDeviceProperties(p, &props);
      if (props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) {
        pick = p;
        break;
      }
    }
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pick, &props);
    name = props.deviceName;
    // The features vktensor's shaders use, where the device has them.
    VkPhysicalDeviceVulkan12Features f12{};
    f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    VkPhysicalDeviceVulkan11Features f11{};
    f11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    f11.pNext = &f12;
    VkPhysicalDeviceFeatures2 features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features.pNext = &f11;
    vkGetPhysicalDeviceFeatures2(pick, &features);
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
    check(vkCreateDevice(pick, &dci, nullptr, &device), "vkCreateDevice");
  }
  ~Device() {
    vkDestroyDevice(device, nullptr);
    vkDestroyInstance(instance, nullptr);
  }
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
};

double create_once_us(const Device& d, const std::vector<std::uint32_t>& words,
                      VkPipelineLayout layout, VkPipelineCreateFlags flags) {
  VkShaderModuleCreateInfo mci{};
  mci.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  mci.codeSize = words.size() * 4;
  mci.pCode = words.data();
  VkShaderModule module = VK_NULL_HANDLE;
  const auto start = std::chrono::steady_clock::now();
  check(vkCreateShaderModule(d.device, &mci, nullptr, &module), "vkCreateShaderModule");
  VkComputePipelineCreateInfo pci{};
  pci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  pci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pci.stage.module = module;
  pci.stage.pName = "main";
  pci.layout = layout;
  pci.flags = flags;
  VkPipeline pipeline = VK_NULL_HANDLE;
  check(vkCreateComputePipelines(d.device, VK_NULL_HANDLE, 1, &pci, nullptr, &pipeline),
        "vkCreateComputePipelines");
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  vkDestroyPipeline(d.device, pipeline, nullptr);
  vkDestroyShaderModule(d.device, module, nullptr);
  return us;
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 0;
  VkPipelineCreateFlags flags = 0;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeats" && i + 1 < argc) {
      repeats = std::atoi(argv[++i]);
    } else if (a == "--disable-optimization") {
      flags = VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT;
    } else if (a == "-h" || a == "--help") {
      std::printf("usage: vkt-pipeline-time [--repeats N] [--disable-optimization] FILE.spv...\n");
      return 0;
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) {
    std::fprintf(stderr,
                 "usage: vkt-pipeline-time [--repeats N] [--disable-optimization] FILE.spv...\n");
    return 2;
  }
  Device d;
  std::vector<VkDescriptorSetLayoutBinding> bindings(16);
  for (std::uint32_t b = 0; b < bindings.size(); ++b) {
    bindings[b] = {b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  }
  VkDescriptorSetLayoutCreateInfo lci{};
  lci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  lci.bindingCount = static_cast<std::uint32_t>(bindings.size());
  lci.pBindings = bindings.data();
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  check(vkCreateDescriptorSetLayout(d.device, &lci, nullptr, &set_layout), "set layout");
  const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, 128};
  VkPipelineLayoutCreateInfo plci{};
  plci.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &set_layout;
  plci.pushConstantRangeCount = 1;
  plci.pPushConstantRanges = &push;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  check(vkCreatePipelineLayout(d.device, &plci, nullptr, &layout), "pipeline layout");
  std::printf("# device %s\nfile,spirv_bytes,create_us,repeat_us\n", d.name.c_str());
  for (const std::string& f : files) {
    const std::vector<std::uint32_t> words = read_spirv(f);
    std::printf("%s,%zu,%.0f,", f.c_str(), words.size() * 4,
                create_once_us(d, words, layout, flags));
    for (int r = 0; r < repeats; ++r) {
      std::printf("%s%.0f", r ? " " : "", create_once_us(d, words, layout, flags));
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  vkDestroyPipelineLayout(d.device, layout, nullptr);
  vkDestroyDescriptorSetLayout(d.device, set_layout, nullptr);
  return 0;
}
