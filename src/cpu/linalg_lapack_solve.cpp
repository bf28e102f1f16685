// triangular_solve (cblas trsm, row-major in place on a copy of b) and solve (LAPACK getrf
// + getrs on column-major copies) on the cpu, per matrix of the batch. b is always a batch
// of matrices here: the core turns a vector into one column or row.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "cpu/linalg_lapack.h"
#include "cpu/linalg_substitution.h"

namespace vkt::cpu_kernels {
namespace {

struct SolveDims {
  std::int64_t batch = 0, n = 0, rows = 0, cols = 0;  // a [n, n], b [rows, cols]
};

SolveDims solve_dims(const OpCall& call) {
  const Shape& b = call.inputs[1].shape();
  SolveDims d;
  d.n = call.inputs[0].shape().back();
  d.rows = b[b.size() - 2];
  d.cols = b.back();
  d.batch = numel(Shape(b.begin(), b.end() - 2));
  return d;
}

template <class T>
void triangular_solve(const OpCall& call, const SolveDims& d, const T* a, const T* b, T* x) {
  const Lapack<T>& L = lapack<T>();
  const TriangularSolveParams& p = call.get<TriangularSolveParams>();
  std::copy(b, b + d.batch * d.rows * d.cols, x);
  if (d.rows == 0 || d.cols == 0) return;
  const CBLAS_TRANSPOSE trans = p.transform_a == TriangularTransform::none        ? CblasNoTrans
                                : p.transform_a == TriangularTransform::transpose ? CblasTrans
                                                                                  : CblasConjTrans;
  const blasint rows = lapack_dim(call, d.rows), cols = lapack_dim(call, d.cols);
  const blasint n = lapack_dim(call, d.n);
  const T one(1);
  for (std::int64_t i = 0; i < d.batch; ++i) {
    // Complex trsm takes alpha by pointer.
    const auto alpha = [&] {
      if constexpr (is_complex_v<T>) {
        return &one;
      } else {
        return one;
      }
    }();
    T* xi = x + i * d.rows * d.cols;
    L.trsm(CblasRowMajor, p.left_side ? CblasLeft : CblasRight, p.lower ? CblasLower : CblasUpper,
           trans, CblasNonUnit, rows, cols, alpha, a + i * d.n * d.n, n, xi, cols);
    // A non-finite x may carry trsm's stray NaN (linalg_substitution.h): solved again.
    if constexpr (std::is_floating_point_v<T>) {
      if (!std::all_of(xi, xi + d.rows * d.cols, [](T v) { return std::isfinite(v); })) {
        substitute(p.left_side, p.lower, p.transform_a != TriangularTransform::none, d.n, d.rows,
                   d.cols, a + i * d.n * d.n, b + i * d.rows * d.cols, xi);
      }
    }
  }
}

template <class T>
void solve(const OpCall& call, const SolveDims& d, const T* a, const T* b, T* x) {
  const Lapack<T>& L = lapack<T>();
  const std::int64_t nn = d.n * d.n, per = d.rows * d.cols;
  const lapack_int n = lapack_dim(call, d.n), nrhs = lapack_dim(call, d.cols), ld = leading(n);
  std::vector<T> lu(static_cast<std::size_t>(nn)), rhs(static_cast<std::size_t>(per));
  std::vector<lapack_int> ipiv(static_cast<std::size_t>(d.n));
  for (std::int64_t i = 0; i < d.batch; ++i) {
    if (d.n == 0) continue;  // nothing to solve, x is empty
    to_col_major(a + i * nn, d.n, d.n, lu.data());
    lapack_int info = 0;
    L.getrf(&n, &n, lu.data(), &ld, ipiv.data(), &info);
    if (info > 0) {
      throw LinAlgError(matrix_label(call, i, d.batch) + " is singular (pivot " +
                        std::to_string(info) + " of its LU factorisation is exactly zero)");
    }
    if (d.cols == 0) continue;
    to_col_major(b + i * per, d.rows, d.cols, rhs.data());
    L.getrs("N", &n, &nrhs, lu.data(), &ld, ipiv.data(), rhs.data(), &ld, &info, 1);
    from_col_major(rhs.data(), d.rows, d.rows, d.cols, x + i * per);
  }
}

template <class T>
void run_typed(const OpCall& call, T* x) {
  const SolveDims d = solve_dims(call);
  const T* a = data<T>(call.inputs[0]);
  const T* b = data<T>(call.inputs[1]);
  if (call.op == Op::triangular_solve) return triangular_solve(call, d, a, b, x);
  solve(call, d, a, b, x);
}

}  // namespace

Tensor run_lapack_solve(const OpCall& call) {
  return run_in_lapack_dtype(call, [&](auto* out) { run_typed(call, out); });
}

}  // namespace vkt::cpu_kernels
