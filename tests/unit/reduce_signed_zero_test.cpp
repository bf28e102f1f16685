// ±0 in the cpu's max/min: reduce_max of a set holding both zeros is +0 and reduce_min -0,
// checked on the sign bit, for zeros in several orders and sizes that take each path (short
// scalar loops, 16-lane blocks, the SSE extremes of 2048-element blocks, per-thread chunks
// merged in order, row-wise adds); elementwise max/min, scans and windows share the rule;
// argmax/argmin treat the zeros as equal (the tie-break decides), as NumPy and XLA do.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cpu/reduce_ops.h"
#include "support/signed_zeros.h"
#include "vkt/compile.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::all_zeros_signed;
using testing::spread_order;
using testing::zero_orders;

const DType kFloats[] = {DType::f16, DType::bf16, DType::f32, DType::f64};

Tensor make(DType d, const std::vector<double>& v, const Shape& shape) {
  return as_type(from_vector(v, shape, &cpu()), d);
}

// 2, 7: scalar tails; 100: 16-lane blocks; 6149: SSE blocks of 2048 and a tail; 300001: per-
// thread chunks (past 2 * kGrain elements per output) merged in order.
const std::int64_t kSizes[] = {2, 7, 100, 2048 * 3 + 5, 300001};

TEST(ReduceSignedZero, MaxIsPlusZeroAndMinMinusZeroInEveryOrder) {
  for (DType d : kFloats) {
    for (std::int64_t n : kSizes) {
      // max over zeros and -1s, min over zeros and +1s: the answer is always a zero.
      const auto max_orders = zero_orders(n, -1.0), min_orders = zero_orders(n, 1.0);
      for (std::size_t k = 0; k < max_orders.size(); ++k) {
        const std::string what =
            std::string(dtype_name(d)) + " n " + std::to_string(n) + " " + max_orders[k].first;
        const Tensor hi = make(d, max_orders[k].second, {n});
        const Tensor lo = make(d, min_orders[k].second, {n});
        EXPECT_TRUE(all_zeros_signed(reduce_max(hi), false)) << what;
        EXPECT_TRUE(all_zeros_signed(reduce_min(lo), true)) << what;
        // Row-wise: each column of {n, 3} holds the order (rows added into a row of lanes,
        // chunked across threads when long); then each row of {3, n} (contiguous).
        for (const auto& [shape, axis] :
             {std::pair{Shape{n, 3}, std::int64_t{0}}, std::pair{Shape{3, n}, std::int64_t{1}}}) {
          const std::string at = what + " axis " + std::to_string(axis);
          const Tensor h = spread_order(d, max_orders[k].second, shape, {axis});
          const Tensor l = spread_order(d, min_orders[k].second, shape, {axis});
          EXPECT_TRUE(all_zeros_signed(reduce_max(h, {axis}), false)) << at;
          EXPECT_TRUE(all_zeros_signed(reduce_min(l, {axis}), true)) << at;
        }
      }
    }
  }
}

// The merge of per-thread partials, whatever this machine's thread count: both operand
// orders give one answer.
TEST(ReduceSignedZero, RulesCombineZerosTheSameInEitherOrder) {
  using cpu_kernels::MaxRule;
  using cpu_kernels::MinRule;
  for (double a : {0.0, -0.0}) {
    const double b = -a;
    EXPECT_FALSE(std::signbit(MaxRule<double>::merge(a, b)));
    EXPECT_FALSE(std::signbit(MaxRule<double>::step(a, b)));
    EXPECT_FALSE(
        std::signbit(MaxRule<float>::absorb(static_cast<float>(a), static_cast<float>(b))));
    EXPECT_TRUE(std::signbit(MinRule<double>::merge(a, b)));
    EXPECT_TRUE(std::signbit(MinRule<double>::step(a, b)));
    EXPECT_TRUE(std::signbit(MinRule<float>::absorb(static_cast<float>(a), static_cast<float>(b))));
  }
}

// NaN still wins over both zeros (the rule only orders the zeros).
TEST(ReduceSignedZero, NaNAmongZerosStillPropagates) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (DType d : kFloats) {
    for (std::int64_t n : {3, 7000}) {
      std::vector<double> v(static_cast<std::size_t>(n), 0.0);
      for (std::size_t i = 0; i < v.size(); i += 2) v[i] = -0.0;
      v[v.size() / 2 + 1] = nan;
      const Tensor t = make(d, v, {n});
      EXPECT_TRUE(std::isnan(reduce_max(t).item<double>())) << dtype_name(d) << " " << n;
      EXPECT_TRUE(std::isnan(reduce_min(t).item<double>())) << dtype_name(d) << " " << n;
    }
  }
}

// Elementwise max/min, cumulative_max/min and window_max/min pick by the same order.
TEST(ReduceSignedZero, ElementwiseScansAndWindowsShareTheRule) {
  for (DType d : kFloats) {
    const Tensor ab = make(d, {-0.0, 0.0}, {2}), ba = make(d, {0.0, -0.0}, {2});
    EXPECT_TRUE(all_zeros_signed(max(ab, ba), false)) << dtype_name(d);
    EXPECT_TRUE(all_zeros_signed(max(ba, ab), false)) << dtype_name(d);
    EXPECT_TRUE(all_zeros_signed(min(ab, ba), true)) << dtype_name(d);
    EXPECT_TRUE(all_zeros_signed(min(ba, ab), true)) << dtype_name(d);
    for (const Tensor& t : {ab, ba}) {
      const std::vector<double> cmax = as_type(cumulative_max(t), DType::f64).to_vector<double>();
      const std::vector<double> cmin = as_type(cumulative_min(t), DType::f64).to_vector<double>();
      EXPECT_FALSE(std::signbit(cmax[1])) << dtype_name(d);
      EXPECT_TRUE(std::signbit(cmin[1])) << dtype_name(d);
      EXPECT_TRUE(all_zeros_signed(window_max(t, {2}), false)) << dtype_name(d);
      EXPECT_TRUE(all_zeros_signed(window_min(t, {2}), true)) << dtype_name(d);
    }
  }
}

// argmax/argmin compare values, and -0 == +0: the zeros tie and the tie-break picks the
// first (low) or last (high) of them, in the short scan and the vectorised blocks alike.
TEST(ReduceSignedZero, ArgReductionsTreatTheZerosAsEqual) {
  for (DType d : kFloats) {
    for (std::int64_t n : {2, 5000}) {
      std::vector<double> v(static_cast<std::size_t>(n), -1.0);
      v[1] = -0.0;
      v[static_cast<std::size_t>(n) - 1] = 0.0;
      const Tensor t = make(d, v, {n});
      EXPECT_EQ(argmax(t).item<std::int64_t>(), 1) << dtype_name(d) << " " << n;
      EXPECT_EQ(argmax(t, 0, false, TieBreak::high).item<std::int64_t>(), n - 1) << dtype_name(d);
      const Tensor u = negate(t);  // +0 at 1, -0 last, others +1
      EXPECT_EQ(argmin(u).item<std::int64_t>(), 1) << dtype_name(d) << " " << n;
      EXPECT_EQ(argmin(u, 0, false, TieBreak::high).item<std::int64_t>(), n - 1) << dtype_name(d);
    }
  }
}

// vkt::compile's fused reductions (an elementwise prologue, then the blocked loop): the
// same answer as eager.
TEST(ReduceSignedZero, CompiledReductionsKeepTheRule) {
  auto fmax = compile([](const Tensor& x) { return reduce_max(negate(x), {1}); });
  auto fmin = compile([](const Tensor& x) { return reduce_min(negate(x), {1}); });
  for (DType d : kFloats) {
    for (std::int64_t n : {7, 2048 * 3 + 5}) {
      const auto min_orders = zero_orders(n, 1.0);  // negated: the max's inputs, and back
      for (const auto& [name, order] : min_orders) {
        const Tensor x = spread_order(d, order, {3, n}, {1});
        EXPECT_TRUE(all_zeros_signed(fmax(x), false)) << dtype_name(d) << " " << n << " " << name;
        EXPECT_TRUE(all_zeros_signed(fmin(negate(x)), true)) << dtype_name(d) << " " << name;
      }
    }
  }
}

}  // namespace
}  // namespace vkt
