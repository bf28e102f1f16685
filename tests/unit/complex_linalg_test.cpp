// Complex (c64/c128) linear algebra on the cpu, checked by reconstruction with conjugate
// transposes (L·Lᴴ, Q·R with QᴴQ = I, P·L·U, A·V = V·diag(w) with VᴴV = I, U·S·Vᴴ) and the
// triangular solves by multiplying back, each side, triangle and transform.
#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <vector>

#include "support/complex_compare.h"

namespace vkt {
namespace {

using testing::Complex;
using CMatrix = std::vector<Complex>;  // row-major

template <class C>
class ComplexLinalg : public ::testing::Test {};
using ComplexTypes = ::testing::Types<std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(ComplexLinalg, ComplexTypes);

template <class C>
DType dtype_of_c() {
  return dtype_of_v<C>;
}

// Backward error bound of a factorisation of n x n matrices of magnitude ~ scale.
template <class C>
double tolerance(std::int64_t n, double scale) {
  const double eps = std::is_same_v<C, std::complex<float>> ? 0x1p-23 : 0x1p-52;
  return 64 * static_cast<double>(n) * eps * std::max(scale, 1.0);
}

CMatrix random_matrix(std::int64_t rows, std::int64_t cols, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  CMatrix m(static_cast<std::size_t>(rows * cols));
  for (Complex& z : m) z = Complex(u(rng), u(rng));
  return m;
}

// x [m, k] · y [k, n], with x and/or y conjugate-transposed first when asked (their stored
// shapes are then [k, m] and [n, k]).
CMatrix mul(const CMatrix& x, const CMatrix& y, std::int64_t m, std::int64_t k, std::int64_t n,
            bool xh = false, bool yh = false) {
  CMatrix out(static_cast<std::size_t>(m * n));
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      Complex s = 0;
      for (std::int64_t l = 0; l < k; ++l) {
        const Complex a = xh ? std::conj(x[static_cast<std::size_t>(l * m + i)])
                             : x[static_cast<std::size_t>(i * k + l)];
        const Complex b = yh ? std::conj(y[static_cast<std::size_t>(j * k + l)])
                             : y[static_cast<std::size_t>(l * n + j)];
        s += a * b;
      }
      out[static_cast<std::size_t>(i * n + j)] = s;
    }
  }
  return out;
}

CMatrix identity(std::int64_t n) {
  CMatrix e(static_cast<std::size_t>(n * n));
  for (std::int64_t i = 0; i < n; ++i) e[static_cast<std::size_t>(i * n + i)] = 1;
  return e;
}

template <class C>
Tensor to_tensor(const CMatrix& m, const Shape& shape) {
  std::vector<C> v;
  for (const Complex& z : m) v.emplace_back(z);
  return from_vector(v, shape, &cpu());
}

// Matrix b of a batch tensor as CMatrix.
CMatrix matrix_at(const Tensor& t, std::int64_t b) {
  const std::vector<Complex> all = testing::as_complex_values(t);
  const std::int64_t per = t.shape()[t.shape().size() - 2] * t.shape().back();
  return CMatrix(all.begin() + b * per, all.begin() + (b + 1) * per);
}

::testing::AssertionResult near(const CMatrix& got, const CMatrix& want, double tol) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (!(std::abs(got[i] - want[i]) <= tol)) {
      return ::testing::AssertionFailure()
             << "element " << i << ": " << got[i] << " vs " << want[i] << " (tol " << tol << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

// B·Bᴴ + n·I: Hermitian positive definite.
CMatrix hermitian_pd(std::int64_t n, std::uint32_t seed) {
  const CMatrix b = random_matrix(n, n, seed);
  CMatrix a = mul(b, b, n, n, n, false, true);
  for (std::int64_t i = 0; i < n; ++i) a[static_cast<std::size_t>(i * n + i)] += double(n);
  return a;
}

TYPED_TEST(ComplexLinalg, CholeskyReconstructsWithConjugateTranspose) {
  using C = TypeParam;
  const std::int64_t n = 6;
  CMatrix batch;
  for (std::uint32_t s : {1u, 2u}) {
    const CMatrix a = hermitian_pd(n, s);
    batch.insert(batch.end(), a.begin(), a.end());
  }
  const Tensor l = cholesky(to_tensor<C>(batch, {2, n, n}));
  EXPECT_EQ(l.dtype(), dtype_of_c<C>());
  for (std::int64_t b = 0; b < 2; ++b) {
    const CMatrix lm = matrix_at(l, b);
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = i + 1; j < n; ++j) EXPECT_EQ(lm[i * n + j], Complex(0));
      EXPECT_GT(lm[i * n + i].real(), 0);  // LAPACK's L has a real positive diagonal
      EXPECT_NEAR(lm[i * n + i].imag(), 0, tolerance<C>(n, 1));
    }
    const CMatrix a(batch.begin() + b * n * n, batch.begin() + (b + 1) * n * n);
    EXPECT_TRUE(near(mul(lm, lm, n, n, n, false, true), a, tolerance<C>(n, 2.0 * n)));
  }
}

TYPED_TEST(ComplexLinalg, QrIsUnitaryTimesUpperTriangular) {
  using C = TypeParam;
  for (auto [m, n] : {std::pair<std::int64_t, std::int64_t>{6, 4}, {4, 6}, {5, 5}}) {
    for (QrMode mode : {QrMode::reduced, QrMode::complete}) {
      SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n));
      const CMatrix a = random_matrix(m, n, static_cast<std::uint32_t>(m * 10 + n));
      const QR f = qr(to_tensor<C>(a, {m, n}), mode);
      const std::int64_t c = mode == QrMode::complete ? m : std::min(m, n);
      ASSERT_EQ(f.q.shape(), (Shape{m, c}));
      ASSERT_EQ(f.r.shape(), (Shape{c, n}));
      const CMatrix q = matrix_at(f.q, 0), r = matrix_at(f.r, 0);
      for (std::int64_t i = 0; i < c; ++i) {
        for (std::int64_t j = 0; j < std::min(i, n); ++j) EXPECT_EQ(r[i * n + j], Complex(0));
      }
      EXPECT_TRUE(near(mul(q, r, m, c, n), a, tolerance<C>(std::max(m, n), 1)));
      EXPECT_TRUE(near(mul(q, q, c, m, c, true, false), identity(c), tolerance<C>(m, 1)));
    }
  }
}

TYPED_TEST(ComplexLinalg, LuReconstructsWithPivots) {
  using C = TypeParam;
  const std::int64_t n = 5;
  const CMatrix a = random_matrix(n, n, 9);
  const LU f = lu(to_tensor<C>(a, {n, n}));
  EXPECT_EQ(f.p.dtype(), dtype_of_c<C>());  // Nx: the permutation in the input's type
  const CMatrix p = matrix_at(f.p, 0), l = matrix_at(f.l, 0), u = matrix_at(f.u, 0);
  for (std::int64_t i = 0; i < n; ++i) {
    EXPECT_EQ(l[i * n + i], Complex(1));
    for (std::int64_t j = 0; j < n; ++j) {
      const Complex pv = p[i * n + j];
      EXPECT_TRUE(pv == Complex(0) || pv == Complex(1));
      if (j > i) {
        EXPECT_EQ(l[i * n + j], Complex(0));
      }
      if (j < i) {
        EXPECT_EQ(u[i * n + j], Complex(0));
      }
    }
  }
  EXPECT_TRUE(near(mul(p, mul(l, u, n, n, n), n, n, n), a, tolerance<C>(n, 1)));
}

TYPED_TEST(ComplexLinalg, EighGivesRealEigenvaluesAndUnitaryEigenvectors) {
  using C = TypeParam;
  using R = typename C::value_type;
  const std::int64_t n = 6;
  CMatrix a = hermitian_pd(n, 4);
  for (std::int64_t i = 0; i < n; ++i) a[i * n + i] -= 2.0 * n;  // eigenvalues of both signs
  const Tensor in = to_tensor<C>(a, {1, n, n});
  const Eigh f = eigh(in);
  EXPECT_EQ(f.eigenvalues.dtype(), dtype_of_v<R>);
  EXPECT_EQ(f.eigenvalues.shape(), (Shape{1, n}));
  EXPECT_EQ(f.eigenvectors.dtype(), dtype_of_c<C>());
  const std::vector<R> w = f.eigenvalues.template to_vector<R>();
  for (std::int64_t i = 1; i < n; ++i) EXPECT_LE(w[i - 1], w[i]);  // ascending
  const CMatrix v = matrix_at(f.eigenvectors, 0);
  CMatrix vw = v;  // V·diag(w)
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) vw[i * n + j] *= double(w[j]);
  }
  EXPECT_TRUE(near(mul(a, v, n, n, n), vw, tolerance<C>(n, 3.0 * n)));
  EXPECT_TRUE(near(mul(v, v, n, n, n, true, false), identity(n), tolerance<C>(n, 1)));
}

TYPED_TEST(ComplexLinalg, SvdReconstructsWithRealSingularValues) {
  using C = TypeParam;
  using R = typename C::value_type;
  for (auto [m, n] : {std::pair<std::int64_t, std::int64_t>{6, 4}, {4, 6}}) {
    for (bool full : {false, true}) {
      SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + (full ? " full" : ""));
      const CMatrix a = random_matrix(m, n, static_cast<std::uint32_t>(m + 7 * n));
      const SVD f = svd(to_tensor<C>(a, {m, n}), full);
      const std::int64_t k = std::min(m, n), cu = full ? m : k, cv = full ? n : k;
      EXPECT_EQ(f.s.dtype(), dtype_of_v<R>);
      ASSERT_EQ(f.u.shape(), (Shape{m, cu}));
      ASSERT_EQ(f.vt.shape(), (Shape{cv, n}));
      const std::vector<R> s = f.s.template to_vector<R>();
      for (std::int64_t i = 0; i < k; ++i) {
        EXPECT_GE(s[i], R(0));
        if (i > 0) {
          EXPECT_GE(s[i - 1], s[i]);  // descending
        }
      }
      const CMatrix u = matrix_at(f.u, 0), vt = matrix_at(f.vt, 0);
      CMatrix us(static_cast<std::size_t>(m * k));  // first k columns of u, times diag(s)
      for (std::int64_t i = 0; i < m; ++i) {
        for (std::int64_t j = 0; j < k; ++j) us[i * k + j] = u[i * cu + j] * double(s[j]);
      }
      const CMatrix vk(vt.begin(), vt.begin() + k * n);  // first k rows of vᴴ
      EXPECT_TRUE(near(mul(us, vk, m, k, n), a, tolerance<C>(std::max(m, n), 2)));
      EXPECT_TRUE(near(mul(u, u, cu, m, cu, true, false), identity(cu), tolerance<C>(m, 1)));
      EXPECT_TRUE(near(mul(vt, vt, cv, n, cv, false, true), identity(cv), tolerance<C>(n, 1)));
    }
  }
}

TYPED_TEST(ComplexLinalg, NonFiniteInputsGiveNaNFactors) {
  using C = TypeParam;
  using R = typename C::value_type;
  CMatrix a = hermitian_pd(3, 5);
  a[3] = Complex(std::nan(""), 0);  // in the lower triangle
  const Tensor t = to_tensor<C>(a, {3, 3});
  for (const Tensor& r : {eigh(t).eigenvectors, svd(t).u, cholesky(t)}) {
    for (const Complex& z : testing::as_complex_values(r)) EXPECT_TRUE(std::isnan(z.real()));
  }
  for (R w : eigh(t).eigenvalues.template to_vector<R>()) EXPECT_TRUE(std::isnan(w));
}

// op(a)·x = b (left) or x·op(a) = b (right), for every triangle and transform.
TYPED_TEST(ComplexLinalg, TriangularSolveEverySideTriangleAndTransform) {
  using C = TypeParam;
  const std::int64_t n = 5, k = 3;
  CMatrix a = random_matrix(n, n, 21);
  for (std::int64_t i = 0; i < n; ++i) a[i * n + i] += Complex(3, 1);  // well conditioned
  for (bool left : {true, false}) {
    for (bool lower : {true, false}) {
      for (TriangularTransform tr : {TriangularTransform::none, TriangularTransform::transpose,
                                     TriangularTransform::conjugate_transpose}) {
        SCOPED_TRACE(std::string(left ? "left " : "right ") + (lower ? "lower " : "upper ") +
                     std::to_string(static_cast<int>(tr)));
        CMatrix tri(a.size());  // the triangle read, then op() of it
        for (std::int64_t i = 0; i < n; ++i) {
          for (std::int64_t j = 0; j < n; ++j) {
            if (lower ? j <= i : j >= i) tri[i * n + j] = a[i * n + j];
          }
        }
        CMatrix op = tri;
        for (std::int64_t i = 0; i < n; ++i) {
          for (std::int64_t j = 0; j < n; ++j) {
            const Complex v = tri[j * n + i];
            if (tr != TriangularTransform::none) {
              op[i * n + j] = tr == TriangularTransform::transpose ? v : std::conj(v);
            }
          }
        }
        const std::int64_t rows = left ? n : k, cols = left ? k : n;
        const CMatrix b = random_matrix(rows, cols, 33);
        const Tensor x = triangular_solve(to_tensor<C>(a, {n, n}), to_tensor<C>(b, {rows, cols}),
                                          {left, lower, tr});
        const CMatrix xm = matrix_at(x, 0);
        const CMatrix back = left ? mul(op, xm, n, n, k) : mul(xm, op, k, n, n);
        EXPECT_TRUE(near(back, b, tolerance<C>(n, 4)));
      }
    }
  }
}

TYPED_TEST(ComplexLinalg, EmptyAndSingularMatrices) {
  using C = TypeParam;
  using R = typename C::value_type;
  const Tensor none = from_vector(std::vector<C>{}, {2, 0, 0}, &cpu());
  EXPECT_EQ(cholesky(none).shape(), (Shape{2, 0, 0}));
  EXPECT_EQ(eigh(none).eigenvalues.dtype(), dtype_of_v<R>);
  EXPECT_EQ(eigh(none).eigenvalues.shape(), (Shape{2, 0}));
  const Tensor det0 = determinant(none);  // 1 for a 0x0 matrix
  EXPECT_TRUE(testing::complex_close(det0, {{1, 0}, {1, 0}}, {0, 0}));
  // svd of a 3x0 matrix: no singular values, the full u is the identity.
  const SVD f = svd(from_vector(std::vector<C>{}, {3, 0}, &cpu()));
  EXPECT_EQ(f.s.shape(), (Shape{0}));
  EXPECT_TRUE(testing::complex_close(f.u, identity(3), {0, 0}));
  // A singular matrix: determinant 0, lu still factors it.
  const CMatrix rank1 = {{1, 1}, {2, 0}, {0, 0}, {0, 0}};  // a zero row: an exact zero pivot
  const Tensor s = to_tensor<C>(rank1, {2, 2});
  EXPECT_TRUE(testing::complex_close(determinant(s), {{0, 0}}, {0, 1e-6}));
  const LU d = lu(s);
  EXPECT_TRUE(
      near(mul(matrix_at(d.p, 0), mul(matrix_at(d.l, 0), matrix_at(d.u, 0), 2, 2, 2), 2, 2, 2),
           rank1, tolerance<C>(2, 6)));
  EXPECT_THROW(solve(s, to_tensor<C>({{1, 0}, {0, 1}}, {2})), LinAlgError);
  EXPECT_THROW(cholesky(to_tensor<C>({{-1, 0}, {0, 0}, {0, 0}, {1, 0}}, {2, 2})), LinAlgError);
}

TEST(ComplexLinalgDtypes, MixedOperandsPromoteToComplex) {
  const Tensor a = from_vector(std::vector<double>{2, 0, 0, 4}, {2, 2}, &cpu());
  const Tensor b = from_vector(std::vector<std::complex<float>>{{2, 2}, {4, -8}}, {2}, &cpu());
  const Tensor x = solve(a, b);  // f64 with c64: c128
  EXPECT_EQ(x.dtype(), DType::c128);
  EXPECT_TRUE(testing::complex_close(x, {{1, 1}, {1, -2}}, {1e-14, 1e-14}));
  const Tensor det = determinant(from_vector(
      std::vector<std::complex<double>>{{0, 1}, {2, 0}, {1, 0}, {0, 1}}, {2, 2}, &cpu()));
  EXPECT_EQ(det.dtype(), DType::c128);
  EXPECT_TRUE(testing::complex_close(det, {{-3, 0}}, {1e-14, 1e-14}));  // i·i - 2
}

}  // namespace
}  // namespace vkt
