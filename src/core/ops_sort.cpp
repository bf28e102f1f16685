// sort, argsort, top_k: validation, output shape/dtype, dispatch.
#include <string>

#include "core/checks.h"
#include "core/dispatch.h"
#include "core/top_k.h"
#include "vkt/ops.h"

namespace vkt {
namespace {

Tensor sort_like(Op op, const char* name, const Tensor& t, std::int64_t axis, Direction dir) {
  detail::check_defined(name, t);
  const DType out_dtype = op == Op::argsort ? DType::s64 : t.dtype();
  // Rank 0: one element is its own sort; the kernel treats it as a line of length 1.
  const std::int64_t a = t.rank() == 0 ? 0 : normalize_axis(name, axis, t.rank());
  return detail::dispatch({op, {t}, SortParams{a, dir == Direction::desc}, out_dtype, t.shape()});
}

}  // namespace

Tensor sort(const Tensor& t, std::int64_t axis, Direction dir) {
  if (t.defined() && t.rank() == 0) return t;
  return sort_like(Op::sort, "sort", t, axis, dir);
}

Tensor argsort(const Tensor& t, std::int64_t axis, Direction dir, DType type) {
  detail::check_defined("argsort", t);
  const std::int64_t line = t.rank() == 0 ? 1 : t.dim(normalize_axis("argsort", axis, t.rank()));
  detail::check_index_type("argsort", type, line - 1);
  const Tensor indices = sort_like(Op::argsort, "argsort", t, axis, dir);
  return type == DType::s64 ? indices : as_type(indices, type);
}

namespace detail {

Tensor top_k_indices(const Tensor& t, std::int64_t k) {
  check_defined("top_k", t);
  if (t.rank() < 1) {
    fail<ShapeError>("top_k", "needs a tensor of rank >= 1, got " + describe(t));
  }
  const std::int64_t dim = t.shape().back();
  if (k < 0 || k > dim) {
    fail<ShapeError>("top_k", "k = " + std::to_string(k) + " must be in [0, " +
                                  std::to_string(dim) + "] (the last dim of shape " +
                                  shape_str(t.shape()) + ")");
  }
  Shape out_shape = t.shape();
  out_shape.back() = k;
  return dispatch({Op::top_k, {t}, TopKParams{k}, DType::s64, out_shape});
}

}  // namespace detail

}  // namespace vkt
