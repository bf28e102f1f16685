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

}  // namespace

Tensor window_scatter_max(const Tensor& t, const Tensor& source, Scalar init_value,
                          const Shape& window, const WindowOptions& opts) {
  return window_scatter(Op::window_scatter_max, t, source, init_value, window, opts);
}
Tensor window_scatter_min(const Tensor& t, const Tensor& source, Scalar init_value,
                          const Shape& window, const WindowOptions& opts) {
  return window_scatter(Op::window_scatter_min, t, source, init_value, window, opts);
}

}  // namespace vkt
