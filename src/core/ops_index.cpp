// Indexing ops: gather, take, take_along_axis, select, clip, indexed_add, indexed_put.
// Indices of any integer dtype are cast to s64 here; the kernels clamp them (gather, take,
// take_along_axis) or skip out-of-range rows (indexed_add/put).
//
// select and clip: the core broadcasts every input to the output shape with broadcast()
// (a no-op for inputs already of that shape), so kernels see equal shapes only; except
// clip's bounds, which stay one element when they are one (clip(x, 0, 1) must not make
// and move two tensors of x's size): kernels read element 0 of a one-element bound.
#include <algorithm>
#include <string>

#include "core/checks.h"
#include "core/dispatch.h"
#include "vkt/ops.h"

namespace vkt {
namespace {

Tensor s64_indices(const char* op, const Tensor& indices) {
  if (!is_integer(indices.dtype())) {
    detail::fail<TypeError>(op,
                            "indices must have an integer dtype, got " + detail::describe(indices));
  }
  return as_type(indices, DType::s64);
}

// Normalised, unique axes in the given order (their order pairs them with index columns).
Axes index_axes(const char* op, const Axes& axes, std::int64_t k, const Tensor& t) {
  Axes out;
  if (axes.empty()) {
    if (k > t.rank()) {
      detail::fail<ShapeError>(op, "indices address " + std::to_string(k) +
                                       " axes but the tensor " + shape_str(t.shape()) +
                                       " has rank " + std::to_string(t.rank()));
    }
    for (std::int64_t i = 0; i < k; ++i) out.push_back(i);
    return out;
  }
  if (static_cast<std::int64_t>(axes.size()) != k) {
    detail::fail<ShapeError>(op, "axes " + shape_str(axes) + " has " + std::to_string(axes.size()) +
                                     " entries but the indices' last axis has size " +
                                     std::to_string(k));
  }
  for (std::int64_t a : axes) {
    const std::int64_t n = normalize_axis(op, a, t.rank());
    if (std::find(out.begin(), out.end(), n) != out.end()) {
      detail::fail<AxisError>(op, "axes " + shape_str(axes) + " repeat axis " + std::to_string(n));
    }
    out.push_back(n);
  }
  return out;
}

// t's dims not in `axes`, in order.
Shape remaining_dims(const Tensor& t, const Axes& axes) {
  Shape rest;
  for (std::int64_t i = 0; i < t.rank(); ++i) {
    if (std::find(axes.begin(), axes.end(), i) == axes.end()) rest.push_back(t.dim(i));
  }
  return rest;
}

// Clamping needs at least one valid position: an empty axis cannot be indexed.
void check_indexable(const char* op, const Tensor& t, const Axes& axes, std::int64_t count) {
  if (count == 0) return;
  for (std::int64_t a : axes) {
    if (t.dim(a) == 0) {
      detail::fail<ShapeError>(op, "cannot index axis " + std::to_string(a) +
                                       " of size 0 in shape " + shape_str(t.shape()));
    }
  }
}

Tensor indexed_update(Op op, const Tensor& t, const Tensor& indices, const Tensor& updates,
                      const Axes& axes) {
  const char* name = op == Op::indexed_add ? "indexed_add" : "indexed_put";
  detail::check_defined(name, t);
  detail::check_defined(name, indices);
  detail::check_defined(name, updates);
  detail::check_backends(name, {t, indices, updates});
  if (indices.rank() != 2) {
    detail::fail<ShapeError>(name,
                             "indices must have shape {m, k}, got " + shape_str(indices.shape()));
  }
  const Tensor idx = s64_indices(name, indices);
  const Axes ax = index_axes(name, axes, indices.dim(1), t);
  Shape expected = remaining_dims(t, ax);
  expected.insert(expected.begin(), indices.dim(0));
  if (updates.shape() != expected) {
    detail::fail<ShapeError>(name, "updates of shape " + shape_str(updates.shape()) +
                                       " do not match " + shape_str(expected) + " (indices " +
                                       shape_str(indices.shape()) + ", tensor " +
                                       shape_str(t.shape()) + ")");
  }
  const DType dtype = op == Op::indexed_add ? promote(t.dtype(), updates.dtype()) : t.dtype();
  const Tensor base = as_type(t, dtype);
  if (updates.size() == 0) return base;
  return detail::dispatch(
      {op, {base, idx, as_type(updates, dtype)}, GatherParams{ax}, dtype, t.shape()});
}

Tensor broadcast_to(const Tensor& t, const Shape& shape, DType dtype) {
  return broadcast(as_type(t, dtype), shape);
}

}  // namespace

Tensor gather(const Tensor& t, const Tensor& indices, const Axes& axes) {
  detail::check_defined("gather", t);
  detail::check_defined("gather", indices);
  detail::check_backends("gather", {t, indices});
  if (indices.rank() < 1) {
    detail::fail<ShapeError>("gather", "indices must have rank >= 1, got shape {}");
  }
  const Tensor idx = s64_indices("gather", indices);
  const Axes ax = index_axes("gather", axes, indices.shape().back(), t);
  Shape out(indices.shape().begin(), indices.shape().end() - 1);
  check_indexable("gather", t, ax, numel(out));
  const Shape rest = remaining_dims(t, ax);
  out.insert(out.end(), rest.begin(), rest.end());
  return detail::dispatch({Op::gather, {t, idx}, GatherParams{ax}, t.dtype(), out});
}

Tensor take(const Tensor& t, const Tensor& indices, std::int64_t axis) {
  detail::check_defined("take", t);
  detail::check_defined("take", indices);
  detail::check_backends("take", {t, indices});
  const Tensor idx = s64_indices("take", indices);
  const std::int64_t a = normalize_axis("take", axis, t.rank());
  check_indexable("take", t, {a}, indices.size());
  Shape out(t.shape().begin(), t.shape().begin() + a);
  out.insert(out.end(), indices.shape().begin(), indices.shape().end());
  out.insert(out.end(), t.shape().begin() + a + 1, t.shape().end());
  return detail::dispatch({Op::take, {t, idx}, AxisParams{a}, t.dtype(), out});
}

Tensor take_along_axis(const Tensor& t, const Tensor& indices, std::int64_t axis) {
  detail::check_defined("take_along_axis", t);
  detail::check_defined("take_along_axis", indices);
  detail::check_backends("take_along_axis", {t, indices});
  const Tensor idx = s64_indices("take_along_axis", indices);
  const std::int64_t a = normalize_axis("take_along_axis", axis, t.rank());
  bool ok = indices.rank() == t.rank();
  for (std::int64_t i = 0; ok && i < t.rank(); ++i) ok = i == a || indices.dim(i) == t.dim(i);
  if (!ok) {
    detail::fail<ShapeError>("take_along_axis", "indices of shape " + shape_str(indices.shape()) +
                                                    " must match the tensor " +
                                                    shape_str(t.shape()) + " on every axis but " +
                                                    std::to_string(a));
  }
  check_indexable("take_along_axis", t, {a}, indices.size());
  return detail::dispatch(
      {Op::take_along_axis, {t, idx}, AxisParams{a}, t.dtype(), indices.shape()});
}

Tensor select(const Tensor& pred, const Tensor& on_true, const Tensor& on_false) {
  detail::check_defined("select", pred);
  detail::check_defined("select", on_true);
  detail::check_defined("select", on_false);
  detail::check_backends("select", {pred, on_true, on_false});
  const Shape shape = broadcast_shapes(
      "select", broadcast_shapes("select", pred.shape(), on_true.shape()), on_false.shape());
  const DType dtype = promote(on_true.dtype(), on_false.dtype());
  // A one-element operand stays one element (backends read it at 0), as clip's bounds: a
  // literal branch is neither broadcast to the whole shape nor uploaded at that size.
  auto branch = [&](const Tensor& b) {
    return b.size() == 1 ? as_type(reshape(b, {}), dtype) : broadcast_to(b, shape, dtype);
  };
  return detail::dispatch({Op::select,
                           {pred.size() == 1 ? reshape(pred, {}) : broadcast(pred, shape),
                            branch(on_true), branch(on_false)},
                           NoParams{},
                           dtype,
                           shape});
}

Tensor clip(const Tensor& t, const Tensor& lo, const Tensor& hi) {
  detail::check_defined("clip", t);
  detail::check_defined("clip", lo);
  detail::check_defined("clip", hi);
  detail::check_backends("clip", {t, lo, hi});
  const Shape shape =
      broadcast_shapes("clip", broadcast_shapes("clip", t.shape(), lo.shape()), hi.shape());
  const DType dtype = promote(promote(t.dtype(), lo.dtype()), hi.dtype());
  auto bound = [&](const Tensor& b) {
    return b.size() == 1 ? as_type(reshape(b, {}), dtype) : broadcast_to(b, shape, dtype);
  };
  return detail::dispatch(
      {Op::clip, {broadcast_to(t, shape, dtype), bound(lo), bound(hi)}, NoParams{}, dtype, shape});
}

Tensor clip(const Tensor& t, Scalar lo, Scalar hi) {
  detail::check_defined("clip", t);
  return clip(t, scalar_tensor(lo, lo.weak_type_with(t.dtype()), &cpu()),
              scalar_tensor(hi, hi.weak_type_with(t.dtype()), &cpu()));
}

Tensor indexed_add(const Tensor& t, const Tensor& indices, const Tensor& updates,
                   const Axes& axes) {
  return indexed_update(Op::indexed_add, t, indices, updates, axes);
}

Tensor indexed_put(const Tensor& t, const Tensor& indices, const Tensor& updates,
                   const Axes& axes) {
  return indexed_update(Op::indexed_put, t, indices, updates, axes);
}

}  // namespace vkt
