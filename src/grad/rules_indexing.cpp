// Derivative rules of the ops that read elements by position (gather, take,
// take_along_axis, put_slice, indexed_add/put, clip, sort, cumulative_max/min): each sends a
// cotangent back to the element it was read from, with indexed_add, so duplicate reads
// accumulate and the pass stays on the device.
#include <algorithm>
#include <cmath>

#include "grad/rules.h"
#include "vkt/ops.h"

namespace vkt::detail {
namespace {

using Tensors = std::vector<Tensor>;

Tensor zeros_like(const Tensor& t, DType dtype) {
  return full(t.shape(), 0, dtype, &t.backend());
}

// The size of each of t's `axes` plus `offset`, as s64 to compare index rows {m, k} with:
// a rank-0 fill for one axis (no transfer: the common take and embedding case), else the k
// values uploaded.
Tensor axis_limits(const Shape& t_shape, const Axes& axes, std::int64_t offset, Backend& b) {
  std::vector<std::int64_t> limits;
  for (std::int64_t a : axes) limits.push_back(t_shape[static_cast<std::size_t>(a)] + offset);
  if (limits.size() == 1) return full({}, limits[0], DType::s64, &b);
  return from_vector<std::int64_t>(limits, {static_cast<std::int64_t>(limits.size())}, &b);
}

// Index rows {m, k} for t's `axes`, clamped into range as gather and take clamp them
// (indexed_add would skip an out-of-range row instead).
Tensor clamped_rows(const Tensor& indices, const Shape& t_shape, const Axes& axes) {
  const std::int64_t k = static_cast<std::int64_t>(axes.size());
  const Tensor rows = reshape(indices, {indices.size() / std::max<std::int64_t>(k, 1), k});
  return clip(rows, full({}, 0, DType::s64, &indices.backend()),
              axis_limits(t_shape, axes, -1, indices.backend()));
}

// 1 (in `dtype`) for each index row {m, k} inside t's `axes`: indexed_add/put skip the rest.
Tensor rows_in_range(const Tensor& rows, const Shape& t_shape, const Axes& axes, DType dtype) {
  const Tensor ok = logical_and(greater_equal(rows, full({}, 0, DType::s64, &rows.backend())),
                                less(rows, axis_limits(t_shape, axes, 0, rows.backend())));
  return as_type(all(ok, {1}), dtype);
}

// The cotangent of t for an op that read t at the (in-range) index rows {m, k} of `axes`:
// g's rows added where they were read.
Tensor scatter_rows(const Tensor& g, const Tensor& rows, const Shape& t_shape, const Axes& axes) {
  Shape updates{rows.dim(0)};
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(t_shape.size()); ++i) {
    if (std::find(axes.begin(), axes.end(), i) == axes.end()) {
      updates.push_back(t_shape[static_cast<std::size_t>(i)]);
    }
  }
  return indexed_add(full(t_shape, 0, g.dtype(), &g.backend()), rows, reshape(g, updates), axes);
}

// The cotangent of t for out = gather(t, indices, axes).
Tensor gather_cotangent(const Tensor& g, const Tensor& indices, const Shape& t_shape,
                        const Axes& axes) {
  return scatter_rows(g, clamped_rows(indices, t_shape, axes), t_shape, axes);
}

Tensors d_gather(const RuleArgs& r) {
  const Axes& axes = std::get<GatherParams>(r.node.params).axes;
  return {gather_cotangent(r.g, r.in[1], r.in[0].shape(), axes), Tensor()};
}

// take(t, idx, axis): out = t[:a] ++ idx.shape ++ t[a+1:]; g's index axes go first to be
// the update rows of t's axis a.
Tensors d_take(const RuleArgs& r) {
  const std::int64_t a = std::get<AxisParams>(r.node.params).axis;
  const Tensor& idx = r.in[1];
  const std::int64_t n = idx.rank();
  Axes perm;
  for (std::int64_t i = 0; i < n; ++i) perm.push_back(a + i);
  for (std::int64_t i = 0; i < r.g.rank(); ++i) {
    if (i < a || i >= a + n) perm.push_back(i);
  }
  const Tensor rows_first = transpose(r.g, perm);
  return {gather_cotangent(rows_first, reshape(idx, {idx.size(), 1}), r.in[0].shape(), {a}),
          Tensor()};
}

// Every element's full coordinates in t {m, rank}: the indices along `axis` clamped as
// take_along_axis clamps them, iota elsewhere (in range by construction).
Tensor along_axis_rows(const Tensor& idx, std::int64_t axis, std::int64_t dim) {
  Tensors columns;
  for (std::int64_t d = 0; d < idx.rank(); ++d) {
    columns.push_back(d == axis ? clip(idx, full({}, 0, DType::s64, &idx.backend()),
                                       full({}, dim - 1, DType::s64, &idx.backend()))
                                : iota(idx.shape(), DType::s64, d, &idx.backend()));
  }
  return reshape(stack(columns, idx.rank()), {idx.size(), idx.rank()});
}

Tensor take_along_axis_cotangent(const Tensor& g, const Tensor& idx, const Shape& t_shape,
                                 std::int64_t axis) {
  Axes all_axes;
  for (std::int64_t d = 0; d < static_cast<std::int64_t>(t_shape.size()); ++d) {
    all_axes.push_back(d);
  }
  const Tensor rows = along_axis_rows(idx, axis, t_shape[static_cast<std::size_t>(axis)]);
  return scatter_rows(g, rows, t_shape, all_axes);
}

Tensors d_take_along_axis(const RuleArgs& r) {
  const std::int64_t a = std::get<AxisParams>(r.node.params).axis;
  return {take_along_axis_cotangent(r.g, r.in[1], r.in[0].shape(), a), Tensor()};
}

// Nx: the update's region of g goes to the update, the rest to t.
Tensors d_put_slice(const RuleArgs& r) {
  const auto& start = std::get<PutSliceParams>(r.node.params).start;
  const Tensor& update = r.in[1];
  std::vector<std::int64_t> lengths(update.shape().begin(), update.shape().end());
  return {put_slice(r.g, start, zeros_like(update, r.g.dtype())), slice(r.g, start, lengths)};
}

// indexed_add/put(t, rows {m, k}, updates {m, ...}, axes) with the core's axes: t's first k
// axes unless the params name them (the core passes them normalised in GatherParams).
Axes indexed_axes(const RuleArgs& r) {
  return std::get<GatherParams>(r.node.params).axes;
}

// An empty indexed axis: no row was written.
bool every_row_skipped(const RuleArgs& r) {
  const Axes axes = indexed_axes(r);
  return std::any_of(axes.begin(), axes.end(), [&](std::int64_t a) { return r.in[0].dim(a) == 0; });
}

// Each update row's cotangent: g where the row was written, zero for a skipped row.
Tensor update_cotangent(const RuleArgs& r, const Tensor& g) {
  const Tensor& t = r.in[0];
  const Tensor& rows = r.in[1];
  const Tensor& updates = r.in[2];
  const Axes axes = indexed_axes(r);
  if (every_row_skipped(r)) return zeros_like(updates, g.dtype());
  const Tensor read = reshape(gather(g, rows, axes), updates.shape());
  Shape keep(static_cast<std::size_t>(updates.rank()), 1);
  keep[0] = updates.dim(0);
  return multiply(read, reshape(rows_in_range(rows, t.shape(), axes, g.dtype()), keep));
}

Tensors d_indexed_add(const RuleArgs& r) {
  return {r.g, Tensor(), update_cotangent(r, r.g)};
}

// indexed_put writes rows in order, the last write to a place winning: t keeps g where no
// row wrote, and only the winning row of each place gets its cotangent.
Tensors d_indexed_put(const RuleArgs& r) {
  const Tensor& rows = r.in[1];
  const Tensor& updates = r.in[2];
  const Axes axes = indexed_axes(r);
  if (every_row_skipped(r)) return {r.g, Tensor(), zeros_like(updates, r.g.dtype())};
  const Tensor t_part = indexed_put(r.g, rows, zeros_like(updates, r.g.dtype()), axes);
  // Each place's winner: the row numbers put into a tensor over the indexed axes.
  Shape places;
  Axes place_axes;
  for (std::size_t j = 0; j < axes.size(); ++j) {
    places.push_back(r.in[0].dim(axes[j]));
    place_axes.push_back(static_cast<std::int64_t>(j));
  }
  const std::int64_t m = rows.dim(0);
  const Tensor row_numbers = iota({m}, DType::s64, std::nullopt, &rows.backend());
  const Tensor winners =
      indexed_put(full(places, -1, DType::s64, &rows.backend()), rows, row_numbers, place_axes);
  const Tensor won = as_type(equal(gather(winners, rows, place_axes), row_numbers), r.g.dtype());
  Shape keep(static_cast<std::size_t>(updates.rank()), 1);
  keep[0] = m;
  return {t_part, Tensor(), multiply(update_cotangent(r, r.g), reshape(won, keep))};
}

// As the forward computes it, v = x < lo ? lo : x, then v > hi ? hi : v: x gets g where
// neither replaced it (so at the bounds, as Nx; and past a NaN bound, which compares false),
// lo where it replaced x and hi did not replace it (lo > hi gives hi), hi where it did.
Tensors d_clip(const RuleArgs& r) {
  const Tensor& x = r.in[0];
  const Tensor& lo = r.in[1];
  const Tensor& hi = r.in[2];
  const Tensor zero = scalar_like(r.g, 0);
  const Tensor below = less(x, lo);
  const Tensor above = greater(select(below, lo, x), hi);
  const Tensor lo_holds = logical_and(below, logical_not(greater(lo, hi)));
  return {select(logical_or(below, above), zero, r.g),
          unbroadcast(select(lo_holds, r.g, zero), lo.shape()),
          unbroadcast(select(above, r.g, zero), hi.shape())};
}

// Nx: g put back through the inverse of the (stable) sorting permutation.
Tensors d_sort(const RuleArgs& r) {
  const auto& p = std::get<SortParams>(r.node.params);
  const Tensor order =
      argsort(r.in[0], p.axis, p.descending ? Direction::desc : Direction::asc, DType::s64);
  return {take_along_axis(r.g, argsort(order, p.axis, Direction::asc, DType::s64), p.axis)};
}

// cumulative_max/min: each output's cotangent goes to the element it holds, the first of
// equal values in scan order (where a new extreme begins strictly). Nx differentiates its
// scan tree instead, which splits ties by the tree's shape; equal for distinct values.
Tensors d_cumulative_extreme(const RuleArgs& r) {
  const auto& p = std::get<CumulativeParams>(r.node.params);
  const bool is_max = r.node.op == Op::cumulative_max;
  const Tensor& x = r.in[0];
  const Tensor& y = r.out;
  const std::int64_t a = p.axis;
  const std::int64_t n = x.dim(a);
  // The extreme so far before each element, in scan order (+-infinity before the first).
  std::vector<PadAxis> shift(static_cast<std::size_t>(x.rank()));
  shift[static_cast<std::size_t>(a)] = p.reverse ? PadAxis{-1, 1, 0} : PadAxis{1, -1, 0};
  const double before_all = is_max ? -INFINITY : INFINITY;
  const Tensor previous = pad(y, before_all, shift);
  const Tensor starts = is_max ? greater(x, previous) : less(x, previous);
  const Tensor position = iota(x.shape(), DType::s64, a, &x.backend());
  // Each output's source: the latest start at or before it in scan order.
  const Tensor source =
      p.reverse
          ? cumulative_min(select(starts, position, full({}, n, DType::s64, &x.backend())), a, true)
          : cumulative_max(select(starts, position, full({}, -1, DType::s64, &x.backend())), a,
                           false);
  return {take_along_axis_cotangent(r.g, source, x.shape(), a)};
}

}  // namespace

Rule indexing_rule(Op op) {
  switch (op) {
    case Op::gather:
      return d_gather;
    case Op::take:
      return d_take;
    case Op::take_along_axis:
      return d_take_along_axis;
    case Op::put_slice:
      return d_put_slice;
    case Op::indexed_add:
      return d_indexed_add;
    case Op::indexed_put:
      return d_indexed_put;
    case Op::clip:
      return d_clip;
    case Op::sort:
      return d_sort;
    case Op::cumulative_max:
    case Op::cumulative_min:
      return d_cumulative_extreme;
    default:
      return nullptr;
  }
}

}  // namespace vkt::detail
