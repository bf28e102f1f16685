#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "vkt/vkt.h"

namespace vkt {
namespace {

TEST(DType, PromotionFollowsNx) {
  EXPECT_EQ(promote(DType::u8, DType::u16), DType::u16);
  EXPECT_EQ(promote(DType::s8, DType::s32), DType::s32);
  EXPECT_EQ(promote(DType::u8, DType::s8), DType::s16);
  EXPECT_EQ(promote(DType::u32, DType::s8), DType::s64);
  EXPECT_EQ(promote(DType::u64, DType::s64), DType::s64);
  EXPECT_EQ(promote(DType::u16, DType::s32), DType::s32);
  EXPECT_EQ(promote(DType::s64, DType::f16), DType::f16);
  EXPECT_EQ(promote(DType::f16, DType::bf16), DType::f32);
  EXPECT_EQ(promote(DType::f32, DType::f64), DType::f64);
  EXPECT_EQ(promote(DType::bf16, DType::f32), DType::f32);
  for (DType a : kRealDTypes) {
    for (DType b : kRealDTypes) EXPECT_EQ(promote(a, b), promote(b, a));
  }
}

TEST(DType, WeakScalarsTakeTheTensorType) {
  EXPECT_EQ(Scalar(2).weak_type_with(DType::u8), DType::u8);
  EXPECT_EQ(Scalar(2.5).weak_type_with(DType::s32), DType::f32);
  EXPECT_EQ(Scalar(2.5).weak_type_with(DType::f16), DType::f16);
  EXPECT_EQ(Scalar(7).default_type(), DType::s64);
  EXPECT_EQ(Scalar(7u).default_type(), DType::u64);
  EXPECT_EQ(Scalar(7.0).default_type(), DType::f32);
}

TEST(DType, HalfRoundTripsEveryF16Value) {
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float f = f16_bits_to_float(static_cast<std::uint16_t>(bits));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(f16_bits_to_float(float_to_f16_bits(f))));
    } else {
      EXPECT_EQ(float_to_f16_bits(f), bits) << bits;
    }
  }
  EXPECT_EQ(float(f16(65504.0f)), 65504.0f);
  EXPECT_TRUE(std::isinf(float(f16(65520.0f))));
  EXPECT_EQ(float(f16(1.0f / 33554432.0f)), 0.0f);      // half the smallest subnormal: ties to 0
  EXPECT_EQ(float(f16(5.9604645e-8f)), 5.9604645e-8f);  // the smallest subnormal
  EXPECT_EQ(float(bf16(1.0f + 1.0f / 256)), 1.0f);      // a tie rounds to even
  EXPECT_EQ(float(bf16(3.0f)), 3.0f);
}

TEST(DType, ConvertSaturatesLikeNx) {
  EXPECT_EQ(convert<std::int8_t>(300.0f), 127);
  EXPECT_EQ(convert<std::int8_t>(-300.0), -128);
  EXPECT_EQ(convert<std::uint8_t>(-1.5f), 0);
  EXPECT_EQ(convert<std::int32_t>(std::numeric_limits<float>::quiet_NaN()), 0);
  EXPECT_EQ(convert<std::int64_t>(1e300), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(convert<std::uint8_t>(std::int32_t{257}), 1);  // integers wrap
  EXPECT_EQ(dtype_from_name("bf16"), DType::bf16);
  EXPECT_THROW(dtype_from_name("f128"), TypeError);
}

TEST(Shape, BroadcastAndAxes) {
  EXPECT_EQ(broadcast_shapes("t", {3, 1}, {4}), (Shape{3, 4}));
  EXPECT_EQ(broadcast_shapes("t", {}, {2, 0}), (Shape{2, 0}));
  EXPECT_THROW(broadcast_shapes("add", {3}, {4}), ShapeError);
  try {
    broadcast_shapes("add", {3}, {4});
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("[add]"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("{3}"), std::string::npos);
  }
  EXPECT_EQ(normalize_axis("t", -1, 3), 2);
  EXPECT_THROW(normalize_axis("sum", 3, 3), AxisError);
  EXPECT_THROW(normalize_axes("sum", {0, -3}, 3), AxisError);
  EXPECT_EQ(contiguous_strides(Shape{2, 3, 4}), (std::vector<std::int64_t>{12, 4, 1}));
}

}  // namespace
}  // namespace vkt
