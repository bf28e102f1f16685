// conv's split K: the rule sizing it from the device's compute units, its test hook, and
// the adding pass. Partials go to scratch and are added in a fixed order (no float atomics),
// so a result is the same run to run.
#include "vulkan/ops/conv_split.h"

#include <algorithm>
#include <atomic>

#include "vulkan/ops/linalg_gemm.h"
#include "vulkan/runtime/compute_units.h"

namespace vkt::vk {
namespace {

std::atomic<std::uint32_t> g_forced_splits{0};

struct SumPush {
  std::uint32_t elements, splits;
};

}  // namespace

namespace testing {
void force_conv_splits(std::uint32_t s) {
  g_forced_splits.store(s);
}
}  // namespace testing

// The split exists to fill the device: a few tiles each walking a long K leave most compute
// units idle. So it aims at a number of workgroups per compute unit: 4, so that each unit
// has several of these 256-invocation workgroups to switch between while tile loads are in
// flight, and workgroups finishing unevenly leave a short tail; more slices than that only
// add partial sums to write and add. Core Vulkan reports no compute units (Intel, Apple):
// there 256, a 64-unit GPU's target, since splitting more than a small GPU needs costs a
// pass over the partials (each slice still at least 256 K rows, so its partial tile is small
// beside its loads), while splitting less than a large GPU needs leaves units idle.
std::uint64_t conv_split_target(std::uint32_t units) {
  constexpr std::uint64_t kPerUnit = 4, kUnknown = 256;
  return units > 0 ? kPerUnit * units : kUnknown;
}

KSplit conv_split_rule(std::uint32_t units, std::uint64_t tiles, std::uint64_t out_elements,
                       std::uint64_t k, std::uint64_t word, std::uint32_t bk,
                       std::uint64_t max_range) {
  KSplit split =
      choose_k_split_for(conv_split_target(units), tiles, out_elements, k, word, bk, max_range);
  split.chunk = std::max<std::uint64_t>(split.chunk, 1);  // K = 0: one chunk of zeros
  return split;
}

KSplit conv_k_split(const VulkanBackend& b, std::uint64_t tiles, std::uint64_t out_elements,
                    std::uint64_t k, std::uint64_t word, std::uint32_t bk) {
  const std::uint64_t forced = g_forced_splits.load();
  if (forced == 0) {
    return conv_split_rule(compute_units(b.context()), tiles, out_elements, k, word, bk,
                           b.context().limits().max_storage_range);
  }
  if (k == 0) return {1, 1};
  const std::uint64_t chunk = ((k + forced - 1) / forced + bk - 1) / bk * bk;
  return {(k + chunk - 1) / chunk, chunk};
}

DType conv_partial_dtype(DType d) {
  return d == DType::f64 ? DType::f64 : DType::f32;
}

Tensor add_conv_partials(VulkanBackend& b, const OpCall& call, const Tensor& partials,
                         std::uint64_t splits) {
  const Tensor out = b.make_output(call);
  const DType d = call.out_dtype;
  const SumPush push{static_cast<std::uint32_t>(numel(call.out_shape)),
                     static_cast<std::uint32_t>(splits)};
  // The partials are bound as A (and as the unused B), the output as C: linalg_float_io.glsl's
  // loads and stores, the implicit GEMM's own rounding.
  const Pipeline p =
      b.pipelines().get(b.variant("conv_split_sum", {d}), 3, {static_cast<std::uint32_t>(d)});
  b.dispatch(p, {{&partials, false}, {&partials, false}, {&out, true}}, &push, sizeof(push),
             push.elements);
  return out;
}

}  // namespace vkt::vk
