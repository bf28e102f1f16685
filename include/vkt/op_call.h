// OpCall: one validated op invocation as the dispatch core hands it to a backend. The core
// has already checked shapes, axes and dtypes and computed out_dtype/out_shape.
#pragma once

#include <cstdint>
#include <string_view>
#include <variant>
#include <vector>

#include "vkt/dtype.h"
#include "vkt/scalar.h"
#include "vkt/shape.h"
#include "vkt/tensor.h"

namespace vkt {

#define VKT_UNARY_OPS(X)                                                                           \
  X(exp)                                                                                           \
  X(expm1) X(log) X(log1p) X(sigmoid) X(cos) X(sin) X(tan) X(cosh) X(sinh) X(tanh) X(acos) X(asin) \
      X(atan) X(acosh) X(asinh) X(atanh) X(sqrt) X(rsqrt) X(cbrt) X(erf) X(erfc) X(erf_inv) X(abs) \
          X(bitwise_not) X(ceil) X(floor) X(round) X(negate) X(sign) X(count_leading_zeros)        \
              X(population_count) X(is_nan) X(is_infinity) X(conjugate) X(real) X(imag)

#define VKT_BINARY_OPS(X)                                                                  \
  X(add)                                                                                   \
  X(subtract) X(multiply) X(divide) X(pow) X(remainder) X(atan2) X(min) X(max) X(quotient) \
      X(bitwise_and) X(bitwise_or) X(bitwise_xor) X(left_shift) X(right_shift) X(equal)    \
          X(not_equal) X(less) X(less_equal) X(greater) X(greater_equal) X(logical_and)    \
              X(logical_or) X(logical_xor)

#define VKT_REDUCE_OPS(X) X(all) X(any) X(sum) X(product) X(reduce_max) X(reduce_min)
#define VKT_ARGREDUCE_OPS(X) X(argmax) X(argmin)
#define VKT_WINDOW_OPS(X) X(window_sum) X(window_product) X(window_max) X(window_min)
#define VKT_CUMULATIVE_OPS(X) \
  X(cumulative_sum) X(cumulative_product) X(cumulative_min) X(cumulative_max)
// Ops with a family of their own.
#define VKT_OTHER_OPS(X)                                                                    \
  X(full)                                                                                   \
  X(iota) X(eye) X(as_type) X(bitcast) X(broadcast) X(transpose) X(pad) X(reverse) X(slice) \
      X(put_slice) X(gather) X(take) X(take_along_axis) X(concatenate) X(select) X(clip)    \
          X(indexed_add) X(indexed_put) X(sort) X(argsort) X(top_k) X(dot) X(copy)

// Decompositions and solvers (LAPACK on the cpu). An op with several results (qr, lu, eigh,
// svd) returns them packed into one tensor, batch ++ {total}; the core slices them apart.
#define VKT_LINALG_OPS(X) \
  X(triangular_solve) X(cholesky) X(qr) X(lu) X(eigh) X(svd) X(solve) X(determinant)

#define VKT_ALL_OPS(X)                                                                             \
  VKT_UNARY_OPS(X)                                                                                 \
  VKT_BINARY_OPS(X) VKT_REDUCE_OPS(X) VKT_ARGREDUCE_OPS(X) VKT_WINDOW_OPS(X) VKT_CUMULATIVE_OPS(X) \
      VKT_OTHER_OPS(X) VKT_LINALG_OPS(X)

enum class Op : std::uint16_t {
#define VKT_ENUM_ENTRY(name) name,
  VKT_ALL_OPS(VKT_ENUM_ENTRY)
#undef VKT_ENUM_ENTRY
};

enum class OpFamily : std::uint8_t {
  unary,
  binary,
  reduce,
  argreduce,
  window,
  cumulative,
  creation,
  conversion,
  movement,
  indexing,
  sort,
  linalg
};

std::string_view op_name(Op op);

// How a binary op types its result (DESIGN.md section 2); the core's rules and every
// backend's kernels read it from here.
enum class BinaryKind { arithmetic, to_float, integer_only, comparison, logical };
BinaryKind binary_kind(Op op);
inline bool binary_writes_u8(Op op) {
  const BinaryKind k = binary_kind(op);
  return k == BinaryKind::comparison || k == BinaryKind::logical;
}
OpFamily op_family(Op op);
// Throws Unsupported on an unknown name.
Op op_from_name(std::string_view name);
const std::vector<Op>& all_ops();

// ---- parameters per op (inputs are in OpCall::inputs, in the order given) ----
struct NoParams {};
// full: out = value everywhere. eye: ones on the diagonal of the last two axes.
struct FullParams {
  Scalar value;
};
// iota: counts along `axis`, or over the flattened tensor when axis < 0.
struct IotaParams {
  std::int64_t axis = -1;
};
// broadcast: input axis i maps to output axis axes[i]; inputs[0] dims are 1 or equal.
struct BroadcastParams {
  Axes axes;
};
// transpose: out axis i is input axis perm[i].
struct TransposeParams {
  Axes perm;
};
struct PadAxis {
  std::int64_t lo = 0, hi = 0, interior = 0;
};
// pad: value converted to the dtype; lo/hi may be negative (crop).
struct PadParams {
  Scalar value;
  std::vector<PadAxis> config;
};
// reverse / reductions: normalised, sorted, unique axes.
struct AxesParams {
  Axes axes;
};
// slice: start already clamped so start + (len-1)*stride < dim; strides >= 1.
struct SliceParams {
  std::vector<std::int64_t> start, lengths, strides;
};
// put_slice: inputs {t, update}; start clamped so the update fits.
struct PutSliceParams {
  std::vector<std::int64_t> start;
};
// gather: inputs {t, indices}; indices' last axis (size axes.size()) indexes t's `axes`.
// Out shape: indices.shape[:-1] ++ t's dims not in axes. Indices are clamped into range.
struct GatherParams {
  Axes axes;
};
// take / take_along_axis / sort / argsort / cumulative: along `axis`; indices clamped.
struct AxisParams {
  std::int64_t axis = 0;
};
// concatenate: all inputs one dtype (already promoted), same dims but `axis`.
// select: inputs {pred(u8 or any), on_true, on_false} already broadcast to out_shape.
// clip: inputs {t, lo, hi} already broadcast and converted to out_dtype.
// indexed_add / indexed_put: inputs {t, indices {m, k}, updates {m, ...}}; indices index
// t's `axes` (k of them); out-of-range index rows are skipped.
// reductions: out keeps reduced axes as size 1 when keep_axes.
struct ReduceParams {
  Axes axes;
  bool keep_axes = false;
};
// argmax/argmin: one axis, or the flattened tensor when axis < 0; out s64.
struct ArgReduceParams {
  std::int64_t axis = -1;
  bool keep_axis = false;
  bool tie_high = false;
};
// window_*: per axis window size, stride, padding (lo, hi) and window dilation.
struct WindowParams {
  std::vector<std::int64_t> dims, strides, dilations;
  std::vector<std::pair<std::int64_t, std::int64_t>> padding;
};
struct CumulativeParams {
  std::int64_t axis = 0;
  bool reverse = false;
};
// sort / argsort (stable); argsort's out is s64.
struct SortParams {
  std::int64_t axis = 0;
  bool descending = false;
};
// top_k: the s64 indices of the k largest along the last axis, largest first (ties: the
// lower index first). The core gathers the values with take_along_axis.
struct TopKParams {
  std::int64_t k = 1;
};
// dot: out = batch dims, a's free dims, b's free dims (inputs already promoted).
struct DotParams {
  Axes contract_a, batch_a, contract_b, batch_b;
};

// triangular_solve: inputs {a [..., n, n], b [..., n, k] (left) or [..., k, n]}, one dtype.
// Solves op(a) x = b (left_side) or x op(a) = b; only the `lower` (else upper) triangle
// of a is read. A zero on the diagonal gives inf/NaN, as BLAS trsm does.
enum class TriangularTransform { none, transpose, conjugate_transpose };
struct TriangularSolveParams {
  bool left_side = true;
  bool lower = true;
  TriangularTransform transform_a = TriangularTransform::none;
};
// qr: packed {q [m, c], r [c, n]} with c = m (complete) or min(m, n) (reduced).
struct QrParams {
  bool complete = false;
};
// svd: packed {u [m, cu], s [k], vt [cv, n]}, k = min(m, n); cu, cv = m, n when
// full_matrices, else k. lu: packed {p, l, u}, each [n, n]. eigh: packed {w [n], v [n, n]}.
struct SvdParams {
  bool full_matrices = true;
};

// A dot operand's free axes: those neither contracted nor batch, in order (shared by the
// core's shape rule and the backends' GEMM views).
inline Axes dot_free_axes(std::int64_t rank, const Axes& contract, const Axes& batch) {
  std::vector<bool> used(static_cast<std::size_t>(rank), false);
  for (std::int64_t ax : contract) used[static_cast<std::size_t>(ax)] = true;
  for (std::int64_t ax : batch) used[static_cast<std::size_t>(ax)] = true;
  Axes out;
  for (std::int64_t i = 0; i < rank; ++i) {
    if (!used[static_cast<std::size_t>(i)]) out.push_back(i);
  }
  return out;
}

// The product of shape's sizes along `axes` (1 for none).
inline std::int64_t axes_product(const Shape& shape, const Axes& axes) {
  std::int64_t n = 1;
  for (std::int64_t ax : axes) n *= shape[static_cast<std::size_t>(ax)];
  return n;
}

using OpParams =
    std::variant<NoParams, FullParams, IotaParams, BroadcastParams, TransposeParams, PadParams,
                 AxesParams, SliceParams, PutSliceParams, GatherParams, AxisParams, ReduceParams,
                 ArgReduceParams, WindowParams, CumulativeParams, SortParams, TopKParams, DotParams,
                 TriangularSolveParams, QrParams, SvdParams>;

struct OpCall {
  Op op;
  std::vector<Tensor> inputs;
  OpParams params;
  DType out_dtype;
  Shape out_shape;
  // The backend creation ops (no inputs) run on.
  Backend* target = nullptr;

  template <class P>
  const P& get() const {
    return std::get<P>(params);
  }
};

}  // namespace vkt
