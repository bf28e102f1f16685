// vkt::compile's row groups (FusedGroup::rows) on the cpu, block by block of whole rows
// (compiled_rows.cpp).
#pragma once

#include <memory>

#include "compile/fused_group.h"
#include "cpu/kernels.h"

namespace vkt::cpu_kernels {

// Rows up to this length: reduce.cpp then reduces each row in one piece, in a block of
// rows as in the whole tensor, so the group's reductions are eager's bit for bit.
inline constexpr std::int64_t kMaxFusedRow = 2 * kGrain - 1;

// Rows each thread needs to pay for itself: as compiled.cpp's groups, the measured streaming
// grain (host_parallel.h, from the fork/join cost) over the group's bytes per element, at
// most the compute-bound grain (kGrain elements), in whole rows of `len`, at least one.
std::int64_t row_group_grain(std::int64_t work_bytes, std::int64_t len);

// nullptr where a leaf is broadcast in a way the blocks do not read in place (the plan
// then runs the group op by op).
std::unique_ptr<detail::FusedKernel> compile_rows(const detail::FusedGroup& group);

}  // namespace vkt::cpu_kernels
