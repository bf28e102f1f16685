// Window reductions on the cpu: hand cases for strides, padding and dilation, a naive
// reference over dtypes and configurations, identities and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "support/compare.h"
#include "support/run_op.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::as_doubles;
using testing::run_window;
using testing::tensors_close;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

// Integers go through s64 so out-of-range reference values wrap as the kernels' do;
// infinities (all-padding max/min windows) saturate to the type's limits instead.
Tensor make_as(DType dtype, const std::vector<double>& values, const Shape& shape) {
  const bool has_inf =
      std::any_of(values.begin(), values.end(), [](double v) { return std::isinf(v); });
  if (is_integer(dtype) && !has_inf) {
    const std::vector<std::int64_t> ints(values.begin(), values.end());
    return as_type(from_vector(ints, shape, &cpu()), dtype);
  }
  return as_type(from_vector(values, shape, &cpu()), dtype);
}

std::vector<double> values(std::int64_t n, bool non_negative) {
  std::vector<double> v;
  for (std::int64_t i = 0; i < n; ++i) {
    const double x = static_cast<double>((i * 5) % 7);
    v.push_back(non_negative ? x : x - 3);
  }
  return v;
}

// Naive reference in double: every window position, padding skipped (it holds the
// identity). Values are small integers, so every dtype's result is exact.
Tensor reference_window(Op op, const Tensor& t, const Shape& w, const WindowOptions& o) {
  const std::size_t rank = w.size();
  Shape out_shape(rank);
  for (std::size_t a = 0; a < rank; ++a) {
    const std::int64_t padded = t.shape()[a] + o.padding[a].first + o.padding[a].second;
    const std::int64_t span = (w[a] - 1) * o.dilations[a] + 1;
    out_shape[a] = padded < span ? 0 : (padded - span) / o.strides[a] + 1;
  }
  const auto x = as_doubles(t);
  const auto in_strides = contiguous_strides(t.shape());
  std::vector<double> out;
  const double init = op == Op::window_sum       ? 0.0
                      : op == Op::window_product ? 1.0
                      : op == Op::window_max     ? -INFINITY
                                                 : INFINITY;
  for (std::int64_t i = 0; i < numel(out_shape); ++i) {
    double acc = init;
    for (std::int64_t k = 0; k < numel(w); ++k) {
      std::int64_t off = 0;
      bool inside = true;
      std::int64_t oi = i, ki = k;
      for (std::size_t a = rank; a-- > 0;) {
        const std::int64_t oc = oi % out_shape[a], kc = ki % w[a];
        oi /= out_shape[a];
        ki /= w[a];
        const std::int64_t c = oc * o.strides[a] - o.padding[a].first + kc * o.dilations[a];
        if (c < 0 || c >= t.shape()[a]) inside = false;
        off += c * in_strides[a];
      }
      if (!inside) continue;
      const double v = x[static_cast<std::size_t>(off)];
      if (op == Op::window_sum) acc += v;
      if (op == Op::window_product) acc *= v;
      if (op == Op::window_max) acc = std::isnan(acc) || std::isnan(v) ? kNaN : std::max(acc, v);
      if (op == Op::window_min) acc = std::isnan(acc) || std::isnan(v) ? kNaN : std::min(acc, v);
    }
    out.push_back(acc);
  }
  return make_as(t.dtype(), out, out_shape);
}

TEST(Window, StridesPaddingAndDilationByHand) {
  const Tensor t = from_vector<float>({1, 2, 3, 4, 5}, &cpu());
  EXPECT_EQ(window_sum(t, {2}).to_vector<float>(), (std::vector<float>{3, 5, 7, 9}));
  // Padded [0 1 2 3 4 5 0], windows of 2 at 0, 2, 4.
  EXPECT_EQ(window_sum(t, {2}, {{2}, {{1, 1}}, {}}).to_vector<float>(),
            (std::vector<float>{1, 5, 9}));
  // Dilation 2: pairs (1,3) (2,4) (3,5).
  EXPECT_EQ(window_sum(t, {2}, {{}, {}, {2}}).to_vector<float>(), (std::vector<float>{4, 6, 8}));
  EXPECT_EQ(window_product(t, {3}, {{2}, {}, {}}).to_vector<float>(), (std::vector<float>{6, 60}));
  // Padding holds the identity: max of negatives stays negative; an all-padding window of
  // max is -inf.
  const Tensor neg = from_vector<float>({-3, -1, -2}, &cpu());
  EXPECT_EQ(window_max(neg, {2}, {{}, {{1, 1}}, {}}).to_vector<float>(),
            (std::vector<float>{-3, -1, -1, -2}));
  EXPECT_EQ(window_max(neg, {1}, {{}, {{2, 0}}, {}}).to_vector<float>()[0], -INFINITY);
  EXPECT_EQ(window_min(from_vector<std::int32_t>({4, 2}, &cpu()), {1}, {{}, {{0, 1}}, {}})
                .to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{4, 2, std::numeric_limits<std::int32_t>::max()}));
}

TEST(Window, ConfigurationsAndDTypesMatchReference) {
  struct Config {
    Shape shape, window;
    WindowOptions opts;
  };
  const std::vector<Config> configs = {
      {{7}, {3}, {{1}, {{0, 0}}, {1}}},
      {{9}, {2}, {{3}, {{2, 1}}, {3}}},
      {{4, 5}, {2, 3}, {{1, 2}, {{1, 0}, {2, 2}}, {1, 1}}},
      {{6, 6}, {3, 2}, {{2, 1}, {{0, 0}, {0, 1}}, {2, 3}}},
      {{2, 3, 4, 5}, {1, 2, 2, 3}, {{1, 1, 2, 1}, {{0, 0}, {1, 1}, {0, 1}, {2, 0}}, {1, 2, 1, 2}}},
      {{3, 0, 2}, {1, 1, 2}, {{1, 1, 1}, {{0, 0}, {1, 1}, {0, 0}}, {1, 1, 1}}},
      {{2, 2}, {3, 3}, {{1, 1}, {{0, 0}, {0, 0}}, {1, 1}}},  // does not fit: empty
  };
  const DType dtypes[] = {DType::u8, DType::s32, DType::s64, DType::f16, DType::f32, DType::f64};
  for (const Config& c : configs) {
    for (DType dtype : dtypes) {
      for (Op op : {Op::window_sum, Op::window_product, Op::window_max, Op::window_min}) {
        std::vector<double> v = values(numel(c.shape), is_unsigned_integer(dtype));
        if (op == Op::window_product) {
          for (double& x : v) x = std::fmod(std::fabs(x), 3.0) == 0 ? 1.0 : x;  // no zeros
        }
        const Tensor t = make_as(dtype, v, c.shape);
        const Tensor got = run_window(op, t, c.window, c.opts);
        EXPECT_TRUE(tensors_close(got, reference_window(op, t, c.window, c.opts)))
            << op_name(op) << " " << dtype_name(dtype) << " " << shape_str(c.shape) << " window "
            << shape_str(c.window);
      }
    }
  }
}

TEST(Window, WindowOfOnesIsIdentityAndDTypeIsKept) {
  const Tensor t = make_as(DType::s16, values(120, false), {2, 3, 4, 5});
  for (Op op : {Op::window_sum, Op::window_product, Op::window_max, Op::window_min}) {
    const Tensor got = run_window(op, t, {1, 1, 1, 1}, {});
    EXPECT_TRUE(tensors_close(got, t)) << op_name(op);
  }
  const Tensor s = make_as(DType::f32, {2.5}, {});
  EXPECT_EQ(window_sum(s, {}).item<float>(), 2.5f);
  // Integer window sums wrap in the input type.
  EXPECT_EQ(window_sum(from_vector<std::uint8_t>({200, 100}, &cpu()), {2}).item<int>(), 44);
}

TEST(Window, NaNPropagates) {
  const Tensor t = from_vector<double>({1, kNaN, 3, 4}, &cpu());
  const auto mx = window_max(t, {2}).to_vector<double>();
  EXPECT_TRUE(std::isnan(mx[0]) && std::isnan(mx[1]));
  EXPECT_EQ(mx[2], 4);
  EXPECT_TRUE(std::isnan(window_min(t, {2}).to_vector<double>()[1]));
  EXPECT_TRUE(std::isnan(window_sum(t, {4}).item<double>()));
}

void expect_shape_error(const std::function<void()>& f, const std::string& op,
                        const std::string& detail) {
  try {
    f();
    ADD_FAILURE() << "no throw for " << detail;
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("[" + op + "]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(detail), std::string::npos) << e.what();
  }
}

TEST(Window, BadWindowsThrowShapeError) {
  const Tensor t = make_as(DType::f32, values(12, false), {3, 4});
  const auto before = as_doubles(t);
  expect_shape_error([&] { window_sum(t, {2}); }, "window_sum", "{2}");
  expect_shape_error([&] { window_max(t, {2, 0}); }, "window_max", "{2, 0}");
  expect_shape_error([&] { window_min(t, {1, 1}, {{1, 0}, {}, {}}); }, "window_min", "{1, 0}");
  expect_shape_error([&] { window_sum(t, {1, 1}, {{1}, {}, {}}); }, "window_sum", "strides {1}");
  expect_shape_error(
      [&] {
        window_product(t, {1, 1}, {{}, {{0, 0}, {-1, 2}}, {}});
      },
      "window_product", "{-1, 2}");
  expect_shape_error([&] { window_sum(t, {1, 1}, {{}, {{0, 0}}, {}}); }, "window_sum", "padding");
  expect_shape_error(
      [&] {
        window_sum(t, {2, 2}, {{}, {}, {0, 1}});
      },
      "window_sum", "dilations {0, 1}");
  EXPECT_EQ(as_doubles(t), before);
}

}  // namespace
}  // namespace vkt
