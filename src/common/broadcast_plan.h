// The iteration space of a broadcast binary op, shared by the cpu and Vulkan kernels (each
// backend used to carry its own copy): output dims with size-1 axes dropped and adjacent
// axes merged where both inputs are laid out alike. Input strides are 0 along a broadcast
// axis, so the innermost stride of each input is 0 or 1.
#pragma once

#include <cstdint>

#include "common/small_dims.h"
#include "vkt/shape.h"

namespace vkt::common {

struct BroadcastPlan {
  SmallDims dims, a_strides, b_strides;
};

// Never empty: rank 0 or all-ones outputs are one element, dims {1} with strides {0}.
inline BroadcastPlan plan_broadcast(const Shape& a, const Shape& b, const Shape& out) {
  const std::size_t rank = out.size();
  // Row-major strides of s right-aligned to the output's rank; 0 along size-1 axes.
  auto strides_for = [&](const Shape& s) {
    SmallDims st(rank, 0);
    std::int64_t stride = 1;
    for (std::size_t k = 0; k < s.size(); ++k) {
      const std::size_t axis = s.size() - 1 - k, out_axis = rank - 1 - k;
      if (s[axis] != 1) st[out_axis] = stride;
      stride *= s[axis];
    }
    return st;
  };
  const SmallDims sa = strides_for(a), sb = strides_for(b);
  BroadcastPlan plan;
  for (std::size_t d = 0; d < rank; ++d) {
    if (out[d] == 1) continue;
    if (!plan.dims.empty() && plan.a_strides.back() == sa[d] * out[d] &&
        plan.b_strides.back() == sb[d] * out[d]) {
      plan.dims.back() *= out[d];  // contiguous with the previous axis in both inputs
      plan.a_strides.back() = sa[d];
      plan.b_strides.back() = sb[d];
      continue;
    }
    plan.dims.push_back(out[d]);
    plan.a_strides.push_back(sa[d]);
    plan.b_strides.push_back(sb[d]);
  }
  if (plan.dims.empty()) {
    plan.dims = {1};
    plan.a_strides = {0};
    plan.b_strides = {0};
  }
  return plan;
}

}  // namespace vkt::common
