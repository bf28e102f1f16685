// The op surface (names follow Nx). Every op validates its arguments before dispatch and
// throws a vkt::Error subclass whose message starts with "[op]".
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "vkt/op.h"
#include "vkt/scalar.h"
#include "vkt/tensor.h"

namespace vkt {

// pad's per-axis config: lo/hi may be negative (crop); interior is inserted between elements.
struct PadAxis {
  std::int64_t lo = 0, hi = 0, interior = 0;
};

// ---- creation (on `backend`, default_backend() when null) ----
Tensor full(const Shape& shape, Scalar value, DType dtype, Backend* backend = nullptr);
// Counts 0, 1, ... along `axis`, or over the flattened tensor when axis is nullopt.
Tensor iota(const Shape& shape, DType dtype, std::optional<std::int64_t> axis = std::nullopt,
            Backend* backend = nullptr);
// Ones where the last two indices are equal; rank >= 2.
Tensor eye(const Shape& shape, DType dtype, Backend* backend = nullptr);
Tensor eye(std::int64_t n, DType dtype, Backend* backend = nullptr);
// A rank-0 tensor holding a literal, with the literal's default type (s64, u64 or f32).
Tensor scalar_tensor(Scalar value, std::optional<DType> dtype = std::nullopt,
                     Backend* backend = nullptr);

// ---- conversion ----
// To a narrow dtype: one rounding to nearest even (f8), saturation (f8_e4m3fn past +-448,
// float to a narrow integer), wrapping (integer to a narrow integer); vkt/dtype.h.
Tensor as_type(const Tensor& t, DType dtype);
// Reinterprets the bits; both dtypes must have the same size in bits (Nx's rule: s4 <-> u4,
// f8 <-> u8, not s4 <-> u8). TypeError otherwise.
Tensor bitcast(const Tensor& t, DType dtype);

// ---- elementwise (broadcasting, Nx promotion; scalar literals are weak) ----
#define VKT_DECLARE_UNARY(name) Tensor name(const Tensor& t);
VKT_UNARY_OPS(VKT_DECLARE_UNARY)
#undef VKT_DECLARE_UNARY
#define VKT_DECLARE_BINARY(name)                 \
  Tensor name(const Tensor& a, const Tensor& b); \
  Tensor name(const Tensor& a, Scalar b);        \
  Tensor name(Scalar a, const Tensor& b);
VKT_BINARY_OPS(VKT_DECLARE_BINARY)
#undef VKT_DECLARE_BINARY
Tensor unary(Op op, const Tensor& t);
Tensor binary(Op op, const Tensor& a, const Tensor& b);

// ---- shape and movement ----
// -1 in at most one place is inferred. Aliases the storage.
Tensor reshape(const Tensor& t, const Shape& shape);
// Removes the given size-1 axes (all size-1 axes when empty). Aliases the storage.
Tensor squeeze(const Tensor& t, const Axes& axes = {});
// Input axis i goes to output axis axes[i]; by default the input's axes align right.
Tensor broadcast(const Tensor& t, const Shape& shape, const Axes& axes = {});
// Default permutation reverses the axes.
Tensor transpose(const Tensor& t, const Axes& perm = {});
Tensor pad(const Tensor& t, Scalar value, const std::vector<PadAxis>& config);
// Nx.pad with a tensor value: `value` is a rank-0 tensor on t's backend, and the result has
// the promoted dtype of both (Nx's binary_type), as any binary op. Built from public ops
// (pad, select), so it runs natively, traces under vkt::compile and carries a gradient.
Tensor pad(const Tensor& t, const Tensor& value, const std::vector<PadAxis>& config);
Tensor reverse(const Tensor& t, const Axes& axes = {});

// ---- indexing and joining ----
// Nx clamps start so the slice fits; strides default to 1.
Tensor slice(const Tensor& t, const std::vector<std::int64_t>& start,
             const std::vector<std::int64_t>& lengths,
             const std::vector<std::int64_t>& strides = {});
Tensor put_slice(const Tensor& t, const std::vector<std::int64_t>& start, const Tensor& update);
// Start indices held in scalar integer tensors (Nx's tensor starts), written {s0, s1} or
// from a std::vector<Tensor>; clamped as integer starts are. Starts all on the cpu are read
// (no transfer); a start on a device keeps the op there without reading it: the positions
// are computed on the device and the op runs as gather / indexed_put.
struct StartTensors {
  std::vector<Tensor> values;
  StartTensors(const std::vector<Tensor>& v) : values(v) {}  // NOLINT: implicit by design
  template <class... Rest>
  StartTensors(const Tensor& first, const Rest&... rest)  // NOLINT: implicit by design
      : values{first, rest...} {}
};
Tensor slice(const Tensor& t, const StartTensors& start, const std::vector<std::int64_t>& lengths,
             const std::vector<std::int64_t>& strides = {});
Tensor put_slice(const Tensor& t, const StartTensors& start, const Tensor& update);
// indices [..., k] index the first k axes of t (or `axes`).
Tensor gather(const Tensor& t, const Tensor& indices, const Axes& axes = {});
Tensor take(const Tensor& t, const Tensor& indices, std::int64_t axis = 0);
Tensor take_along_axis(const Tensor& t, const Tensor& indices, std::int64_t axis);
Tensor concatenate(const std::vector<Tensor>& tensors, std::int64_t axis = 0);
Tensor stack(const std::vector<Tensor>& tensors, std::int64_t axis = 0);
Tensor select(const Tensor& pred, const Tensor& on_true, const Tensor& on_false);
Tensor clip(const Tensor& t, const Tensor& lo, const Tensor& hi);
Tensor clip(const Tensor& t, Scalar lo, Scalar hi);
// indices {m, k} address t's first k axes (or `axes`); updates {m, remaining dims}.
Tensor indexed_add(const Tensor& t, const Tensor& indices, const Tensor& updates,
                   const Axes& axes = {});
Tensor indexed_put(const Tensor& t, const Tensor& indices, const Tensor& updates,
                   const Axes& axes = {});

// ---- reductions (empty axes: all axes) ----
Tensor all(const Tensor& t, const Axes& axes = {}, bool keep_axes = false);
Tensor any(const Tensor& t, const Axes& axes = {}, bool keep_axes = false);
Tensor sum(const Tensor& t, const Axes& axes = {}, bool keep_axes = false);
Tensor product(const Tensor& t, const Axes& axes = {}, bool keep_axes = false);
Tensor reduce_max(const Tensor& t, const Axes& axes = {}, bool keep_axes = false);
Tensor reduce_min(const Tensor& t, const Axes& axes = {}, bool keep_axes = false);
enum class TieBreak { low, high };
// `type` is the indices' dtype (Nx's :type): s32 by default as in Nx and JAX, any integer
// dtype that holds every index of the reduced axis (else a TypeError naming both). The
// kernels make s64 indices; another type converts them (one pass over the output).
Tensor argmax(const Tensor& t, std::optional<std::int64_t> axis = std::nullopt,
              bool keep_axis = false, TieBreak tie_break = TieBreak::low, DType type = DType::s32);
Tensor argmin(const Tensor& t, std::optional<std::int64_t> axis = std::nullopt,
              bool keep_axis = false, TieBreak tie_break = TieBreak::low, DType type = DType::s32);

// ---- windows ----
struct WindowOptions {
  std::vector<std::int64_t> strides;                           // default 1
  std::vector<std::pair<std::int64_t, std::int64_t>> padding;  // default none (valid)
  std::vector<std::int64_t> dilations;                         // default 1
};
Tensor window_sum(const Tensor& t, const Shape& window, const WindowOptions& opts = {});
Tensor window_product(const Tensor& t, const Shape& window, const WindowOptions& opts = {});
Tensor window_max(const Tensor& t, const Shape& window, const WindowOptions& opts = {});
Tensor window_min(const Tensor& t, const Shape& window, const WindowOptions& opts = {});

// Nx.window_scatter_max / window_scatter_min (the gradients of window_max / window_min):
// an output of t's shape filled with init_value, where each source element (one per window,
// so source has the window output's shape) is added at the position of its window's
// maximum (minimum) in t. Ties go to the last such position in row-major window order, as
// in Nx's BinaryBackend and EXLA; NaN is never chosen over a number met earlier. Padding
// positions are never chosen (as XLA's select_and_scatter; Nx's BinaryBackend compares them
// as init_value). Out dtype: init_value as a weak literal meeting source's dtype. Native on
// Vulkan when t and the out dtype are f32, s32 or u32 (the cpu's sums, in the same order);
// other dtypes run by host fallback.
Tensor window_scatter_max(const Tensor& t, const Tensor& source, Scalar init_value,
                          const Shape& window, const WindowOptions& opts = {});
Tensor window_scatter_min(const Tensor& t, const Tensor& source, Scalar init_value,
                          const Shape& window, const WindowOptions& opts = {});
// The same with a rank-0 tensor init_value on t's backend; out dtype: source's and init's
// promoted. A chosen position gets init + (its sources summed in window order), others init
// exactly: the Scalar form's (init + s1) + s2 rounds differently where several sources of a
// float meet. Built from public ops, so it traces and carries a gradient to init_value.
Tensor window_scatter_max(const Tensor& t, const Tensor& source, const Tensor& init_value,
                          const Shape& window, const WindowOptions& opts = {});
Tensor window_scatter_min(const Tensor& t, const Tensor& source, const Tensor& init_value,
                          const Shape& window, const WindowOptions& opts = {});

// ---- reductions and windows with a caller's function (Nx.reduce, Nx.window_reduce) ----
// fn(element, acc) returns the new acc; each output starts at `acc` and folds its elements
// in row-major order. Out dtype: acc as a weak literal meeting t's dtype (Nx's binary_type);
// t is converted to it first, and fn's result is converted back to it as as_type converts
// (integers wrap, as Nx's integer ops do; floats saturate into integers). These
// run on the cpu: from a device the input is read back and the result stays on the cpu (a
// fallback, counted in the ledger). fn is called from several threads at once (on different
// outputs): keep it free of shared mutable state; an exception it throws propagates. This
// form calls a std::function per element on Scalars; reduce_typed / window_reduce_typed
// below inline a typed function instead.
using ReduceFunction = std::function<Scalar(Scalar element, Scalar acc)>;
Tensor reduce(const Tensor& t, Scalar acc, const ReduceFunction& fn, const Axes& axes = {},
              bool keep_axes = false);
// Out dtype: t's (acc is converted to it), as in Nx; padding positions count as elements
// holding `acc`, as in Nx's window_reduce.
Tensor window_reduce(const Tensor& t, Scalar acc, const Shape& window, const WindowOptions& opts,
                     const ReduceFunction& fn);

// reduce / window_reduce with a caller's function, type-erased over runs: a FoldRun folds
// `n` elements of the out dtype at first, first + stride, ... (stride in elements, may be 0)
// into *acc (also the out dtype) in order, acc = fn(element, acc). Called from several
// threads at once on different outputs.
using FoldRun =
    std::function<void(void* acc, const void* first, std::int64_t n, std::int64_t stride)>;

namespace detail {
Tensor reduce_with(const Tensor& t, Scalar acc, DType dtype, FoldRun fold_run, const Axes& axes,
                   bool keep_axes);
Tensor window_reduce_with(const Tensor& t, Scalar acc, DType dtype, FoldRun fold_run,
                          const Shape& window, const WindowOptions& opts);
// fn inlined into the loop over a run: one indirect call per run, not per element.
template <class T, class F>
FoldRun typed_fold(F fn) {
  return [fn](void* acc, const void* first, std::int64_t n, std::int64_t stride) {
    T a;
    std::memcpy(&a, acc, sizeof(T));
    const T* x = static_cast<const T*>(first);
    for (std::int64_t i = 0; i < n; ++i) a = static_cast<T>(fn(x[i * stride], a));
    std::memcpy(acc, &a, sizeof(T));
  };
}
}  // namespace detail

// Typed forms: fn(T element, T acc) -> T is inlined into the kernel's loops (no per-element
// indirect call). The out dtype is T's (dtype_of_v<T>); t is converted to it first.
template <class T, class F>
Tensor reduce_typed(const Tensor& t, T acc, F fn, const Axes& axes = {}, bool keep_axes = false) {
  return detail::reduce_with(t, Scalar(acc), dtype_of_v<T>, detail::typed_fold<T>(std::move(fn)),
                             axes, keep_axes);
}
template <class T, class F>
Tensor window_reduce_typed(const Tensor& t, T acc, const Shape& window, const WindowOptions& opts,
                           F fn) {
  return detail::window_reduce_with(t, Scalar(acc), dtype_of_v<T>,
                                    detail::typed_fold<T>(std::move(fn)), window, opts);
}

// ---- sorting and scans ----
enum class Direction { asc, desc };
Tensor sort(const Tensor& t, std::int64_t axis = -1, Direction dir = Direction::asc);
// argsort's `type`: as argmax's (s32 by default, as in Nx).
Tensor argsort(const Tensor& t, std::int64_t axis = -1, Direction dir = Direction::asc,
               DType type = DType::s32);
// {values, s64 indices} of the k largest along the last axis, largest first.
std::pair<Tensor, Tensor> top_k(const Tensor& t, std::int64_t k);
Tensor cumulative_sum(const Tensor& t, std::int64_t axis = 0, bool reverse = false);
Tensor cumulative_product(const Tensor& t, std::int64_t axis = 0, bool reverse = false);
Tensor cumulative_min(const Tensor& t, std::int64_t axis = 0, bool reverse = false);
Tensor cumulative_max(const Tensor& t, std::int64_t axis = 0, bool reverse = false);

// ---- linear algebra ----
// `preferred` (JAX's preferred_element_type) is the result's dtype, and the operands convert
// to it before the product: f8 x f8 -> f32 multiplies exactly (the FP8 matmul where the
// device has no 8-bit cooperative matrices), s8 x s8 -> s32 accumulates in 32 bits. It must
// hold the operands' promoted type (TypeError otherwise); absent, the result is that type.
Tensor dot(const Tensor& a, const Axes& contract_a, const Axes& batch_a, const Tensor& b,
           const Axes& contract_b, const Axes& batch_b,
           std::optional<DType> preferred = std::nullopt);
// Matrix product of the last axis of a with the first of b (rank 1 or 2: Nx.dot/2).
Tensor dot(const Tensor& a, const Tensor& b, std::optional<DType> preferred = std::nullopt);
Tensor matmul(const Tensor& a, const Tensor& b);  // batched over leading axes

// Nx.conv: input {N, C, spatial...}, kernel {O, C / feature_group_size, kspatial...} (rank >= 3,
// the same rank), out {N / batch_group_size, O, out spatial...} in the promoted float type
// (integers promote to f32 as in Nx). Per spatial axis: out = floor((padded - dilated kernel)
// / stride) + 1, where padded = (in - 1) * input_dilation + 1 + lo + hi; an out size <= 0 is
// a ShapeError. Batch groups: out channel o of group g = o / (O / batch_group_size) reads
// input batch n + g * (N / batch_group_size).
enum class ConvPadding {
  config,  // ConvOptions::padding (empty: none)
  valid,   // none
  same,    // Nx's :same: {floor((k - 1) / 2), ceil((k - 1) / 2)} of the dilated kernel size k
};
struct ConvOptions {
  std::vector<std::int64_t> strides;  // per spatial axis, default 1
  ConvPadding padding_mode = ConvPadding::config;
  std::vector<std::pair<std::int64_t, std::int64_t>> padding;  // {lo, hi}; may be negative
  std::vector<std::int64_t> input_dilation, kernel_dilation;   // default 1
  std::int64_t feature_group_size = 1, batch_group_size = 1;
  // Nx's layouts: input_permutation lists the input's [batch, channel, spatial...] axes,
  // kernel_permutation the kernel's [out channel, in channel, spatial...] axes, and
  // output_permutation where the out's [batch, channel, spatial...] axes go. Empty: identity.
  Axes input_permutation, kernel_permutation, output_permutation;
};
Tensor conv(const Tensor& input, const Tensor& kernel, const ConvOptions& opts = {});

// ---- comparison and batching ----
struct AllCloseOptions {
  double rtol = 1e-5;
  double atol = 1e-8;
  bool equal_nan = false;
};
// Nx.all_close: a u8 scalar, 1 when every |a - b| <= atol + rtol * |b| (broadcasting);
// infinities are close only to an equal infinity, NaN only to NaN with equal_nan. Two
// integer tensors are compared in f64, as NumPy does (Nx subtracts in the integer type, which
// wraps: there u8 3 and 4 are not close even with atol 1).
Tensor all_close(const Tensor& a, const Tensor& b, const AllCloseOptions& opts = {});
// Nx.to_batched: t split along axis 0 into tensors of batch_size rows. A last, partial
// batch is completed from the start of t (repeat) or dropped (discard).
enum class Leftover { repeat, discard };
std::vector<Tensor> to_batched(const Tensor& t, std::int64_t batch_size,
                               Leftover leftover = Leftover::repeat);
// Decompositions and solvers (Nx.LinAlg), batched over leading axes: a is [..., m, n]. The
// result is float: integer inputs give f32; f16/bf16 are computed in f32 and rounded back
// to their own type; f32/f64/c64/c128 run LAPACK in their own precision (complex: the
// Hermitian forms, L·Lᴴ, unitary Q, vᴴ; eigenvalues and singular values in the real type
// of the parts, as NumPy). On the cpu through the
// process's OpenBLAS; on Vulkan triangular_solve is native and the others fall back (the
// result stays on the cpu). A matrix that cannot be factored throws LinAlgError; cholesky,
// eigh and svd of a matrix holding NaN or infinity give NaN results for it
// (docs/semantics-linalg.md).
enum class TriangularTransform { none, transpose, conjugate_transpose };
struct TriangularSolveOptions {
  bool left_side = true;  // op(a) x = b; false: x op(a) = b
  bool lower = true;      // read a's lower triangle; false: its upper one
  TriangularTransform transform_a = TriangularTransform::none;
};
// a [..., n, n]; b [..., n, k] (left side), [..., k, n] (right side) or [..., n], with a's
// batch dims. The other triangle of a is not read. No singularity check: a zero on the
// diagonal gives inf/NaN in x (as BLAS trsm and Nx's EXLA backend), the same on every
// backend (a check would cost the device a read-back).
Tensor triangular_solve(const Tensor& a, const Tensor& b, const TriangularSolveOptions& opts = {});
// Lower L with L·Lᴴ = a, reading a's lower triangle. LinAlgError when a is not positive
// definite (as NumPy and Nx's default backend).
Tensor cholesky(const Tensor& a);
enum class QrMode { reduced, complete };
struct QR {
  Tensor q, r;
};
// q [..., m, k], r [..., k, n] (k = min(m, n); complete: q [..., m, m], r [..., m, n]).
QR qr(const Tensor& a, QrMode mode = QrMode::reduced);
struct LU {
  Tensor p, l, u;
};
// a = p·l·u for square a: p a permutation matrix (in a's dtype, as Nx), l unit lower, u
// upper (partial pivoting, LAPACK getrf). A singular a is factored, u has a zero pivot.
LU lu(const Tensor& a);
struct Eigh {
  Tensor eigenvalues, eigenvectors;
};
// Symmetric a (its lower triangle is read): eigenvalues ascending (NumPy's order; Nx
// leaves it unspecified) and eigenvectors as columns, a = v·diag(w)·vᵀ.
Eigh eigh(const Tensor& a);
struct SVD {
  Tensor u, s, vt;
};
// a = u·diag(s)·vt, s descending. full_matrices: u [..., m, m], vt [..., n, n]; else
// [..., m, k] and [..., k, n], k = min(m, n).
SVD svd(const Tensor& a, bool full_matrices = true);
// x with a·x = b; a [..., n, n], b [..., n] or [..., n, k] with a's batch dims.
// LinAlgError when a is singular (as NumPy).
Tensor solve(const Tensor& a, const Tensor& b);
// det(a) [...] for square a; 0 for a singular a, 1 for a 0x0 one.
Tensor determinant(const Tensor& a);

// ---- spectral (NumPy's numpy.fft, Nx.fft / Nx.ifft) ----
// The discrete Fourier transform of `length` points along `axis` (default: the axis's
// size): a shorter axis is zero-padded, a longer one cropped. Real and integer inputs are
// converted to the complex type first (f64 -> c128, others -> c64, as Nx's to_complex).
// ifft divides by the length (NumPy's "backward" norm); ifft(fft(x)) == x.
Tensor fft(const Tensor& t, std::optional<std::int64_t> length = std::nullopt,
           std::int64_t axis = -1);
Tensor ifft(const Tensor& t, std::optional<std::int64_t> length = std::nullopt,
            std::int64_t axis = -1);
// The same over two axes (default the last two); lengths empty, or one per axis.
Tensor fft2(const Tensor& t, const std::vector<std::int64_t>& lengths = {},
            const Axes& axes = {-2, -1});
Tensor ifft2(const Tensor& t, const std::vector<std::int64_t>& lengths = {},
             const Axes& axes = {-2, -1});
// A real input's transform: length / 2 + 1 complex points (the rest is their conjugate
// mirror). TypeError for a complex input.
Tensor rfft(const Tensor& t, std::optional<std::int64_t> length = std::nullopt,
            std::int64_t axis = -1);
// The inverse of rfft: the real signal of `length` points (default 2 * (m - 1) for an axis
// of m) from the first length / 2 + 1 points of a Hermitian spectrum, the imaginary parts
// of its zero (and, for an even length, its last) point ignored, as numpy.fft.irfft.
Tensor irfft(const Tensor& t, std::optional<std::int64_t> length = std::nullopt,
             std::int64_t axis = -1);

// Completes every backend's pending work.
void synchronize();

}  // namespace vkt
