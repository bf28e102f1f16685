// The decompositions and solvers on the cpu beyond the NumPy golden cases: Nx's documented
// examples, result dtypes (integers -> f32, f16/bf16 kept), empty matrices and batches,
// and the documented behaviour on singular input.
#include <gtest/gtest.h>

#include <cmath>

#include "support/compare.h"
#include "support/linalg_check.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

Tensor f32(std::vector<float> v, Shape s) {
  return from_vector(v, s, &cpu());
}

std::vector<float> values(const Tensor& t) {
  return as_type(t, DType::f32).to_vector<float>();
}

void expect_near(const std::vector<float>& got, const std::vector<float>& want, float tol) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

TEST(LinalgDecomposition, NxTriangularSolveExamples) {
  const Tensor a =
      from_vector<std::int32_t>({3, 0, 0, 0, 2, 1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1}, {4, 4}, &cpu());
  const Tensor x = triangular_solve(a, from_vector<std::int32_t>({4, 2, 4, 2}, {4}, &cpu()));
  EXPECT_EQ(x.dtype(), DType::f32);
  expect_near(values(x), {1.3333334f, -0.6666667f, 2.6666667f, -1.3333334f}, 1e-6f);
  const Tensor u = f32({1, 1, 1, 1, 0, 1, 0, 1, 0, 0, 1, 2, 0, 0, 0, 3}, {4, 4});
  expect_near(values(triangular_solve(u, f32({2, 4, 2, 4}, {4}), {true, false})),
              {-1.3333334f, 2.6666667f, -0.6666667f, 1.3333334f}, 1e-6f);
}

TEST(LinalgDecomposition, NxLuAndDeterminantExamples) {
  const Tensor a = from_vector<std::int32_t>({9, 8, 7, 6, 5, 4, 3, 2, 1}, {3, 3}, &cpu());
  const LU f = lu(a);
  EXPECT_EQ(f.p.dtype(), DType::s32);  // Nx: the permutation in the input's type
  EXPECT_EQ(f.p.to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 0, 0, 0, 0, 1, 0, 1, 0}));
  expect_near(values(f.l), {1, 0, 0, 0.33333334f, 1, 0, 0.6666667f, 0.5f, 1}, 1e-5f);
  expect_near(values(f.u), {9, 8, 7, 0, -0.66666675f, -1.3333335f, 0, 0, 0}, 1e-5f);
  expect_near(values(determinant(f32({1, 2, 3, 4}, {2, 2}))), {-2}, 1e-6f);
  expect_near(values(determinant(f32({1, 2, 3, 1, -2, 3, 7, 8, 9}, {3, 3}))), {48}, 1e-4f);
  expect_near(values(determinant(f32({1, 0, 3, 0}, {2, 2}))), {0}, 0);
}

TEST(LinalgDecomposition, ResultDtypes) {
  const Tensor spd = f32({4, 2, 2, 3}, {2, 2});
  for (DType d : {DType::f16, DType::bf16, DType::f32, DType::f64}) {
    SCOPED_TRACE(dtype_name(d));
    const Tensor a = as_type(spd, d);
    EXPECT_EQ(cholesky(a).dtype(), d);
    EXPECT_EQ(qr(a).q.dtype(), d);
    EXPECT_EQ(eigh(a).eigenvalues.dtype(), d);
    EXPECT_EQ(svd(a).s.dtype(), d);
    EXPECT_EQ(lu(a).p.dtype(), d);
    EXPECT_EQ(determinant(a).dtype(), d);
    EXPECT_EQ(solve(a, a).dtype(), d);
    expect_near(values(determinant(a)), {8}, d == DType::bf16 ? 0.07f : 1e-2f);
  }
  const Tensor ints = as_type(spd, DType::s64);
  EXPECT_EQ(cholesky(ints).dtype(), DType::f32);
  EXPECT_EQ(svd(ints).u.dtype(), DType::f32);
  // Mixed operands promote first: s64 with f64 gives f64.
  EXPECT_EQ(solve(ints, as_type(f32({1, 2}, {2}), DType::f64)).dtype(), DType::f64);
}

TEST(LinalgDecomposition, ShapesOfEveryResult) {
  const Tensor a = iota({2, 5, 3}, DType::f32, std::nullopt, &cpu());
  const QR r = qr(a), c = qr(a, QrMode::complete);
  EXPECT_EQ(r.q.shape(), (Shape{2, 5, 3}));
  EXPECT_EQ(r.r.shape(), (Shape{2, 3, 3}));
  EXPECT_EQ(c.q.shape(), (Shape{2, 5, 5}));
  EXPECT_EQ(c.r.shape(), (Shape{2, 5, 3}));
  const SVD whole = svd(a), thin = svd(a, false);
  EXPECT_EQ(whole.u.shape(), (Shape{2, 5, 5}));
  EXPECT_EQ(whole.s.shape(), (Shape{2, 3}));
  EXPECT_EQ(whole.vt.shape(), (Shape{2, 3, 3}));
  EXPECT_EQ(thin.u.shape(), (Shape{2, 5, 3}));
  EXPECT_EQ(thin.vt.shape(), (Shape{2, 3, 3}));
  const Tensor sq = iota({3, 4, 4}, DType::f64, std::nullopt, &cpu());
  const Eigh e = eigh(sq);
  EXPECT_EQ(e.eigenvalues.shape(), (Shape{3, 4}));
  EXPECT_EQ(e.eigenvectors.shape(), (Shape{3, 4, 4}));
  EXPECT_EQ(determinant(sq).shape(), (Shape{3}));
  // A vector right-hand side per batch entry; a rank-1 b of a's batch rank is a vector.
  const Tensor b = full({3, 4}, 1.0, DType::f64, &cpu());
  EXPECT_EQ(triangular_solve(add(sq, 1.0), b).shape(), (Shape{3, 4}));
  EXPECT_EQ(triangular_solve(add(sq, 1.0), full({3, 2, 4}, 1.0, DType::f64, &cpu()), {false, true})
                .shape(),
            (Shape{3, 2, 4}));
}

TEST(LinalgDecomposition, EmptyMatricesAndBatches) {
  const Tensor none = full({0, 0}, 1.0f, DType::f32, &cpu());
  EXPECT_EQ(values(determinant(none)), (std::vector<float>{1}));  // NumPy: det of 0x0 is 1
  EXPECT_EQ(values(determinant(full({2, 0, 0}, 1.0f, DType::f32, &cpu()))),
            (std::vector<float>{1, 1}));
  EXPECT_EQ(cholesky(none).shape(), (Shape{0, 0}));
  EXPECT_EQ(determinant(full({0, 3, 3}, 1.0f, DType::f32, &cpu())).shape(), (Shape{0}));
  // qr/svd of a 3x0 matrix: the complete bases are identities, r is 3x0.
  const Tensor tall = full({3, 0}, 1.0f, DType::f32, &cpu());
  const QR c = qr(tall, QrMode::complete);
  EXPECT_EQ(values(c.q), (std::vector<float>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(c.r.shape(), (Shape{3, 0}));
  EXPECT_EQ(qr(tall).q.shape(), (Shape{3, 0}));
  const SVD s = svd(tall);
  EXPECT_EQ(values(s.u), (std::vector<float>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(s.s.shape(), (Shape{0}));
  EXPECT_EQ(s.vt.shape(), (Shape{0, 0}));
  EXPECT_EQ(
      triangular_solve(f32({2, 0, 1, 3}, {2, 2}), full({2, 0}, 1.0f, DType::f32, &cpu())).shape(),
      (Shape{2, 0}));
  EXPECT_EQ(solve(none, full({0}, 1.0f, DType::f32, &cpu())).shape(), (Shape{0}));
  EXPECT_EQ(lu(full({2, 0, 0}, 1.0f, DType::f32, &cpu())).u.shape(), (Shape{2, 0, 0}));
}

TEST(LinalgDecomposition, SingularTriangularSolveGivesNonFiniteValues) {
  // A zero on the diagonal is not checked (the same on every backend): IEEE division.
  const Tensor a = f32({1, 0, 2, 0}, {2, 2});
  const std::vector<float> x = values(triangular_solve(a, f32({1, 1}, {2})));
  EXPECT_EQ(x[0], 1.0f);
  EXPECT_TRUE(std::isinf(x[1]));
}

TEST(LinalgDecomposition, OnlyTheNamedTriangleIsRead) {
  const float nan = std::nanf("");
  const Tensor lower = f32({2, nan, 1, 4}, {2, 2});
  expect_near(values(triangular_solve(lower, f32({2, 5}, {2}))), {1, 1}, 1e-6f);
  expect_near(values(cholesky(f32({4, nan, 2, 5}, {2, 2}))), {2, 0, 1, 2}, 1e-6f);
  const Eigh e = eigh(f32({2, nan, 0, 3}, {2, 2}));
  expect_near(values(e.eigenvalues), {2, 3}, 1e-6f);  // ascending
}

TEST(LinalgDecomposition, NonFiniteInputsGiveNanFactorsWithoutHanging) {
  // gesdd loops forever on an infinity: svd and eigh of such a matrix return NaN instead,
  // batch entry by entry.
  const float inf = INFINITY, nan = std::nanf("");
  const Tensor a = f32({1, 2, 3, inf, 5, 6, 7, 8, 10, 2, 0, 0, 0, 3, 0, 0, 0, 4}, {2, 3, 3});
  const std::vector<float> s = values(svd(a).s);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(s[i]));
  expect_near({s[3], s[4], s[5]}, {4, 3, 2}, 1e-6f);
  const std::vector<float> w = values(eigh(a).eigenvalues);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(w[i]));
  expect_near({w[3], w[4], w[5]}, {2, 3, 4}, 1e-6f);
  EXPECT_TRUE(std::isnan(values(svd(f32({nan, 1, 1, 1}, {2, 2})).vt)[3]));
  // cholesky likewise (OpenBLAS's potrf lets a NaN through or not depending on where it is);
  // NaN in solve's a propagates by arithmetic (no pivot is exactly zero).
  for (float v : values(cholesky(f32({nan, 0, 0, 1}, {2, 2})))) EXPECT_TRUE(std::isnan(v));
  EXPECT_TRUE(std::isnan(values(solve(f32({nan, 1, 1, 1}, {2, 2}), f32({1, 1}, {2})))[0]));
}

TEST(LinalgDecomposition, LinAlgErrorNamesTheBatchEntry) {
  const Tensor a = f32({4, 0, 0, 4, 1, 2, 2, 1}, {2, 2, 2});  // entry 1 is indefinite
  try {
    (void)cholesky(a);
    FAIL() << "no error";
  } catch (const LinAlgError& e) {
    EXPECT_NE(std::string(e.what()).find("matrix 1 of the batch of 2"), std::string::npos)
        << e.what();
  }
  // The process stays usable, and a good batch factors.
  expect_near(values(cholesky(f32({4, 0, 0, 4, 4, 2, 2, 5}, {2, 2, 2}))), {2, 0, 0, 2, 2, 0, 1, 2},
              1e-6f);
}

}  // namespace
}  // namespace vkt
