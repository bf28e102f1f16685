// The Vulkan backend's FFT plans (VkFFT, compiled at run time through glslang): one per
// transform geometry and precision, each with a device tensor of its own that the data is
// copied through, so a plan's descriptor sets never change while a batch may use them.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <memory>
#include <tuple>

#include "vkt/tensor.h"
#include "vulkan/context.h"
#include "vulkan/handle.h"

namespace vkt::vk {

// `outer` batches of `inner` interleaved lines of `length` points (the axis's stride is
// inner), in double precision or single.
struct FftGeometry {
  std::uint64_t length = 1, outer = 1, inner = 1;
  bool doubles = false;
  auto key() const { return std::tie(length, outer, inner, doubles); }
  bool operator<(const FftGeometry& o) const { return key() < o.key(); }
  std::uint64_t bytes() const { return length * outer * inner * (doubles ? 16 : 8); }
};

class FftPlans {
 public:
  struct Plan;  // a VkFFT application and its buffer (fft.cpp)
  explicit FftPlans(const Context& ctx);
  ~FftPlans();
  FftPlans(const FftPlans&) = delete;
  FftPlans& operator=(const FftPlans&) = delete;

  // The plan for `g`, or null before make(g, ...).
  Plan* find(const FftGeometry& g);
  // Makes the plan for `g` transforming `work` in place (a device tensor of g.bytes(), kept
  // for the plan's life): compiles its kernels and waits for the queue.
  Plan& make(const FftGeometry& g, Tensor work);
  static const Tensor& work(const Plan& p);
  std::size_t size() const { return plans_.size(); }
  // Drops every plan; only once no recorded work uses them (after Recorder::finish).
  void clear();
  // Records the transform (forward, or inverse divided by the length) into `cmd`.
  static void record(Plan& p, VkCommandBuffer cmd, bool inverse);

 private:
  const Context& ctx_;
  Owned<VkCommandPool> pool_;  // VkFFT's own uploads of its tables at plan time
  Owned<VkFence> fence_;
  // VkFFT reads these through pointers for the life of every plan.
  VkPhysicalDevice physical_;
  VkDevice device_;
  VkQueue queue_;
  VkCommandPool pool_handle_ = VK_NULL_HANDLE;
  VkFence fence_handle_ = VK_NULL_HANDLE;
  std::map<FftGeometry, std::unique_ptr<Plan>> plans_;
};

}  // namespace vkt::vk
