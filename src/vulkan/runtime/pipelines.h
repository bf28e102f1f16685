// Compute pipelines, created once per (shader variant, specialization constants) and cached.
// Every pipeline uses one set of N storage buffers (pushed where VK_KHR_push_descriptor
// exists, else allocated per batch by the recorder) and 128 bytes of push
// constants; specialization constant 0 is the workgroup size.
#pragma once

#include <vulkan/vulkan.h>

#include <condition_variable>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vulkan/runtime/context.h"
#include "vulkan/runtime/handle.h"
#include "vulkan/runtime/pipeline_cache.h"

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
  // A cached pipeline is found without building a key (no allocation on an op's path).
  Pipeline get(std::string_view shader, std::uint32_t bindings,
               std::initializer_list<std::uint32_t> constants) {
    return find_or_create(shader, bindings, {constants.begin(), constants.size()});
  }
  Pipeline get(std::string_view shader, std::uint32_t bindings,
               const std::vector<std::uint32_t>& constants) {
    return find_or_create(shader, bindings, constants);
  }
  // A pipeline for a module generated at run time (vkt::compile), cached under `key`, of
  // `workgroup_size` invocations (specialization constant 0; the row kernels' variants).
  // `unoptimized`: created with VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT (a first tier that
  // runs a few times while the optimized kernel is made), cached apart.
  Pipeline get_generated(const std::string& key, const std::vector<std::uint32_t>& words,
                         std::uint32_t bindings, const std::vector<std::uint32_t>& constants = {},
                         std::uint32_t workgroup_size = kWorkgroupSize, bool unoptimized = false);
  // A pipeline for a module made at run time from an embedded shader (its SPIR-V rewritten to
  // KHR cooperative matrices, coopmat_khr_spirv.h), cached under `key`: its module gets get()'s
  // float-controls patch, not get_generated()'s, so it computes as the embedded module does.
  Pipeline get_recompiled(const std::string& key, const std::vector<std::uint32_t>& words,
                          std::uint32_t bindings, const std::vector<std::uint32_t>& constants);
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return pipelines_.size();
  }
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
  using Key = std::pair<std::string, std::vector<std::uint32_t>>;
  // A key as get() receives it: the shader, the workgroup size, then the constants (the
  // order of Key's vector), compared with Keys without being built.
  struct KeyView {
    std::string_view shader;
    std::uint32_t workgroup_size;
    std::span<const std::uint32_t> constants;
  };
  struct KeyLess {
    using is_transparent = void;
    bool operator()(const Key& a, const Key& b) const { return a < b; }
    bool operator()(const Key& a, const KeyView& b) const { return compare(a, b) < 0; }
    bool operator()(const KeyView& a, const Key& b) const { return compare(b, a) > 0; }
    static int compare(const Key& a, const KeyView& b);
  };
  Pipeline find_or_create(std::string_view shader, std::uint32_t bindings,
                          std::span<const std::uint32_t> constants);
  const Layout& layout(std::uint32_t bindings);
  VkShaderModule module(std::string_view shader);
  VkShaderModule create_module(const std::string& name, const std::vector<std::uint32_t>& words);
  // get_generated and get_recompiled: the pipeline of `words` under `full_key`, its module
  // made from `patched(words)` when new.
  template <class Patch>
  Pipeline get_from_words(std::pair<std::string, std::vector<std::uint32_t>> full_key,
                          const std::vector<std::uint32_t>& words, std::uint32_t bindings,
                          const Patch& patched, VkPipelineCreateFlags flags = 0);
  // The cached pipeline for key; or, when none exists and no other thread is creating it,
  // nothing: the key is then claimed and this thread must create it (create_pipeline).
  std::optional<Pipeline> find_or_claim(std::unique_lock<std::mutex>& lock, const Key& key);
  // Creates the claimed key's pipeline with mutex_ released (driver compiles run in
  // parallel; the VkPipelineCache is internally synchronised), then caches it.
  Pipeline create_pipeline(std::unique_lock<std::mutex>& lock, Key key, std::uint32_t bindings,
                           VkShaderModule module, VkPipelineCreateFlags flags = 0);

  const Context& ctx_;
  PipelineCacheStore store_;
  mutable std::mutex mutex_;
  std::map<std::uint32_t, Layout> layouts_;
  std::map<std::string, Owned<VkShaderModule>, std::less<>> modules_;
  std::map<Key, Entry, KeyLess> pipelines_;
  std::set<Key> in_flight_;          // claimed keys being created without the lock
  std::condition_variable created_;  // a claimed key was created (or failed)
};

}  // namespace vkt::vk
