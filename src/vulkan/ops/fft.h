// The Vulkan backend's FFT plans (VkFFT, compiled at run time through glslang): one per
// transform geometry, precision and binding. A plan either transforms a device tensor of its
// own that the data is copied through (its descriptor sets never change), or, for outputs
// with a buffer of their own (large tensors), writes each call's output: reading the input's
// buffer directly (VkFFT's isInputFormatted), or in place after a copy or conversion of the
// input into it. Such a plan rebinds its sets to each call's buffers once the work that used
// them has completed.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "vkt/tensor.h"
#include "vulkan/runtime/context.h"
#include "vulkan/runtime/handle.h"

namespace vkt::vk {

// Where a plan reads and writes: its own tensor (work), each call's output (a whole buffer)
// in place, or each call's input (a whole buffer) into each call's output (direct).
enum class FftBinding : std::uint8_t { work, in_place, direct };

// `outer` batches of `inner` interleaved lines of `length` points (the axis's stride is
// inner), in double precision or single.
struct FftGeometry {
  std::uint64_t length = 1, outer = 1, inner = 1;
  bool doubles = false;
  FftBinding binding = FftBinding::work;
  auto key() const { return std::tie(length, outer, inner, doubles, binding); }
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
  // Makes the plan for `g`, bound to `buffer` from `offset`: `work`, a device tensor of
  // g.bytes() kept for the plan's life, or (in_place, direct) the first call's output.
  // Compiles its kernels and waits for the queue.
  Plan& make(const FftGeometry& g, VkBuffer buffer, std::uint64_t offset, Tensor work);
  static const Tensor& work(const Plan& p);
  // Whether recording with `input` (direct plans; ignored otherwise) and `output` rewrites
  // the plan's descriptor sets, and the timeline value of the last batch that recorded the
  // plan (0: none): a rewrite waits for it.
  static bool rebinds(const Plan& p, VkBuffer input, VkBuffer output);
  static std::uint64_t last_use(const Plan& p);
  std::size_t size() const { return plans_.size(); }
  // Drops every plan; only once no recorded work uses them (after Recorder::finish).
  void clear();
  // Records the transform (forward, or inverse divided by the length) of `input` (direct
  // plans; the others transform `output` in place) into `output`, into `cmd`, in the batch
  // that signals `batch_value`. Only once last_use(p) has completed if rebinds(p, ...).
  static void record(Plan& p, VkCommandBuffer cmd, bool inverse, VkBuffer input, VkBuffer output,
                     std::uint64_t batch_value);

 private:
  Owned<VkCommandPool> pool_;  // VkFFT's own uploads of its tables at plan time
  Owned<VkFence> fence_;
  const Context& ctx_;
  // VkFFT reads these through pointers for the life of every plan.
  VkPhysicalDevice physical_;
  VkDevice device_;
  VkQueue queue_;
  VkCommandPool pool_handle_ = VK_NULL_HANDLE;
  VkFence fence_handle_ = VK_NULL_HANDLE;
  std::map<FftGeometry, std::unique_ptr<Plan>> plans_;
};

}  // namespace vkt::vk
