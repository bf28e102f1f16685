// triangular_solve on the cpu with an infinity or NaN in b, for every side, triangle and
// transform, f32 and f64:
// exactly the elements that depend on it (those the substitution reaches after it, in its
// column on the left and its row on the right) are non-finite, and the others equal the
// solve with a zero there (docs/semantics-linalg.md: NaN and infinities propagate by
// arithmetic; OpenBLAS's trsm alone spread NaN further).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "vkt/vkt.h"

namespace vkt {
namespace {

constexpr std::int64_t kN = 7, kK = 3;

// Diagonal 2..3 and off-diagonal magnitudes 0.05..0.1, never zero, so every later element
// depends on every earlier one; NaN in the half that must not be read.
Tensor triangle(bool lower) {
  std::vector<double> v(kN * kN);
  for (std::int64_t i = 0; i < kN; ++i) {
    for (std::int64_t j = 0; j < kN; ++j) {
      const bool inside = lower ? j <= i : j >= i;
      v[static_cast<std::size_t>(i * kN + j)] = !inside  ? std::nan("")
                                                : i == j ? 2.0 + 0.1 * static_cast<double>(i)
                                                         : ((i + j) % 2 ? -0.05 : 0.1);
    }
  }
  return from_vector(v, {kN, kN}, &cpu());
}

TEST(TriangularSolve, NonFiniteReachesOnlyTheElementsThatDependOnIt) {
  for (DType d : {DType::f32, DType::f64}) {
    for (double special : {static_cast<double>(INFINITY), std::nan("")}) {
      for (bool left : {true, false}) {
        for (bool lower : {true, false}) {
          for (bool transposed : {false, true}) {
            const TriangularSolveOptions o{
                left, lower,
                transposed ? TriangularTransform::transpose : TriangularTransform::none};
            const Shape bs = left ? Shape{kN, kK} : Shape{kK, kN};
            const std::int64_t at_row = 1, at_col = left ? 1 : 3;  // the infinity's position
            std::vector<double> b(static_cast<std::size_t>(kN * kK));
            for (std::size_t e = 0; e < b.size(); ++e) b[e] = 1.0 + static_cast<double>(e % 5) / 4;
            const std::size_t where = static_cast<std::size_t>(at_row * bs[1] + at_col);
            b[where] = 0;
            const Tensor a = as_type(triangle(lower), d);
            auto solve = [&] {
              const Tensor x = triangular_solve(a, as_type(from_vector(b, bs, &cpu()), d), o);
              return as_type(x, DType::f64).to_vector<double>();
            };
            const std::vector<double> base = solve();
            b[where] = special;
            const std::vector<double> x = solve();
            // op(a) is lower when the stored triangle and the transpose disagree; a lower op(a)
            // solves forward on the left (later rows depend) and backward on the right.
            const bool op_lower = lower != transposed;
            const bool later_depends = left == op_lower;
            for (std::int64_t r = 0; r < bs[0]; ++r) {
              for (std::int64_t c = 0; c < bs[1]; ++c) {
                const std::int64_t pos = left ? r : c, at = left ? at_row : at_col;
                const bool same_line = left ? c == at_col : r == at_row;
                const bool depends = same_line && (later_depends ? pos >= at : pos <= at);
                const double v = x[static_cast<std::size_t>(r * bs[1] + c)];
                const std::string what = std::string(dtype_name(d)) + " " +
                                         std::to_string(special) + (left ? " left" : " right") +
                                         (lower ? " lower" : " upper") +
                                         (transposed ? " transposed" : "") + " at " +
                                         std::to_string(r) + "," + std::to_string(c);
                if (depends) {
                  EXPECT_FALSE(std::isfinite(v)) << what << ": " << v;
                } else {
                  EXPECT_NEAR(v, base[static_cast<std::size_t>(r * bs[1] + c)], 1e-5) << what;
                }
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace vkt
