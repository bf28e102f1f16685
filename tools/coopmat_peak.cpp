// vkt-coopmat-peak: the rate of the device's tensor cores through VK_NV_cooperative_matrix,
// apart from vktensor, and the limits a cooperative-matrix GEMM is built within. A
// developer's probe for issue 9's f16 matmul: it tells whether the dot kernel or the API is
// what stands between linalg_dot_coopmat.comp and the hardware.
// Prints the device's shared-memory limit and cooperative-matrix extensions, then one CSV
// line per SPIR-V file (coopmat_peak.comp built with one accumulator type) and MODE (0:
// registers only; 1: fragments from uvec4 shared memory each step; 2: from float16_t).
// --api khr runs each file rewritten to KHR matrices first (the library's rewrite,
// src/vulkan/spirv/coopmat_khr_spirv.h, which dot's f16 and bf16 take); khr-bf16 with bf16
// operands (the f32-accumulator file only: the device has no bf16 x bf16 + f16 shape).
// With --gemm N, where the device has VK_NV_cooperative_matrix2, it then times an N x N x N
// f16 GEMM with workgroup-scope matrices (workgroup_gemm.h) for each block size that the
// device's flexible dimensions allow, with strided or tensor loads, loading each step's
// blocks or prefetching the next step's, and the multiply alone (peak: one step's blocks
// multiplied K / BK times), or copying the blocks through shared memory itself (staged), and
// checks C against the host; A, B and C in device-only memory (--memory mapped: memory the
// host maps, as the probe's earlier GEMMs had them).
// With --ladder N and the file gemm_ladder.spv, it times the dot's default f16 schedule at
// N x N x N with its parts switched on one at a time (gemm_ladder.comp says which).
// Time is the device's (timestamps), the median of the repeats after half a second of them.
//   vkt-coopmat-peak [--groups N] [--threads T] [--steps S] [--repeats R] [--gemm N
//                    [--only VARIANT,...] [--invocations N] [--memory device|mapped]]
//                    [--api nv|khr|khr-bf16] [--ladder N gemm_ladder.spv] FILE.spv...
// GEMM variants: strided, tensor, strided-prefetch, tensor-prefetch, strided-peak, staged
// (the default set), and by name only: strided-u4, strided-u8, tensor-u8 (steps unrolled),
// strided-bt, strided-bt-u4, strided-bt-u8, strided-bt-peak (B held transposed),
// staged-packed (shared stages without padding).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "probe_device.h"
#include "vulkan/runtime/coopmat.h"
#include "vulkan/spirv/coopmat_khr_spirv.h"
#include "workgroup_gemm.h"

namespace {

using probe::check;

// VK_NV_cooperative_matrix2 postdates Debian 12's Vulkan headers (1.3.239): its structures
// as the Vulkan registry defines them (the KHR matrix and bf16 features: vulkan/runtime/coopmat.h).
constexpr auto kNv2FeaturesType = static_cast<VkStructureType>(1000593000);
constexpr auto kFlexiblePropertiesType = static_cast<VkStructureType>(1000593001);
constexpr auto kNv2PropertiesType = static_cast<VkStructureType>(1000593002);
struct Nv2Features {
  VkStructureType sType;
  void* pNext;
  VkBool32 workgroupScope, flexibleDimensions, reductions, conversions, perElementOperations,
      tensorAddressing, blockLoads;
};
struct Nv2Properties {
  VkStructureType sType;
  void* pNext;
  std::uint32_t workgroupScopeMaxWorkgroupSize, flexibleDimensionsMaxDimension,
      workgroupScopeReservedSharedMemory;
};
struct FlexibleProperties {
  VkStructureType sType;
  void* pNext;
  std::uint32_t m_granularity, n_granularity, k_granularity, a, b, c, result;
  VkBool32 saturating;
  std::uint32_t scope, workgroup_invocations;
};
using FlexibleQuery = VkResult(VKAPI_PTR*)(VkPhysicalDevice, std::uint32_t*, FlexibleProperties*);
constexpr std::uint32_t kF16 = 0, kF32 = 1, kScopeWorkgroup = 2;

struct Options {
  std::uint32_t groups = 4096, threads = 128, steps = 2048, repeats = 5, gemm = 0, ladder = 0;
  std::vector<std::string> only;  // --only: GEMM variants by name (comma-separated)
  std::uint32_t invocations = 0;  // --invocations: only workgroups of this size
  std::string api = "nv";         // --api: nv, khr or khr-bf16 (the peak kernels' matrices)
  std::string memory = "device";  // --memory: where --gemm's operands and C live
  std::vector<std::string> files;
};

// Where a probe buffer lives: mapped (device-local memory the host maps, where the device has
// it, as the probe's earlier GEMMs read) or device-only, the placement of the library's tensors
// (--memory; the ladder runs both).
enum class Place { mapped, device };

std::uint32_t find_memory(const probe::Device& d, std::uint32_t type_bits, Place place) {
  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(d.physical, &mp);
  const VkMemoryPropertyFlags local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                              visible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
                              mapped = visible | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (std::uint32_t i = 0; i < mp.memoryTypeCount && place == Place::device; ++i) {
    const VkMemoryPropertyFlags f = mp.memoryTypes[i].propertyFlags;
    if ((type_bits & (1u << i)) && (f & local) && !(f & visible)) return i;
  }
  // Device-local where the device maps it, else any mapped memory.
  for (VkMemoryPropertyFlags want : {mapped | local, mapped}) {
    for (std::uint32_t i = 0; i < mp.memoryTypeCount; ++i) {
      if ((type_bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want) return i;
    }
  }
  probe::fail("no host-visible memory", VK_ERROR_OUT_OF_DEVICE_MEMORY);
}

// A storage buffer (also a copy's source or destination), mapped where placed so.
struct Buffer {
  const probe::Device& d;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;
  VkDeviceSize bytes;
  Buffer(const probe::Device& dev, VkDeviceSize size, Place place = Place::mapped)
      : d(dev), bytes(size) {
    VkBufferCreateInfo bci{};
    bci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bci.size = bytes;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    check(vkCreateBuffer(d.device, &bci, nullptr, &buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(d.device, buffer, &req);
    VkMemoryAllocateInfo mai{};
    mai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = find_memory(d, req.memoryTypeBits, place);
    check(vkAllocateMemory(d.device, &mai, nullptr, &memory), "vkAllocateMemory");
    check(vkBindBufferMemory(d.device, buffer, memory, 0), "vkBindBufferMemory");
    if (place == Place::mapped) {
      check(vkMapMemory(d.device, memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
    }
  }
  ~Buffer() {
    vkDestroyBuffer(d.device, buffer, nullptr);
    vkFreeMemory(d.device, memory, nullptr);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

// Three storage buffers and 16 bytes of push constants; times one dispatch by timestamps.
class Runner {
 public:
  explicit Runner(const probe::Device& d) : d_(d), storage_(d, 3, 16) {
    const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3};
    VkDescriptorPoolCreateInfo dpci{};
    dpci.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    dpci.maxSets = 1;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &pool_size;
    check(vkCreateDescriptorPool(d.device, &dpci, nullptr, &pool_), "descriptor pool");
    VkDescriptorSetAllocateInfo dsai{};
    dsai.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    dsai.descriptorPool = pool_;
    dsai.descriptorSetCount = 1;
    dsai.pSetLayouts = &storage_.set;
    check(vkAllocateDescriptorSets(d.device, &dsai, &set_), "descriptor set");
    VkQueryPoolCreateInfo qpci{};
    qpci.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpci.queryCount = 2;
    check(vkCreateQueryPool(d.device, &qpci, nullptr, &queries_), "query pool");
    VkCommandPoolCreateInfo cpci{};
    cpci.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    cpci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    check(vkCreateCommandPool(d.device, &cpci, nullptr, &cmd_pool_), "command pool");
    VkCommandBufferAllocateInfo cbai{};
    cbai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    cbai.commandPool = cmd_pool_;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(d.device, &cbai, &cmd_), "command buffer");
  }
  ~Runner() {
    vkDestroyCommandPool(d_.device, cmd_pool_, nullptr);
    vkDestroyQueryPool(d_.device, queries_, nullptr);
    vkDestroyDescriptorPool(d_.device, pool_, nullptr);
  }
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  void bind(const std::vector<const Buffer*>& buffers) {
    std::vector<VkDescriptorBufferInfo> infos;
    for (const Buffer* b : buffers) infos.push_back({b->buffer, 0, VK_WHOLE_SIZE});
    std::vector<VkWriteDescriptorSet> writes(buffers.size());
    for (std::size_t b = 0; b < buffers.size(); ++b) {
      writes[b] = {};
      writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      writes[b].dstSet = set_;
      writes[b].dstBinding = static_cast<std::uint32_t>(b);
      writes[b].descriptorCount = 1;
      writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[b].pBufferInfo = &infos[b];
    }
    vkUpdateDescriptorSets(d_.device, static_cast<std::uint32_t>(writes.size()), writes.data(), 0,
                           nullptr);
  }

  // The pipeline of `words` with specialization constants 0.. set to `spec`; null where the
  // driver refuses it.
  probe::Pipeline pipeline(const std::vector<std::uint32_t>& words,
                           const std::vector<std::uint32_t>& spec) const {
    probe::Pipeline p;
    const VkResult r = probe::create_compute_pipeline(d_, words, storage_.pipeline, 0, spec, &p);
    if (r != VK_SUCCESS) {
      std::printf("# pipeline creation failed (VkResult %d)\n", static_cast<int>(r));
    }
    return p;
  }

  // Copies all of `from` into `to` (the same size) and waits.
  void copy(const Buffer& from, const Buffer& to) {
    begin();
    const VkBufferCopy region{0, 0, from.bytes};
    vkCmdCopyBuffer(cmd_, from.buffer, to.buffer, 1, &region);
    submit_and_wait();
  }

  // Median device time of `repeats` dispatches, in microseconds, after half a second of
  // them: the SM clock drops while a pipeline is created and takes that long to come back
  // (rungs timed right after their pipeline's creation ran far below their rate on the H200).
  double time(VkPipeline p, const std::vector<std::uint32_t>& push, std::uint32_t gx,
              std::uint32_t gy, std::uint32_t repeats) {
    const auto began = std::chrono::steady_clock::now();
    do {
      (void)run_once(p, push, gx, gy);
    } while (std::chrono::steady_clock::now() - began < std::chrono::milliseconds(500));
    std::vector<double> us;
    for (std::uint32_t r = 0; r < repeats; ++r) us.push_back(run_once(p, push, gx, gy));
    std::sort(us.begin(), us.end());
    return us[us.size() / 2];
  }

 private:
  // Starts recording cmd_ afresh (the pool lets each begin reset it).
  void begin() {
    VkCommandBufferBeginInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    check(vkBeginCommandBuffer(cmd_, &info), "begin");
  }

  // Ends cmd_, submits it and waits for the queue to drain.
  void submit_and_wait() {
    check(vkEndCommandBuffer(cmd_), "end");
    VkSubmitInfo si{};
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd_;
    check(vkQueueSubmit(d_.queue, 1, &si, VK_NULL_HANDLE), "submit");
    check(vkQueueWaitIdle(d_.queue), "wait");
  }

  // One dispatch, submitted and waited for; its device time in microseconds.
  double run_once(VkPipeline p, const std::vector<std::uint32_t>& push, std::uint32_t gx,
                  std::uint32_t gy) {
    begin();
    vkCmdResetQueryPool(cmd_, queries_, 0, 2);
    vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, p);
    vkCmdBindDescriptorSets(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, storage_.pipeline, 0, 1, &set_, 0,
                            nullptr);
    vkCmdPushConstants(cmd_, storage_.pipeline, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       static_cast<std::uint32_t>(push.size() * 4), push.data());
    vkCmdWriteTimestamp(cmd_, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries_, 0);
    vkCmdDispatch(cmd_, gx, gy, 1);
    vkCmdWriteTimestamp(cmd_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries_, 1);
    submit_and_wait();
    std::uint64_t stamps[2];
    check(vkGetQueryPoolResults(d_.device, queries_, 0, 2, sizeof stamps, stamps, 8,
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
          "timestamps");
    return static_cast<double>(stamps[1] - stamps[0]) * d_.props.limits.timestampPeriod / 1000.0;
  }

  const probe::Device& d_;
  probe::StorageLayout storage_;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  VkQueryPool queries_ = VK_NULL_HANDLE;
  VkCommandPool cmd_pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
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

// The register-only and shared-memory rates of coopmat_peak.comp's builds.
void run_peaks(const probe::Device& d, Runner& runner, const Options& o) {
  Buffer in(d, 4096 * 2);
  const std::uint64_t subgroups = std::uint64_t{o.groups} * (o.threads / 32);
  Buffer out(d, subgroups * 256 * 4);
  auto* halves = static_cast<std::uint16_t*>(in.mapped);
  // 2^-6 (the sums stay exact in f16), in bf16 where the operands are bf16.
  const bool bf16 = o.api == "khr-bf16";
  for (int i = 0; i < 4096; ++i) halves[i] = bf16 ? 0x3c80 : 0x2400;
  runner.bind({&in, &out, &out});
  std::printf("file,api,mode,threads,groups,steps,device_us,TFLOPs,check\n");
  for (const std::string& file : o.files) {
    std::vector<std::uint32_t> words = probe::read_spirv(file);
    if (o.api != "nv") words = vkt::vk::coopmat_nv_to_khr(words, bf16);
    for (std::uint32_t mode = 0; mode < 3; ++mode) {
      const probe::Pipeline p = runner.pipeline(words, {o.threads, mode});
      if (!p) continue;
      const double median = runner.time(p.get(), {o.steps}, o.groups, 1, o.repeats);
      const double flops = static_cast<double>(subgroups) * o.steps * 16 * 2.0 * 16 * 16 * 16;
      // acc[0]'s every element: steps products of rows of 16 values 2^-6 by columns of them.
      const float first = static_cast<const float*>(out.mapped)[0];
      const double want = static_cast<double>(o.steps) * 16 / 4096.0;
      std::printf("%s,%s,%u,%u,%u,%u,%.1f,%.1f,%s\n", file.c_str(), o.api.c_str(), mode, o.threads,
                  o.groups, o.steps, median, flops / median / 1e6,
                  std::fabs(first - want) <= want * 1e-3 ? "ok" : "WRONG");
      std::fflush(stdout);
    }
  }
}

// A buffer of `bytes` placed as asked, holding what `fill` writes into a mapped copy.
std::unique_ptr<Buffer> filled_buffer(const probe::Device& d, Runner& runner, VkDeviceSize bytes,
                                      Place place, const std::function<void(void*)>& fill) {
  auto buffer = std::make_unique<Buffer>(d, bytes, place);
  if (place == Place::mapped) {
    fill(buffer->mapped);
  } else {
    const Buffer staging(d, bytes);
    fill(staging.mapped);
    runner.copy(staging, *buffer);
  }
  return buffer;
}

// gemm_ladder.comp's rungs at N x N x N, with A and B in mapped memory and in device-only
// memory: SYNC 0, 1, 2 without global reads, then 1 and 2 with them; every element of A and B
// 2^-6, so every element of C is N / 4096.
void run_ladder(const probe::Device& d, Runner& runner, const Options& o) {
  const std::uint64_t n = o.ladder, tiles = (n / 128) * (n / 128);
  Buffer out(d, tiles * 4 * 256 * 4);
  std::vector<std::uint32_t> words = probe::read_spirv(o.files[0]);
  if (o.api != "nv") words = vkt::vk::coopmat_nv_to_khr(words, false);
  std::printf("ladder,api,memory,n,sync,fetch,device_us,TFLOPs,check\n");
  const std::uint32_t rungs[5][2] = {{0, 0}, {1, 0}, {2, 0}, {1, 1}, {2, 1}};
  for (const Place place : {Place::mapped, Place::device}) {
    auto halves = [&](void* to) {
      std::fill_n(static_cast<std::uint16_t*>(to), n * n, std::uint16_t{0x2400});
    };
    const auto a = filled_buffer(d, runner, n * n * 2, place, halves);
    const auto b = filled_buffer(d, runner, n * n * 2, place, halves);
    runner.bind({a.get(), b.get(), &out});
    for (const auto& rung : rungs) {
      const probe::Pipeline p = runner.pipeline(words, {rung[0], rung[1]});
      if (!p) continue;
      const auto groups = static_cast<std::uint32_t>(tiles);
      std::fill_n(static_cast<float*>(out.mapped), 256, 0.0f);
      const double median = runner.time(p.get(), {o.ladder}, groups, 1, o.repeats);
      const double flops = 2.0 * static_cast<double>(n * n * n);
      const float first = static_cast<const float*>(out.mapped)[0];
      const double want = static_cast<double>(n) / 4096.0;
      std::printf("ladder,%s,%s,%u,%u,%u,%.1f,%.1f,%s\n", o.api.c_str(),
                  place == Place::mapped ? "mapped" : "device", o.ladder, rung[0], rung[1], median,
                  flops / median / 1e6, first == want ? "ok" : "WRONG");
      std::fflush(stdout);
    }
  }
}

// f16 bits of the small values the GEMM multiplies: (i % 5 - 2) / 4, exact in f16, so
// every sum of products is exact in f32 for K up to 2^14.
std::uint16_t gemm_value_bits(std::uint64_t i) {
  static const std::uint16_t bits[5] = {0xb800, 0xb400, 0x0000, 0x3400, 0x3800};
  return bits[(i * 7 + i / 3) % 5];
}
double gemm_value(std::uint64_t i) {
  return (static_cast<double>((i * 7 + i / 3) % 5) - 2) / 4;
}

// reserved_shared: the bytes the driver keeps for workgroup-scope matrices.
void run_workgroup_gemm(const probe::Device& d, Runner& runner, const Options& o,
                        std::uint32_t reserved_shared) {
  auto props_query = reinterpret_cast<FlexibleQuery>(vkGetInstanceProcAddr(
      d.instance, "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV"));
  if (props_query == nullptr) {
    std::printf("# no flexible-dimensions query\n");
    return;
  }
  std::uint32_t count = 0;
  check(props_query(d.physical, &count, nullptr), "flexible dimensions");
  FlexibleProperties blank{};
  blank.sType = kFlexiblePropertiesType;
  std::vector<FlexibleProperties> flex(count, blank);
  check(props_query(d.physical, &count, flex.data()), "flexible dimensions");
  std::vector<FlexibleProperties> usable;
  for (const FlexibleProperties& f : flex) {
    std::printf("# flexible %ux%ux%u types %u*%u+%u->%u scope %u invocations %u\n", f.m_granularity,
                f.n_granularity, f.k_granularity, f.a, f.b, f.c, f.result, f.scope,
                f.workgroup_invocations);
    // A workgroup of one or two subgroups holds a whole block in too few registers.
    if (f.a == kF16 && f.b == kF16 && f.c == kF32 && f.result == kF32 &&
        f.scope == kScopeWorkgroup && f.workgroup_invocations >= 128) {
      usable.push_back(f);
    }
  }
  const std::uint32_t n = o.gemm;
  const std::uint64_t elements = std::uint64_t{n} * n;
  const Place place = o.memory == "mapped" ? Place::mapped : Place::device;
  const auto a = filled_buffer(d, runner, elements * 2, place, [&](void* to) {
    auto* h = static_cast<std::uint16_t*>(to);
    for (std::uint64_t i = 0; i < elements; ++i) h[i] = gemm_value_bits(i);
  });
  const auto b = filled_buffer(d, runner, elements * 2, place, [&](void* to) {
    auto* h = static_cast<std::uint16_t*>(to);
    for (std::uint64_t i = 0; i < elements; ++i) h[i] = gemm_value_bits(i + 1);
  });
  const auto bt = filled_buffer(d, runner, elements * 2, place, [&](void* to) {
    auto* h = static_cast<std::uint16_t*>(to);  // B^T: B's element (k, col) at col * K + k
    for (std::uint64_t i = 0; i < elements; ++i) h[(i % n) * n + i / n] = gemm_value_bits(i + 1);
  });
  // C where the operands are; read back through `c_read` where that is the device.
  Buffer c(d, elements * 4, place);
  std::unique_ptr<Buffer> c_read;
  if (place == Place::device) c_read = std::make_unique<Buffer>(d, elements * 4);
  const Buffer& c_host = c_read ? *c_read : c;
  std::printf("# operands and C in %s memory\n", place == Place::mapped ? "mapped" : "device-only");
  std::printf("gemm,loads,bm,bn,bk,invocations,create_ms,device_us,TFLOPs,check\n");
  const std::uint32_t blocks[][3] = {{128, 128, 32}, {128, 128, 64}, {128, 256, 32}, {128, 256, 64},
                                     {64, 128, 32},  {128, 64, 32},  {64, 64, 64}};
  using Loop = probe::WorkgroupGemm::Loop;
  struct Variant {
    bool tensor_loads;
    Loop loop;
    const char* name;
    std::uint32_t unroll = 1;
    bool b_transposed = false;
    bool padded = true;
  };
  const Variant variants[] = {{false, Loop::plain, "strided"},
                              {true, Loop::plain, "tensor"},
                              {false, Loop::prefetch, "strided-prefetch"},
                              {true, Loop::prefetch, "tensor-prefetch"},
                              {false, Loop::peak, "strided-peak"},
                              {false, Loop::staged, "staged"},
                              {false, Loop::plain, "strided-u4", 4},
                              {false, Loop::plain, "strided-u8", 8},
                              {true, Loop::plain, "tensor-u8", 8},
                              {false, Loop::plain, "strided-bt", 1, true},
                              {false, Loop::plain, "strided-bt-u4", 4, true},
                              {false, Loop::plain, "strided-bt-u8", 8, true},
                              {false, Loop::peak, "strided-bt-peak", 1, true},
                              {false, Loop::staged, "staged-packed", 1, false, false}};
  // The extra variants (unrolled, B transposed) run only when named.
  const std::size_t default_variants = 6;
  for (std::size_t vi = 0; vi < std::size(variants); ++vi) {
    const Variant& v = variants[vi];
    if (o.only.empty() ? vi >= default_variants
                       : std::find(o.only.begin(), o.only.end(), v.name) == o.only.end()) {
      continue;
    }
    runner.bind({a.get(), v.b_transposed ? bt.get() : b.get(), &c});
    for (const FlexibleProperties& f : usable) {
      if (o.invocations != 0 && f.workgroup_invocations != o.invocations) continue;
      for (const auto& blk : blocks) {
        if (blk[0] % f.m_granularity || blk[1] % f.n_granularity || blk[2] % f.k_granularity ||
            n % blk[0] || n % blk[1] || n % (blk[2] * v.unroll)) {
          continue;
        }
        probe::WorkgroupGemm g{blk[0],         blk[1], blk[2], f.workgroup_invocations,
                               v.tensor_loads, v.loop};
        g.unroll = v.unroll;
        g.b_transposed = v.b_transposed;
        g.padded = v.padded;
        if (v.loop == Loop::staged &&
            (probe::workgroup_gemm_shared_bytes(g) + reserved_shared >
                 d.props.limits.maxComputeSharedMemorySize ||
             (g.bm * g.bk / 8) % g.invocations || (g.bk * g.bn / 8) % g.invocations)) {
          continue;
        }
        const auto created = std::chrono::steady_clock::now();
        const probe::Pipeline p = runner.pipeline(probe::workgroup_gemm_spirv(g), {});
        if (!p) continue;
        const double create_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - created)
                .count();
        std::memset(c_host.mapped, 0xff, elements * 4);  // NaN: unwritten C shows
        if (c_read) runner.copy(c_host, c);
        const double median = runner.time(p.get(), {n, n, n}, n / g.bn, n / g.bm, o.repeats);
        if (c_read) runner.copy(c, c_host);
        // Sampled entries of C against the host's exact sums (peak: K / BK times the first
        // step's product).
        const auto* cf = static_cast<const float*>(c_host.mapped);
        const bool peak = v.loop == Loop::peak;
        bool ok = true;
        for (std::uint64_t s = 0; s < 64 && ok; ++s) {
          const std::uint64_t row = (s * 2654435761u) % n, col = (s * 40503u + 17) % n;
          double want = 0;
          for (std::uint64_t kk = 0; kk < (peak ? g.bk : n); ++kk) {
            want += gemm_value(row * n + kk) * gemm_value(kk * n + col + 1);
          }
          if (peak) want *= static_cast<double>(n / g.bk);
          ok = cf[row * n + col] == static_cast<float>(want);
        }
        std::printf("%u,%s,%u,%u,%u,%u,%.0f,%.1f,%.1f,%s\n", n, v.name, g.bm, g.bn, g.bk,
                    g.invocations, create_ms, median, 2.0 * n * n * n / median / 1e6,
                    ok ? "ok" : "WRONG");
        std::fflush(stdout);
      }
    }
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
      if (v <= 0 || v > (1l << 30)) {
        std::fprintf(stderr, "vkt-coopmat-peak: %s %s is not a count in 1..2^30\n", a.c_str(),
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
    else if (a == "--gemm")
      count(o.gemm);
    else if (a == "--invocations")
      count(o.invocations);
    else if (a == "--ladder")
      count(o.ladder);
    else if (a == "--api" && i + 1 < argc)
      o.api = argv[++i];
    else if (a == "--memory" && i + 1 < argc)
      o.memory = argv[++i];
    else if (a == "--only" && i + 1 < argc) {
      const std::string list = argv[++i];
      for (std::size_t at = 0; at <= list.size();) {
        const std::size_t comma = std::min(list.find(',', at), list.size());
        o.only.push_back(list.substr(at, comma - at));
        at = comma + 1;
      }
    } else
      o.files.push_back(a);
  }
  if ((o.files.empty() && o.gemm == 0) || o.threads % 64 != 0 || o.gemm % 256 != 0 ||
      o.ladder % 1024 != 0 || (o.ladder != 0 && o.files.size() != 1) ||
      (o.api != "nv" && o.api != "khr" && o.api != "khr-bf16") ||
      (o.memory != "device" && o.memory != "mapped")) {
    std::fprintf(stderr,
                 "usage: vkt-coopmat-peak [--groups N] [--threads T (a multiple of 64)] "
                 "[--steps S] [--repeats R] [--gemm N (a multiple of 256)] [--only VARIANT,...] "
                 "[--invocations N] [--api nv|khr|khr-bf16] [--memory device|mapped] "
                 "[--ladder N (a multiple of 1024) gemm_ladder.spv] FILE.spv...\n");
    std::exit(2);
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  // Which extensions the device has, asked of a plain device first: their feature
  // structures go into the chain only where the extensions exist.
  bool has_nv = false, has_khr = false, has_nv2 = false, has_bf16 = false;
  {
    probe::Device plain;
    print_limits(plain);
    has_nv = probe::has_extension(plain.physical, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
    has_khr = probe::has_extension(plain.physical, "VK_KHR_cooperative_matrix");
    has_nv2 = has_khr && probe::has_extension(plain.physical, "VK_NV_cooperative_matrix2");
    has_bf16 = has_khr && probe::has_extension(plain.physical, "VK_KHR_shader_bfloat16");
  }
  // The peak kernels are NV modules, run as built or rewritten to KHR matrices.
  if (!has_nv || (o.api != "nv" && !has_khr) || (o.api == "khr-bf16" && !has_bf16)) {
    std::printf("# no VK_NV_cooperative_matrix, or not the --api asked for: nothing to measure\n");
    return 0;
  }
  // The feature chain: NV matrices, then KHR ones, NV2 and bf16 where the device has them
  // (every feature a structure reports is enabled).
  vkt::vk::Bfloat16Features bf16;
  Nv2Features nv2{};
  nv2.sType = kNv2FeaturesType;
  nv2.pNext = has_bf16 ? &bf16 : nullptr;
  vkt::vk::KhrCoopmatFeatures khr;
  khr.pNext = has_nv2 ? static_cast<void*>(&nv2) : has_bf16 ? static_cast<void*>(&bf16) : nullptr;
  VkPhysicalDeviceCooperativeMatrixFeaturesNV coop{};
  coop.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV;
  coop.pNext = has_khr ? &khr : nullptr;
  std::vector<const char*> extensions{VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME};
  if (has_khr) extensions.push_back("VK_KHR_cooperative_matrix");
  if (has_nv2) extensions.push_back("VK_NV_cooperative_matrix2");
  if (has_bf16) extensions.push_back("VK_KHR_shader_bfloat16");
  probe::Device d(extensions, &coop);
  Runner runner(d);
  if (o.ladder != 0) {
    run_ladder(d, runner, o);
    return 0;
  }
  if (!o.files.empty()) run_peaks(d, runner, o);
  if (o.gemm == 0) return 0;
  if (!has_nv2 || nv2.workgroupScope != VK_TRUE || nv2.flexibleDimensions != VK_TRUE) {
    std::printf("# no workgroup-scope flexible cooperative matrices (VK_NV_cooperative_matrix2)\n");
    return 0;
  }
  Nv2Properties props{};
  props.sType = kNv2PropertiesType;
  VkPhysicalDeviceProperties2 p2{};
  p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  p2.pNext = &props;
  vkGetPhysicalDeviceProperties2(d.physical, &p2);
  std::printf(
      "# cooperative_matrix2: workgroup scope max size %u, flexible max dimension %u, "
      "reserved shared memory %u; features reductions %u conversions %u per-element %u "
      "tensor addressing %u block loads %u\n",
      props.workgroupScopeMaxWorkgroupSize, props.flexibleDimensionsMaxDimension,
      props.workgroupScopeReservedSharedMemory, nv2.reductions, nv2.conversions,
      nv2.perElementOperations, nv2.tensorAddressing, nv2.blockLoads);
  run_workgroup_gemm(d, runner, o, props.workgroupScopeReservedSharedMemory);
  return 0;
}
