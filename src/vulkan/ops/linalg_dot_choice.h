// Which GEMM kernel and tile a dot call takes (linalg.cpp dispatches it), and the overrides
// (common/settings.h) through which tests and vkt-bench force another choice:
//   dot_kernel   = auto (the rule) | tiled | reg
//   dot_tile     = <BM>x<BN>x<BK> for reg: BM, BN in {64, 128}, BK in {8, 16, 32}
//   dot_vec      = 0 turns off 4-wide (reg) and 8-wide (coopmat) global reads, and coopmat's
//                  direct fragment stores to C
//   coopmat      = 0 never / 1 always (any shape) / unset: by the rule, for f16 and bf16
//   coopmat_api  = auto (KHR where the device has it) | khr | nv: which extension f16 takes
//                  (linalg.cpp); bf16 has only KHR
//   coopmat_tile = <BM>x<BN>x<BK>:<WM>x<WN>[:<stages>] for coopmat: a BM x BN tile of C per
//                  workgroup, K steps of BK, each subgroup of 32 a WM x WN block; BM, BN in
//                  {64, 128, 192, 256}, BK in {16, 32, 64}, WM and WN multiples of 16
//                  dividing BM and BN, at most 24 fragments of 16 x 16 per subgroup and 1024
//                  invocations; stages 1 or 2 shared buffers (unset: 2 where they fit in
//                  shared memory, else 1)
// They are read at every call, so one process (a bench, a test) can compare them.
#pragma once

#include <cstdint>

#include "vkt/dtype.h"

namespace vkt::vk {

enum class DotKernel {
  tiled,    // linalg_dot.comp: every dtype, square or thin tiles, two barriers per K step
  reg,      // linalg_dot_reg.comp: float dtypes, double-buffered, vec4 shared reads
  coopmat,  // linalg_dot_coopmat.comp: f16 and bf16 on cooperative matrices (linalg.cpp)
};

// The GEMM sizes and operand strides (elements): a (batch, m, k), b (batch, k, n).
struct DotShape {
  std::int64_t batch = 0, m = 0, n = 0, k = 0;
  std::int64_t sab = 0, sam = 0, sak = 0, sbb = 0, sbk = 0, sbn = 0;
};

struct DotDevice {
  std::uint64_t shared_bytes = 16384;  // maxComputeSharedMemorySize
  bool coopmat_f16 = false;            // DeviceCaps::coopmat_nv or coopmat_khr
  bool coopmat_bf16 = false;           // DeviceCaps::coopmat_bf16
};

struct DotChoice {
  DotKernel kernel = DotKernel::tiled;
  std::uint32_t tm = 4, tn = 4, bk = 16;  // tile of C: 16*tm x 16*tn, K step bk
  bool a_k_contig = true, b_k_contig = false;
  bool a_vec = false, b_vec = false;  // wide global reads (reg: 4, coopmat: 8)
  // coopmat only: each subgroup's block of C, shared-memory buffers, and whether fragments
  // may be stored to C directly (linalg.cpp adds the output's alignment).
  std::uint32_t wm = 64, wn = 64, stages = 2;
  bool direct_c = false;
  std::uint32_t threads() const { return 32 * (16 * tm / wm) * (16 * tn / wn); }
};

// The rule without overrides: f16 and bf16 on cooperative matrices where the device has them and
// both M and N reach 64: 128 x 128 with 64 x 64 per subgroup, K steps of 64 (32 where shared
// memory is smaller), two stages where they fit (64 x 64 where 128 x 128 would give at most
// 256 tiles or shared memory is small; 64 x 128 or 128 x 64 where M or N is at most 64);
// other floats on the reg kernel wherever the tiled kernel would take a square tile (128 x
// 128 with 8 x 8 per invocation when there are at least 256 such tiles, else 64 x 64), the
// same size; thin (matrix-vector) shapes and integers on the tiled kernel. The H200
// measurements behind each choice are cited beside it in linalg_dot_choice.cpp.
// Throws vkt::Error naming the override for a bad dot_kernel, dot_tile or coopmat_tile.
DotChoice choose_dot_kernel(const DotShape& s, DType d, const DotDevice& dev);

// Shared memory the kernel needs with this choice and accumulator word size.
std::uint64_t dot_shared_bytes(const DotChoice& c, std::uint64_t word);

}  // namespace vkt::vk
