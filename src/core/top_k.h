// top_k's validated index computation, shared by top_k() (ops_topk.cpp) and tests.
#pragma once

#include <cstdint>

#include "vkt/tensor.h"

namespace vkt::detail {

// The s64 indices of the k largest along the last axis, largest first (ties: lower index
// first; NaN is the largest). Throws ShapeError for rank 0 or k outside [0, last dim].
Tensor top_k_indices(const Tensor& t, std::int64_t k);

}  // namespace vkt::detail
