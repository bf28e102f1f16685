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
  detail::check_backends("all_close", std::vector<Tensor>{a, b});
  if (!(opts.rtol >= 0) || !(opts.atol >= 0) || std::isinf(opts.rtol) || std::isinf(opts.atol)) {
    detail::fail<Error>("all_close", "rtol " + std::to_string(opts.rtol) + " and atol " +
                                         std::to_string(opts.atol) +
                                         " must be finite and non-negative");
  }
  broadcast_shapes("all_close", a.shape(), b.shape());  // names all_close, not subtract
  const bool integers = is_integer(a.dtype()) && is_integer(b.dtype());
  // Nx widens an integer b to f64 before abs, so abs(s8 -128) does not wrap.
  const Tensor abs_b = integers ? abs(as_type(b, DType::f64)) : abs(b);
  const Tensor finite = less_equal(abs(subtract(a, b)), add(multiply(abs_b, opts.rtol), opts.atol));
  if (integers) return all(finite);
  // inf - inf is NaN: infinities count as close only when equal.
  const Tensor close = select(logical_or(is_infinity(a), is_infinity(b)), equal(a, b), finite);
  if (!opts.equal_nan) return all(close);
  return all(logical_or(logical_and(is_nan(a), is_nan(b)), close));
}

}  // namespace vkt
