// The Vulkan device of the developer probes (vkt-pipeline-time, vkt-coopmat-peak), apart
// from vktensor: the first non-CPU device (else the first), one queue of family 0, the 1.1
// and 1.2 features the device has, and the extensions asked for where it has them.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
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
  explicit Device(const std::vector<const char*>& extensions = {}, void* extra_features = nullptr);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
};

// A descriptor set layout of `bindings` storage buffers (bindings 0..) and a pipeline layout
// with it and `push_bytes` of push constants.
struct StorageLayout {
  const Device& d;
  VkDescriptorSetLayout set = VK_NULL_HANDLE;
  VkPipelineLayout pipeline = VK_NULL_HANDLE;
  StorageLayout(const Device& dev, std::uint32_t bindings, std::uint32_t push_bytes);
  ~StorageLayout();
  StorageLayout(const StorageLayout&) = delete;
  StorageLayout& operator=(const StorageLayout&) = delete;
};

// A compute pipeline, destroyed with its owner (move-only).
class Pipeline {
 public:
  Pipeline() = default;
  Pipeline(VkDevice device, VkPipeline pipeline) : device_(device), pipeline_(pipeline) {}
  ~Pipeline() { reset(); }
  Pipeline(Pipeline&& o) noexcept
      : device_(o.device_), pipeline_(std::exchange(o.pipeline_, VK_NULL_HANDLE)) {}
  Pipeline& operator=(Pipeline&& o) noexcept {
    if (this != &o) {
      reset();
      device_ = o.device_;
      pipeline_ = std::exchange(o.pipeline_, VK_NULL_HANDLE);
    }
    return *this;
  }
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;
  VkPipeline get() const { return pipeline_; }
  explicit operator bool() const { return pipeline_ != VK_NULL_HANDLE; }

 private:
  void reset() {
    if (pipeline_ != VK_NULL_HANDLE) vkDestroyPipeline(device_, pipeline_, nullptr);
    pipeline_ = VK_NULL_HANDLE;
  }
  VkDevice device_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

// A compute pipeline of `words` (entry point "main"), specialization constants 0.. set to
// `spec`; its shader module is destroyed again. Empty `*out` where the driver refuses it,
// with its VkResult returned.
VkResult create_compute_pipeline(const Device& d, const std::vector<std::uint32_t>& words,
                                 VkPipelineLayout layout, VkPipelineCreateFlags flags,
                                 const std::vector<std::uint32_t>& spec, Pipeline* out);

// Reads a SPIR-V file, exiting with a message where it is not one.
std::vector<std::uint32_t> read_spirv(const std::string& path);

}  // namespace probe
