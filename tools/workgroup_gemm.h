// The SPIR-V of vkt-coopmat-peak's workgroup-scope GEMM (VK_NV_cooperative_matrix2): one
// workgroup owns a BM x BN block of C = A B (f16 A [M][K] and B [K][N] row-major, f32 C),
// loads BM x BK of A and BK x BN of B per step as workgroup-scope matrices straight from the
// buffers (the driver stages them through shared memory) and accumulates in f32. The loads
// are KHR strided loads, or with `tensor_loads` SPV_NV_tensor_addressing loads of a slice of
// a 2-D tensor layout (GLSL's coopMatLoadTensorNV). M, N, K must be multiples of the block
// (the probe's sizes are). Bindings 0 A, 1 B, 2 C; push constants M, N, K (u32).
#pragma once

#include <cstdint>
#include <vector>

namespace probe {

struct WorkgroupGemm {
  // plain: each step loads its blocks, then multiplies them; prefetch: each step loads the
  // next step's blocks before it multiplies the ones loaded a step earlier; peak: the first
  // step's blocks are loaded once and every step multiplies them (C = K / BK times their
  // product: the multiply's rate without the loads).
  // staged: the loop copies the blocks itself, global -> registers -> one of two shared
  // stages (16-byte units, rows padded by one), and loads the matrices from shared memory.
  enum class Loop { plain, prefetch, peak, staged };
  std::uint32_t bm, bn, bk, invocations;
  bool tensor_loads = false;
  Loop loop = Loop::plain;
  // plain: steps written out per loop iteration (K must be a multiple of unroll BK), so the
  // driver sees later steps' loads beside this step's multiply.
  std::uint32_t unroll = 1;
  // B held transposed, [N][K] (K contiguous for both operands, as cuBLAS's TN case); strided
  // loads only, column-major.
  bool b_transposed = false;
  // staged: rows of the shared stages padded by one 16-byte unit (fewer bank conflicts in
  // the copies), or packed (the layout a driver might read directly).
  bool padded = true;
};

std::vector<std::uint32_t> workgroup_gemm_spirv(const WorkgroupGemm& g);

// The shared memory the staged loop declares (two stages of padded A and B), in bytes; 0 for
// the other loops. Every invocation copies the same number of units: the staged loop also
// needs BM BK / 8 and BK BN / 8 to be multiples of the invocations.
std::uint32_t workgroup_gemm_shared_bytes(const WorkgroupGemm& g);

}  // namespace probe
