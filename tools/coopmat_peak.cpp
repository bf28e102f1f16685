// vkt-coopmat-peak: the rate of the device's tensor cores through VK_NV_cooperative_matrix,
// apart from vktensor, and the limits a cooperative-matrix GEMM is built within. A
// developer's probe for issue 9's f16 matmul: it tells whether the dot kernel or the API is
// what stands between linalg_dot_coopmat.comp and the hardware.
// Prints the device's shared-memory limit and cooperative-matrix extensions, then one CSV
// line per SPIR-V file (coopmat_peak.comp built with one accumulator type) and MODE (0:
// registers only; 1: fragments from uvec4 shared memory each step; 2: from float16_t).
// Time is the device's (timestamps), the median of the repeats after one warm-up.
//   vkt-coopmat-peak [--groups N] [--threads T] [--steps S] [--repeats R] FILE.spv...
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "probe_device.h"

namespace {

using probe::check;

struct Options {
  std::uint32_t groups = 4096, threads = 128, steps = 2048, repeats = 5;
  std::vector<std::string> files;
};

std::uint32_t find_memory(const probe::Device& d, std::uint32_t type_bits) {
  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(d.physical, &mp);
  const VkMemoryPropertyFlags want =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (std::uint32_t i = 0; i < mp.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want) return i;
  }
  probe::fail("no host-visible memory", VK_ERROR_OUT_OF_DEVICE_MEMORY);
}

// A host-visible storage buffer, mapped.
struct Buffer {
  const probe::Device& d;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;
  Buffer(const probe::Device& dev, VkDeviceSize bytes) : d(dev) {
    VkBufferCreateInfo bci{};
    bci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bci.size = bytes;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    check(vkCreateBuffer(d.device, &bci, nullptr, &buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(d.device, buffer, &req);
    VkMemoryAllocateInfo mai{};
    mai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = find_memory(d, req.memoryTypeBits);
    check(vkAllocateMemory(d.device, &mai, nullptr, &memory), "vkAllocateMemory");
    check(vkBindBufferMemory(d.device, buffer, memory, 0), "vkBindBufferMemory");
    check(vkMapMemory(d.device, memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
  }
  ~Buffer() {
    vkDestroyBuffer(d.device, buffer, nullptr);
    vkFreeMemory(d.device, memory, nullptr);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

void print_limits(const probe::Device& d) {
  std::printf("# device %s, driver %u, api %u.%u.%u\n", d.props.deviceName, d.props.driverVersion,
              VK_API_VERSION_MAJOR(d.props.apiVersion), VK_API_VERSION_MINOR(d.props.apiVersion),
              VK_API_VERSION_PATCH(d.props.apiVersion));
  std::printf("# maxComputeSharedMemorySize %u, maxComputeWorkGroupInvocations %u\n",
              d.props.limits.maxComputeSharedMemorySize,
              d.props.limits.maxComputeWorkGroupInvocations);
  std::uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(d.physical, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> exts(n);
  vkEnumerateDeviceExtensionProperties(d.physical, nullptr, &n, exts.data());
  for (const auto& e : exts) {
    const std::string name = e.extensionName;
    if (name.find("cooperative") != std::string::npos ||
        name.find("shader_sm") != std::string::npos)
      std::printf("# extension %s spec %u\n", e.extensionName, e.specVersion);
  }
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto count = [&](std::uint32_t& to) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "vkt-coopmat-peak: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      const long v = std::strtol(argv[++i], nullptr, 10);
      if (v <= 0) {
        std::fprintf(stderr, "vkt-coopmat-peak: %s %s is not a positive count\n", a.c_str(),
                     argv[i]);
        std::exit(2);
      }
      to = static_cast<std::uint32_t>(v);
    };
    if (a == "--groups")
      count(o.groups);
    else if (a == "--threads")
      count(o.threads);
    else if (a == "--steps")
      count(o.steps);
    else if (a == "--repeats")
      count(o.repeats);
    else
      o.files.push_back(a);
  }
  if (o.files.empty() || o.threads % 64 != 0) {
    std::fprintf(stderr,
                 "usage: vkt-coopmat-peak [--groups N] [--threads T (a multiple of 64)] "
                 "[--steps S] [--repeats R] FILE.spv...\n");
    std::exit(2);
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  VkPhysicalDeviceCooperativeMatrixFeaturesNV coop{};
  coop.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV;
  probe::Device d({VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME}, &coop);
  print_limits(d);
  if (d.enabled.empty() || coop.cooperativeMatrix != VK_TRUE) {
    std::printf("# no VK_NV_cooperative_matrix: nothing to measure\n");
    return 0;
  }
  Buffer in(d, 4096 * 2);
  const std::uint64_t subgroups = std::uint64_t{o.groups} * (o.threads / 32);
  if (o.steps > (1u << 30)) {
    std::fprintf(stderr, "vkt-coopmat-peak: --steps above 2^30\n");
    return 2;
  }
  Buffer out(d, subgroups * 256 * 4);
  auto* halves = static_cast<std::uint16_t*>(in.mapped);
  for (int i = 0; i < 4096; ++i) halves[i] = 0x2400;  // 2^-6: the sums stay exact in f16

  VkDescriptorSetLayoutBinding bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo lci{};
  lci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  lci.bindingCount = 2;
  lci.pBindings = bindings;
  VkDescriptorSetLayout set_layout;
  check(vkCreateDescriptorSetLayout(d.device, &lci, nullptr, &set_layout), "set layout");
  const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
  VkPipelineLayoutCreateInfo plci{};
  plci.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &set_layout;
  plci.pushConstantRangeCount = 1;
  plci.pPushConstantRanges = &push;
  VkPipelineLayout layout;
  check(vkCreatePipelineLayout(d.device, &plci, nullptr, &layout), "pipeline layout");
  const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
  VkDescriptorPoolCreateInfo dpci{};
  dpci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  dpci.maxSets = 1;
  dpci.poolSizeCount = 1;
  dpci.pPoolSizes = &pool_size;
  VkDescriptorPool pool;
  check(vkCreateDescriptorPool(d.device, &dpci, nullptr, &pool), "descriptor pool");
  VkDescriptorSetAllocateInfo dsai{};
  dsai.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  dsai.descriptorPool = pool;
  dsai.descriptorSetCount = 1;
  dsai.pSetLayouts = &set_layout;
  VkDescriptorSet set;
  check(vkAllocateDescriptorSets(d.device, &dsai, &set), "descriptor set");
  VkDescriptorBufferInfo infos[2] = {{in.buffer, 0, VK_WHOLE_SIZE}, {out.buffer, 0, VK_WHOLE_SIZE}};
  VkWriteDescriptorSet writes[2]{};
  for (int b = 0; b < 2; ++b) {
    writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[b].dstSet = set;
    writes[b].dstBinding = static_cast<std::uint32_t>(b);
    writes[b].descriptorCount = 1;
    writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[b].pBufferInfo = &infos[b];
  }
  vkUpdateDescriptorSets(d.device, 2, writes, 0, nullptr);

  VkQueryPoolCreateInfo qpci{};
  qpci.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qpci.queryCount = 2;
  VkQueryPool queries;
  check(vkCreateQueryPool(d.device, &qpci, nullptr, &queries), "query pool");
  VkCommandPoolCreateInfo cpci{};
  cpci.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  cpci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  VkCommandPool cmd_pool;
  check(vkCreateCommandPool(d.device, &cpci, nullptr, &cmd_pool), "command pool");
  VkCommandBufferAllocateInfo cbai{};
  cbai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  cbai.commandPool = cmd_pool;
  cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cbai.commandBufferCount = 1;
  VkCommandBuffer cmd;
  check(vkAllocateCommandBuffers(d.device, &cbai, &cmd), "command buffer");

  std::printf("file,mode,threads,groups,steps,device_us,TFLOPs,check\n");
  for (const std::string& file : o.files) {
    const std::vector<std::uint32_t> words = probe::read_spirv(file);
    VkShaderModuleCreateInfo mci{};
    mci.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    mci.codeSize = words.size() * 4;
    mci.pCode = words.data();
    VkShaderModule module;
    check(vkCreateShaderModule(d.device, &mci, nullptr, &module), "shader module");
    for (std::uint32_t mode = 0; mode < 3; ++mode) {
      const std::uint32_t spec_values[2] = {o.threads, mode};
      const VkSpecializationMapEntry entries[2] = {{0, 0, 4}, {1, 4, 4}};
      VkSpecializationInfo spec{2, entries, sizeof spec_values, spec_values};
      VkComputePipelineCreateInfo pci{};
      pci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
      pci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
      pci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
      pci.stage.module = module;
      pci.stage.pName = "main";
      pci.stage.pSpecializationInfo = &spec;
      pci.layout = layout;
      VkPipeline pipeline;
      check(vkCreateComputePipelines(d.device, VK_NULL_HANDLE, 1, &pci, nullptr, &pipeline),
            "compute pipeline");
      std::vector<double> us;
      for (std::uint32_t r = 0; r <= o.repeats; ++r) {  // run 0 is the warm-up
        VkCommandBufferBeginInfo begin{};
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
        check(vkBeginCommandBuffer(cmd, &begin), "begin");
        vkCmdResetQueryPool(cmd, queries, 0, 2);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0,
                                nullptr);
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &o.steps);
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries, 0);
        vkCmdDispatch(cmd, o.groups, 1, 1);
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 1);
        check(vkEndCommandBuffer(cmd), "end");
        VkSubmitInfo si{};
        si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cmd;
        check(vkQueueSubmit(d.queue, 1, &si, VK_NULL_HANDLE), "submit");
        check(vkQueueWaitIdle(d.queue), "wait");
        std::uint64_t stamps[2];
        check(vkGetQueryPoolResults(d.device, queries, 0, 2, sizeof stamps, stamps, 8,
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
              "timestamps");
        if (r > 0) {
          us.push_back(static_cast<double>(stamps[1] - stamps[0]) * d.props.limits.timestampPeriod /
                       1000.0);
        }
      }
      std::sort(us.begin(), us.end());
      const double median = us[us.size() / 2];
      const double flops = static_cast<double>(subgroups) * o.steps * 16 * 2.0 * 16 * 16 * 16;
      // acc[0]'s every element: steps products of rows of 16 values 2^-6 by columns of them.
      const float first = static_cast<const float*>(out.mapped)[0];
      const double want = static_cast<double>(o.steps) * 16 / 4096.0;
      std::printf("%s,%u,%u,%u,%u,%.1f,%.1f,%s\n", file.c_str(), mode, o.threads, o.groups, o.steps,
                  median, flops / median / 1e6,
                  std::fabs(first - want) <= want * 1e-3 ? "ok" : "WRONG");
      std::fflush(stdout);
      vkDestroyPipeline(d.device, pipeline, nullptr);
    }
    vkDestroyShaderModule(d.device, module, nullptr);
  }
  vkDestroyCommandPool(d.device, cmd_pool, nullptr);
  vkDestroyQueryPool(d.device, queries, nullptr);
  vkDestroyDescriptorPool(d.device, pool, nullptr);
  vkDestroyPipelineLayout(d.device, layout, nullptr);
  vkDestroyDescriptorSetLayout(d.device, set_layout, nullptr);
  return 0;
}
