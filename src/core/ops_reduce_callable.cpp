// reduce / window_reduce with a caller's C++ function (Nx.reduce, Nx.window_reduce):
// validation, out shape and dtype; the cpu backend folds (reduce_callable.cpp).
#include <cstring>
#include <string>

#include "core/checks.h"
#include "core/dispatch.h"
#include "core/reduce_shape.h"
#include "core/window_params.h"
#include "vkt/ops.h"

namespace vkt {
namespace {

// The Scalar form's fold: one std::function call per element, through Scalar.
FoldRun scalar_fold(DType dtype, const ReduceFunction& fn) {
  return visit_any_dtype(dtype, [&](auto tag) -> FoldRun {
    using T = typename decltype(tag)::type;
    return [fn](void* acc, const void* first, std::int64_t n, std::int64_t stride) {
      T a;
      std::memcpy(&a, acc, sizeof(T));
      const T* x = static_cast<const T*>(first);
      for (std::int64_t i = 0; i < n; ++i) a = fn(Scalar(x[i * stride]), Scalar(a)).as<T>();
      std::memcpy(acc, &a, sizeof(T));
    };
  });
}

void check_function(const char* op, bool defined) {
  if (!defined) detail::fail<Error>(op, "got an empty function");
}

}  // namespace

namespace detail {

Tensor reduce_with(const Tensor& t, Scalar acc, DType dtype, FoldRun fold_run, const Axes& axes,
                   bool keep_axes) {
  detail::check_defined("reduce", t);
  check_function("reduce", static_cast<bool>(fold_run));
  detail::ReducedShape r = detail::reduced_shape("reduce", t, axes, keep_axes);
  Axes reduced = std::move(r.axes);
  Shape out_shape = std::move(r.shape);
  return dispatch({Op::reduce,
                   {as_type(t, dtype)},
                   CallableReduceParams{acc, std::move(reduced), keep_axes, std::move(fold_run)},
                   dtype,
                   std::move(out_shape)});
}

Tensor window_reduce_with(const Tensor& t, Scalar acc, DType dtype, FoldRun fold_run,
                          const Shape& window, const WindowOptions& opts) {
  detail::check_defined("window_reduce", t);
  check_function("window_reduce", static_cast<bool>(fold_run));
  Shape out_shape;
  WindowParams p = window_params("window_reduce", t, window, opts, out_shape);
  return dispatch({Op::window_reduce,
                   {as_type(t, dtype)},
                   CallableWindowParams{acc, std::move(p), std::move(fold_run)},
                   dtype,
                   std::move(out_shape)});
}

}  // namespace detail

Tensor reduce(const Tensor& t, Scalar acc, const ReduceFunction& fn, const Axes& axes,
              bool keep_axes) {
  detail::check_defined("reduce", t);
  check_function("reduce", static_cast<bool>(fn));
  // Complex folds as Nx.reduce does: a complex acc makes a real tensor c64 (binary_type).
  const DType dtype = acc.weak_type_with(t.dtype());
  // A narrow dtype folds in its wide type (the function sees its values), then narrows.
  if (is_narrow(dtype)) {
    return as_type(reduce(as_type(t, wide_type(dtype)), acc, fn, axes, keep_axes), dtype);
  }
  return detail::reduce_with(t, acc, dtype, scalar_fold(dtype, fn), axes, keep_axes);
}

Tensor window_reduce(const Tensor& t, Scalar acc, const Shape& window, const WindowOptions& opts,
                     const ReduceFunction& fn) {
  detail::check_defined("window_reduce", t);
  check_function("window_reduce", static_cast<bool>(fn));
  if (is_narrow(t.dtype())) {
    return as_type(window_reduce(as_type(t, wide_type(t.dtype())), acc, window, opts, fn),
                   t.dtype());
  }
  return detail::window_reduce_with(t, acc, t.dtype(), scalar_fold(t.dtype(), fn), window, opts);
}

}  // namespace vkt
