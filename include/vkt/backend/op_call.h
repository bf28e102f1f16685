// OpCall: one validated op invocation as the dispatch core hands it to a backend. The core
// has already checked shapes, axes and dtypes and computed out_dtype/out_shape. For backend
// implementers (a Backend subclass), not part of vkt/vkt.h.
#pragma once

#include <cstdint>
#include <functional>
#include <variant>
#include <vector>

#include "vkt/backend/op_info.h"
#include "vkt/dtype.h"
#include "vkt/ops.h"
#include "vkt/scalar.h"
#include "vkt/shape.h"
#include "vkt/tensor.h"

namespace vkt {

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
// select: inputs {pred(u8 or any), on_true, on_false}, each broadcast to out_shape or of
// one element (read at 0 for every output element); the branches converted to out_dtype.
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
// window_scatter_max/min: inputs {t, source}; `window` as for window_*; init_value is the
// output's fill, already of out_dtype's kind.
struct WindowScatterParams {
  WindowParams window;
  Scalar init_value;
};
// reduce / window_reduce with a caller's function: FoldRun (vkt/ops.h) folds runs of elements.
// reduce: inputs {t} already of out_dtype; reduce `axes` (sorted, unique), each output
// starting at `acc`.
struct CallableReduceParams {
  Scalar acc;
  Axes axes;
  bool keep_axes = false;
  FoldRun fold_run;
};
// window_reduce: inputs {t} already of out_dtype; padding positions fold `acc` as elements.
struct CallableWindowParams {
  Scalar acc;
  WindowParams window;
  FoldRun fold_run;
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

// conv (Nx.conv, default layout): inputs {input {N, C, spatial...}, kernel {O, C / feature_groups,
// kspatial...}}, both already of the float out dtype. Per spatial axis: stride, padding
// {lo, hi} of the input-dilated input (may be negative), input and kernel dilation. At most
// one of feature_groups / batch_groups exceeds 1. Out {N / batch_groups, O, out spatial...}.
struct ConvParams {
  std::vector<std::int64_t> strides, input_dilation, kernel_dilation;
  std::vector<std::pair<std::int64_t, std::int64_t>> padding;
  std::int64_t feature_groups = 1, batch_groups = 1;
};
// triangular_solve: inputs {a [..., n, n], b [..., n, k] (left) or [..., k, n]}, one dtype.
// Solves op(a) x = b (left_side) or x op(a) = b; only the `lower` (else upper) triangle
// of a is read. A zero on the diagonal gives inf/NaN, as BLAS trsm does.
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
// fft / ifft / rfft / irfft: one transform of `length` points along `axis` of inputs {t}.
// The input's axis may be shorter (zero-padded) or longer (cropped): for fft, ifft and rfft
// its first `length` entries are read, for irfft the first length / 2 + 1. fft/ifft/irfft
// inputs are complex of the out dtype's precision; rfft's are real of any dtype. Out along
// axis: length (fft, ifft, irfft; ifft and irfft divide by length) or length / 2 + 1 (rfft).
struct FftParams {
  std::int64_t axis = 0;
  std::int64_t length = 1;
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
                 ConvParams, WindowScatterParams, CallableReduceParams, CallableWindowParams,
                 TriangularSolveParams, QrParams, SvdParams, FftParams>;

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
