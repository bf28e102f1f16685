// cholesky, qr, lu, eigh, svd and determinant on the cpu (f32, f64, c64, c128; complex
// through the Hermitian routines: L·Lᴴ, unitary Q, heevd): LAPACK per matrix of the batch,
// on a column-major copy (LAPACK's layout), written back row-major into the packed output
// the core slices apart (op_call.h). The batch runs in order; LAPACK threads each matrix.
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "cpu/linalg_lapack.h"

namespace vkt::cpu_kernels {
namespace {

struct Dims {
  std::int64_t batch = 0, m = 0, n = 0;
};

Dims matrix_dims(const Tensor& a) {
  const Shape& s = a.shape();
  const std::int64_t m = s[s.size() - 2], n = s.back();
  const std::int64_t per = m * n;
  return {per == 0 ? numel(Shape(s.begin(), s.end() - 2)) : a.size() / per, m, n};
}

template <class T>
void set_identity(T* dst, std::int64_t rows, std::int64_t cols) {
  for (std::int64_t i = 0; i < rows; ++i) {
    for (std::int64_t j = 0; j < cols; ++j) dst[i * cols + j] = i == j ? T(1) : T(0);
  }
}

// The iterative eigen and singular value solvers may loop forever on an infinity (gesdd
// does with 0.3.21) and return garbage for NaN: such a matrix gets NaN results instead.
template <class T>
bool is_finite_value(T v) {
  if constexpr (is_complex_v<T>) {
    return std::isfinite(v.real()) && std::isfinite(v.imag());
  } else {
    return std::isfinite(v);
  }
}

template <class T>
bool all_finite(const T* p, std::int64_t count) {
  for (std::int64_t i = 0; i < count; ++i) {
    if (!is_finite_value(p[i])) return false;
  }
  return true;
}

// The same over the lower triangle of an n x n row-major matrix (what eigh reads).
template <class T>
bool lower_finite(const T* p, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    if (!all_finite(p + i * n, i + 1)) return false;
  }
  return true;
}

template <class T>
void fill_nan(T* p, std::int64_t count) {
  const real_of_t<T> nan = std::numeric_limits<real_of_t<T>>::quiet_NaN();
  if constexpr (is_complex_v<T>) {
    std::fill(p, p + count, T(nan, nan));
  } else {
    std::fill(p, p + count, nan);
  }
}

template <class T>
void cholesky(const OpCall& call, const Dims& d, const T* a, T* out) {
  const Lapack<T>& L = lapack<T>();
  const lapack_int n = lapack_dim(call, d.n), ld = leading(n);
  std::vector<T> buf(static_cast<std::size_t>(d.n * d.n));
  for (std::int64_t b = 0; b < d.batch; ++b) {
    if (!lower_finite(a + b * d.n * d.n, d.n)) {  // potrf's answer would depend on where
      fill_nan(out + b * d.n * d.n, d.n * d.n);
      continue;
    }
    to_col_major(a + b * d.n * d.n, d.n, d.n, buf.data());
    lapack_int info = 0;
    if (n > 0) L.potrf("L", &n, buf.data(), &ld, &info, 1);
    if (info > 0) {
      throw LinAlgError(matrix_label(call, b, d.batch) +
                        " is not positive definite (its leading minor of order " +
                        std::to_string(info) + " is not)");
    }
    T* l = out + b * d.n * d.n;
    for (std::int64_t i = 0; i < d.n; ++i) {
      for (std::int64_t j = 0; j < d.n; ++j) l[i * d.n + j] = j <= i ? buf[i + j * d.n] : T(0);
    }
  }
}

template <class T>
void qr(const OpCall& call, const Dims& d, const T* a, T* out) {
  const Lapack<T>& L = lapack<T>();
  const std::int64_t k = std::min(d.m, d.n);
  const std::int64_t c = call.get<QrParams>().complete ? d.m : k;
  const lapack_int m = lapack_dim(call, d.m), n = lapack_dim(call, d.n), ld = leading(m);
  const lapack_int kk = static_cast<lapack_int>(k), cc = lapack_dim(call, c);
  // orgqr builds c columns of q in place of a's n: room for the larger.
  std::vector<T> buf(static_cast<std::size_t>(d.m * std::max(d.n, c)));
  std::vector<T> tau(static_cast<std::size_t>(std::max<std::int64_t>(k, 1)));
  lapack_int info = 0, query = -1, lwork = 1;
  T size_qr{}, size_q{};
  if (d.m > 0 && d.n > 0) L.geqrf(&m, &n, buf.data(), &ld, tau.data(), &size_qr, &query, &info);
  if (d.m > 0 && c > 0) L.orgqr(&m, &cc, &kk, buf.data(), &ld, tau.data(), &size_q, &query, &info);
  lwork = std::max(work_size(size_qr), work_size(size_q));
  std::vector<T> work(static_cast<std::size_t>(lwork));
  const std::int64_t q_size = d.m * c, per = q_size + c * d.n;
  for (std::int64_t b = 0; b < d.batch; ++b) {
    to_col_major(a + b * d.m * d.n, d.m, d.n, buf.data());
    if (d.m > 0 && d.n > 0)
      L.geqrf(&m, &n, buf.data(), &ld, tau.data(), work.data(), &lwork, &info);
    T* q = out + b * per;
    T* r = q + q_size;
    for (std::int64_t i = 0; i < c; ++i) {
      for (std::int64_t j = 0; j < d.n; ++j) r[i * d.n + j] = j >= i ? buf[i + j * d.m] : T(0);
    }
    if (d.m > 0 && c > 0) {
      L.orgqr(&m, &cc, &kk, buf.data(), &ld, tau.data(), work.data(), &lwork, &info);
    }
    from_col_major(buf.data(), d.m, d.m, c, q);
  }
}

// The row order getrf's pivots put a in: row i of l·u is row perm[i] of a.
std::vector<std::int64_t> pivot_rows(const std::vector<lapack_int>& ipiv) {
  std::vector<std::int64_t> perm(ipiv.size());
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<std::int64_t>(i);
  for (std::size_t i = 0; i < perm.size(); ++i) {
    std::swap(perm[i], perm[static_cast<std::size_t>(ipiv[i] - 1)]);
  }
  return perm;
}

template <class T>
void lu(const OpCall& call, const Dims& d, const T* a, T* out) {
  const Lapack<T>& L = lapack<T>();
  const std::int64_t n = d.n, nn = n * n;
  const lapack_int ni = lapack_dim(call, n), ld = leading(ni);
  std::vector<T> buf(static_cast<std::size_t>(nn));
  std::vector<lapack_int> ipiv(static_cast<std::size_t>(n));
  for (std::int64_t b = 0; b < d.batch; ++b) {
    to_col_major(a + b * nn, n, n, buf.data());
    lapack_int info = 0;  // > 0: a zero pivot, still a valid factorisation
    if (n > 0) L.getrf(&ni, &ni, buf.data(), &ld, ipiv.data(), &info);
    T* p = out + b * 3 * nn;
    T* l = p + nn;
    T* u = l + nn;
    std::fill(p, p + nn, T(0));
    const std::vector<std::int64_t> perm = pivot_rows(ipiv);
    for (std::int64_t i = 0; i < n; ++i) p[perm[static_cast<std::size_t>(i)] * n + i] = T(1);
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        const T v = buf[i + j * n];
        l[i * n + j] = i > j ? v : (i == j ? T(1) : T(0));
        u[i * n + j] = j >= i ? v : T(0);
      }
    }
  }
}

// syevd (real symmetric) or heevd (Hermitian, with a real workspace); both write real
// eigenvalues to w. A query (lwork = -1) reports the sizes in work[0], rwork[0], iwork[0].
template <class T>
void eigen_solve(const Lapack<T>& L, const lapack_int* n, T* a, const lapack_int* ld,
                 real_of_t<T>* w, T* work, const lapack_int* lwork, real_of_t<T>* rwork,
                 const lapack_int* lrwork, lapack_int* iwork, const lapack_int* liwork,
                 lapack_int* info) {
  if constexpr (is_complex_v<T>) {
    L.heevd("V", "L", n, a, ld, w, work, lwork, rwork, lrwork, iwork, liwork, info, 1, 1);
  } else {
    (void)rwork, (void)lrwork;
    L.syevd("V", "L", n, a, ld, w, work, lwork, iwork, liwork, info, 1, 1);
  }
}

// Eigenvalues (real, ascending) then eigenvectors as columns; a complex output holds the
// eigenvalues with a zero imaginary part (the core takes their real part).
template <class T>
void eigh(const OpCall& call, const Dims& d, const T* a, T* out) {
  using R = real_of_t<T>;
  const Lapack<T>& L = lapack<T>();
  const std::int64_t n = d.n, nn = n * n;
  const lapack_int ni = lapack_dim(call, n), ld = leading(ni);
  std::vector<T> buf(static_cast<std::size_t>(nn));
  std::vector<R> w(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)));
  lapack_int info = 0, query = -1, liwork = 1, lrwork = 1, iwork_size = 0;
  T size{};
  R rsize{};
  if (n > 0) {
    eigen_solve(L, &ni, buf.data(), &ld, w.data(), &size, &query, &rsize, &query, &iwork_size,
                &query, &info);
    liwork = std::max<lapack_int>(iwork_size, 1);
    lrwork = work_size(rsize);
  }
  lapack_int lwork = work_size(size);
  std::vector<T> work(static_cast<std::size_t>(lwork));
  std::vector<R> rwork(static_cast<std::size_t>(lrwork));
  std::vector<lapack_int> iwork(static_cast<std::size_t>(liwork));
  for (std::int64_t b = 0; b < d.batch; ++b) {
    T* wo = out + b * (n + nn);
    if (!lower_finite(a + b * nn, n)) {
      fill_nan(wo, n + nn);
      continue;
    }
    to_col_major(a + b * nn, n, n, buf.data());
    if (n > 0) {
      eigen_solve(L, &ni, buf.data(), &ld, w.data(), work.data(), &lwork, rwork.data(), &lrwork,
                  iwork.data(), &liwork, &info);
    }
    if (info > 0) {
      throw LinAlgError(matrix_label(call, b, d.batch) +
                        ": the eigenvalue iteration did not converge");
    }
    for (std::int64_t i = 0; i < n; ++i) wo[i] = T(w[static_cast<std::size_t>(i)]);
    from_col_major(buf.data(), n, n, n, wo + n);
  }
}

// gesdd; the complex routine takes a real workspace of LAPACK's documented size.
template <class T>
void svd_solve(const Lapack<T>& L, const char* job, const lapack_int* m, const lapack_int* n, T* a,
               const lapack_int* ld, real_of_t<T>* s, T* u, const lapack_int* ldu, T* vt,
               const lapack_int* ldvt, T* work, const lapack_int* lwork, real_of_t<T>* rwork,
               lapack_int* iwork, lapack_int* info) {
  if constexpr (is_complex_v<T>) {
    L.gesdd(job, m, n, a, ld, s, u, ldu, vt, ldvt, work, lwork, rwork, iwork, info, 1);
  } else {
    (void)rwork;
    L.gesdd(job, m, n, a, ld, s, u, ldu, vt, ldvt, work, lwork, iwork, info, 1);
  }
}

// u, then the singular values (real; complex outputs hold them with a zero imaginary
// part), then vᵀ (vᴴ for complex, as NumPy's vh).
template <class T>
void svd(const OpCall& call, const Dims& d, const T* a, T* out) {
  using R = real_of_t<T>;
  const Lapack<T>& L = lapack<T>();
  const bool full = call.get<SvdParams>().full_matrices;
  const std::int64_t k = std::min(d.m, d.n);
  const std::int64_t cu = full ? d.m : k, cv = full ? d.n : k;
  const lapack_int m = lapack_dim(call, d.m), n = lapack_dim(call, d.n);
  const lapack_int ld = leading(m), ldu = leading(m), ldvt = leading(static_cast<lapack_int>(cv));
  const char* job = full ? "A" : "S";
  std::vector<T> buf(static_cast<std::size_t>(d.m * d.n));
  std::vector<T> u(static_cast<std::size_t>(d.m * cu)), vt(static_cast<std::size_t>(cv * d.n));
  std::vector<R> sv(static_cast<std::size_t>(std::max<std::int64_t>(k, 1)));
  // cgesdd/zgesdd's rwork for jobz A or S: mn * max(5 mn + 7, 2 max(m, n) + 2 mn + 1).
  const std::int64_t big = std::max(d.m, d.n);
  std::vector<R> rwork(is_complex_v<T> ? static_cast<std::size_t>(std::max<std::int64_t>(
                                             k * std::max(5 * k + 7, 2 * big + 2 * k + 1), 1))
                                       : 1);
  std::vector<lapack_int> iwork(static_cast<std::size_t>(std::max<std::int64_t>(8 * k, 1)));
  lapack_int info = 0, query = -1;
  T size{};
  const std::int64_t per = d.m * cu + k + cv * d.n;
  if (k > 0) {
    svd_solve(L, job, &m, &n, buf.data(), &ld, sv.data(), u.data(), &ldu, vt.data(), &ldvt, &size,
              &query, rwork.data(), iwork.data(), &info);
  }
  lapack_int lwork = work_size(size);
  std::vector<T> work(static_cast<std::size_t>(lwork));
  for (std::int64_t b = 0; b < d.batch; ++b) {
    T* uo = out + b * per;
    T* s = uo + d.m * cu;
    T* vto = s + k;
    if (k == 0) {  // nothing to factor: the full bases are identities
      set_identity(uo, d.m, cu);
      set_identity(vto, cv, d.n);
      continue;
    }
    if (!all_finite(a + b * d.m * d.n, d.m * d.n)) {
      fill_nan(uo, per);
      continue;
    }
    to_col_major(a + b * d.m * d.n, d.m, d.n, buf.data());
    svd_solve(L, job, &m, &n, buf.data(), &ld, sv.data(), u.data(), &ldu, vt.data(), &ldvt,
              work.data(), &lwork, rwork.data(), iwork.data(), &info);
    if (info > 0) {
      throw LinAlgError(matrix_label(call, b, d.batch) + ": the SVD iteration did not converge");
    }
    for (std::int64_t i = 0; i < k; ++i) s[i] = T(sv[static_cast<std::size_t>(i)]);
    from_col_major(u.data(), d.m, d.m, cu, uo);
    from_col_major(vt.data(), cv, cv, d.n, vto);
  }
}

// det(a) = det(aᵀ): getrf runs on the row-major matrix as it is.
template <class T>
void determinant(const OpCall& call, const Dims& d, const T* a, T* out) {
  const Lapack<T>& L = lapack<T>();
  const std::int64_t nn = d.n * d.n;
  const lapack_int n = lapack_dim(call, d.n), ld = leading(n);
  std::vector<T> buf(static_cast<std::size_t>(nn));
  std::vector<lapack_int> ipiv(static_cast<std::size_t>(d.n));
  for (std::int64_t b = 0; b < d.batch; ++b) {
    std::copy(a + b * nn, a + (b + 1) * nn, buf.begin());
    lapack_int info = 0;  // > 0: a zero pivot, so the product below is 0
    if (n > 0) L.getrf(&n, &n, buf.data(), &ld, ipiv.data(), &info);
    T det = T(1);
    for (std::int64_t i = 0; i < d.n; ++i) {
      det *= buf[static_cast<std::size_t>(i * d.n + i)];
      if (ipiv[static_cast<std::size_t>(i)] != i + 1) det = -det;
    }
    out[b] = det;
  }
}

template <class T>
void run_typed(const OpCall& call, T* out) {
  const Tensor& a = call.inputs[0];
  const Dims d = matrix_dims(a);
  const T* in = data<T>(a);
  switch (call.op) {
    case Op::cholesky:
      return cholesky(call, d, in, out);
    case Op::qr:
      return qr(call, d, in, out);
    case Op::lu:
      return lu(call, d, in, out);
    case Op::eigh:
      return eigh(call, d, in, out);
    case Op::svd:
      return svd(call, d, in, out);
    case Op::determinant:
      return determinant(call, d, in, out);
    default:
      throw Unsupported("[" + std::string(op_name(call.op)) + "] is not a decomposition");
  }
}

}  // namespace

Tensor run_lapack_factor(const OpCall& call) {
  return run_in_lapack_dtype(call, [&](auto* out) { run_typed(call, out); });
}

}  // namespace vkt::cpu_kernels
