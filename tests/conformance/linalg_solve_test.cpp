// triangular_solve on the device against the cpu (OpenBLAS trsm): every side, triangle and
// transform; sizes around the kernel's 16-row blocks and 256-wide workgroups; batches,
// vector right-hand sides, f16 by widening, special values. The decompositions fall back:
// their results stay on the cpu and equal the cpu's.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "conformance/fixture.h"
#include "support/compare.h"
#include "support/linalg_check.h"
#include "vulkan/runtime/backend.h"

namespace vkt::testing {
namespace {

class LinalgSolve : public VulkanTest {
 protected:
  bool has_f64() const {
    return static_cast<vk::VulkanBackend&>(gpu()).dtype_supported(DType::f64);
  }
};

// A well-conditioned triangle (diagonal 2..3, off-diagonal |x| <= 1/n) in the named half,
// NaN in the other half (it must not be read).
Tensor triangle(const Shape& shape, bool lower, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const std::int64_t n = shape.back();
  std::vector<double> v(static_cast<std::size_t>(numel(shape)));
  for (std::size_t e = 0; e < v.size(); ++e) {
    const std::int64_t i = static_cast<std::int64_t>(e) / n % n;
    const std::int64_t j = static_cast<std::int64_t>(e) % n;
    const bool inside = lower ? j <= i : j >= i;
    v[e] = !inside ? std::nan("") : i == j ? 2.5 + u(rng) / 2 : u(rng) / static_cast<double>(n);
  }
  return from_vector(v, shape, &cpu());
}

Tensor random(const Shape& shape, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-2, 2);
  std::vector<double> v(static_cast<std::size_t>(numel(shape)));
  for (double& x : v) x = u(rng);
  return from_vector(v, shape, &cpu());
}

struct SolveCase {
  std::string name;
  Shape a, b;  // b for the left side; the right side uses b with its last two axes swapped
};

const std::vector<SolveCase>& solve_cases() {
  static const std::vector<SolveCase> cases = {
      {"1x1", {1, 1}, {1, 1}},
      {"vector", {5, 5}, {5}},
      {"one block", {16, 16}, {16, 3}},
      {"block + 1, two workgroups of right-hand sides", {17, 17}, {17, 300}},
      {"three blocks, batched", {2, 33, 33}, {2, 33, 4}},
      {"batched vectors", {3, 2, 20, 20}, {3, 2, 20}},
      {"no right-hand sides", {4, 4}, {4, 0}},
      {"empty batch", {0, 3, 3}, {0, 3, 2}},
  };
  return cases;
}

// b for the right side: a matrix's last two axes swapped; a vector stays as it is.
Shape right_side(const SolveCase& c) {
  Shape b = c.b;
  if (b.size() == c.a.size()) std::swap(b[b.size() - 1], b[b.size() - 2]);
  return b;
}

TEST_F(LinalgSolve, TriangularSolveMatchesTheCpu) {
  std::vector<DType> dtypes = {DType::f32};
  if (has_f64()) dtypes.push_back(DType::f64);
  std::uint32_t seed = 1;
  for (DType d : dtypes) {
    for (const SolveCase& c : solve_cases()) {
      for (bool left : {true, false}) {
        for (bool lower : {true, false}) {
          for (TriangularTransform t : {TriangularTransform::none, TriangularTransform::transpose,
                                        TriangularTransform::conjugate_transpose}) {
            const std::string what = c.name + " " + std::string(dtype_name(d)) +
                                     (left ? " left" : " right") + (lower ? " lower" : " upper") +
                                     " transform " + std::to_string(static_cast<int>(t));
            SCOPED_TRACE(what);
            const Tensor a = as_type(triangle(c.a, lower, seed++), d);
            const Tensor b = as_type(random(left ? c.b : right_side(c), seed++), d);
            const TriangularSolveOptions opts{left, lower, t};
            const Tensor want = triangular_solve(a, b, opts);
            LedgerScope scope;
            const Tensor got = triangular_solve(copy(a, gpu()), copy(b, gpu()), opts);
            EXPECT_EQ(&got.backend(), &gpu());
            EXPECT_EQ(scope.delta().fallbacks, 0u) << scope.delta().to_string();
            const double scale = max_abs(as_doubles(want));
            EXPECT_TRUE(tensors_close(got, want, conditioned_tolerance(d, c.a.back(), 4.0, scale)));
          }
        }
      }
    }
  }
}

TEST_F(LinalgSolve, HalfAndIntegerInputsStayOnTheDevice) {
  const Tensor a = triangle({2, 9, 9}, true, 7);
  const Tensor b = random({2, 9, 5}, 8);
  for (DType d : {DType::f16, DType::bf16}) {
    SCOPED_TRACE(dtype_name(d));
    const Tensor ah = as_type(a, d), bh = as_type(b, d);
    const Tensor want = triangular_solve(ah, bh);
    LedgerScope scope;
    const Tensor got = triangular_solve(copy(ah, gpu()), copy(bh, gpu()));
    EXPECT_EQ(&got.backend(), &gpu());
    EXPECT_EQ(got.dtype(), d);
    EXPECT_EQ(scope.delta().fallbacks, 0u) << scope.delta().to_string();
    EXPECT_TRUE(tensors_close(got, want));
  }
  const Tensor ai =
      as_type(add(multiply(iota({4, 4}, DType::s32, std::nullopt, &cpu()), 0), 2), DType::s32);
  const Tensor bi = iota({4, 3}, DType::s32, std::nullopt, &cpu());
  const Tensor got = triangular_solve(copy(ai, gpu()), copy(bi, gpu()));
  EXPECT_EQ(got.dtype(), DType::f32);
  EXPECT_TRUE(tensors_close(got, triangular_solve(ai, bi)));
}

TEST_F(LinalgSolve, SpecialValuesPropagateAsOnTheCpu) {
  const float nan = std::nanf(""), inf = INFINITY;
  const Tensor a = from_vector<float>({2, 0, 0, 1, 4, 0, -1, 2, 8}, {3, 3}, &cpu());
  // NaN and infinities in b, signed zeros, a subnormal; positions must match the cpu's.
  const Tensor b = from_vector<float>({nan, 1, -0.0f, 2, inf, 1e-40f, 4, -inf, 0}, {3, 3}, &cpu());
  const Tensor want = triangular_solve(a, b);
  const Tensor got = triangular_solve(copy(a, gpu()), copy(b, gpu()));
  EXPECT_TRUE(tensors_close(got, want));
  // A zero on the diagonal: no error on either backend, non-finite values in x.
  const Tensor singular = from_vector<float>({1, 0, 3, 0}, {2, 2}, &cpu());
  const Tensor rhs = from_vector<float>({1, 1}, {2}, &cpu());
  const std::vector<float> x =
      triangular_solve(copy(singular, gpu()), copy(rhs, gpu())).to_vector<float>();
  EXPECT_EQ(x[0], 1.0f);
  EXPECT_FALSE(std::isfinite(x[1]));
}

TEST_F(LinalgSolve, DecompositionsFallBackAndMatchTheCpu) {
  const Tensor m = random({2, 4, 4}, 11);
  const Tensor spd =
      add(matmul(m, transpose(m, {0, 2, 1})), multiply(eye({2, 4, 4}, DType::f32), 4.0));
  const Tensor a = as_type(spd, DType::f32);
  const Tensor b = as_type(random({2, 4, 3}, 12), DType::f32);
  const Tensor ad = copy(a, gpu()), bd = copy(b, gpu());
  auto same = [&](const char* what, const Tensor& got, const Tensor& want) {
    SCOPED_TRACE(what);
    EXPECT_TRUE(got.backend().is_cpu());  // the fallback result stays on the cpu
    EXPECT_TRUE(tensors_close(got, want));
  };
  LedgerScope scope;
  same("cholesky", cholesky(ad), cholesky(a));
  same("qr.q", qr(ad).q, qr(a).q);
  same("qr.r complete", qr(ad, QrMode::complete).r, qr(a, QrMode::complete).r);
  same("lu.u", lu(ad).u, lu(a).u);
  same("lu.p", lu(ad).p, lu(a).p);
  same("eigh", eigh(ad).eigenvalues, eigh(a).eigenvalues);
  same("svd.s", svd(ad).s, svd(a).s);
  same("svd.vt reduced", svd(ad, false).vt, svd(a, false).vt);
  same("solve", solve(ad, bd), solve(a, b));
  same("determinant", determinant(ad), determinant(a));
  const LedgerCounts delta = scope.delta();
  for (const char* op : {"cholesky", "qr", "lu", "eigh", "svd", "solve", "determinant"}) {
    EXPECT_GE(delta.fallbacks_by_op.count(op), 1u) << op << ": " << delta.to_string();
  }
}

}  // namespace
}  // namespace vkt::testing
