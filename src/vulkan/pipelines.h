// Compute pipelines, created once per (shader variant, specialization constants) and cached.
// Every pipeline uses one set of N storage buffers (pushed where VK_KHR_push_descriptor
// exists, else allocated per batch by the recorder) and 128 bytes of push
// constants; specialization constant 0 is the workgroup size.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vulkan/context.h"
#include "vulkan/handle.h"
#include "vulkan/pipeline_cache.h"

namespace vkt::vk {

struct Pipeline {
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  std::uint32_t workgroup_size = 0;
};

class Pipelines {
 public:
  static constexpr std::uint32_t kWorkgroupSize = 256;
  static constexpr std::uint32_t kPushBytes = 128;  // the guaranteed minimum

  explicit Pipelines(const Context& ctx);
  Pipelines(const Pipelines&) = delete;
  Pipelines& operator=(const Pipelines&) = delete;

  // `shader`: an embedded variant name; `constants`: specialization constants 1.. .
  Pipeline get(std::string_view shader, std::uint32_t bindings,
               const std::vector<std::uint32_t>& constants);
  // A pipeline for a module generated at run time (vkt::compile), cached under `key`.
  Pipeline get_generated(const std::string& key, const std::vector<std::uint32_t>& words,
                         std::uint32_t bindings, const std::vector<std::uint32_t>& constants = {});
  std::size_t size() const { return pipelines_.size(); }
  // Where the on-disk pipeline cache is and what loading it did (pipeline_cache.h).
  std::string cache_report() const { return store_.report(); }

 private:
  struct Layout {
    Owned<VkDescriptorSetLayout> set;
    Owned<VkPipelineLayout> pipeline;
  };
  struct Entry {
    Owned<VkPipeline> pipeline;
    VkPipelineLayout layout;
    VkDescriptorSetLayout set_layout;
  };
  const Layout& layout(std::uint32_t bindings);
  VkShaderModule module(std::string_view shader);
  VkShaderModule create_module(const std::string& name, const std::vector<std::uint32_t>& words);
  Pipeline create_pipeline(std::pair<std::string, std::vector<std::uint32_t>> key,
                           std::uint32_t bindings, VkShaderModule module);

  const Context& ctx_;
  PipelineCacheStore store_;
  std::mutex mutex_;
  std::map<std::uint32_t, Layout> layouts_;
  std::map<std::string, Owned<VkShaderModule>, std::less<>> modules_;
  std::map<std::pair<std::string, std::vector<std::uint32_t>>, Entry> pipelines_;
};

}  // namespace vkt::vk
