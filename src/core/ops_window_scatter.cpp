// window_scatter_max / window_scatter_min (Nx): validation and shapes; kernels per backend.
#include <string>

#include "core/checks.h"
#include "core/dispatch.h"
#include "core/window_params.h"
#include "vkt/ops.h"

namespace vkt {
namespace {

Tensor window_scatter(Op op, const Tensor& t, const Tensor& source, Scalar init_value,
                      const Shape& window, const WindowOptions& opts) {
  const std::string name(op_name(op));
  detail::check_defined(name, t);
  detail::check_defined(name, source);
  detail::check_backends(name, std::vector<Tensor>{t, source});
  Shape windows;
  WindowParams p = detail::window_params(name, t, window, opts, windows);
  if (source.shape() != windows) {
    detail::fail<ShapeError>(name, "source shape " + shape_str(source.shape()) +
                                       " must match the window output shape " + shape_str(windows) +
                                       " of " + detail::describe(t));
  }
  const DType out = init_value.weak_type_with(source.dtype());
  return detail::dispatch({op,
                           {t, as_type(source, out)},
                           WindowScatterParams{std::move(p), init_value},
                           out,
                           t.shape()});
}

using ScalarInitScatter = Tensor (*)(const Tensor&, const Tensor&, Scalar, const Shape&,
                                     const WindowOptions&);

// A tensor init (Nx's form) from public ops: the sources summed from 0, then init added where
// any landed. The hit count sums f32 ones, which stop at 2^24 and so never wrap back to 0.
Tensor window_scatter(Op op, ScalarInitScatter scatter, const Tensor& t, const Tensor& source,
                      const Tensor& init_value, const Shape& window, const WindowOptions& opts) {
  const std::string name(op_name(op));
  detail::check_defined(name, t);
  detail::check_defined(name, source);
  detail::check_rank_zero(name, "init_value", init_value);
  detail::check_backends(name, {t, source, init_value});
  const DType out = promote(source.dtype(), init_value.dtype());
  const Tensor sums = scatter(t, as_type(source, out), 0, window, opts);
  const Tensor hits =
      scatter(t, full(source.shape(), 1, DType::f32, &source.backend()), 0, window, opts);
  const Tensor init = as_type(init_value, out);
  return select(hits, add(init, sums), init);
}

}  // namespace

Tensor window_scatter_max(const Tensor& t, const Tensor& source, Scalar init_value,
                          const Shape& window, const WindowOptions& opts) {
  return window_scatter(Op::window_scatter_max, t, source, init_value, window, opts);
}
Tensor window_scatter_min(const Tensor& t, const Tensor& source, Scalar init_value,
                          const Shape& window, const WindowOptions& opts) {
  return window_scatter(Op::window_scatter_min, t, source, init_value, window, opts);
}
Tensor window_scatter_max(const Tensor& t, const Tensor& source, const Tensor& init_value,
                          const Shape& window, const WindowOptions& opts) {
  return window_scatter(Op::window_scatter_max, &window_scatter_max, t, source, init_value, window,
                        opts);
}
Tensor window_scatter_min(const Tensor& t, const Tensor& source, const Tensor& init_value,
                          const Shape& window, const WindowOptions& opts) {
  return window_scatter(Op::window_scatter_min, &window_scatter_min, t, source, init_value, window,
                        opts);
}

}  // namespace vkt
