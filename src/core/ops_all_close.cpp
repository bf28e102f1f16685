// all_close: Nx.all_close composed from elementwise ops and `all`, so it runs wherever
// they run (natively on a device) and returns a u8 scalar there.
#include <cmath>
#include <string>

#include "core/checks.h"
#include "vkt/ops.h"

namespace vkt {

Tensor all_close(const Tensor& a, const Tensor& b, const AllCloseOptions& opts) {
  detail::check_defined("all_close", a);
  detail::check_defined("all_close", b);
  detail::check_backends("all_close", {a, b});
  if (!(opts.rtol >= 0) || !(opts.atol >= 0) || std::isinf(opts.rtol) || std::isinf(opts.atol)) {
    detail::fail<Error>("all_close", "rtol " + std::to_string(opts.rtol) + " and atol " +
                                         std::to_string(opts.atol) +
                                         " must be finite and non-negative");
  }
  broadcast_shapes("all_close", a.shape(), b.shape());  // names all_close, not subtract
  if (is_integer(a.dtype()) && is_integer(b.dtype())) {
    // In f64, as NumPy does: Nx subtracts in the integer type, where u8 3 - 4 wraps to 255
    // and s8 127 - -128 to -1, so its answer there is an artifact of the wrap.
    const Tensor a64 = as_type(a, DType::f64), b64 = as_type(b, DType::f64);
    return all(less_equal(abs(subtract(a64, b64)), add(multiply(abs(b64), opts.rtol), opts.atol)));
  }
  const Tensor finite =
      less_equal(abs(subtract(a, b)), add(multiply(abs(b), opts.rtol), opts.atol));
  // inf - inf is NaN: infinities count as close only when equal.
  const Tensor close = select(logical_or(is_infinity(a), is_infinity(b)), equal(a, b), finite);
  if (!opts.equal_nan) return all(close);
  return all(logical_or(logical_and(is_nan(a), is_nan(b)), close));
}

}  // namespace vkt
