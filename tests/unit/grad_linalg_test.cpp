// The linear-algebra rules (src/grad/rules_linalg.cpp) against central differences in f64:
// every triangular_solve option, solve, determinant (a singular matrix too), cholesky, qr
// (deep, square, wide; complete where defined), lu (with pivoting), eigh and svd, at 1x1,
// 3x3, batched and rectangular shapes; the refusals of what has no derivative; f32, compile
// and Vulkan against the cpu's f64.
//
// cholesky and eigh read a's lower triangle only, and their cotangent is the derivative of
// the op as it runs (JAX's symmetric one folded onto that triangle): checked both raw (one
// entry perturbed at a time, so an upper entry's derivative is 0) and through sym(x) =
// (x + xᵀ) / 2 and x·xᵀ, where it agrees with JAX's symmetric convention.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "support/grad_check.h"
#include "vkt/compile.h"
#include "vkt/grad.h"
#include "vkt/ledger.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using grad_check::values;
using Ts = std::vector<Tensor>;

// grad_check::check, and every cotangent finite: its largest-error fold (std::max) passes
// over a NaN, so a NaN cotangent would go unseen.
void check(const std::string& what, const grad_check::Fn& f, const Ts& primals,
           double tolerance = 1e-6) {
  grad_check::check(what, f, primals, tolerance);
  const Ts g = grad([&f](const Ts& a) { return Ts{f(a)}; }, primals);
  for (std::size_t p = 0; p < g.size(); ++p) {
    const std::vector<double> v = g[p].to_vector<double>();
    const auto bad = std::find_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); });
    EXPECT_TRUE(bad == v.end()) << what << ": primal " << p << " element " << (bad - v.begin())
                                << " of its cotangent is " << (bad == v.end() ? 0.0 : *bad);
  }
}

Tensor mT(const Tensor& t) {
  Axes perm;
  for (std::int64_t i = 0; i < t.rank(); ++i) perm.push_back(i);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return transpose(t, perm);
}
std::int64_t last(const Shape& s) {
  return s.back();
}
Tensor n_eye(const Shape& shape) {
  const std::int64_t n = last(shape);
  return multiply(eye(n, DType::f64, &cpu()), static_cast<double>(n));
}
// Values in [-1, 1) plus n·I: well conditioned, no pivoting needed.
Tensor general(const Shape& shape, std::uint32_t seed) {
  return add(values(shape, -1, 1, seed), n_eye(shape));
}
// x·xᵀ + n·I: symmetric positive definite.
Tensor spd(const Shape& shape, std::uint32_t seed) {
  const Tensor x = values(shape, -1, 1, seed);
  return add(matmul(x, mT(x)), n_eye(shape));
}
Tensor sym(const Tensor& x) {
  return multiply(add(x, mT(x)), 0.5);
}
// Symmetric with eigenvalues about 3 apart: sym(values) + diag(0, 3, 6, ...).
Tensor sym_distinct(const Shape& shape, std::uint32_t seed) {
  const std::int64_t n = last(shape);
  const Tensor d = multiply(iota({n}, DType::f64, std::nullopt, &cpu()), 3.0);
  return add(sym(values(shape, -1, 1, seed)), multiply(eye(n, DType::f64, &cpu()), d));
}
// The smallest gap between neighbours along the last axis of sorted values.
double min_gap(const Tensor& sorted) {
  const std::vector<double> v = sorted.to_vector<double>();
  const std::size_t n = static_cast<std::size_t>(last(sorted.shape()));
  double gap = 1e300;
  for (std::size_t b = 0; b + n <= v.size(); b += n) {
    for (std::size_t i = 1; i < n; ++i) gap = std::min(gap, std::abs(v[b + i] - v[b + i - 1]));
  }
  return gap;
}
Tensor weights(const Shape& shape, std::uint32_t seed) {
  return values(shape, -1, 1, seed);
}
std::string name_of(const std::string& op, const Shape& shape) {
  return op + " " + shape_str(shape);
}

// ---- triangular_solve and solve ----

TEST(GradLinalg, TriangularSolveEveryOption) {
  const TriangularTransform transforms[] = {TriangularTransform::none,
                                            TriangularTransform::transpose,
                                            TriangularTransform::conjugate_transpose};
  std::uint32_t seed = 100;
  for (const Shape& a_shape : {Shape{1, 1}, Shape{3, 3}, Shape{2, 3, 3}, Shape{2, 1, 2, 2}}) {
    const std::int64_t n = last(a_shape);
    const Shape batch(a_shape.begin(), a_shape.end() - 2);
    for (const bool left : {true, false}) {
      for (const bool lower : {true, false}) {
        for (const TriangularTransform t : transforms) {
          for (const bool vector : {false, true}) {
            Shape b_shape = batch;
            if (vector) {
              b_shape.push_back(n);
            } else {
              b_shape.push_back(left ? n : 2);
              b_shape.push_back(left ? 2 : n);
            }
            const TriangularSolveOptions o{left, lower, t};
            const Tensor w = weights(b_shape, seed++);
            check(name_of("triangular_solve a", a_shape) + " b " + shape_str(b_shape) +
                      (left ? " left" : " right") + (lower ? " lower" : " upper") + " transform " +
                      std::to_string(static_cast<int>(t)),
                  [o, w](const Ts& a) {
                    return sum(multiply(sin(triangular_solve(a[0], a[1], o)), w));
                  },
                  {general(a_shape, seed++), values(b_shape, -1, 1, seed++)});
          }
        }
      }
    }
  }
}

TEST(GradLinalg, TriangularSolveLeavesTheUnreadTriangleAlone) {
  const Tensor a = general({3, 3}, 120);
  const Tensor b = values({3, 2}, -1, 1, 121);
  for (const bool lower : {true, false}) {
    const TriangularSolveOptions o{true, lower, TriangularTransform::transpose};
    const Ts g =
        grad([o](const Ts& x) { return Ts{sum(triangular_solve(x[0], x[1], o))}; }, {a, b});
    const std::vector<double> ga = g[0].to_vector<double>();
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        if (lower ? j > i : j < i) {
          EXPECT_EQ(ga[static_cast<std::size_t>(i * 3 + j)], 0.0);
        }
      }
    }
  }
}

TEST(GradLinalg, Solve) {
  std::uint32_t seed = 150;
  for (const Shape& a_shape : {Shape{1, 1}, Shape{3, 3}, Shape{2, 3, 3}}) {
    Shape vec(a_shape.begin(), a_shape.end() - 1);
    Shape mat = vec;
    mat.push_back(2);
    for (const Shape& b_shape : {vec, mat}) {
      const Tensor w = weights(b_shape, seed++);
      check(name_of("solve a", a_shape) + " b " + shape_str(b_shape),
            [w](const Ts& a) { return sum(multiply(sin(solve(a[0], a[1])), w)); },
            {general(a_shape, seed++), values(b_shape, -1, 1, seed++)});
    }
  }
}

// ---- determinant ----

TEST(GradLinalg, Determinant) {
  std::uint32_t seed = 200;
  for (const Shape& shape :
       {Shape{1, 1}, Shape{3, 3}, Shape{4, 4}, Shape{2, 3, 3}, Shape{2, 2, 2, 2}}) {
    const Shape batch(shape.begin(), shape.end() - 2);
    const Tensor w = weights(batch, seed++);
    check(name_of("determinant", shape),
          [w](const Ts& a) { return sum(multiply(determinant(a[0]), w)); },
          {values(shape, -1, 1, seed++)});
    check(name_of("determinant, well conditioned", shape),
          [w](const Ts& a) { return sum(multiply(sin(determinant(a[0])), w)); },
          {general(shape, seed++)});
  }
}

// At a singular a the cotangent is the cofactor matrix (nonzero for rank n - 1, zero for
// rank n - 2), no LinAlgError and no NaN.
TEST(GradLinalg, DeterminantOfASingularMatrix) {
  const Tensor x = values({3, 2}, -1, 1, 210);
  const Tensor y = values({2, 3}, -1, 1, 211);
  const Tensor rank2 = matmul(x, y);
  check("determinant, rank 2 of 3", [](const Ts& a) { return determinant(a[0]); }, {rank2});
  const Ts g = grad([](const Ts& a) { return Ts{determinant(a[0])}; }, {rank2});
  double largest = 0;
  for (double v : g[0].to_vector<double>()) largest = std::max(largest, std::abs(v));
  EXPECT_GT(largest, 1e-3);
  const Tensor rank1 = matmul(values({4, 1}, -1, 1, 212), values({1, 4}, -1, 1, 213));
  check("determinant, rank 1 of 4", [](const Ts& a) { return determinant(a[0]); }, {rank1});
  for (double v :
       grad([](const Ts& a) { return Ts{determinant(a[0])}; }, {rank1})[0].to_vector<double>()) {
    EXPECT_NEAR(v, 0.0, 1e-12);
  }
}

// ---- cholesky ----

Tensor cholesky_loss(const Tensor& l, const Tensor& w) {
  return sum(multiply(sin(l), w));
}

TEST(GradLinalg, CholeskyReadsTheLowerTriangle) {
  std::uint32_t seed = 300;
  for (const Shape& shape :
       {Shape{1, 1}, Shape{3, 3}, Shape{4, 4}, Shape{2, 3, 3}, Shape{2, 2, 2, 2}}) {
    const Tensor w = weights(shape, seed++);
    const Tensor a = spd(shape, seed++);
    // The op as it runs: one entry at a time, an upper one changes nothing.
    check(name_of("cholesky, raw", shape),
          [w](const Ts& x) { return cholesky_loss(cholesky(x[0]), w); }, {a});
    // JAX's convention: through a symmetric input.
    check(name_of("cholesky of sym(x)", shape),
          [w](const Ts& x) { return cholesky_loss(cholesky(sym(x[0])), w); }, {a});
    const std::int64_t n = last(shape);
    check(name_of("cholesky of x xT + nI", shape),
          [w, n](const Ts& x) {
            const Tensor s = add(matmul(x[0], mT(x[0])),
                                 multiply(eye(n, DType::f64, &cpu()), static_cast<double>(n)));
            return cholesky_loss(cholesky(s), w);
          },
          {values(shape, -1, 1, seed++)});
  }
}

// The raw cotangent is 0 above the diagonal, and its symmetric part (what a symmetric change
// of a sees) is JAX's symmetric cotangent: the gradient through sym(x).
TEST(GradLinalg, CholeskyCotangentIsFoldedOntoTheLowerTriangle) {
  const Tensor a = spd({3, 3}, 320);
  const Tensor w = weights({3, 3}, 321);
  const Tensor raw =
      grad([w](const Ts& x) { return Ts{cholesky_loss(cholesky(x[0]), w)}; }, {a})[0];
  const Tensor jax =
      grad([w](const Ts& x) { return Ts{cholesky_loss(cholesky(sym(x[0])), w)}; }, {a})[0];
  const std::vector<double> r = raw.to_vector<double>(), s = jax.to_vector<double>();
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      const double want = i == j ? s[i * 3 + j] : (i > j ? 2 * s[i * 3 + j] : 0.0);
      EXPECT_NEAR(r[i * 3 + j], want, 1e-12) << i << "," << j;
      EXPECT_NEAR(s[i * 3 + j], s[j * 3 + i], 1e-12);
    }
  }
}

// ---- qr ----

// sin(q) and r·r: every output, every element (QR's signs are the algorithm's, locally
// constant, so no invariance is needed).
Tensor qr_loss(const QR& f, const Tensor& wq, const Tensor& wr) {
  return add(sum(multiply(sin(f.q), wq)), sum(multiply(multiply(f.r, f.r), wr)));
}

void check_qr(const Shape& shape, QrMode mode, std::uint32_t seed) {
  const Tensor a = values(shape, -1, 1, seed);
  const QR f = qr(a, mode);
  const Tensor wq = weights(f.q.shape(), seed + 1), wr = weights(f.r.shape(), seed + 2);
  check(name_of(mode == QrMode::complete ? "qr complete" : "qr reduced", shape),
        [wq, wr, mode](const Ts& x) { return qr_loss(qr(x[0], mode), wq, wr); }, {a});
}

TEST(GradLinalg, Qr) {
  std::uint32_t seed = 400;
  for (const Shape& shape : {Shape{1, 1}, Shape{3, 3}, Shape{4, 3}, Shape{5, 2}, Shape{3, 1},
                             Shape{2, 4, 3}, Shape{2, 3, 3}, Shape{2, 2, 3, 2}}) {
    check_qr(shape, QrMode::reduced, seed);
    seed += 3;
  }
  // Wide matrices (m < n, where reduced and complete agree) and square complete ones.
  for (const Shape& shape : {Shape{3, 4}, Shape{2, 5}, Shape{1, 3}, Shape{2, 3, 5}}) {
    check_qr(shape, QrMode::reduced, seed);
    check_qr(shape, QrMode::complete, seed + 3);
    seed += 6;
  }
  for (const Shape& shape : {Shape{1, 1}, Shape{3, 3}, Shape{2, 3, 3}}) {
    check_qr(shape, QrMode::complete, seed);
    seed += 3;
  }
}

std::string grad_error(const TensorFunction& f, const Tensor& x) {
  try {
    grad(f, {x});
  } catch (const Unsupported& e) {
    return e.what();
  }
  return "no error";
}

TEST(GradLinalg, QrCompleteOfADeepMatrixIsRefused) {
  const std::string message = grad_error(
      [](const Ts& x) {
        const QR f = qr(x[0], QrMode::complete);
        return Ts{add(sum(f.q), sum(f.r))};
      },
      values({2, 4, 3}, -1, 1, 450));
  EXPECT_NE(message.find("[grad] qr"), std::string::npos) << message;
  EXPECT_NE(message.find("4x3"), std::string::npos) << message;
  EXPECT_NE(message.find("complete"), std::string::npos) << message;
}

// ---- lu ----

// Row i of the result is row i + 1 (mod n) of a.
Tensor roll_rows(const Tensor& a) {
  const std::int64_t n = last(a.shape());
  std::vector<std::int64_t> order;
  for (std::int64_t i = 0; i < n; ++i) order.push_back((i + 1) % n);
  return take(a, from_vector<std::int64_t>(order, {n}, &cpu()), a.rank() - 2);
}

TEST(GradLinalg, Lu) {
  std::uint32_t seed = 500;
  // Rows rolled by one: the largest entries sit off the diagonal, so partial pivoting
  // permutes them back by a cycle (p is not its own transpose).
  for (const Shape& shape :
       {Shape{1, 1}, Shape{3, 3}, Shape{4, 4}, Shape{2, 3, 3}, Shape{2, 2, 3, 3}}) {
    for (const bool pivoted : {false, true}) {
      Tensor a = general(shape, seed++);
      if (pivoted) a = roll_rows(a);
      const Tensor wp = weights(shape, seed++), wl = weights(shape, seed++),
                   wu = weights(shape, seed++);
      check(name_of(pivoted ? "lu, pivoted" : "lu", shape),
            [wp, wl, wu](const Ts& x) {
              const LU f = lu(x[0]);
              return add(add(sum(multiply(f.p, wp)), sum(multiply(sin(f.l), wl))),
                         sum(multiply(multiply(f.u, f.u), wu)));
            },
            {a});
    }
  }
  // The pivoted 3x3 case really pivots, by a cycle.
  const LU f = lu(roll_rows(general({3, 3}, 502)));
  EXPECT_NE(f.p.to_vector<double>(), eye(3, DType::f64, &cpu()).to_vector<double>());
  EXPECT_NE(f.p.to_vector<double>(), mT(f.p).to_vector<double>());
}

// ---- eigh ----

// Eigenvalues through sin, eigenvectors through v∘v (invariant to each column's sign) and
// v·diag(w²)·vᵀ.
Tensor eigh_loss(const Eigh& e, const Tensor& ww, const Tensor& wv, const Tensor& wp) {
  const Tensor& v = e.eigenvectors;
  const Tensor w = e.eigenvalues;
  Shape row = w.shape();
  row.insert(row.end() - 1, 1);
  const Tensor vwv = matmul(multiply(v, reshape(multiply(w, w), row)), mT(v));
  return add(add(sum(multiply(sin(w), ww)), sum(multiply(multiply(v, v), wv))),
             sum(multiply(vwv, wp)));
}

TEST(GradLinalg, EighReadsTheLowerTriangle) {
  std::uint32_t seed = 600;
  for (const Shape& shape :
       {Shape{1, 1}, Shape{3, 3}, Shape{4, 4}, Shape{2, 3, 3}, Shape{2, 2, 2, 2}}) {
    const Tensor a = sym_distinct(shape, seed++);
    ASSERT_GT(min_gap(eigh(a).eigenvalues), 0.5);
    Shape w_shape(shape.begin(), shape.end() - 1);
    const Tensor ww = weights(w_shape, seed++), wv = weights(shape, seed++),
                 wp = weights(shape, seed++);
    check(name_of("eigh, raw", shape),
          [ww, wv, wp](const Ts& x) { return eigh_loss(eigh(x[0]), ww, wv, wp); }, {a});
    check(name_of("eigh of sym(x)", shape),
          [ww, wv, wp](const Ts& x) { return eigh_loss(eigh(sym(x[0])), ww, wv, wp); }, {a});
  }
}

// trace(exp(a)) = sum(exp(w)) is smooth at repeated eigenvalues, and so is its cotangent
// (v·diag(exp(w))·vᵀ folded): the eigenvectors' zero cotangent adds no NaN there, with the
// eigenvalues exactly equal (a diagonal a) or equal up to rounding (a rotated one).
TEST(GradLinalg, EigenvaluesAloneAtARepeatedEigenvalue) {
  const Tensor d = from_vector<double>({1, 0, 0, 0, 1, 0, 0, 0, 4}, {3, 3}, &cpu());
  const Tensor q = qr(values({3, 3}, -1, 1, 650)).q;
  const Tensor rotated = matmul(matmul(q, d), mT(q));
  for (const Tensor& a : {d, rotated, multiply(eye(3, DType::f64, &cpu()), 2.0)}) {
    check("eigh, repeated eigenvalues",
          [](const Ts& x) { return sum(exp(eigh(x[0]).eigenvalues)); }, {a});
    check("eigh of sym(x), repeated eigenvalues",
          [](const Ts& x) { return sum(exp(eigh(sym(x[0])).eigenvalues)); }, {a});
  }
}

// ---- svd ----

// s through sin, u and vt through u∘u and vt∘vt (invariant to the pairs' signs) and
// u·diag(s²)·vt.
Tensor svd_loss(const SVD& f, const Tensor& ws, const Tensor& wu, const Tensor& wv,
                const Tensor& wp) {
  Shape row = f.s.shape();
  row.insert(row.end() - 1, 1);
  const Tensor usv = matmul(multiply(f.u, reshape(multiply(f.s, f.s), row)), f.vt);
  return add(add(sum(multiply(sin(f.s), ws)), sum(multiply(multiply(f.u, f.u), wu))),
             add(sum(multiply(multiply(f.vt, f.vt), wv)), sum(multiply(usv, wp))));
}

void check_svd(const Shape& shape, bool full, std::uint32_t seed) {
  const Tensor a = values(shape, -1, 1, seed);
  const SVD f = svd(a, full);
  ASSERT_GT(min_gap(f.s), 0.05) << shape_str(shape);
  const Tensor ws = weights(f.s.shape(), seed + 1), wu = weights(f.u.shape(), seed + 2),
               wv = weights(f.vt.shape(), seed + 3);
  const Tensor wp = weights(shape, seed + 4);
  check(name_of(full ? "svd full" : "svd reduced", shape),
        [=](const Ts& x) { return svd_loss(svd(x[0], full), ws, wu, wv, wp); }, {a});
}

TEST(GradLinalg, Svd) {
  std::uint32_t seed = 700;
  for (const Shape& shape :
       {Shape{1, 1}, Shape{3, 3}, Shape{4, 3}, Shape{3, 4}, Shape{5, 2}, Shape{1, 3},
        Shape{2, 4, 3}, Shape{2, 3, 4}, Shape{2, 3, 3}, Shape{2, 2, 3, 2}}) {
    check_svd(shape, false, seed);
    seed += 5;
  }
  for (const Shape& shape : {Shape{1, 1}, Shape{3, 3}, Shape{2, 3, 3}}) {
    check_svd(shape, true, seed);
    seed += 5;
  }
}

// The nuclear norm sum(s) at repeated singular values and sum(s²) = |a|² at a zero one
// (deep, wide, square): smooth there, and the vectors' zero cotangent adds no NaN, with the
// values exactly repeated or zero (a diagonal a, a zero column) or up to rounding.
TEST(GradLinalg, SingularValuesAloneAtRepeatedAndZeroOnes) {
  const Tensor d = from_vector<double>({2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0}, {4, 3}, &cpu());
  const Tensor q1 = qr(values({4, 4}, -1, 1, 760)).q;
  const Tensor q2 = qr(values({3, 3}, -1, 1, 761)).q;
  const Tensor rotated = matmul(matmul(q1, d), mT(q2));
  for (const Tensor& a : {d, mT(d), rotated, mT(rotated)}) {
    check("svd, singular values 2, 2, 1", [](const Ts& x) { return sum(svd(x[0], false).s); }, {a});
  }
  const Tensor low = matmul(values({4, 2}, -1, 1, 762), values({2, 3}, -1, 1, 763));
  const Tensor zero_column =
      concatenate({values({4, 2}, -1, 1, 764), full({4, 1}, 0.0, DType::f64, &cpu())}, 1);
  const Tensor zero_row =
      concatenate({values({2, 3}, -1, 1, 765), full({1, 3}, 0.0, DType::f64, &cpu())}, 0);
  for (const Tensor& a : {low, mT(low), zero_column, mT(zero_column), zero_row}) {
    const Tensor g = grad(
        [](const Ts& x) {
          const Tensor sv = svd(x[0], false).s;
          return Ts{sum(multiply(sv, sv))};
        },
        {a})[0];
    const std::vector<double> got = g.to_vector<double>(), want = a.to_vector<double>();
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], 2 * want[i], 1e-9) << i;
  }
}

TEST(GradLinalg, SvdFullMatricesOfANonSquareMatrixIsRefused) {
  for (const Shape& shape : {Shape{4, 3}, Shape{2, 3, 5}}) {
    const std::string message = grad_error(
        [](const Ts& x) {
          const SVD f = svd(x[0], true);
          return Ts{sum(f.s)};
        },
        values(shape, -1, 1, 750));
    EXPECT_NE(message.find("[grad] svd"), std::string::npos) << message;
    EXPECT_NE(message.find("full_matrices"), std::string::npos) << message;
    const std::string dims =
        std::to_string(shape[shape.size() - 2]) + "x" + std::to_string(shape.back());
    EXPECT_NE(message.find(dims), std::string::npos) << message;
  }
}

// ---- empty matrices ----

// No element, nothing to differentiate: zeros of the input's shape, no error.
TEST(GradLinalg, EmptyMatricesGetEmptyCotangents) {
  const std::vector<std::pair<std::string, TensorFunction>> square = {
      {"cholesky", [](const Ts& a) { return Ts{sum(cholesky(a[0]))}; }},
      {"determinant", [](const Ts& a) { return Ts{sum(determinant(a[0]))}; }},
      {"solve", [](const Ts& a) { return Ts{sum(solve(a[0], a[0]))}; }},
      {"triangular_solve", [](const Ts& a) { return Ts{sum(triangular_solve(a[0], a[0]))}; }},
      {"lu",
       [](const Ts& a) {
         const LU f = lu(a[0]);
         return Ts{add(sum(f.l), sum(f.u))};
       }},
      {"eigh",
       [](const Ts& a) {
         const Eigh e = eigh(a[0]);
         return Ts{add(sum(e.eigenvalues), sum(e.eigenvectors))};
       }},
  };
  const std::vector<std::pair<std::string, TensorFunction>> any = {
      {"qr",
       [](const Ts& a) {
         const QR f = qr(a[0]);
         return Ts{add(sum(f.q), sum(f.r))};
       }},
      {"svd",
       [](const Ts& a) {
         const SVD f = svd(a[0], false);
         return Ts{add(sum(f.s), add(sum(f.u), sum(f.vt)))};
       }},
  };
  auto expect_empty = [](const std::string& name, const TensorFunction& f, const Shape& shape) {
    SCOPED_TRACE(name + " " + shape_str(shape));
    const Ts g = grad(f, {full(shape, 1.0, DType::f64, &cpu())});
    EXPECT_EQ(g[0].shape(), shape);
  };
  for (const Shape& shape : {Shape{0, 0}, Shape{2, 0, 0}, Shape{0, 3, 3}}) {
    for (const auto& [name, f] : square) expect_empty(name, f, shape);
  }
  for (const Shape& shape : {Shape{0, 3}, Shape{3, 0}, Shape{2, 0, 3}}) {
    for (const auto& [name, f] : any) expect_empty(name, f, shape);
  }
}

// ---- f32, compile, Vulkan ----

// Every rule in one loss, as a list of (name, loss) over a [2, 3, 3] input.
std::vector<std::pair<std::string, TensorFunction>> all_rules() {
  const Tensor w = weights({2, 3, 3}, 800);
  auto wt = [w](const Tensor& like) { return as_type(w, like.dtype()); };
  // Constants made on the cpu and captured (an eye made on a traced input's backend is an
  // op of the traced graph, and the pullback refuses a cotangent reaching a creation op).
  const Tensor three_eye = multiply(eye(3, DType::f64, &cpu()), 3.0);
  auto i3 = [three_eye](const Tensor& like) { return as_type(three_eye, like.dtype()); };
  return {
      {"triangular_solve",
       [=](const Ts& x) {
         const Tensor a = add(x[0], i3(x[0]));
         return Ts{sum(multiply(
             triangular_solve(a, x[0], {false, true, TriangularTransform::transpose}), wt(x[0])))};
       }},
      {"solve",
       [=](const Ts& x) { return Ts{sum(multiply(solve(add(x[0], i3(x[0])), x[0]), wt(x[0])))}; }},
      {"determinant", [=](const Ts& x) { return Ts{sum(determinant(add(x[0], i3(x[0]))))}; }},
      {"cholesky",
       [=](const Ts& x) {
         return Ts{sum(multiply(cholesky(add(matmul(x[0], mT(x[0])), i3(x[0]))), wt(x[0])))};
       }},
      {"qr",
       [=](const Ts& x) {
         const QR f = qr(x[0]);
         return Ts{add(sum(multiply(f.q, wt(x[0]))), sum(multiply(f.r, f.r)))};
       }},
      {"lu",
       [=](const Ts& x) {
         const LU f = lu(add(x[0], i3(x[0])));
         return Ts{add(sum(multiply(f.l, wt(x[0]))), sum(multiply(f.u, f.u)))};
       }},
      {"eigh",
       [=](const Ts& x) {
         const Tensor spread = as_type(multiply(sym_distinct({3, 3}, 0), 2.0), x[0].dtype());
         const Eigh e = eigh(add(sym(x[0]), spread));
         return Ts{add(sum(e.eigenvalues),
                       sum(multiply(multiply(e.eigenvectors, e.eigenvectors), wt(x[0]))))};
       }},
      {"svd",
       [=](const Ts& x) {
         const SVD f = svd(x[0], false);
         return Ts{add(sum(f.s), sum(multiply(multiply(f.u, f.u), wt(x[0]))))};
       }},
  };
}

TEST(GradLinalg, F32FollowsF64) {
  const Tensor x64 = values({2, 3, 3}, -1, 1, 810);
  const Tensor x32 = as_type(x64, DType::f32);
  for (const auto& [name, f] : all_rules()) {
    SCOPED_TRACE(name);
    const std::vector<double> want = grad(f, {x64})[0].to_vector<double>();
    const Tensor got = grad(f, {x32})[0];
    EXPECT_EQ(got.dtype(), DType::f32);
    const std::vector<double> g = as_type(got, DType::f64).to_vector<double>();
    for (std::size_t i = 0; i < want.size(); ++i) {
      EXPECT_NEAR(g[i], want[i], 2e-3 * (1 + std::abs(want[i]))) << i;
    }
  }
}

TEST(GradLinalg, RulesRunUnderCompile) {
  const Tensor x = values({2, 3, 3}, -1, 1, 820);
  for (const auto& [name, f] : all_rules()) {
    SCOPED_TRACE(name);
    const std::vector<double> eager = grad(f, {x})[0].to_vector<double>();
    auto compiled = compile(grad(f));
    for (int call = 0; call < 2; ++call) {
      const Ts got = compiled(Ts{x});
      ASSERT_EQ(got.size(), 1u);
      const std::vector<double> g = got[0].to_vector<double>();
      ASSERT_EQ(g.size(), eager.size());
      for (std::size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], eager[i], 1e-12) << i;
    }
    EXPECT_EQ(compiled.plans(), 1u);  // forward and backward traced once, then replayed
  }
}

Backend* vulkan_or_null() {
  try {
    return &vulkan();
  } catch (const NoDevice&) {
    return nullptr;
  }
}

// On the device every rule gives the cpu's cotangents (f32), and triangular_solve's
// backward (triangular_solve, matmul, transpose, select on iota masks) runs natively.
TEST(GradLinalg, RulesOnVulkanMatchTheCpu) {
  Backend* gpu = vulkan_or_null();
  if (gpu == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Tensor x = as_type(values({2, 3, 3}, -1, 1, 830), DType::f32);
  for (const auto& [name, f] : all_rules()) {
    SCOPED_TRACE(name);
    const std::vector<float> want = grad(f, {x})[0].to_vector<float>();
    const Tensor got = grad(f, {transfer(x, *gpu)})[0];
    const std::vector<float> g = got.to_vector<float>();
    ASSERT_EQ(g.size(), want.size());
    for (std::size_t i = 0; i < g.size(); ++i) {
      EXPECT_NEAR(g[i], want[i], 1e-3 * (1 + std::abs(want[i]))) << i;
    }
  }
}

TEST(GradLinalg, TriangularSolveBackwardIsNativeOnVulkan) {
  Backend* gpu = vulkan_or_null();
  if (gpu == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Tensor a = as_type(general({2, 3, 3}, 840), DType::f32);
  const Tensor b = as_type(values({2, 3, 2}, -1, 1, 841), DType::f32);
  const Tensor w = as_type(values({2, 3, 2}, -1, 1, 842), DType::f32);
  for (const bool lower : {true, false}) {
    SCOPED_TRACE(lower ? "lower" : "upper");
    const TriangularSolveOptions o{true, lower, TriangularTransform::transpose};
    const TensorFunction loss = [o](const Ts& x) {
      return Ts{sum(multiply(triangular_solve(x[0], x[1], o), x[2]))};
    };
    const Ts expected = grad(loss, {a, b, w});
    Vjp v = vjp(loss, {transfer(a, *gpu), transfer(b, *gpu), transfer(w, *gpu)});
    LedgerScope scope;
    const Ts got = v.pullback({full({}, 1, DType::f32, gpu)});
    gpu->synchronize();
    const LedgerCounts d = scope.delta();
    EXPECT_EQ(d.fallbacks, 0u) << d.to_string();
    EXPECT_EQ(d.downloads, 0u) << d.to_string();
    EXPECT_GT(d.dispatches, 0u) << d.to_string();
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(&got[i].backend(), gpu);
      const std::vector<float> e = expected[i].to_vector<float>();
      const std::vector<float> g = got[i].to_vector<float>();
      for (std::size_t j = 0; j < e.size(); ++j) {
        EXPECT_NEAR(g[j], e[j], 1e-4 * (1 + std::abs(e[j]))) << "primal " << i << " element " << j;
      }
    }
  }
}

}  // namespace
}  // namespace vkt
