// sort / argsort / top_k indices on the cpu: dtypes, axes, directions, stability, NaN and
// -0.0, 0-size, rank 0, random property tests, errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "core/top_k.h"
#include "support/compare.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::as_doubles;
using testing::tensors_close;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Tensor make(const std::vector<double>& v, Shape shape, DType dtype) {
  return as_type(from_vector(v, std::move(shape), &cpu()), dtype);
}

// NumPy's order: NaN above everything; stable in both directions.
bool before(double x, double y, bool desc) {
  if (desc) return x > y || (std::isnan(x) && !std::isnan(y));
  return x < y || (!std::isnan(x) && std::isnan(y));
}

// Host reference of a stable argsort along `axis`.
std::vector<std::int64_t> reference_argsort(const std::vector<double>& v, const Shape& shape,
                                            std::int64_t axis, bool desc) {
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < axis; ++d) outer *= shape[static_cast<std::size_t>(d)];
  for (std::size_t d = static_cast<std::size_t>(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  const std::int64_t len = shape[static_cast<std::size_t>(axis)];
  std::vector<std::int64_t> out(v.size());
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i = 0; i < inner; ++i) {
      const std::int64_t base = o * len * inner + i;
      std::vector<std::int64_t> idx(static_cast<std::size_t>(len));
      std::iota(idx.begin(), idx.end(), 0);
      std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t x, std::int64_t y) {
        return before(v[static_cast<std::size_t>(base + x * inner)],
                      v[static_cast<std::size_t>(base + y * inner)], desc);
      });
      for (std::int64_t j = 0; j < len; ++j)
        out[static_cast<std::size_t>(base + j * inner)] = idx[static_cast<std::size_t>(j)];
    }
  }
  return out;
}

std::vector<double> gather_line_values(const std::vector<double>& v, const Shape& shape,
                                       std::int64_t axis, const std::vector<std::int64_t>& idx) {
  std::int64_t inner = 1;
  for (std::size_t d = static_cast<std::size_t>(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  const std::int64_t len = shape[static_cast<std::size_t>(axis)];
  std::vector<double> out(v.size());
  for (std::size_t p = 0; p < v.size(); ++p) {
    const std::int64_t pos = static_cast<std::int64_t>(p);
    const std::int64_t j = (pos / inner) % len;
    out[p] = v[static_cast<std::size_t>(pos + (idx[p] - j) * inner)];
  }
  return out;
}

TEST(Sort, EveryDTypeBothAxesBothDirections) {
  const Shape shape{4, 3, 5};
  std::vector<double> raw(60);
  for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<double>((i * 7) % 11) - 5.0;
  for (DType dtype :
       {DType::u8, DType::s32, DType::s64, DType::f16, DType::bf16, DType::f32, DType::f64}) {
    const Tensor t = make(raw, shape, dtype);
    const std::vector<double> vals = as_doubles(t);  // after the cast (u8 wraps negatives)
    for (std::int64_t axis : {0, 2, -1}) {
      const std::int64_t a = axis < 0 ? axis + 3 : axis;
      for (Direction dir : {Direction::asc, Direction::desc}) {
        SCOPED_TRACE(std::string(dtype_name(dtype)) + " axis " + std::to_string(axis) +
                     (dir == Direction::desc ? " desc" : " asc"));
        const auto idx = reference_argsort(vals, shape, a, dir == Direction::desc);
        const Tensor ai = argsort(t, axis, dir);
        EXPECT_EQ(ai.dtype(), DType::s32);
        EXPECT_EQ(as_type(ai, DType::s64).to_vector<std::int64_t>(), idx);
        const Tensor s = sort(t, axis, dir);
        EXPECT_TRUE(tensors_close(s, make(gather_line_values(vals, shape, a, idx), shape, dtype)));
      }
    }
  }
}

TEST(Sort, StableWithDuplicatesInBothDirections) {
  const Tensor t = from_vector<std::int32_t>({3, 1, 3, 1, 2, 3});
  EXPECT_EQ(argsort(t).to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 3, 4, 0, 2, 5}));
  EXPECT_EQ(argsort(t, 0, Direction::desc).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{0, 2, 5, 4, 1, 3}));
  EXPECT_EQ(sort(t, 0, Direction::desc).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{3, 3, 3, 2, 1, 1}));
}

TEST(Sort, NaNAboveInfinityAndSignedZerosEqual) {
  const std::vector<double> v{kNaN, 1, -kInf, -0.0, kInf, 0.0, kNaN, -1};
  for (DType dtype : {DType::f16, DType::bf16, DType::f32, DType::f64}) {
    SCOPED_TRACE(dtype_name(dtype));
    const Tensor t = make(v, {8}, dtype);
    EXPECT_EQ(argsort(t).to_vector<std::int32_t>(),
              (std::vector<std::int32_t>{2, 7, 3, 5, 1, 4, 0, 6}));
    EXPECT_EQ(argsort(t, -1, Direction::desc).to_vector<std::int32_t>(),
              (std::vector<std::int32_t>{0, 6, 4, 1, 3, 5, 7, 2}));
    const std::vector<double> s = as_doubles(sort(t));
    EXPECT_TRUE(std::signbit(s[2]));  // -0.0 keeps its sign and its place before 0.0
    EXPECT_FALSE(std::signbit(s[3]));
    EXPECT_TRUE(std::isnan(s[6]) && std::isnan(s[7]));
    const std::vector<double> d = as_doubles(sort(t, 0, Direction::desc));
    EXPECT_TRUE(std::isnan(d[0]) && std::isnan(d[1]));
    EXPECT_EQ(d[2], kInf);
    EXPECT_EQ(d[7], -kInf);
  }
}

TEST(Sort, IntegerExtremes) {
  const std::vector<std::int64_t> v{0, std::numeric_limits<std::int64_t>::max(), -1,
                                    std::numeric_limits<std::int64_t>::min(), 1};
  EXPECT_EQ(sort(from_vector(v)).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(), -1, 0, 1,
                                       std::numeric_limits<std::int64_t>::max()}));
  const std::vector<std::uint64_t> u{5, ~std::uint64_t{0}, 0, std::uint64_t{1} << 63};
  EXPECT_EQ(argsort(from_vector(u), 0, Direction::desc).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{1, 3, 0, 2}));
  const std::vector<std::int8_t> s8{-128, 127, 0, -1};
  EXPECT_EQ(sort(from_vector(s8)).to_vector<std::int8_t>(),
            (std::vector<std::int8_t>{-128, -1, 0, 127}));
}

TEST(Sort, ZeroSizeAndRankZero) {
  const Tensor empty = from_vector<float>({}, {0, 3});
  EXPECT_EQ(sort(empty, 0).shape(), (Shape{0, 3}));
  EXPECT_EQ(argsort(empty, 1).shape(), (Shape{0, 3}));
  EXPECT_EQ(argsort(from_vector<float>({}, {3, 0}), 0).dtype(), DType::s32);
  const Tensor scalar = from_vector<float>({2.5f}, Shape{});
  EXPECT_EQ(sort(scalar).to_vector<float>(), std::vector<float>{2.5f});
  const Tensor ai = argsort(scalar, 0, Direction::desc);
  EXPECT_EQ(ai.shape(), Shape{});
  EXPECT_EQ(ai.to_vector<std::int32_t>(), std::vector<std::int32_t>{0});
}

// Sorted output is ordered, argsort is a permutation, and gathering by it gives the sort.
template <class T>
void check_random_property(const Shape& shape, std::int64_t axis, Direction dir,
                           std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<double> raw(static_cast<std::size_t>(numel(shape)));
  std::uniform_int_distribution<int> dist(-1000, 1000);
  for (double& x : raw) x = dist(rng) / 8.0;
  const Tensor t = make(raw, shape, dtype_of_v<T>);
  const std::vector<double> vals = as_doubles(t);
  const Tensor s = sort(t, axis, dir);
  const Tensor ai = argsort(t, axis, dir, DType::s64);
  const std::vector<std::int64_t> idx = ai.to_vector<std::int64_t>();
  EXPECT_EQ(idx, reference_argsort(vals, shape, axis, dir == Direction::desc));
  const std::vector<double> sv = as_doubles(s);
  EXPECT_EQ(sv, gather_line_values(vals, shape, axis, idx));
  std::vector<double> a = vals, b = sv;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);  // a permutation of the input
}

TEST(Sort, RandomPropertyShortAndLongLines) {
  // Lines of 3000 take the radix path, lines of 7 the comparison path.
  check_random_property<float>({5, 3000}, 1, Direction::asc, 1);
  check_random_property<float>({3000, 7}, 0, Direction::desc, 2);
  check_random_property<std::int64_t>({2, 4000}, 1, Direction::desc, 3);
  check_random_property<std::uint8_t>({3, 2000}, 1, Direction::asc, 4);
  check_random_property<double>({600, 3, 2}, 0, Direction::asc, 5);
  check_random_property<f16>({2, 1500}, 1, Direction::desc, 6);
  check_random_property<std::int16_t>({1100, 4}, 0, Direction::asc, 7);
}

TEST(Sort, BadAxisIsAnAxisErrorAndInputIntact) {
  const Tensor t = from_vector<float>({3, 1, 2, 0, 5, 4}, {2, 3});
  try {
    (void)sort(t, 2);
    FAIL() << "expected AxisError";
  } catch (const AxisError& e) {
    EXPECT_NE(std::string(e.what()).find("[sort]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find('2'), std::string::npos) << e.what();
  }
  try {
    (void)argsort(t, -3);
    FAIL() << "expected AxisError";
  } catch (const AxisError& e) {
    EXPECT_NE(std::string(e.what()).find("[argsort]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("-3"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)sort(Tensor()), Error);
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{3, 1, 2, 0, 5, 4}));
}

TEST(TopK, IndicesLargestFirstTiesLowerIndexFirst) {
  const Tensor t = from_vector<float>({1, 3, 3, 2, 3, 0, 5, 5, 4, 5}, {2, 5});
  EXPECT_EQ(detail::top_k_indices(t, 2).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{1, 2, 1, 2}));
  EXPECT_EQ(detail::top_k_indices(t, 3).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{1, 2, 4, 1, 2, 4}));
  EXPECT_EQ(detail::top_k_indices(t, 3).shape(), (Shape{2, 3}));
  const Tensor zero = detail::top_k_indices(t, 0);
  EXPECT_EQ(zero.shape(), (Shape{2, 0}));
  EXPECT_EQ(zero.dtype(), DType::s64);
  const Tensor n = make({1, kNaN, kInf, -0.0, 0.0}, {5}, DType::f32);
  EXPECT_EQ(detail::top_k_indices(n, 5).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{1, 2, 0, 3, 4}));
}

TEST(TopK, LongLinesAgreeWithDescendingArgsort) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> dist(0, 50);  // many ties
  std::vector<std::int32_t> v(3 * 2000);
  for (auto& x : v) x = dist(rng);
  const Tensor t = from_vector(v, {3, 2000});
  const std::vector<std::int64_t> full =
      argsort(t, 1, Direction::desc, DType::s64).to_vector<std::int64_t>();
  for (std::int64_t k : {1, 7, 300, 2000}) {
    const std::vector<std::int64_t> got = detail::top_k_indices(t, k).to_vector<std::int64_t>();
    for (std::int64_t r = 0; r < 3; ++r) {
      for (std::int64_t j = 0; j < k; ++j) {
        ASSERT_EQ(got[static_cast<std::size_t>(r * k + j)],
                  full[static_cast<std::size_t>(r * 2000 + j)])
            << "k " << k << " row " << r << " j " << j;
      }
    }
  }
}

TEST(TopK, BadKOrRankIsAShapeError) {
  const Tensor t = from_vector<float>({1, 2, 3}, {1, 3});
  for (std::int64_t k : {-1, 4}) {
    try {
      (void)detail::top_k_indices(t, k);
      FAIL() << "expected ShapeError for k " << k;
    } catch (const ShapeError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("[top_k]"), std::string::npos) << msg;
      EXPECT_NE(msg.find("k = " + std::to_string(k)), std::string::npos) << msg;
      EXPECT_NE(msg.find("3"), std::string::npos) << msg;
    }
  }
  EXPECT_THROW((void)detail::top_k_indices(from_vector<float>({1}, Shape{}), 1), ShapeError);
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{1, 2, 3}));
}

}  // namespace
}  // namespace vkt
