// Cumulative scans on the cpu: forward and reverse along every axis against a naive
// reference, wrapping, NaN, identities with sum, and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "support/compare.h"
#include "support/run_op.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::as_doubles;
using testing::run_scan;
using testing::tensors_close;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

// Integers go through s64 so out-of-range reference values wrap as the kernels' do.
Tensor make_as(DType dtype, const std::vector<double>& values, const Shape& shape) {
  if (is_integer(dtype)) {
    const std::vector<std::int64_t> ints(values.begin(), values.end());
    return as_type(from_vector(ints, shape, &cpu()), dtype);
  }
  return as_type(from_vector(values, shape, &cpu()), dtype);
}

// Naive reference in double (values small, so exact in every dtype).
Tensor reference_scan(Op op, const Tensor& t, std::int64_t axis, bool reverse) {
  const auto x = as_doubles(t);
  std::vector<double> y(x.size());
  std::int64_t outer = 1, inner = 1;
  const std::int64_t n = t.dim(axis);
  for (std::int64_t a = 0; a < axis; ++a) outer *= t.dim(a);
  for (std::int64_t a = axis + 1; a < t.rank(); ++a) inner *= t.dim(a);
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t j = 0; j < inner; ++j) {
      double acc = op == Op::cumulative_product ? 1 : op == Op::cumulative_sum ? 0 : kNaN;
      for (std::int64_t r = 0; r < n; ++r) {
        const std::int64_t rr = reverse ? n - 1 - r : r;
        const auto i = static_cast<std::size_t>((o * n + rr) * inner + j);
        const double v = x[i];
        if (op == Op::cumulative_sum) acc += v;
        if (op == Op::cumulative_product) acc *= v;
        if (op == Op::cumulative_max) acc = r == 0 ? v : std::max(acc, v);
        if (op == Op::cumulative_min) acc = r == 0 ? v : std::min(acc, v);
        y[i] = acc;
      }
    }
  }
  return make_as(t.dtype(), y, t.shape());
}

TEST(Cumulative, ForwardAndReverseByHand) {
  const Tensor t = from_vector<std::int32_t>({3, 1, 4, 1, 5}, &cpu());
  EXPECT_EQ(cumulative_sum(t).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{3, 4, 8, 9, 14}));
  EXPECT_EQ(cumulative_sum(t, 0, true).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{14, 11, 10, 6, 5}));
  EXPECT_EQ(cumulative_max(t).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{3, 3, 4, 4, 5}));
  EXPECT_EQ(cumulative_min(t, -1, true).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{1, 1, 1, 1, 5}));
  EXPECT_EQ(cumulative_product(t).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{3, 3, 12, 12, 60}));
  EXPECT_EQ(cumulative_sum(t).dtype(), DType::s32);
}

TEST(Cumulative, EveryAxisOfRank4BothDirectionsMatchesReference) {
  const Shape shape{2, 3, 4, 5};
  const DType dtypes[] = {DType::u8, DType::s32, DType::s64, DType::f16, DType::f32, DType::f64};
  for (DType dtype : dtypes) {
    for (Op op :
         {Op::cumulative_sum, Op::cumulative_product, Op::cumulative_max, Op::cumulative_min}) {
      std::vector<double> v;
      for (std::int64_t i = 0; i < numel(shape); ++i) {
        const double x = static_cast<double>((i * 5) % 7);
        v.push_back(op == Op::cumulative_product ? 1 + (i % 3 == 0)
                    : is_unsigned_integer(dtype) ? x
                                                 : x - 3);
      }
      const Tensor t = make_as(dtype, v, shape);
      for (std::int64_t axis = 0; axis < 4; ++axis) {
        for (bool reverse : {false, true}) {
          EXPECT_TRUE(
              tensors_close(run_scan(op, t, axis, reverse), reference_scan(op, t, axis, reverse)))
              << op_name(op) << " " << dtype_name(dtype) << " axis " << axis << " reverse "
              << reverse;
        }
      }
    }
  }
}

TEST(Cumulative, LastElementEqualsSum) {
  const std::int64_t rows = 3, n = 50000;
  std::vector<float> v(static_cast<std::size_t>(rows * n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 13) * 0.25f;
  const Tensor t = from_vector(v, Shape{rows, n}, &cpu());
  const auto c = cumulative_sum(t, 1).to_vector<float>();
  const auto s = sum(t, {1}).to_vector<float>();
  for (std::int64_t r = 0; r < rows; ++r) {
    EXPECT_NEAR(c[static_cast<std::size_t>(r * n + n - 1)], s[static_cast<std::size_t>(r)],
                1e-6 * s[static_cast<std::size_t>(r)]);
  }
  const auto rc = cumulative_sum(t, 0, true).to_vector<float>();
  const auto s0 = sum(t, {0}).to_vector<float>();
  for (std::int64_t j = 0; j < n; j += 1111) {
    EXPECT_FLOAT_EQ(rc[static_cast<std::size_t>(j)], s0[static_cast<std::size_t>(j)]);
  }
}

TEST(Cumulative, IntegersWrapAndNaNPropagates) {
  EXPECT_EQ(
      cumulative_sum(from_vector<std::uint8_t>({200, 100, 1}, &cpu())).to_vector<std::uint8_t>(),
      (std::vector<std::uint8_t>{200, 44, 45}));
  EXPECT_EQ(
      cumulative_product(from_vector<std::int8_t>({64, 2, 2}, &cpu())).to_vector<std::int8_t>(),
      (std::vector<std::int8_t>{64, -128, 0}));
  const Tensor t = from_vector<double>({1, kNaN, 5, 0}, &cpu());
  for (Op op : {Op::cumulative_sum, Op::cumulative_max, Op::cumulative_min}) {
    const auto y = as_doubles(run_scan(op, t, 0, false));
    EXPECT_EQ(y[0], 1) << op_name(op);
    EXPECT_TRUE(std::isnan(y[1]) && std::isnan(y[2]) && std::isnan(y[3])) << op_name(op);
    const auto r = as_doubles(run_scan(op, t, 0, true));
    EXPECT_TRUE(std::isnan(r[0]) && std::isnan(r[1]) && !std::isnan(r[2])) << op_name(op);
  }
}

TEST(Cumulative, ZeroSizeKeepsShape) {
  const Tensor t = make_as(DType::f32, {}, {2, 0, 3});
  EXPECT_EQ(cumulative_sum(t, 1).shape(), (Shape{2, 0, 3}));
  EXPECT_EQ(cumulative_max(t, 2, true).shape(), (Shape{2, 0, 3}));
}

TEST(Cumulative, BadAxisThrowsAxisError) {
  const Tensor t = make_as(DType::s32, {1, 2, 3, 4}, {2, 2});
  try {
    cumulative_sum(t, 2);
    FAIL() << "no throw";
  } catch (const AxisError& e) {
    EXPECT_NE(std::string(e.what()).find("[cumulative_sum]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("axis 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(cumulative_min(t, -3), AxisError);
  EXPECT_THROW(cumulative_max(make_as(DType::f32, {1}, {}), 0), AxisError);
  EXPECT_EQ(as_doubles(t), (std::vector<double>{1, 2, 3, 4}));
}

}  // namespace
}  // namespace vkt
