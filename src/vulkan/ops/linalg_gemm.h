// The GEMM view of a dot call and the launch eager's dot records for it (linalg.cpp), shared
// with vkt::compile's dot groups (compiled_dot.cpp), which launch the same kernel and tile
// with an epilogue so that C's values are eager's.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "vulkan/ops/linalg_dot_choice.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {

// GemmView (backend.h): the GEMM sizes of one call and each operand's strides.
std::optional<GemmView> gemm_view(const OpCall& call);

// choose_k_split (backend.h) aiming at `target_groups` workgroups in all instead of dot's
// 512: conv's split K takes its target from the device (conv_split.cpp).
KSplit choose_k_split_for(std::uint64_t target_groups, std::uint64_t out_tiles,
                          std::uint64_t out_elements, std::uint64_t k, std::uint64_t word,
                          std::uint32_t bk, std::uint64_t max_range);

// The dot shaders' push constants.
struct DotPush {
  std::uint32_t m, n, k, batch;
  std::uint32_t sab, sam, sak;
  std::uint32_t sbb, sbk, sbn;
  std::uint32_t splits, k_chunk;
  std::uint32_t scb, scm;
};

// What eager's dot launches for view v read as dtype d: the kernel and tile, K's split
// (splits > 1: a partial-sums pass and an adding pass), the main pass's specialization
// constants (from constant_id 1), push constants and workgroup grid.
struct GemmLaunch {
  DType acc = DType::f32;  // the accumulator, and the partial sums' dtype
  DotChoice choice;
  std::uint64_t splits = 1, chunk = 0;
  std::vector<std::uint32_t> constants;
  DotPush push{};
  std::array<std::uint32_t, 3> groups{};
};
GemmLaunch gemm_launch(const VulkanBackend& b, const GemmView& v, DType d);
// The built-in pipeline of a pass: mode 0 C = A B, 1 partial sums per K chunk, 2 adding them.
Pipeline gemm_pipeline(VulkanBackend& b, const GemmLaunch& launch, DType d, std::uint32_t mode);
// The adding pass's constants (linalg_dot_main.glsl, MODE 2).
std::vector<std::uint32_t> add_pass_constants(const GemmLaunch& launch);

}  // namespace vkt::vk
