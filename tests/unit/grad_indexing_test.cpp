// Gradients of the ops that read by position (gather, take, take_along_axis, put_slice,
// indexed_add/put, clip, sort, cumulative extremes) and of products, against central
// differences, plus the exact answers at ties, zeros and duplicate indices.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/grad_check.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using grad_check::check;
using grad_check::values;

using Ts = std::vector<Tensor>;

// The gradient of sum(f(x) * w) for a fixed weight w: each output element weighs differently.
std::vector<double> weighted_grad(const std::function<Tensor(const Tensor&)>& f, const Tensor& x) {
  const Shape out = f(x).shape();
  const Tensor w = add(iota(out, DType::f64), 1.0);
  return grad([&](const Ts& a) { return Ts{sum(multiply(f(a[0]), w))}; }, {x})[0]
      .to_vector<double>();
}

TEST(GradIndexing, GatherTakeAndTakeAlongAxisAddRepeatedReads) {
  const Tensor x = values({3, 4}, -1, 1, 21);
  const Tensor rows = from_vector<std::int32_t>({2, 0, 2, 1, 0, 3}, {3, 2}, &cpu());
  check("gather", [&](const Ts& a) { return sum(sin(gather(a[0], rows))); }, {x});
  check("gather axes",
        [&](const Ts& a) {
          return sum(exp(gather(a[0], from_vector<std::int64_t>({3, 0, 3}, {3, 1}), {1})));
        },
        {x});
  check("take axis 1",
        [&](const Ts& a) {
          return sum(sin(take(a[0], from_vector<std::int64_t>({3, 0, 3, 1}, {2, 2}), 1)));
        },
        {values({2, 4, 3}, -1, 1, 22)});
  check("take axis 0",
        [&](const Ts& a) {
          return sum(exp(take(a[0], from_vector<std::int64_t>({1, 1}, {2}), 0)));
        },
        {x});
  check("take_along_axis",
        [&](const Ts& a) {
          const Tensor idx = from_vector<std::int64_t>({0, 0, 2, 1, 2, 2}, {3, 2});
          return sum(sin(take_along_axis(slice(a[0], {0, 0}, {3, 3}), idx, 1)));
        },
        {x});
  // Out-of-range indices are clamped on the way in, so the gradient lands on the clamped
  // element, as the values were read there.
  const std::vector<double> g = weighted_grad(
      [](const Tensor& t) {
        return take(t, from_vector<std::int64_t>({-5, 1, 9}), 0);
      },
      values({3}, -1, 1, 23));
  EXPECT_EQ(g, (std::vector<double>{1, 2, 3}));
}

TEST(GradIndexing, PutSliceAndIndexedUpdates) {
  const Tensor x = values({3, 4}, -1, 1, 24);
  const Tensor u = values({2, 2}, -1, 1, 25);
  check("put_slice",
        [](const Ts& a) {
          return sum(sin(put_slice(a[0], {1, 1}, exp(a[1]))));
        },
        {x, u});
  const Tensor rows = from_vector<std::int64_t>({2, 0, 7, 2}, {2, 2});  // row 1 out of range
  const Tensor upd = values({2}, -1, 1, 26);
  check("indexed_add", [&](const Ts& a) { return sum(sin(indexed_add(a[0], rows, exp(a[1])))); },
        {x, upd});
  check("indexed_put", [&](const Ts& a) { return sum(sin(indexed_put(a[0], rows, exp(a[1])))); },
        {x, upd});
  // Duplicate rows: indexed_put keeps the last write, so only that row's update has a
  // gradient; indexed_add sums them, so each has one. An out-of-range row has none.
  const Tensor dup = from_vector<std::int64_t>({1, 1, 1, 9}, {4, 1});
  const Tensor w = from_vector<double>({10, 20, 30});
  const Tensor t = values({3}, -1, 1, 27);
  const Tensor up = values({4}, -1, 1, 28);
  auto put_grads = [&](auto op) {
    return grad([&](const Ts& a) { return Ts{sum(multiply(op(a[0], dup, a[1]), w))}; }, {t, up});
  };
  const Ts put = put_grads(
      [](const Tensor& a, const Tensor& i, const Tensor& b) { return indexed_put(a, i, b); });
  EXPECT_EQ(put[0].to_vector<double>(), (std::vector<double>{10, 0, 30}));
  EXPECT_EQ(put[1].to_vector<double>(), (std::vector<double>{0, 0, 20, 0}));
  const Ts add = put_grads(
      [](const Tensor& a, const Tensor& i, const Tensor& b) { return indexed_add(a, i, b); });
  EXPECT_EQ(add[0].to_vector<double>(), (std::vector<double>{10, 20, 30}));
  EXPECT_EQ(add[1].to_vector<double>(), (std::vector<double>{20, 20, 20, 0}));
  // An empty indexed axis skips every row: the updates get zeros, not a gather error.
  const Ts empty =
      grad([&](const Ts& a) { return Ts{vkt::add(sum(indexed_add(a[0], dup, a[1])), sum(a[1]))}; },
           {full({0}, 0.0, DType::f64), up});
  EXPECT_EQ(empty[1].to_vector<double>(), (std::vector<double>{1, 1, 1, 1}));
}

TEST(GradIndexing, ClipPassesTheBoundsToTheOperand) {
  const Tensor x = from_vector<double>({-2, -1, 0, 1, 2});
  const Tensor lo = full({}, -1.0, DType::f64);
  const Tensor hi = full({}, 1.0, DType::f64);
  const Ts g = grad([](const Ts& a) { return Ts{sum(clip(a[0], a[1], a[2]))}; }, {x, lo, hi});
  // Nx: the operand's gradient passes at the bounds; a bound gets it only when exceeded.
  EXPECT_EQ(g[0].to_vector<double>(), (std::vector<double>{0, 1, 1, 1, 0}));
  EXPECT_EQ(g[1].item<double>(), 1);
  EXPECT_EQ(g[2].item<double>(), 1);
  // The fuzzer's findings: lo > hi gives hi (so hi's gradient, not x's); a NaN bound is
  // ignored by the forward, so x keeps its gradient.
  const Ts crossed = grad(
      [](const Ts& a) { return Ts{sum(clip(a[0], a[1], a[2]))}; },
      {from_vector<double>({-3, 0.5, 3}), full({}, 2.0, DType::f64), full({}, 1.0, DType::f64)});
  EXPECT_EQ(crossed[0].to_vector<double>(), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(crossed[1].item<double>(), 0);
  EXPECT_EQ(crossed[2].item<double>(), 3);
  const Ts nan_bound =
      grad([](const Ts& a) { return Ts{sum(clip(a[0], a[1], a[2]))}; },
           {from_vector<double>({-3, 3}), full({}, -1.0, DType::f64), full({}, NAN, DType::f64)});
  EXPECT_EQ(nan_bound[0].to_vector<double>(), (std::vector<double>{0, 1}));
  check("clip tensor bounds",
        [](const Ts& a) { return sum(sin(clip(a[0], a[1], add(a[1], 0.8)))); },
        {values({2, 3}, -1, 1, 29), values({3}, -0.7, -0.1, 30)});
}

TEST(GradIndexing, SortFollowsThePermutation) {
  const Tensor x = values({3, 5}, -1, 1, 31);
  for (const Direction d : {Direction::asc, Direction::desc}) {
    for (const std::int64_t axis : {0, 1}) {
      check("sort axis " + std::to_string(axis),
            [&](const Ts& a) {
              return sum(multiply(sort(a[0], axis, d), iota({3, 5}, DType::f64)));
            },
            {x});
    }
  }
  // top_k's values are gathered along the axis: their gradient goes to the chosen elements.
  const Tensor v = from_vector<double>({0.5, 3, -1, 2, 7});
  const std::vector<double> g = weighted_grad([](const Tensor& t) { return top_k(t, 2).first; }, v);
  EXPECT_EQ(g, (std::vector<double>{0, 2, 0, 0, 1}));
}

TEST(GradIndexing, ProductsWithZeros) {
  check("product", [](const Ts& a) { return sum(product(a[0], {1})); },
        {values({3, 4}, 0.5, 1.5, 32)});
  check("product all", [](const Ts& a) { return product(a[0]); }, {values({2, 3}, 0.5, 1.5, 33)});
  // One zero: its gradient is the product of the others; two zeros: all zero.
  const auto g = [](std::vector<double> v) {
    return grad([](const Ts& a) { return Ts{product(a[0])}; }, {from_vector<double>(v)})[0]
        .to_vector<double>();
  };
  EXPECT_EQ(g({2, 0, 3}), (std::vector<double>{0, 6, 0}));
  EXPECT_EQ(g({2, 0, 0}), (std::vector<double>{0, 0, 0}));
  for (const bool reverse : {false, true}) {
    check("cumulative_product",
          [&](const Ts& a) {
            return sum(multiply(cumulative_product(a[0], 1, reverse), iota({2, 4}, DType::f64)));
          },
          {values({2, 4}, 0.5, 1.5, 34)});
  }
  // Scans through zeros, checked against the products written out.
  const Tensor z = from_vector<double>({2, 0, 3, 0, 5});
  const std::vector<double> scan =
      weighted_grad([](const Tensor& t) { return cumulative_product(t, 0); }, z);
  // y = [x0, x0x1, x0x1x2, ...], weights 1..5: d/dx0 = 1 + 2x1 + ... = 1; d/dx1 = 2x0 +
  // 3x0x2 + 4x0x2x3 + 5x0x2x3x4 = 4 + 18 = 22; after the first zero, every term holds x1.
  EXPECT_EQ(scan, (std::vector<double>{1, 22, 0, 0, 0}));
  const std::vector<double> back =
      weighted_grad([](const Tensor& t) { return cumulative_product(t, 0, true); }, z);
  // Reverse: y4 = x4, y3 = x3x4, ...: x4's only path is w5 = 5 plus through x3 = 0;
  // d/dx3 = w4 x4 + w3 x2x4 + ... = 4*5 + 3*15 = 65 (w2 and w1 pass x1 = 0).
  EXPECT_EQ(back, (std::vector<double>{0, 0, 0, 65, 5}));
}

TEST(GradIndexing, CumulativeExtremesGoToTheFirstHolder) {
  for (const bool reverse : {false, true}) {
    check("cumulative_max", [&](const Ts& a) { return sum(sin(cumulative_max(a[0], 1, reverse))); },
          {values({3, 6}, -1, 1, 35)});
    check("cumulative_min", [&](const Ts& a) { return sum(exp(cumulative_min(a[0], 0, reverse))); },
          {values({4, 2}, -1, 1, 36)});
  }
  const Tensor x = from_vector<double>({1, 3, 3, 2, 4});
  // y = [1, 3, 3, 3, 4], weights 1..5: the 3s all came from x1.
  EXPECT_EQ(weighted_grad([](const Tensor& t) { return cumulative_max(t, 0); }, x),
            (std::vector<double>{1, 9, 0, 0, 5}));
  // Reverse: y = [4, 4, 4, 4, 4]: all from x4.
  EXPECT_EQ(weighted_grad([](const Tensor& t) { return cumulative_max(t, 0, true); }, x),
            (std::vector<double>{0, 0, 0, 0, 15}));
  // Reverse min: y = [1, 2, 2, 2, 4]; the 2s came from x3.
  EXPECT_EQ(weighted_grad([](const Tensor& t) { return cumulative_min(t, 0, true); }, x),
            (std::vector<double>{1, 0, 0, 9, 5}));
}

}  // namespace
}  // namespace vkt
