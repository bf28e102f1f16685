// The narrow dtypes' definitions: names and promotion, every 8-bit float code against the
// OFP8 formats' definition (written here independently, with pow), rounding, saturation and
// NaN, and Nx's packed binary of s2/s4/u2/u4.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "vkt/vkt.h"

namespace vkt {
namespace {

// The value of an 8-bit float code by the format's definition.
double defined_value(DType d, unsigned code) {
  const bool e4m3 = d == DType::f8_e4m3fn;
  const int m_bits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  const unsigned e = (code & 0x7f) >> m_bits, m = code & ((1u << m_bits) - 1);
  const double sign = (code & 0x80) != 0 ? -1.0 : 1.0;
  if (!e4m3 && e == 31) return m == 0 ? sign * INFINITY : NAN;
  if (e4m3 && e == 15 && m == 7) return NAN;
  if (e == 0) return sign * std::pow(2.0, 1 - bias) * (m / std::pow(2.0, m_bits));
  return sign * std::pow(2.0, static_cast<double>(e) - bias) * (1 + m / std::pow(2.0, m_bits));
}

std::vector<std::byte> bytes_of(std::initializer_list<unsigned> v) {
  std::vector<std::byte> out;
  for (unsigned b : v) out.push_back(static_cast<std::byte>(b));
  return out;
}

TEST(NarrowDTypes, NamesSizesAndKinds) {
  for (DType d : kNarrowDTypes) {
    EXPECT_EQ(dtype_from_name(dtype_name(d)), d);
    EXPECT_TRUE(is_narrow(d));
    EXPECT_EQ(itemsize(d), 1u) << dtype_name(d);
  }
  EXPECT_EQ(dtype_name(DType::f8), "f8");
  EXPECT_EQ(dtype_name(DType::f8_e4m3fn), "f8_e4m3fn");
  EXPECT_EQ(bit_width(DType::s2), 2);
  EXPECT_EQ(bit_width(DType::u4), 4);
  EXPECT_EQ(bit_width(DType::f8), 8);
  EXPECT_TRUE(is_float(DType::f8));
  EXPECT_TRUE(is_signed_integer(DType::s4));
  EXPECT_TRUE(is_unsigned_integer(DType::u2));
  EXPECT_FALSE(is_narrow(DType::u8));
  EXPECT_EQ(wide_type(DType::s4), DType::s8);
  EXPECT_EQ(wide_type(DType::u2), DType::u8);
  EXPECT_EQ(wide_type(DType::f8_e4m3fn), DType::f32);
  EXPECT_EQ(binary_nbytes(DType::s4, 3), 2u);
  EXPECT_EQ(binary_nbytes(DType::u2, 5), 2u);
  EXPECT_EQ(binary_nbytes(DType::f8, 5), 5u);
}

TEST(NarrowDTypes, PromotionFollowsNxWithoutLosingValues) {
  EXPECT_EQ(promote(DType::s4, DType::u4), DType::s8);  // Nx: s(max(min(4*2, 64), 4))
  EXPECT_EQ(promote(DType::s2, DType::u2), DType::s4);
  EXPECT_EQ(promote(DType::s4, DType::u2), DType::s4);
  EXPECT_EQ(promote(DType::s4, DType::s8), DType::s8);
  EXPECT_EQ(promote(DType::u2, DType::u4), DType::u4);
  EXPECT_EQ(promote(DType::s64, DType::f8), DType::f8);  // float beats integer, as in Nx
  EXPECT_EQ(promote(DType::f8, DType::f16), DType::f16);
  EXPECT_EQ(promote(DType::f8_e4m3fn, DType::bf16), DType::bf16);
  EXPECT_EQ(promote(DType::f8, DType::f8_e4m3fn), DType::f16);  // f16 holds both exactly
  EXPECT_EQ(promote(DType::f8, DType::c64), DType::c64);
  EXPECT_EQ(to_float_type(DType::s4), DType::f32);
  EXPECT_EQ(to_float_type(DType::f8), DType::f8);
  for (DType a : kAllDTypes) {
    for (DType b : kAllDTypes) EXPECT_EQ(promote(a, b), promote(b, a));
  }
}

TEST(NarrowDTypes, EveryFloatCodeHasItsDefinedValue) {
  for (DType d : {DType::f8, DType::f8_e4m3fn}) {
    for (unsigned c = 0; c < 256; ++c) {
      const double want = defined_value(d, c);
      const double got = narrow_to_double(d, static_cast<std::uint8_t>(c));
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got)) << dtype_name(d) << " code " << c;
        continue;
      }
      EXPECT_EQ(got, want) << dtype_name(d) << " code " << c;
      EXPECT_EQ(std::signbit(got), (c & 0x80) != 0) << dtype_name(d) << " code " << c;
      // Every value encodes back to its own code (no two codes share a value but +-0).
      EXPECT_EQ(narrow_from_double(d, want), c) << dtype_name(d) << " code " << c;
    }
  }
  EXPECT_EQ(narrow_to_double(DType::f8_e4m3fn, 0x7e), 448.0);
  EXPECT_EQ(narrow_to_double(DType::f8, 0x7b), 57344.0);
}

TEST(NarrowDTypes, FloatsRoundToNearestEvenOnce) {
  for (DType d : {DType::f8, DType::f8_e4m3fn}) {
    const unsigned top = d == DType::f8 ? 0x7b : 0x7e;
    for (unsigned c = 0; c < top; ++c) {
      const double lo = defined_value(d, c), hi = defined_value(d, c + 1);
      const double mid = (lo + hi) / 2;
      const unsigned even = (c & 1) == 0 ? c : c + 1;
      EXPECT_EQ(narrow_from_double(d, mid), even) << dtype_name(d) << " tie after " << c;
      EXPECT_EQ(narrow_from_double(d, std::nextafter(mid, 0.0)), c) << dtype_name(d) << " " << c;
      EXPECT_EQ(narrow_from_double(d, std::nextafter(mid, 1e9)), c + 1) << dtype_name(d) << c;
      EXPECT_EQ(narrow_from_double(d, -mid), 0x80 | even) << dtype_name(d) << " tie " << c;
    }
  }
  // Nx's own examples (Nx.Floating.dump_f8_e4m3fn).
  EXPECT_EQ(narrow_from_double(DType::f8_e4m3fn, 1.0), 0x38);
  EXPECT_EQ(narrow_from_double(DType::f8_e4m3fn, 448.0), 0x7e);
  EXPECT_EQ(narrow_from_double(DType::f8_e4m3fn, -448.0), 0xfe);
}

TEST(NarrowDTypes, OverflowNaNAndZeroFollowEachFormat) {
  // E5M2 is IEEE-like: past the largest finite value's rounding range is infinity.
  EXPECT_EQ(narrow_from_double(DType::f8, 61440.0), 0x7c);  // the tie above 57344: to even
  EXPECT_EQ(narrow_from_double(DType::f8, std::nextafter(61440.0, 0.0)), 0x7b);
  EXPECT_EQ(narrow_from_double(DType::f8, -1e300), 0xfc);
  EXPECT_EQ(narrow_from_double(DType::f8, INFINITY), 0x7c);
  EXPECT_EQ(narrow_from_double(DType::f8, NAN), 0x7e);
  EXPECT_EQ(narrow_from_double(DType::f8, -0.0), 0x80);
  EXPECT_EQ(narrow_from_double(DType::f8, 1e-300), 0x00);
  // E4M3FN has no infinity: Nx saturates overflow and infinities at +-448.
  EXPECT_EQ(narrow_from_double(DType::f8_e4m3fn, 480.0), 0x7e);
  EXPECT_EQ(narrow_from_double(DType::f8_e4m3fn, 1e10), 0x7e);
  EXPECT_EQ(narrow_from_double(DType::f8_e4m3fn, INFINITY), 0x7e);
  EXPECT_EQ(narrow_from_double(DType::f8_e4m3fn, -INFINITY), 0xfe);
  EXPECT_EQ(narrow_from_double(DType::f8_e4m3fn, NAN), 0x7f);
  EXPECT_EQ(narrow_from_double(DType::f8_e4m3fn, -NAN), 0xff);
  EXPECT_EQ(narrow_from_double(DType::f8_e4m3fn, std::ldexp(1.0, -10)), 0x00);  // half a tick
  EXPECT_EQ(narrow_from_double(DType::f8_e4m3fn, std::ldexp(1.5, -10)), 0x01);
}

TEST(NarrowDTypes, IntegersWrapAndFloatsSaturate) {
  EXPECT_EQ(narrow_to_int(DType::s4, narrow_from_int(DType::s4, 9)), -7);
  EXPECT_EQ(narrow_to_int(DType::u4, narrow_from_int(DType::u4, -1)), 15);
  EXPECT_EQ(narrow_to_int(DType::s2, narrow_from_int(DType::s2, 2)), -2);
  EXPECT_EQ(narrow_to_int(DType::s4, narrow_from_double(DType::s4, 100.0)), 7);
  EXPECT_EQ(narrow_to_int(DType::s4, narrow_from_double(DType::s4, -100.0)), -8);
  EXPECT_EQ(narrow_to_int(DType::s4, narrow_from_double(DType::s4, -3.9)), -3);
  EXPECT_EQ(narrow_to_int(DType::u2, narrow_from_double(DType::u2, 9.0)), 3);
  EXPECT_EQ(narrow_to_int(DType::u2, narrow_from_double(DType::u2, NAN)), 0);
  // A code holds the bits alone: s4 -1 is 0x0f, the code u4 15 has.
  EXPECT_EQ(narrow_from_int(DType::s4, -1), 0x0f);
  EXPECT_THROW(narrow_to_int(DType::f8, 0), TypeError);
}

TEST(NarrowDTypes, BinaryIsNxsPackedLayout) {
  // Nx: <<1::4, 2::4, 3::4, -1::4-signed>> = <<0x12, 0x3f>>.
  const Tensor s4 = from_bytes(bytes_of({0x12, 0x3f}), DType::s4, {4}, &cpu());
  EXPECT_EQ(as_type(s4, DType::s32).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{1, 2, 3, -1}));
  EXPECT_EQ(s4.to_bytes(), bytes_of({0x12, 0x3f}));
  const Tensor u4 = bitcast(s4, DType::u4);
  EXPECT_EQ(as_type(u4, DType::s32).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{1, 2, 3, 15}));
  const Tensor s2 = from_bytes(bytes_of({0x1b}), DType::s2, {4}, &cpu());  // 00 01 10 11
  EXPECT_EQ(as_type(s2, DType::s32).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{0, 1, -2, -1}));
  // An odd count: the last byte's low bits are padding, zero on the way out.
  const Tensor three = from_bytes(bytes_of({0x12, 0x3a}), DType::u4, {3}, &cpu());
  EXPECT_EQ(three.to_bytes(), bytes_of({0x12, 0x30}));
  EXPECT_EQ(three.to_bytes(2), bytes_of({0x12}));
  EXPECT_EQ(three.nbytes(), 3u);  // storage: a byte an element
  EXPECT_THROW(from_bytes(bytes_of({0x12}), DType::u4, {3}, &cpu()), ShapeError);
  const Tensor f8 = from_bytes(bytes_of({0x38, 0xfe}), DType::f8_e4m3fn, {2}, &cpu());
  EXPECT_EQ(as_type(f8, DType::f32).to_vector<float>(), (std::vector<float>{1.0f, -448.0f}));
  EXPECT_EQ(f8.to_bytes(), bytes_of({0x38, 0xfe}));
}

TEST(NarrowDTypes, BitcastNeedsTheSameBitSize) {
  const Tensor s4 = from_bytes(bytes_of({0xf0}), DType::s4, {2}, &cpu());
  EXPECT_EQ(as_type(bitcast(s4, DType::u4), DType::s32).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{15, 0}));
  try {
    bitcast(s4, DType::u8);
    FAIL() << "s4 as u8 should be a TypeError";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("s4 (4 bits) as u8 (8 bits)"), std::string::npos)
        << e.what();
  }
  const Tensor f8 = from_bytes(bytes_of({0x3c}), DType::f8, {1}, &cpu());
  EXPECT_EQ(bitcast(f8, DType::u8).to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{0x3c}));
  EXPECT_EQ(bitcast(f8, DType::f8_e4m3fn).item<double>(), 1.5);  // 0x3c in E4M3FN
  EXPECT_EQ(f8.item<double>(), 1.0);
}

}  // namespace
}  // namespace vkt
