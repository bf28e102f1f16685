// Calls the public reduce, window or scan function an Op names, so tests can loop over op lists.
// Shared by unit and golden tests.
#pragma once

#include <cstdint>

#include "vkt/vkt.h"

namespace vkt::testing {

inline Tensor run_reduce(Op op, const Tensor& t, const Axes& axes, bool keep) {
  switch (op) {
    case Op::all:
      return all(t, axes, keep);
    case Op::any:
      return any(t, axes, keep);
    case Op::sum:
      return sum(t, axes, keep);
    case Op::product:
      return product(t, axes, keep);
    case Op::reduce_max:
      return reduce_max(t, axes, keep);
    case Op::reduce_min:
      return reduce_min(t, axes, keep);
    default:
      throw Error("[run_reduce] " + std::string(op_name(op)) + " is not a reduction");
  }
}

inline Tensor run_window(Op op, const Tensor& t, const Shape& window, const WindowOptions& opts) {
  switch (op) {
    case Op::window_sum:
      return window_sum(t, window, opts);
    case Op::window_product:
      return window_product(t, window, opts);
    case Op::window_max:
      return window_max(t, window, opts);
    case Op::window_min:
      return window_min(t, window, opts);
    default:
      throw Error("[run_window] " + std::string(op_name(op)) + " is not a window op");
  }
}

inline Tensor run_scan(Op op, const Tensor& t, std::int64_t axis, bool reverse) {
  switch (op) {
    case Op::cumulative_sum:
      return cumulative_sum(t, axis, reverse);
    case Op::cumulative_product:
      return cumulative_product(t, axis, reverse);
    case Op::cumulative_max:
      return cumulative_max(t, axis, reverse);
    case Op::cumulative_min:
      return cumulative_min(t, axis, reverse);
    default:
      throw Error("[run_scan] " + std::string(op_name(op)) + " is not a cumulative op");
  }
}

}  // namespace vkt::testing
