// conv by Winograd's minimal filtering on 4 x 4 tiles, for f32 2-d convs of stride 1 without
// dilation or groups (conv.cpp takes it where winograd_kind says so): the operands go into
// the transform domain (shaders/conv_winograd_in.comp), dot's batched GEMM multiplies the 16
// points' matrices, and conv_winograd_out.comp brings the tiles back.
#pragma once

#include "vulkan/runtime/backend.h"

namespace vkt::vk {

enum class WinogradKind {
  none,
  // F(2x2, 3x3) for a 3 x 3 kernel: 16 products per 2 x 2 outputs where the direct sum takes
  // 36 (a layer's forward conv, and its input cotangent).
  small_kernel,
  // F(3x3, 2x2) for 3 x 3 outputs of a large kernel (a layer's kernel cotangent as a conv):
  // 16 products per 2 x 2 kernel tile where the direct sum takes 36; the GEMM's K runs over
  // the contracted channels and the kernel's tiles.
  small_output,
};

// Which algorithm applies to `call` and is taken: the conv_winograd override (1: wherever
// it applies, 0: never), else the rule in conv_winograd.cpp.
WinogradKind winograd_kind(const VulkanBackend& b, const OpCall& call);

// `call` by `kind` (not none): the passes, chunked so that the transform domain's scratch
// stays within the operands' own size (at least 64 MiB).
Tensor run_conv_winograd(VulkanBackend& b, const OpCall& call, WinogradKind kind);

namespace testing {
// Every Winograd conv from now on takes `items` images (contracted images for a kernel
// cotangent) per chunk, at most all of them; 0: back to the scratch budget.
void force_winograd_chunk(std::int64_t items);
// Whether the last pass recomputes non-finite outputs as the direct sum (default on). Tests
// of finite inputs turn it off: the recompute would otherwise hide a pass that reads
// scratch nobody wrote (NaN where VKT_POISON fills new buffers).
void set_winograd_recompute(bool on);
}  // namespace testing

}  // namespace vkt::vk
