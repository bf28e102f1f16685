// The op surface (names follow Nx). Every op validates its arguments before dispatch and
// throws a vkt::Error subclass whose message starts with "[op]".
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "vkt/op_call.h"
#include "vkt/scalar.h"
#include "vkt/tensor.h"

namespace vkt {

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
Tensor as_type(const Tensor& t, DType dtype);
// Reinterprets the bits; both dtypes must have the same item size.
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
Tensor reverse(const Tensor& t, const Axes& axes = {});

// ---- indexing and joining ----
// Nx clamps start so the slice fits; strides default to 1.
Tensor slice(const Tensor& t, const std::vector<std::int64_t>& start,
             const std::vector<std::int64_t>& lengths,
             const std::vector<std::int64_t>& strides = {});
Tensor put_slice(const Tensor& t, const std::vector<std::int64_t>& start, const Tensor& update);
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
Tensor argmax(const Tensor& t, std::optional<std::int64_t> axis = std::nullopt,
              bool keep_axis = false, TieBreak tie_break = TieBreak::low);
Tensor argmin(const Tensor& t, std::optional<std::int64_t> axis = std::nullopt,
              bool keep_axis = false, TieBreak tie_break = TieBreak::low);

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

// ---- sorting and scans ----
enum class Direction { asc, desc };
Tensor sort(const Tensor& t, std::int64_t axis = -1, Direction dir = Direction::asc);
Tensor argsort(const Tensor& t, std::int64_t axis = -1, Direction dir = Direction::asc);
// {values, s64 indices} of the k largest along the last axis, largest first.
std::pair<Tensor, Tensor> top_k(const Tensor& t, std::int64_t k);
Tensor cumulative_sum(const Tensor& t, std::int64_t axis = 0, bool reverse = false);
Tensor cumulative_product(const Tensor& t, std::int64_t axis = 0, bool reverse = false);
Tensor cumulative_min(const Tensor& t, std::int64_t axis = 0, bool reverse = false);
Tensor cumulative_max(const Tensor& t, std::int64_t axis = 0, bool reverse = false);

// ---- linear algebra ----
Tensor dot(const Tensor& a, const Axes& contract_a, const Axes& batch_a, const Tensor& b,
           const Axes& contract_b, const Axes& batch_b);
// Matrix product of the last axis of a with the first of b (rank 1 or 2: Nx.dot/2).
Tensor dot(const Tensor& a, const Tensor& b);
Tensor matmul(const Tensor& a, const Tensor& b);  // batched over leading axes

// Decompositions and solvers (Nx.LinAlg), batched over leading axes: a is [..., m, n]. The
// result is float: integer inputs give f32; f16/bf16 are computed in f32 and rounded back
// to their own type; f32/f64 run LAPACK in their own precision. On the cpu through the
// process's OpenBLAS; on Vulkan triangular_solve is native and the others fall back (the
// result stays on the cpu). A matrix that cannot be factored throws LinAlgError; cholesky,
// eigh and svd of a matrix holding NaN or infinity give NaN results for it
// (docs/semantics-linalg.md).
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

// Completes every backend's pending work.
void synchronize();

}  // namespace vkt
