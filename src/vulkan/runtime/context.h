// The Vulkan instance, the chosen physical device, its logical device and compute queue,
// and what the device can do (features enabled, limits kept).
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vulkan/runtime/float_controls.h"

namespace vkt::vk {

// Features: each is true only when the device has it AND it was enabled.
struct DeviceCaps {
  bool float64 = false, int64 = false, int16 = false;
  bool storage8 = false, storage16 = false, float16 = false, int8 = false;
  bool push_descriptor = false;
  bool host_query_reset = false;  // vkResetQueryPool from the host (Vulkan 1.2 feature)
  bool pipeline_stats = false;    // VKT_VK_PIPELINE_STATS=1 and the device can (pipeline_stats.h)
  FloatControls float_controls;   // subnormal handling the device offers (properties, not features)
  // Cooperative matrices enabled with what linalg_dot_coopmat.comp needs (context.cpp): NV
  // ones with 16x16x16 f16; KHR ones with 16x16x16 f16 (the module rewritten); KHR bf16 ones
  // (VK_KHR_shader_bfloat16).
  bool coopmat_nv = false, coopmat_khr = false, coopmat_bf16 = false;
  std::uint32_t subgroup_size = 0;
  VkSubgroupFeatureFlags subgroup_ops = 0;
  bool subgroup_compute = false;  // subgroup operations are supported in compute shaders
};

struct DeviceLimits {
  std::array<std::uint32_t, 3> max_group_count{};
  std::uint64_t max_storage_range = 0;
  std::uint64_t max_allocation = 0;
  std::uint32_t max_push_constants = 0;
  std::uint32_t max_shared_bytes = 0;  // maxComputeSharedMemorySize
  std::uint64_t storage_offset_alignment = 0;
  std::uint64_t non_coherent_atom = 0;
  std::uint32_t compute_units = 0;  // compute_units.h (SMs, CUs, cores); 0: not reported
};

class Context {
 public:
  // Device `index` in vkEnumeratePhysicalDevices order; -1: VKT_DEVICE (an index or a name
  // substring), else the best by type (discrete > integrated > virtual > cpu).
  // Throws NoDevice when there is no usable Vulkan 1.2 device.
  explicit Context(int index);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  VkPhysicalDevice physical() const { return physical_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  std::uint32_t queue_family() const { return queue_family_; }
  int index() const { return index_; }
  const VkPhysicalDeviceProperties& properties() const { return props_; }
  const VkPhysicalDeviceMemoryProperties& memory() const { return memory_; }
  const DeviceCaps& caps() const { return caps_; }
  const DeviceLimits& limits() const { return limits_; }
  DeviceLimits& mutable_limits() { return limits_; }  // tests shrink limits (testing.h)
  std::string name() const { return props_.deviceName; }
  PFN_vkCmdPushDescriptorSetKHR push_descriptor_fn() const { return push_descriptor_; }

 private:
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::uint32_t queue_family_ = 0;
  int index_ = 0;
  VkPhysicalDeviceProperties props_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  DeviceCaps caps_;
  DeviceLimits limits_;
  PFN_vkCmdPushDescriptorSetKHR push_descriptor_ = nullptr;
};

// The index vulkan(-1) resolves to (VKT_DEVICE or the best by type). Throws NoDevice.
int default_device_index();
// VKT_DEVICE's value `want` among the devices `names` (in vkEnumeratePhysicalDevices order):
// all digits is an index, else the first name holding it (any case). NoDevice naming the
// variable where none fits.
int device_by_setting(std::string_view want, const std::vector<std::string>& names);
// For `vkt info`: every device with its type, API version, memory heaps and types, limits
// and features, and which one is the default.
std::string device_report();
// "discrete", "integrated", "virtual", "cpu" or "other".
const char* device_type_name(VkPhysicalDeviceType t);

// GPUs against CPU devices (lavapipe): the rules that differ by the device's kind ask this.
inline bool is_gpu(const Context& ctx) {
  return ctx.properties().deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU;
}

}  // namespace vkt::vk
