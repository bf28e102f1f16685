// Decompositions (Nx.LinAlg): cholesky, qr, lu, eigh, svd, determinant. The core checks
// shapes, widens half precision and integers, dispatches one call per op and slices a
// packed result (op_call.h) into its parts.
#include <algorithm>

#include "core/checks.h"
#include "core/dispatch.h"
#include "core/linalg_parts.h"
#include "vkt/ops.h"

namespace vkt {
namespace {

struct Matrices {
  Tensor input;  // in the compute dtype
  Shape batch;
  std::int64_t m = 0, n = 0;
  DType result = DType::f32;
};

Matrices prepare(std::string_view op, const Tensor& a, bool square) {
  detail::check_matrices(op, a, square);
  Matrices mats;
  mats.batch = detail::leading_dims(a, 2);
  mats.m = a.shape()[a.shape().size() - 2];
  mats.n = a.shape().back();
  mats.result = detail::linalg_result_dtype(a.dtype());
  mats.input = as_type(a, detail::linalg_compute_dtype(a.dtype()));
  return mats;
}

Shape with_tail(const Shape& batch, std::initializer_list<std::int64_t> tail) {
  Shape s = batch;
  s.insert(s.end(), tail.begin(), tail.end());
  return s;
}

Tensor run_packed(Op op, const Matrices& mats, OpParams params, std::int64_t total) {
  return detail::dispatch(
      {op, {mats.input}, std::move(params), mats.input.dtype(), with_tail(mats.batch, {total})});
}

// Eigenvalues and singular values are real: a complex factorisation packs them with a zero
// imaginary part, and the caller gets them in the real type of the parts (as NumPy).
Tensor real_values(const Tensor& t) {
  return is_complex(t.dtype()) ? as_type(t, to_real_type(t.dtype())) : t;
}

}  // namespace

Tensor cholesky(const Tensor& a) {
  const Matrices mats = prepare("cholesky", a, true);
  Tensor l = detail::dispatch(
      {Op::cholesky, {mats.input}, NoParams{}, mats.input.dtype(), mats.input.shape()});
  return as_type(l, mats.result);
}

QR qr(const Tensor& a, QrMode mode) {
  const Matrices mats = prepare("qr", a, false);
  const bool complete = mode == QrMode::complete;
  const std::int64_t c = complete ? mats.m : std::min(mats.m, mats.n);
  const Tensor packed = run_packed(Op::qr, mats, QrParams{complete}, mats.m * c + c * mats.n);
  std::vector<Tensor> parts =
      detail::unpack_parts(packed, mats.batch, {{mats.m, c}, {c, mats.n}}, mats.result);
  return {std::move(parts[0]), std::move(parts[1])};
}

LU lu(const Tensor& a) {
  const Matrices mats = prepare("lu", a, true);
  const std::int64_t n = mats.n;
  const Tensor packed = run_packed(Op::lu, mats, NoParams{}, 3 * n * n);
  std::vector<Tensor> parts =
      detail::unpack_parts(packed, mats.batch, {{n, n}, {n, n}, {n, n}}, mats.result);
  // Nx gives the permutation in the input's own type (integers stay integers).
  return {as_type(parts[0], a.dtype()), std::move(parts[1]), std::move(parts[2])};
}

Eigh eigh(const Tensor& a) {
  const Matrices mats = prepare("eigh", a, true);
  const std::int64_t n = mats.n;
  const Tensor packed = run_packed(Op::eigh, mats, NoParams{}, n + n * n);
  std::vector<Tensor> parts = detail::unpack_parts(packed, mats.batch, {{n}, {n, n}}, mats.result);
  return {real_values(parts[0]), std::move(parts[1])};
}

SVD svd(const Tensor& a, bool full_matrices) {
  const Matrices mats = prepare("svd", a, false);
  const std::int64_t k = std::min(mats.m, mats.n);
  const std::int64_t cu = full_matrices ? mats.m : k;
  const std::int64_t cv = full_matrices ? mats.n : k;
  const Tensor packed =
      run_packed(Op::svd, mats, SvdParams{full_matrices}, mats.m * cu + k + cv * mats.n);
  std::vector<Tensor> parts =
      detail::unpack_parts(packed, mats.batch, {{mats.m, cu}, {k}, {cv, mats.n}}, mats.result);
  return {std::move(parts[0]), real_values(parts[1]), std::move(parts[2])};
}

Tensor determinant(const Tensor& a) {
  const Matrices mats = prepare("determinant", a, true);
  Tensor det =
      detail::dispatch({Op::determinant, {mats.input}, NoParams{}, mats.input.dtype(), mats.batch});
  return as_type(det, mats.result);
}

}  // namespace vkt
