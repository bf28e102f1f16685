#include "vulkan/runtime/pipelines.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <sstream>

#include "vkt/compile.h"
#include "vkt/error.h"
#include "vkt/ledger.h"
#include "vulkan/runtime/check.h"
#include "vulkan/runtime/pipeline_stats.h"
#include "vulkan/runtime/spirv.h"

namespace vkt::vk {

Pipelines::Pipelines(const Context& ctx) : ctx_(ctx), store_(ctx) {}

const Pipelines::Layout& Pipelines::layout(std::uint32_t bindings) {
  auto it = layouts_.find(bindings);
  if (it != layouts_.end()) return it->second;
  VkDevice dev = ctx_.device();
  std::vector<VkDescriptorSetLayoutBinding> b(bindings);
  for (std::uint32_t i = 0; i < bindings; ++i) {
    b[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  }
  VkDescriptorSetLayoutCreateInfo sinfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  if (ctx_.caps().push_descriptor)
    sinfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  sinfo.bindingCount = bindings;
  sinfo.pBindings = b.data();
  VkDescriptorSetLayout set = VK_NULL_HANDLE;
  VKT_VK(vkCreateDescriptorSetLayout, dev, &sinfo, nullptr, &set);
  Layout l;
  l.set = Owned<VkDescriptorSetLayout>(dev, set, vkDestroyDescriptorSetLayout);
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushBytes};
  VkPipelineLayoutCreateInfo pinfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pinfo.setLayoutCount = 1;
  pinfo.pSetLayouts = &set;
  pinfo.pushConstantRangeCount = 1;
  pinfo.pPushConstantRanges = &range;
  VkPipelineLayout pl = VK_NULL_HANDLE;
  VKT_VK(vkCreatePipelineLayout, dev, &pinfo, nullptr, &pl);
  l.pipeline = Owned<VkPipelineLayout>(dev, pl, vkDestroyPipelineLayout);
  return layouts_.emplace(bindings, std::move(l)).first->second;
}

VkShaderModule Pipelines::create_module(const std::string& name,
                                        const std::vector<std::uint32_t>& module_words) {
  // Subnormals kept where the device can (float_controls.h); elsewhere the module as built.
  const FloatControls& fc = ctx_.caps().float_controls;
  const std::vector<std::uint32_t> words =
      with_denorm_preserve(module_words, fc.preserve32, fc.preserve64);
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = words.size() * sizeof(std::uint32_t);
  info.pCode = words.data();
  VkShaderModule mod = VK_NULL_HANDLE;
  VKT_VK(vkCreateShaderModule, ctx_.device(), &info, nullptr, &mod);
  return modules_.emplace(name, Owned<VkShaderModule>(ctx_.device(), mod, vkDestroyShaderModule))
      .first->second.get();
}

VkShaderModule Pipelines::module(std::string_view shader) {
  auto it = modules_.find(shader);
  if (it != modules_.end()) return it->second.get();
  for (const SpirvModule& m : embedded_spirv()) {
    if (m.name != shader) continue;
    return create_module(std::string(shader),
                         std::vector<std::uint32_t>(m.words.begin(), m.words.end()));
  }
  throw Error("[vulkan] no embedded shader named '" + std::string(shader) + "'");
}

std::optional<Pipeline> Pipelines::find_or_claim(std::unique_lock<std::mutex>& lock,
                                                 const Key& key) {
  for (;;) {
    auto it = pipelines_.find(key);
    if (it != pipelines_.end()) {
      return Pipeline{it->second.pipeline.get(), it->second.layout, it->second.set_layout,
                      key.second.at(0)};
    }
    if (in_flight_.insert(key).second) return std::nullopt;
    created_.wait(lock);  // another thread is creating it: take its result (or retry)
  }
}

int Pipelines::KeyLess::compare(const Key& a, const KeyView& b) {
  if (const int c = std::string_view(a.first).compare(b.shader); c != 0) return c;
  // Lexicographic over Key's vector against [workgroup_size, constants...].
  const std::vector<std::uint32_t>& spec = a.second;
  const std::size_t n = b.constants.size() + 1;
  for (std::size_t i = 0; i < std::min(spec.size(), n); ++i) {
    const std::uint32_t v = i == 0 ? b.workgroup_size : b.constants[i - 1];
    if (spec[i] != v) return spec[i] < v ? -1 : 1;
  }
  return spec.size() == n ? 0 : (spec.size() < n ? -1 : 1);
}

Pipeline Pipelines::find_or_create(std::string_view shader, std::uint32_t bindings,
                                   std::span<const std::uint32_t> constants) {
  std::unique_lock lock(mutex_);
  // The common case, every op after the first of its kind: found without building a Key.
  if (auto it = pipelines_.find(KeyView{shader, kWorkgroupSize, constants});
      it != pipelines_.end()) {
    return Pipeline{it->second.pipeline.get(), it->second.layout, it->second.set_layout,
                    kWorkgroupSize};
  }
  std::vector<std::uint32_t> spec{kWorkgroupSize};
  spec.insert(spec.end(), constants.begin(), constants.end());
  Key key = std::make_pair(std::string(shader), spec);
  if (std::optional<Pipeline> found = find_or_claim(lock, key)) return *found;
  VkShaderModule mod = VK_NULL_HANDLE;
  try {
    mod = module(shader);
  } catch (...) {
    in_flight_.erase(key);
    created_.notify_all();
    throw;
  }
  return create_pipeline(lock, std::move(key), bindings, mod);
}

template <class Patch>
Pipeline Pipelines::get_from_words(Key full_key, const std::vector<std::uint32_t>& words,
                                   std::uint32_t bindings, const Patch& patched,
                                   VkPipelineCreateFlags flags) {
  std::unique_lock lock(mutex_);
  if (std::optional<Pipeline> found = find_or_claim(lock, full_key)) return *found;
  VkShaderModule mod = VK_NULL_HANDLE;
  try {
    auto m = modules_.find(full_key.first);
    mod = m != modules_.end() ? m->second.get() : create_module(full_key.first, patched(words));
  } catch (...) {
    in_flight_.erase(full_key);
    created_.notify_all();
    throw;
  }
  return create_pipeline(lock, std::move(full_key), bindings, mod, flags);
}

Pipeline Pipelines::get_generated(const std::string& key, const std::vector<std::uint32_t>& words,
                                  std::uint32_t bindings,
                                  const std::vector<std::uint32_t>& constants,
                                  std::uint32_t workgroup_size, bool unoptimized) {
  std::vector<std::uint32_t> spec{workgroup_size};
  spec.insert(spec.end(), constants.begin(), constants.end());
  const FloatControls fc = ctx_.caps().float_controls;
  return get_from_words(
      std::make_pair((unoptimized ? "generated-unoptimized:" : "generated:") + key,
                     std::move(spec)),
      words, bindings,
      [&fc](const std::vector<std::uint32_t>& w) { return with_special_values_kept(w, fc); },
      unoptimized ? VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT : 0);
}

Pipeline Pipelines::get_recompiled(const std::string& key, const std::vector<std::uint32_t>& words,
                                   std::uint32_t bindings,
                                   const std::vector<std::uint32_t>& constants) {
  std::vector<std::uint32_t> spec{kWorkgroupSize};
  spec.insert(spec.end(), constants.begin(), constants.end());
  // create_module adds the denormal patch every embedded module gets.
  return get_from_words(std::make_pair("recompiled:" + key, std::move(spec)), words, bindings,
                        [](const std::vector<std::uint32_t>& w) { return w; });
}

Pipeline Pipelines::create_pipeline(std::unique_lock<std::mutex>& lock, Key key,
                                    std::uint32_t bindings, VkShaderModule module,
                                    VkPipelineCreateFlags flags) {
  // Whatever happens, the claim ends and waiters look again (a failure is retried by them).
  struct Release {
    Pipelines& self;
    const Key& key;
    std::unique_lock<std::mutex>& lock;
    ~Release() {
      if (!lock.owns_lock()) lock.lock();
      self.in_flight_.erase(key);
      self.created_.notify_all();
    }
  } release{*this, key, lock};
  const std::vector<std::uint32_t>& spec = key.second;
  const Layout& l = layout(bindings);  // map nodes are stable: usable once unlocked
  lock.unlock();
  std::vector<VkSpecializationMapEntry> entries(spec.size());
  for (std::uint32_t i = 0; i < spec.size(); ++i) {
    entries[i] = {i, i * static_cast<std::uint32_t>(sizeof(std::uint32_t)), sizeof(std::uint32_t)};
  }
  VkSpecializationInfo sinfo{static_cast<std::uint32_t>(entries.size()), entries.data(),
                             spec.size() * sizeof(std::uint32_t), spec.data()};
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = &sinfo;
  info.layout = l.pipeline.get();
  info.flags = flags;
  if (ctx_.caps().pipeline_stats) info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  VkPipeline p = VK_NULL_HANDLE;
  const auto start = std::chrono::steady_clock::now();
  VKT_VK(vkCreateComputePipelines, ctx_.device(), store_.handle(), 1, &info, nullptr, &p);
  const auto ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  ledger::record_pipeline_created(static_cast<std::uint64_t>(ns));
  if (ctx_.caps().pipeline_stats) {
    std::ostringstream label;
    label << key.first << " {";
    for (std::size_t i = 0; i < spec.size(); ++i) label << (i > 0 ? "," : "") << spec[i];
    label << "}";
    std::cerr << pipeline_stats_line(ctx_.device(), p, label.str());
  }
  if (compile_dump()) {  // which pipelines a first call waits for, and how long each took
    std::ostringstream line;
    line << "vkt::compile: pipeline " << key.first << " created in " << ns / 1000 << " us\n";
    std::cerr << line.str();
  }
  Owned<VkPipeline> owned(ctx_.device(), p, vkDestroyPipeline);
  store_.created();
  lock.lock();
  pipelines_.emplace(key, Entry{std::move(owned), l.pipeline.get(), l.set.get()});
  return {p, l.pipeline.get(), l.set.get(), spec.at(0)};
}

}  // namespace vkt::vk
