// The axes a reduction folds and the shape it leaves, shared by the built-in reductions
// (ops_reduce.cpp) and reduce with a caller's function (ops_reduce_callable.cpp).
#pragma once

#include <cstdint>

#include "core/checks.h"
#include "vkt/shape.h"
#include "vkt/tensor.h"

namespace vkt::detail {

struct ReducedShape {
  Axes axes;    // normalised, sorted, unique; every axis when none were given
  Shape shape;  // t's dims left, reduced ones kept as 1 with keep_axes
};

inline ReducedShape reduced_shape(const char* op, const Tensor& t, const Axes& axes,
                                  bool keep_axes) {
  ReducedShape r{normalize_axes(op, axes, t.rank()), {}};
  if (axes.empty()) {
    for (std::int64_t a = 0; a < t.rank(); ++a) r.axes.push_back(a);
  }
  std::size_t next = 0;
  for (std::int64_t a = 0; a < t.rank(); ++a) {
    const bool is_reduced = next < r.axes.size() && r.axes[next] == a;
    if (is_reduced) ++next;
    if (!is_reduced) {
      r.shape.push_back(t.dim(a));
    } else if (keep_axes) {
      r.shape.push_back(1);
    }
  }
  return r;
}

}  // namespace vkt::detail
