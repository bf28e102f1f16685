// Window reductions (sum, product, max, min): window shape, strides, padding, dilations.
#include <string>

#include "core/checks.h"
#include "core/dispatch.h"
#include "core/window_params.h"
#include "vkt/ops.h"

namespace vkt {
namespace {

std::string pairs_str(const std::vector<std::pair<std::int64_t, std::int64_t>>& pairs) {
  std::string s = "{";
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (i > 0) s += ", ";
    s += "{" + std::to_string(pairs[i].first) + ", " + std::to_string(pairs[i].second) + "}";
  }
  return s + "}";
}

// An option left empty means its default on every axis; otherwise it needs one entry per
// axis, each >= `min`.
std::vector<std::int64_t> per_axis(const std::string& op, const char* what,
                                   const std::vector<std::int64_t>& given, std::int64_t rank,
                                   std::int64_t min) {
  if (given.empty()) return std::vector<std::int64_t>(static_cast<std::size_t>(rank), 1);
  if (static_cast<std::int64_t>(given.size()) != rank) {
    detail::fail<ShapeError>(op, std::string(what) + " " + shape_str(given) + " need " +
                                     std::to_string(rank) + " entries (the tensor's rank)");
  }
  for (std::int64_t v : given) {
    if (v < min) {
      detail::fail<ShapeError>(op, std::string(what) + " " + shape_str(given) +
                                       " must all be >= " + std::to_string(min));
    }
  }
  return given;
}

}  // namespace

namespace detail {
WindowParams window_params(const std::string& name, const Tensor& t, const Shape& window,
                           const WindowOptions& opts, Shape& out_shape) {
  detail::check_defined(name, t);
  const std::int64_t rank = t.rank();
  if (static_cast<std::int64_t>(window.size()) != rank) {
    detail::fail<ShapeError>(name, "window " + shape_str(window) + " must have the rank of the " +
                                       "input " + detail::describe(t));
  }
  for (std::int64_t w : window) {
    if (w < 1) {
      detail::fail<ShapeError>(name, "window " + shape_str(window) + " must have sizes >= 1");
    }
  }
  WindowParams p;
  p.dims = window;
  p.strides = per_axis(name, "strides", opts.strides, rank, 1);
  p.dilations = per_axis(name, "dilations", opts.dilations, rank, 1);
  if (opts.padding.empty()) {
    p.padding.assign(static_cast<std::size_t>(rank), {0, 0});
  } else {
    if (static_cast<std::int64_t>(opts.padding.size()) != rank) {
      detail::fail<ShapeError>(name, "padding " + pairs_str(opts.padding) + " needs " +
                                         std::to_string(rank) + " entries (the tensor's rank)");
    }
    for (const auto& [lo, hi] : opts.padding) {
      if (lo < 0 || hi < 0) {
        detail::fail<ShapeError>(name,
                                 "padding " + pairs_str(opts.padding) + " must be non-negative");
      }
    }
    p.padding = opts.padding;
  }
  // Per axis: floor((padded dim - dilated window) / stride) + 1, and 0 when the window
  // does not fit (an empty result, as NumPy and XLA give).
  out_shape.assign(static_cast<std::size_t>(rank), 0);
  for (std::size_t a = 0; a < out_shape.size(); ++a) {
    const std::string where = "axis " + std::to_string(a);
    const std::int64_t padded = detail::checked_add(
        name, "the padded size of " + where,
        detail::checked_add(name, "the padded size of " + where, t.shape()[a], p.padding[a].first),
        p.padding[a].second);
    const std::int64_t span = detail::checked_add(
        name, "the dilated window of " + where,
        detail::checked_mul(name, "the dilated window of " + where, window[a] - 1, p.dilations[a]),
        1);
    out_shape[a] = padded < span ? 0 : (padded - span) / p.strides[a] + 1;
  }
  return p;
}
}  // namespace detail

namespace {
Tensor window(Op op, const Tensor& t, const Shape& window, const WindowOptions& opts) {
  Shape out_shape;
  WindowParams p = detail::window_params(std::string(op_name(op)), t, window, opts, out_shape);
  return detail::dispatch({op, {t}, std::move(p), t.dtype(), std::move(out_shape)});
}
}  // namespace

Tensor window_sum(const Tensor& t, const Shape& w, const WindowOptions& opts) {
  return window(Op::window_sum, t, w, opts);
}
Tensor window_product(const Tensor& t, const Shape& w, const WindowOptions& opts) {
  return window(Op::window_product, t, w, opts);
}
Tensor window_max(const Tensor& t, const Shape& w, const WindowOptions& opts) {
  return window(Op::window_max, t, w, opts);
}
Tensor window_min(const Tensor& t, const Shape& w, const WindowOptions& opts) {
  return window(Op::window_min, t, w, opts);
}

}  // namespace vkt
