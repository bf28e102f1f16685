// conv's split K (conv.cpp): how many K slices the implicit GEMM runs when its output has
// too few tiles to fill the device over a long K (a kernel cotangent: a 64 x 576 output over
// K = 100352), and the pass that adds the slices' partial sums.
#pragma once

#include <cstdint>

#include "vulkan/runtime/backend.h"

namespace vkt::vk {

// Workgroups a split conv aims for on a device of `units` compute units (0: not reported).
std::uint64_t conv_split_target(std::uint32_t units);

// K's split for `tiles` output tiles (over every group) and reduction length k, partial sums
// of `out_elements` elements of `word` bytes, K steps of `bk`: the GEMM's rule
// (choose_k_split_for) aiming at conv_split_target(units) workgroups. One chunk of at least
// 1 where it does not split.
KSplit conv_split_rule(std::uint32_t units, std::uint64_t tiles, std::uint64_t out_elements,
                       std::uint64_t k, std::uint64_t word, std::uint32_t bk,
                       std::uint64_t max_range);

// conv_split_rule on b's device, or the count testing::force_conv_splits set.
KSplit conv_k_split(const VulkanBackend& b, std::uint64_t tiles, std::uint64_t out_elements,
                    std::uint64_t k, std::uint64_t word, std::uint32_t bk);

// The dtype of the partial sums for output dtype d: the kernel's accumulator (f64 for f64,
// else f32), so f16 and bf16 round once, as unsplit.
DType conv_partial_dtype(DType d);

// `call`'s output from `partials` ([splits][out elements] in conv_partial_dtype): one
// dispatch (conv_split_sum.comp) adding each element's partials in split order.
Tensor add_conv_partials(VulkanBackend& b, const OpCall& call, const Tensor& partials,
                         std::uint64_t splits);

namespace testing {
// Every implicit-GEMM conv from now on runs K in chunks of ceil(K / s) rounded up to the
// kernel's K step (so at most s slices; 1: no split); 0: back to the rule.
void force_conv_splits(std::uint32_t s);
}  // namespace testing

}  // namespace vkt::vk
