// Cumulative scans (sum, product, min, max) along one axis, forward or reverse.
#include <string>

#include "core/checks.h"
#include "core/dispatch.h"
#include "vkt/ops.h"

namespace vkt {
namespace {

Tensor cumulative(Op op, const Tensor& t, std::int64_t axis, bool reverse) {
  const std::string name(op_name(op));
  detail::check_defined(name, t);
  const std::int64_t a = normalize_axis(name.c_str(), axis, t.rank());
  // Output dtype = input dtype: integer scans wrap like the elementwise ops.
  return detail::dispatch({op, {t}, CumulativeParams{a, reverse}, t.dtype(), t.shape()});
}

}  // namespace

Tensor cumulative_sum(const Tensor& t, std::int64_t axis, bool reverse) {
  return cumulative(Op::cumulative_sum, t, axis, reverse);
}
Tensor cumulative_product(const Tensor& t, std::int64_t axis, bool reverse) {
  return cumulative(Op::cumulative_product, t, axis, reverse);
}
Tensor cumulative_min(const Tensor& t, std::int64_t axis, bool reverse) {
  return cumulative(Op::cumulative_min, t, axis, reverse);
}
Tensor cumulative_max(const Tensor& t, std::int64_t axis, bool reverse) {
  return cumulative(Op::cumulative_max, t, axis, reverse);
}

}  // namespace vkt
