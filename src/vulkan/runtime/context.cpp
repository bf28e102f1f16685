#include "vulkan/runtime/context.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <iostream>
#include <sstream>
#include <vector>

#include "common/settings.h"
#include "vkt/error.h"
#include "vulkan/runtime/check.h"
#include "vulkan/runtime/compute_units.h"
#include "vulkan/runtime/coopmat.h"
#include "vulkan/runtime/instance.h"
#include "vulkan/runtime/pipeline_stats.h"
#include "vulkan/runtime/validation.h"

namespace vkt::vk {
namespace {

int type_rank(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return 3;
    default:
      return 4;
  }
}

}  // namespace

const char* device_type_name(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "cpu";
    default:
      return "other";
  }
}

namespace {

int compute_queue_family(VkPhysicalDevice pd) {
  std::uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> fams(n);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, fams.data());
  // Prefer a compute queue without graphics (a dedicated compute engine), else any.
  int any = -1;
  for (std::uint32_t i = 0; i < n; ++i) {
    if ((fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT) == 0) continue;
    if ((fams[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) == 0) return static_cast<int>(i);
    if (any < 0) any = static_cast<int>(i);
  }
  return any;
}

bool usable(VkPhysicalDevice pd) {
  VkPhysicalDeviceProperties p;
  vkGetPhysicalDeviceProperties(pd, &p);
  return p.apiVersion >= VK_API_VERSION_1_2 && compute_queue_family(pd) >= 0;
}

bool has_extension(VkPhysicalDevice pd, const char* name) {
  return has_device_extension(pd, name);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

struct Features {
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  explicit Features(VkPhysicalDevice pd) {
    f2.pNext = &f11;
    f11.pNext = &f12;
    vkGetPhysicalDeviceFeatures2(pd, &f2);
  }
  Features(const Features&) = delete;
};

int pick_device(const std::vector<VkPhysicalDevice>& devices) {
  if (const std::string& want = settings().device; !want.empty()) {
    std::vector<std::string> names;
    for (VkPhysicalDevice d : devices) {
      VkPhysicalDeviceProperties p;
      vkGetPhysicalDeviceProperties(d, &p);
      names.emplace_back(p.deviceName);
    }
    return device_by_setting(want, names);
  }
  int best = -1, best_rank = 99;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (!usable(devices[i])) continue;
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(devices[i], &p);
    if (type_rank(p.deviceType) < best_rank) {
      best_rank = type_rank(p.deviceType);
      best = static_cast<int>(i);
    }
  }
  if (best < 0) throw NoDevice("[vulkan] no Vulkan 1.2 device with a compute queue was found");
  return best;
}

}  // namespace

int device_by_setting(std::string_view want, const std::vector<std::string>& names) {
  const auto count = " (" + std::to_string(names.size()) + " Vulkan device(s) present)";
  if (std::all_of(want.begin(), want.end(), [](unsigned char c) { return std::isdigit(c); })) {
    std::uint64_t index = 0;
    const auto [end, ec] = std::from_chars(want.data(), want.data() + want.size(), index);
    if (ec != std::errc() || end != want.data() + want.size() || index >= names.size()) {
      throw NoDevice("[vulkan] VKT_DEVICE='" + std::string(want) + "' is no device index" + count);
    }
    return static_cast<int>(index);
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (lower(names[i]).find(lower(std::string(want))) != std::string::npos) {
      return static_cast<int>(i);
    }
  }
  throw NoDevice("[vulkan] VKT_DEVICE='" + std::string(want) + "' matches no device name" + count);
}

int default_device_index() {
  // Resolved once: VKT_DEVICE and the device list are fixed for the process. A NoDevice
  // leaves it unresolved, so the next call throws it again.
  static const int index = pick_device(physical_devices());
  return index;
}

Context::Context(int index) {
  const std::vector<VkPhysicalDevice>& devices = physical_devices();
  index_ = index >= 0 ? index : pick_device(devices);
  if (index_ >= static_cast<int>(devices.size())) {
    throw NoDevice("[vulkan] device index " + std::to_string(index_) + " requested, " +
                   std::to_string(devices.size()) + " Vulkan device(s) present");
  }
  physical_ = devices[static_cast<std::size_t>(index_)];
  if (!usable(physical_)) {
    throw NoDevice("[vulkan] device " + std::to_string(index_) +
                   " lacks Vulkan 1.2 or a compute queue");
  }
  vkGetPhysicalDeviceProperties(physical_, &props_);
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
  queue_family_ = static_cast<std::uint32_t>(compute_queue_family(physical_));

  Features have(physical_);
  if (!have.f12.timelineSemaphore) {
    throw NoDevice("[vulkan] device " + name() + " lacks timeline semaphores");
  }
  // Enable exactly the features we use that exist.
  Features want(physical_);
  want.f2.features = VkPhysicalDeviceFeatures{};
  want.f2.features.shaderFloat64 = have.f2.features.shaderFloat64;
  want.f2.features.shaderInt64 = have.f2.features.shaderInt64;
  want.f2.features.shaderInt16 = have.f2.features.shaderInt16;
  const VkPhysicalDeviceVulkan11Features zero11{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  const VkPhysicalDeviceVulkan12Features zero12{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  want.f11 = zero11;
  want.f12 = zero12;
  want.f2.pNext = &want.f11;
  want.f11.pNext = &want.f12;
  want.f11.storageBuffer16BitAccess = have.f11.storageBuffer16BitAccess;
  want.f12.storageBuffer8BitAccess = have.f12.storageBuffer8BitAccess;
  want.f12.shaderFloat16 = have.f12.shaderFloat16;
  want.f12.shaderInt8 = have.f12.shaderInt8;
  want.f12.timelineSemaphore = VK_TRUE;
  want.f12.hostQueryReset = have.f12.hostQueryReset;

  caps_.float64 = have.f2.features.shaderFloat64;
  caps_.int64 = have.f2.features.shaderInt64;
  caps_.int16 = have.f2.features.shaderInt16;
  caps_.storage16 = have.f11.storageBuffer16BitAccess;
  caps_.storage8 = have.f12.storageBuffer8BitAccess;
  caps_.float16 = have.f12.shaderFloat16;
  caps_.int8 = have.f12.shaderInt8;
  caps_.host_query_reset = have.f12.hostQueryReset;
  caps_.float_controls = query_float_controls(physical_);
  // VKT_VK_NO_PUSH_DESCRIPTOR=1 takes the descriptor-pool path (to test it where the
  // extension exists).
  caps_.push_descriptor = has_extension(physical_, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) &&
                          !settings().no_push_descriptor;

  VkPhysicalDeviceSubgroupProperties subgroup{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceMaintenance3Properties m3{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  subgroup.pNext = &m3;
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  p2.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(physical_, &p2);
  caps_.subgroup_size = subgroup.subgroupSize;
  caps_.subgroup_ops = subgroup.supportedOperations;
  caps_.subgroup_compute = (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  const VkPhysicalDeviceLimits& l = props_.limits;
  limits_.max_group_count = {l.maxComputeWorkGroupCount[0], l.maxComputeWorkGroupCount[1],
                             l.maxComputeWorkGroupCount[2]};
  limits_.max_storage_range = l.maxStorageBufferRange;
  limits_.max_allocation = m3.maxMemoryAllocationSize;
  limits_.max_push_constants = l.maxPushConstantsSize;
  limits_.max_shared_bytes = l.maxComputeSharedMemorySize;
  limits_.storage_offset_alignment = l.minStorageBufferOffsetAlignment;
  limits_.non_coherent_atom = l.nonCoherentAtomSize;
  limits_.compute_units = query_compute_units(physical_, props_.deviceType);

  const float priority = 1.0f;
  // Cooperative matrices for dot's f16 and bf16 kernel (linalg_dot_coopmat.comp): what its
  // SPIR-V needs (the Vulkan memory model, f16 arithmetic and 16-bit storage), on devices
  // whose subgroups are 32 wide (the kernel's subgroups of 32), and the 16 x 16 x 16 f16 ->
  // f32 shape under the NV extension (the module as built), the KHR one (the module
  // rewritten, coopmat_khr_spirv.h), or both; bf16 needs the KHR extension and
  // VK_KHR_shader_bfloat16. With the memory model enabled, device-scope barriers and atomics
  // (the one-pass reductions' counter) need vulkanMemoryModelDeviceScope too
  // (VUID-RuntimeSpirv-vulkanMemoryModel-06265, seen on the H200). The KHR paths
  // stay off under a validation layer too old to know their extensions (it would report
  // them as errors).
  const bool kernel_ok = have.f12.vulkanMemoryModel && have.f12.vulkanMemoryModelDeviceScope &&
                         have.f12.shaderFloat16 && have.f11.storageBuffer16BitAccess &&
                         subgroup.subgroupSize == 32;
  VkPhysicalDeviceCooperativeMatrixFeaturesNV coop{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
  if (kernel_ok && has_extension(physical_, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME)) {
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    f2.pNext = &coop;
    vkGetPhysicalDeviceFeatures2(physical_, &f2);
    caps_.coopmat_nv = coop.cooperativeMatrix && has_f16_16x16x16(coopmat_nv_shapes(physical_));
  }
  KhrCoopmatFeatures khr_coop;
  Bfloat16Features bf16;
  if (kernel_ok && has_extension(physical_, kKhrCoopmatExtension) &&
      !validation_predates(kKhrCoopmatHeaderVersion)) {
    const bool bf16_known = has_extension(physical_, kBfloat16Extension) &&
                            !validation_predates(kBfloat16HeaderVersion);
    if (bf16_known) khr_coop.pNext = &bf16;
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    f2.pNext = &khr_coop;
    vkGetPhysicalDeviceFeatures2(physical_, &f2);
    const std::vector<CoopmatShape> shapes = coopmat_khr_shapes(physical_);
    caps_.coopmat_khr = khr_coop.cooperativeMatrix && has_f16_16x16x16(shapes);
    caps_.coopmat_bf16 = khr_coop.cooperativeMatrix && bf16_known && bf16.shaderBFloat16Type &&
                         bf16.shaderBFloat16CooperativeMatrix && has_bf16_16x16x16(shapes);
  }
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR exe{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  if (pipeline_stats_wanted() &&
      has_extension(physical_, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    f2.pNext = &exe;
    vkGetPhysicalDeviceFeatures2(physical_, &f2);
    caps_.pipeline_stats = exe.pipelineExecutableInfo;
    exe.pNext = nullptr;
  }
  if (pipeline_stats_wanted() && !caps_.pipeline_stats) {
    std::cerr << "vkt: VKT_VK_PIPELINE_STATS=1, but " << props_.deviceName
              << " has no VK_KHR_pipeline_executable_properties: no statistics\n";
  }
  coop = VkPhysicalDeviceCooperativeMatrixFeaturesNV{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
  khr_coop = KhrCoopmatFeatures{};
  bf16 = Bfloat16Features{};
  std::vector<const char*> extensions;
  if (caps_.push_descriptor) extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  if (caps_.coopmat_nv || caps_.coopmat_khr || caps_.coopmat_bf16) {
    want.f12.vulkanMemoryModel = VK_TRUE;
    want.f12.vulkanMemoryModelDeviceScope = VK_TRUE;
  }
  void** tail = &want.f12.pNext;  // the chain's end, where each extension's features go
  if (caps_.coopmat_nv) {
    extensions.push_back(VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
    coop.cooperativeMatrix = VK_TRUE;
    *tail = &coop;
    tail = &coop.pNext;
  }
  if (caps_.coopmat_khr || caps_.coopmat_bf16) {
    extensions.push_back(kKhrCoopmatExtension);
    khr_coop.cooperativeMatrix = VK_TRUE;
    *tail = &khr_coop;
    tail = &khr_coop.pNext;
  }
  if (caps_.coopmat_bf16) {
    extensions.push_back(kBfloat16Extension);
    bf16.shaderBFloat16Type = VK_TRUE;
    bf16.shaderBFloat16CooperativeMatrix = VK_TRUE;
    *tail = &bf16;
    tail = &bf16.pNext;
  }
  if (caps_.pipeline_stats) {
    extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    exe.pipelineExecutableInfo = VK_TRUE;
    *tail = &exe;
  }

  VkDeviceQueueCreateInfo qinfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qinfo.queueFamilyIndex = queue_family_;
  qinfo.queueCount = 1;
  qinfo.pQueuePriorities = &priority;
  VkDeviceCreateInfo dinfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dinfo.pNext = &want.f2;
  dinfo.queueCreateInfoCount = 1;
  dinfo.pQueueCreateInfos = &qinfo;
  dinfo.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  dinfo.ppEnabledExtensionNames = extensions.data();
  VKT_VK(vkCreateDevice, physical_, &dinfo, nullptr, &device_);
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
  if (caps_.push_descriptor) {
    push_descriptor_ = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(
        vkGetDeviceProcAddr(device_, "vkCmdPushDescriptorSetKHR"));
    caps_.push_descriptor = push_descriptor_ != nullptr;
  }
}

Context::~Context() {
  if (device_ != VK_NULL_HANDLE) {
    vkDeviceWaitIdle(device_);
    vkDestroyDevice(device_, nullptr);
  }
}

std::string device_report() {
  std::ostringstream s;
  const std::vector<VkPhysicalDevice>& devices = physical_devices();
  int chosen = -1;
  try {
    chosen = default_device_index();
  } catch (const NoDevice&) {
  }
  for (std::size_t i = 0; i < devices.size(); ++i) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(devices[i], &p);
    VkPhysicalDeviceMemoryProperties m;
    vkGetPhysicalDeviceMemoryProperties(devices[i], &m);
    s << "device " << i << (static_cast<int>(i) == chosen ? " (default)" : "") << ": "
      << p.deviceName << " [" << device_type_name(p.deviceType) << "] vendor 0x" << std::hex
      << p.vendorID << std::dec << " api " << VK_API_VERSION_MAJOR(p.apiVersion) << "."
      << VK_API_VERSION_MINOR(p.apiVersion) << "." << VK_API_VERSION_PATCH(p.apiVersion)
      << " driver " << p.driverVersion
      << (usable(devices[i]) ? "" : " (unusable: needs 1.2 + compute)") << "\n";
    for (std::uint32_t h = 0; h < m.memoryHeapCount; ++h) {
      s << "  heap " << h << ": " << (m.memoryHeaps[h].size >> 20) << " MiB"
        << ((m.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) ? " device-local" : "")
        << "\n";
    }
    for (std::uint32_t t = 0; t < m.memoryTypeCount; ++t) {
      const VkMemoryPropertyFlags f = m.memoryTypes[t].propertyFlags;
      s << "  memory type " << t << " (heap " << m.memoryTypes[t].heapIndex
        << "):" << ((f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) ? " DEVICE_LOCAL" : "")
        << ((f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) ? " HOST_VISIBLE" : "")
        << ((f & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) ? " HOST_COHERENT" : "")
        << ((f & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) ? " HOST_CACHED" : "") << "\n";
    }
    const VkPhysicalDeviceLimits& l = p.limits;
    s << "  limits: maxComputeWorkGroupCount " << l.maxComputeWorkGroupCount[0] << "x"
      << l.maxComputeWorkGroupCount[1] << "x" << l.maxComputeWorkGroupCount[2]
      << ", maxStorageBufferRange " << l.maxStorageBufferRange << ", maxPushConstantsSize "
      << l.maxPushConstantsSize;
    if (p.apiVersion >= VK_API_VERSION_1_1) {
      VkPhysicalDeviceMaintenance3Properties m3{
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
      VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
      p2.pNext = &m3;
      vkGetPhysicalDeviceProperties2(devices[i], &p2);
      s << ", maxMemoryAllocationSize " << m3.maxMemoryAllocationSize;
    }
    s << "\n";
    if (p.apiVersion >= VK_API_VERSION_1_2) {
      Features f(devices[i]);
      s << "  features: shaderFloat64=" << f.f2.features.shaderFloat64
        << " shaderInt64=" << f.f2.features.shaderInt64
        << " shaderInt16=" << f.f2.features.shaderInt16
        << " storageBuffer8BitAccess=" << f.f12.storageBuffer8BitAccess
        << " storageBuffer16BitAccess=" << f.f11.storageBuffer16BitAccess
        << " shaderFloat16=" << f.f12.shaderFloat16 << " shaderInt8=" << f.f12.shaderInt8
        << " timelineSemaphore=" << f.f12.timelineSemaphore
        << " push_descriptor=" << has_extension(devices[i], VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)
        << " vulkanMemoryModel=" << f.f12.vulkanMemoryModel
        << " vulkanMemoryModelDeviceScope=" << f.f12.vulkanMemoryModelDeviceScope << "\n";
      // Subnormals: preserved in shaders where shaderDenormPreserveFloat32 is 1 (the shaders
      // then run with DenormPreserve); elsewhere the ops docs/semantics-elementwise.md lists.
      s << "  float controls: " << float_controls_report(query_float_controls(devices[i])) << "\n";
      VkPhysicalDeviceSubgroupProperties sg{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
      VkPhysicalDeviceProperties2 sp{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &sg};
      vkGetPhysicalDeviceProperties2(devices[i], &sp);
      s << "  subgroups: size " << sg.subgroupSize << ", in compute "
        << ((sg.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0) << ", shuffle "
        << ((sg.supportedOperations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT) != 0) << ", arithmetic "
        << ((sg.supportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) != 0) << "\n";
    }
    s << coopmat_report(devices[i]);
  }
  if (devices.empty()) s << "no Vulkan devices\n";
  return s.str();
}

}  // namespace vkt::vk
