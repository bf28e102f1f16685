// Shared by the decompositions and solvers (ops_linalg_factor.cpp, ops_linalg_solve.cpp):
// their shape checks, the dtype LAPACK runs in, and the unpacking of a packed result.
#pragma once

#include <string_view>
#include <vector>

#include "vkt/tensor.h"

namespace vkt::detail {

// What the caller gets back: float, with integers as f32 (Nx's to_floating).
DType linalg_result_dtype(DType d);
// What the kernels run in: f16/bf16 are widened to f32 (LAPACK has no half precision).
DType linalg_compute_dtype(DType d);

// ShapeError unless t has rank >= 2; with `square`, also unless its last two dims agree.
void check_matrices(std::string_view op, const Tensor& t, bool square);
// t's dims but the last `trailing`.
Shape leading_dims(const Tensor& t, std::size_t trailing);

// The pieces of a packed result (batch ++ {sum of part sizes}), each reshaped to
// batch ++ its part shape and converted to `dtype`.
std::vector<Tensor> unpack_parts(const Tensor& packed, const Shape& batch,
                                 const std::vector<Shape>& parts, DType dtype);

}  // namespace vkt::detail
