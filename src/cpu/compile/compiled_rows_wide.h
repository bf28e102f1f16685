// The cpu's fused groups' (compiled_rows.cpp, compiled.cpp) float add, subtract, multiply
// and divide in the widest vector ISA the cpu has (wide_loops.h), row by row. The backend's
// binary kernels run at the SSE2 baseline, where divide alone was a quarter of compiled
// softmax's time on an AVX-512 host; these ops round once, exactly, at any width, so the
// bits are eager's.
#pragma once

#include "cpu/kernels.h"

namespace vkt::cpu_kernels {

// The op over a block of rows {m, len} whose operands are {m, len}, {m, 1}, {1, len} or one
// element, or over a flat block {len} of operands {len} or one element; an undefined tensor where
// it does not apply (other ops, dtypes, shapes, or a cpu without AVX2), and the caller then runs
// the backend's kernel.
Tensor wide_row_binary(const OpCall& call);

}  // namespace vkt::cpu_kernels
