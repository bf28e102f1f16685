// NumPy golden cases for the decompositions and solvers (scripts/golden/gen_linalg.py):
// unique results compared element by element with tolerances scaled by each case's
// condition number; the other factors checked by reconstructing a from them.
#include <gtest/gtest.h>

#include "golden/golden.h"
#include "support/linalg_check.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::Matrices;
using testing::matrices;
using testing::orthonormal_columns;
using testing::product;
using testing::reconstructs;

// The last two axes swapped.
Tensor matrix_transpose(const Tensor& t) {
  Axes perm;
  for (std::int64_t i = 0; i < t.rank(); ++i) perm.push_back(i);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return transpose(t, perm);
}

TriangularTransform transform_from(const std::string& s) {
  if (s == "transpose") return TriangularTransform::transpose;
  if (s == "conjugate_transpose") return TriangularTransform::conjugate_transpose;
  return TriangularTransform::none;
}

// Runs the case's op, checks what only reconstruction can check, and returns the part the
// golden data holds.
Tensor run_case(const testing::GoldenCase& c) {
  const Tensor& a = c.inputs[0];
  const auto& p = c.params;
  const Matrices am = matrices(a);
  const DType result = to_float_type(a.dtype());
  if (c.op == "cholesky") {
    const Tensor l = cholesky(a);
    const Matrices lm = matrices(l);
    EXPECT_TRUE(
        reconstructs(product(lm, {}, lm, lm.cols, true), testing::symmetric_from_lower(a), result));
    return l;
  }
  if (c.op == "triangular_solve") {
    return triangular_solve(a, c.inputs[1],
                            {p.at("left_side").get<bool>(), p.at("lower").get<bool>(),
                             transform_from(p.at("transform_a").get<std::string>())});
  }
  if (c.op == "solve") return solve(a, c.inputs[1]);
  if (c.op == "determinant") return determinant(a);
  if (c.op == "qr.r_abs") {
    const QR f = qr(a, p.at("mode") == "complete" ? QrMode::complete : QrMode::reduced);
    const Matrices q = matrices(f.q), r = matrices(f.r);
    EXPECT_TRUE(reconstructs(product(q, {}, r, q.cols), am, result));
    EXPECT_TRUE(orthonormal_columns(q, q.cols, result));
    for (std::int64_t b = 0; b < r.count; ++b) {
      for (std::int64_t i = 0; i < r.rows; ++i) {
        for (std::int64_t j = 0; j < std::min(i, r.cols); ++j) EXPECT_EQ(r.at(b, i, j), 0.0);
      }
    }
    return abs(f.r);
  }
  if (c.op == "eigh.eigenvalues") {
    const Eigh f = eigh(a);
    const Matrices v = matrices(f.eigenvectors);
    const std::vector<double> w = testing::as_doubles(f.eigenvalues);
    EXPECT_TRUE(
        reconstructs(product(v, w, v, v.cols, true), testing::symmetric_from_lower(a), result));
    EXPECT_TRUE(orthonormal_columns(v, v.cols, result));
    return f.eigenvalues;
  }
  if (c.op == "svd.s") {
    const SVD f = svd(a, p.at("full_matrices").get<bool>());
    const Matrices u = matrices(f.u), vt = matrices(f.vt);
    const std::int64_t k = std::min(am.rows, am.cols);
    EXPECT_TRUE(reconstructs(product(u, testing::as_doubles(f.s), vt, k), am, result));
    EXPECT_TRUE(orthonormal_columns(u, u.cols, result));
    EXPECT_TRUE(orthonormal_columns(matrices(matrix_transpose(f.vt)), vt.rows, result));
    return f.s;
  }
  if (c.op.rfind("lu.", 0) == 0) {
    const LU f = lu(a);
    const Matrices pm = matrices(f.p), l = matrices(f.l), u = matrices(f.u);
    EXPECT_TRUE(reconstructs(product(product(pm, {}, l, l.rows), {}, u, u.rows), am, result));
    const char part = c.op.back();
    return part == 'p' ? f.p : part == 'l' ? f.l : f.u;
  }
  throw std::runtime_error("golden: unknown op " + c.op);
}

TEST(LinalgGolden, MatchesNumpy) {
  const auto cases = testing::load_golden("linalg");
  ASSERT_GT(cases.size(), 200u);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const Tensor got = run_case(c);
    const std::int64_t n = c.inputs[0].shape().back();
    const double scale = testing::max_abs(testing::as_doubles(c.expected));
    EXPECT_TRUE(testing::tensors_close(
        got, c.expected,
        testing::conditioned_tolerance(c.expected.dtype(), n, c.params.at("cond").get<double>(),
                                       scale)));
  }
}

}  // namespace
}  // namespace vkt
