// Elementwise ops: hand cases per op and dtype, promotion rules, integer edge cases,
// broadcasting, accuracy of the vectorised exp/log, and one test per error.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "cpu/elementwise_math.h"
#include "support/compare.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::tensors_close;

template <class T>
Tensor make(const std::vector<T>& v, Shape shape) {
  return from_vector(v, std::move(shape), &cpu());
}
template <class T>
Tensor make(const std::vector<T>& v) {
  return from_vector(v, &cpu());
}
template <class T>
std::vector<T> values(const Tensor& t) {
  return t.to_vector<T>();
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
using u8 = std::uint8_t;
using s8 = std::int8_t;
using s32 = std::int32_t;
using s64 = std::int64_t;

// ---- binary arithmetic ----

TEST(ElementwiseBinary, AddSubtractMultiplyOnFloatsAndIntegers) {
  const Tensor a = make<float>({1.5f, -2, 0, kInf}), b = make<float>({0.5f, 2, -0.0f, 1});
  EXPECT_EQ(values<float>(add(a, b)), (std::vector<float>{2, 0, 0, kInf}));
  EXPECT_EQ(values<float>(subtract(a, b)), (std::vector<float>{1, -4, 0, kInf}));
  EXPECT_EQ(values<float>(multiply(a, b)), (std::vector<float>{0.75f, -4, -0.0f, kInf}));
  const Tensor d = make<double>({1e300, -3}), e = make<double>({1e300, 0.25});
  EXPECT_EQ(values<double>(multiply(d, e))[1], -0.75);
  EXPECT_TRUE(std::isinf(values<double>(multiply(d, e))[0]));
  const Tensor i = make<s32>({7, -7, 2147483647}), j = make<s32>({2, 3, 1});
  EXPECT_EQ(values<s32>(add(i, j)), (std::vector<s32>{9, -4, -2147483647 - 1}));  // wraps
  EXPECT_EQ(values<s32>(subtract(i, j)), (std::vector<s32>{5, -10, 2147483646}));
  EXPECT_EQ(values<s32>(multiply(i, j)), (std::vector<s32>{14, -21, 2147483647}));
}

TEST(ElementwiseBinary, IntegerArithmeticWraps) {
  const Tensor a = make<u8>({250, 3}), b = make<u8>({10, 5});
  EXPECT_EQ(values<u8>(add(a, b)), (std::vector<u8>{4, 8}));
  EXPECT_EQ(values<u8>(subtract(b, a)), (std::vector<u8>{16, 2}));
  const Tensor h = make<std::uint16_t>({65535}), g = make<std::uint16_t>({65535});
  EXPECT_EQ(values<std::uint16_t>(multiply(h, g)), (std::vector<std::uint16_t>{1}));
  const Tensor m = make<s64>({std::numeric_limits<s64>::max()});
  EXPECT_EQ(values<s64>(multiply(m, 2))[0], -2);
  EXPECT_EQ(values<s8>(multiply(make<s8>({-128}), make<s8>({-1})))[0], -128);
}

TEST(ElementwiseBinary, DivideAndAtan2ReturnFloats) {
  const Tensor a = make<s32>({7, -7, 1, 0}), b = make<s32>({2, 2, 0, 0});
  const Tensor q = divide(a, b);
  ASSERT_EQ(q.dtype(), DType::f32);
  const auto v = values<float>(q);
  EXPECT_EQ(v[0], 3.5f);
  EXPECT_EQ(v[1], -3.5f);
  EXPECT_EQ(v[2], kInf);
  EXPECT_TRUE(std::isnan(v[3]));
  const Tensor t = atan2(make<double>({1, -1, 0}), make<double>({1, -1, -1}));
  ASSERT_EQ(t.dtype(), DType::f64);
  EXPECT_DOUBLE_EQ(values<double>(t)[0], std::numbers::pi / 4);
  EXPECT_DOUBLE_EQ(values<double>(t)[1], -3 * std::numbers::pi / 4);
  EXPECT_DOUBLE_EQ(values<double>(t)[2], std::numbers::pi);
  EXPECT_EQ(atan2(make<u8>({1}), make<u8>({0})).dtype(), DType::f32);
}

TEST(ElementwiseBinary, PowOnFloatsAndIntegers) {
  EXPECT_EQ(values<float>(pow(make<float>({2, 4, -8}), make<float>({10, 0.5f, 1.0f / 3})))[0],
            1024.0f);
  EXPECT_TRUE(std::isnan(values<float>(pow(make<float>({-8}), make<float>({0.5f})))[0]));
  EXPECT_EQ(values<float>(pow(make<float>({kNaN}), make<float>({0})))[0], 1.0f);
  const Tensor base = make<s32>({3, -2, 2, 1, -1, -1, 5, 0}),
               expo = make<s32>({4, 3, 31, -5, -3, -4, -1, 0});
  EXPECT_EQ(values<s32>(pow(base, expo)),
            (std::vector<s32>{81, -8, -2147483647 - 1, 1, -1, 1, 0, 1}));
  EXPECT_EQ(values<u8>(pow(make<u8>({3}), make<u8>({5})))[0], 243);
  EXPECT_EQ(values<u8>(pow(make<u8>({3}), make<u8>({6})))[0], static_cast<u8>(729));
  EXPECT_EQ(values<s64>(pow(make<s64>({10}), make<s64>({18})))[0], 1000000000000000000LL);
}

TEST(ElementwiseBinary, RemainderHasTheSignOfTheDividend) {
  EXPECT_EQ(values<s32>(remainder(make<s32>({7, -7, 7, -7, 5, -2147483647 - 1}),
                                  make<s32>({3, 3, -3, -3, 0, -1}))),
            (std::vector<s32>{1, -1, 1, -1, 0, 0}));
  const auto f =
      values<float>(remainder(make<float>({7.5f, -7.5f, 1, kInf}), make<float>({2, 2, 0, 1})));
  EXPECT_EQ(f[0], 1.5f);
  EXPECT_EQ(f[1], -1.5f);
  EXPECT_TRUE(std::isnan(f[2]));
  EXPECT_TRUE(std::isnan(f[3]));
  EXPECT_EQ(values<u8>(remainder(make<u8>({200}), make<u8>({7})))[0], 4);
}

TEST(ElementwiseBinary, QuotientTruncatesAndHandlesZeroAndMinOverMinusOne) {
  const s32 mn = std::numeric_limits<s32>::min();
  EXPECT_EQ(
      values<s32>(quotient(make<s32>({7, -7, 7, 5, mn, mn}), make<s32>({2, 2, -2, 0, -1, 1}))),
      (std::vector<s32>{3, -3, -3, 0, mn, mn}));
  EXPECT_EQ(values<u8>(quotient(make<u8>({255, 9}), make<u8>({2, 0}))), (std::vector<u8>{127, 0}));
  EXPECT_EQ(values<s64>(quotient(make<s64>({std::numeric_limits<s64>::min()}), -1))[0],
            std::numeric_limits<s64>::min());
}

TEST(ElementwiseBinary, MinMaxPropagateNaN) {
  const Tensor a = make<float>({1, kNaN, 3, -kInf}), b = make<float>({2, 1, kNaN, 0});
  const auto mn = values<float>(min(a, b)), mx = values<float>(max(a, b));
  EXPECT_EQ(mn[0], 1.0f);
  EXPECT_TRUE(std::isnan(mn[1]));
  EXPECT_TRUE(std::isnan(mn[2]));
  EXPECT_EQ(mn[3], -kInf);
  EXPECT_EQ(mx[0], 2.0f);
  EXPECT_TRUE(std::isnan(mx[1]));
  EXPECT_TRUE(std::isnan(mx[2]));
  EXPECT_EQ(mx[3], 0.0f);
  EXPECT_EQ(values<s8>(min(make<s8>({-5, 7}), make<s8>({3, -128}))), (std::vector<s8>{-5, -128}));
  EXPECT_EQ(values<u8>(max(make<u8>({5, 200}), make<u8>({7, 1}))), (std::vector<u8>{7, 200}));
}

TEST(ElementwiseBinary, BitwiseOps) {
  const Tensor a = make<u8>({0b1100, 0xff}), b = make<u8>({0b1010, 0x0f});
  EXPECT_EQ(values<u8>(bitwise_and(a, b)), (std::vector<u8>{0b1000, 0x0f}));
  EXPECT_EQ(values<u8>(bitwise_or(a, b)), (std::vector<u8>{0b1110, 0xff}));
  EXPECT_EQ(values<u8>(bitwise_xor(a, b)), (std::vector<u8>{0b0110, 0xf0}));
  EXPECT_EQ(values<s32>(bitwise_and(make<s32>({-1, -8}), make<s32>({12345, 7}))),
            (std::vector<s32>{12345, 0}));
}

TEST(ElementwiseBinary, ShiftsWithOutOfRangeCounts) {
  const Tensor a = make<s32>({1, 1, 1, -8, -8, -8, 8, 8}),
               c = make<s32>({3, 31, 32, 1, 40, -1, 40, -1});
  EXPECT_EQ(values<s32>(left_shift(a, c)),
            (std::vector<s32>{8, -2147483647 - 1, 0, -16, 0, 0, 0, 0}));
  EXPECT_EQ(values<s32>(right_shift(a, c)), (std::vector<s32>{0, 0, 0, -4, -1, -1, 0, 0}));
  const Tensor u = make<u8>({0x81, 0x81, 0x81}), uc = make<u8>({1, 7, 8});
  EXPECT_EQ(values<u8>(left_shift(u, uc)), (std::vector<u8>{0x02, 0x80, 0}));
  EXPECT_EQ(values<u8>(right_shift(u, uc)), (std::vector<u8>{0x40, 0x01, 0}));
  EXPECT_EQ(values<s64>(right_shift(make<s64>({-1}), 63))[0], -1);
  EXPECT_EQ(values<s64>(left_shift(make<s64>({1}), 63))[0], std::numeric_limits<s64>::min());
}

TEST(ElementwiseBinary, ComparisonsReturnU8AndFollowIEEE) {
  const Tensor a = make<float>({1, 2, kNaN, 3}), b = make<float>({1, 3, kNaN, 2});
  EXPECT_EQ(values<u8>(equal(a, b)), (std::vector<u8>{1, 0, 0, 0}));
  EXPECT_EQ(values<u8>(not_equal(a, b)), (std::vector<u8>{0, 1, 1, 1}));
  EXPECT_EQ(values<u8>(less(a, b)), (std::vector<u8>{0, 1, 0, 0}));
  EXPECT_EQ(values<u8>(less_equal(a, b)), (std::vector<u8>{1, 1, 0, 0}));
  EXPECT_EQ(values<u8>(greater(a, b)), (std::vector<u8>{0, 0, 0, 1}));
  EXPECT_EQ(values<u8>(greater_equal(a, b)), (std::vector<u8>{1, 0, 0, 1}));
  // u8 with s8 compares in s16: 200 is not -56.
  const Tensor u = make<u8>({200, 5}), s = make<s8>({-56, 5});
  EXPECT_EQ(values<u8>(equal(u, s)), (std::vector<u8>{0, 1}));
  EXPECT_EQ(values<u8>(greater(u, s)), (std::vector<u8>{1, 0}));
  EXPECT_EQ(values<u8>(less(make<s64>({-1}), make<u8>({0}))), (std::vector<u8>{1}));
}

TEST(ElementwiseBinary, LogicalOpsTreatNonzeroAsTrue) {
  const Tensor a = make<float>({0, 0, 2, kNaN}), b = make<float>({0, -1, 0.5f, 0});
  EXPECT_EQ(values<u8>(logical_and(a, b)), (std::vector<u8>{0, 0, 1, 0}));
  EXPECT_EQ(values<u8>(logical_or(a, b)), (std::vector<u8>{0, 1, 1, 1}));
  EXPECT_EQ(values<u8>(logical_xor(a, b)), (std::vector<u8>{0, 1, 0, 1}));
  EXPECT_EQ(values<u8>(logical_and(make<s32>({4, 0}), make<u8>({2, 9}))), (std::vector<u8>{1, 0}));
}

TEST(ElementwiseBinary, HalfTypesComputeInFloatAndRoundOnce) {
  const Tensor a = from_vector(std::vector<f16>{f16(1.0f), f16(65504.0f)}, &cpu());
  const Tensor s = add(a, a);
  ASSERT_EQ(s.dtype(), DType::f16);
  EXPECT_EQ(float(values<f16>(s)[0]), 2.0f);
  EXPECT_TRUE(std::isinf(float(values<f16>(s)[1])));
  const Tensor b = from_vector(std::vector<bf16>{bf16(3.0f)}, &cpu());
  EXPECT_EQ(float(values<bf16>(multiply(b, b))[0]), 9.0f);
  EXPECT_EQ(add(a, from_vector(std::vector<bf16>{bf16(1.0f)}, &cpu())).dtype(), DType::f32);
  EXPECT_EQ(values<u8>(less(a, 2.0))[0], 1);
}

// ---- promotion and weak literals ----

TEST(ElementwisePromotion, ResultDtypesFollowNx) {
  const Tensor u8t = make<u8>({1}), s8t = make<s8>({1}), s32t = make<s32>({1}),
               f32t = make<float>({1}), f64t = make<double>({1});
  EXPECT_EQ(add(u8t, s8t).dtype(), DType::s16);
  EXPECT_EQ(add(s32t, f32t).dtype(), DType::f32);
  EXPECT_EQ(multiply(f32t, f64t).dtype(), DType::f64);
  EXPECT_EQ(subtract(make<std::uint32_t>({1}), s8t).dtype(), DType::s64);
  EXPECT_EQ(divide(s32t, s32t).dtype(), DType::f32);
  EXPECT_EQ(divide(s32t, f64t).dtype(), DType::f64);
  EXPECT_EQ(atan2(s8t, s8t).dtype(), DType::f32);
  EXPECT_EQ(pow(u8t, s8t).dtype(), DType::s16);
  EXPECT_EQ(remainder(s32t, u8t).dtype(), DType::s32);
  EXPECT_EQ(min(s8t, f32t).dtype(), DType::f32);
  EXPECT_EQ(quotient(u8t, s8t).dtype(), DType::s16);
  EXPECT_EQ(bitwise_or(u8t, make<std::uint16_t>({1})).dtype(), DType::u16);
  EXPECT_EQ(left_shift(s8t, s32t).dtype(), DType::s32);
  EXPECT_EQ(equal(f64t, s32t).dtype(), DType::u8);
  EXPECT_EQ(logical_or(f64t, s32t).dtype(), DType::u8);
}

TEST(ElementwisePromotion, LiteralsAreWeak) {
  const Tensor u = make<u8>({250});
  EXPECT_EQ(add(u, 10).dtype(), DType::u8);
  EXPECT_EQ(values<u8>(add(u, 10))[0], 4);  // wraps in u8
  EXPECT_EQ(values<u8>(add(10, u))[0], 4);
  const Tensor s = make<s32>({3});
  const Tensor f = add(s, 2.5);
  ASSERT_EQ(f.dtype(), DType::f32);
  EXPECT_EQ(values<float>(f)[0], 5.5f);
  EXPECT_EQ(values<float>(subtract(1.0, make<float>({0.25f})))[0], 0.75f);
  EXPECT_EQ(add(from_vector(std::vector<f16>{f16(1.0f)}, &cpu()), 2.5).dtype(), DType::f16);
  EXPECT_EQ(values<s32>(quotient(7, s))[0], 2);
  EXPECT_EQ(values<u8>(greater(s, 2))[0], 1);
  EXPECT_EQ(divide(s, 2).dtype(), DType::f32);
}

// ---- broadcasting ----

// A reference: out[i] = a[ia] + b[ib] by explicit index arithmetic on the padded shapes.
template <class F>
std::vector<double> broadcast_reference(const Shape& sa, const std::vector<double>& a,
                                        const Shape& sb, const std::vector<double>& b,
                                        const Shape& out, F combine) {
  const std::size_t rank = out.size();
  std::vector<double> result(static_cast<std::size_t>(numel(out)));
  for (std::size_t i = 0; i < result.size(); ++i) {
    std::int64_t rest = static_cast<std::int64_t>(i), ia = 0, ib = 0, ma = 1, mb = 1;
    for (std::size_t k = rank; k-- > 0;) {
      const std::int64_t idx = rest % out[k];
      rest /= out[k];
      const std::size_t ka = k + sa.size() - rank, kb = k + sb.size() - rank;
      if (k + sa.size() >= rank) {
        if (sa[ka] != 1) ia += idx * ma;
        ma *= sa[ka];
      }
      if (k + sb.size() >= rank) {
        if (sb[kb] != 1) ib += idx * mb;
        mb *= sb[kb];
      }
    }
    result[i] = combine(a[static_cast<std::size_t>(ia)], b[static_cast<std::size_t>(ib)]);
  }
  return result;
}

void check_broadcast(const Shape& sa, const Shape& sb, const Shape& expected_shape) {
  std::vector<double> va(static_cast<std::size_t>(numel(sa))),
      vb(static_cast<std::size_t>(numel(sb)));
  for (std::size_t i = 0; i < va.size(); ++i) va[i] = static_cast<double>(i % 997);
  for (std::size_t i = 0; i < vb.size(); ++i) vb[i] = static_cast<double>(i % 991);
  const Tensor a = make(va, sa), b = make(vb, sb);
  const Tensor out = add(multiply(a, 1000.0), b);
  ASSERT_EQ(out.shape(), expected_shape) << shape_str(sa) << " + " << shape_str(sb);
  EXPECT_EQ(values<double>(out),
            broadcast_reference(sa, va, sb, vb, expected_shape,
                                [](double x, double y) { return x * 1000 + y; }))
      << shape_str(sa) << " + " << shape_str(sb);
  // divide runs on several threads from a smaller size than add: chunks start mid-row.
  EXPECT_EQ(values<double>(divide(a, add(b, 1.0))),
            broadcast_reference(sa, va, sb, vb, expected_shape,
                                [](double x, double y) { return x / (y + 1); }))
      << shape_str(sa) << " / " << shape_str(sb);
}

TEST(ElementwiseBroadcast, ShapesCombineLikeNumPy) {
  check_broadcast({2, 3}, {3}, {2, 3});
  check_broadcast({2, 1}, {1, 3}, {2, 3});
  check_broadcast({}, {4}, {4});
  check_broadcast({4}, {}, {4});
  check_broadcast({}, {}, {});
  check_broadcast({0, 3}, {3}, {0, 3});
  check_broadcast({0}, {1}, {0});
  check_broadcast({1, 1}, {1}, {1, 1});
  check_broadcast({2, 1, 3, 1, 2}, {1, 2, 1, 4, 1}, {2, 2, 3, 4, 2});
  check_broadcast({3, 1, 5}, {3, 4, 5}, {3, 4, 5});
  check_broadcast({5, 1, 1, 7}, {6, 1}, {5, 1, 6, 7});
  // Large enough to run on several threads with chunks that start mid-row (divide; add
  // only threads from 2M elements).
  check_broadcast({1001, 77}, {77}, {1001, 77});
  check_broadcast({1001, 1}, {1, 77}, {1001, 77});
  check_broadcast({300001}, {300001}, {300001});
  check_broadcast({}, {300001}, {300001});
  check_broadcast({2, 1100001}, {1, 1}, {2, 1100001});
}

TEST(ElementwiseBroadcast, ComparisonsBroadcastToo) {
  const Tensor a = make<s32>({1, 2, 3}, {3, 1}), b = make<s32>({2, 2}, {1, 2});
  EXPECT_EQ(values<u8>(less(a, b)), (std::vector<u8>{1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(less(a, b).shape(), (Shape{3, 2}));
}

// ---- unary ----

TEST(ElementwiseUnary, FloatFunctionsOnF32AndF64) {
  struct Case {
    Op op;
    double x;
  };
  const std::vector<Case> cases = {
      {Op::exp, 1.5},  {Op::expm1, 1e-5}, {Op::log, 2.5},    {Op::log1p, 1e-5}, {Op::sigmoid, -2},
      {Op::cos, 1},    {Op::sin, 1},      {Op::tan, 1},      {Op::cosh, 1},     {Op::sinh, 1},
      {Op::tanh, 0.5}, {Op::acos, 0.5},   {Op::asin, 0.5},   {Op::atan, 2},     {Op::acosh, 2},
      {Op::asinh, 2},  {Op::atanh, 0.5},  {Op::sqrt, 2},     {Op::rsqrt, 4},    {Op::cbrt, -27},
      {Op::erf, 0.5},  {Op::erfc, 0.5},   {Op::erf_inv, 0.5}};
  auto reference = [](Op op, double x) {
    switch (op) {
      case Op::exp:
        return std::exp(x);
      case Op::expm1:
        return std::expm1(x);
      case Op::log:
        return std::log(x);
      case Op::log1p:
        return std::log1p(x);
      case Op::sigmoid:
        return 1 / (1 + std::exp(-x));
      case Op::cos:
        return std::cos(x);
      case Op::sin:
        return std::sin(x);
      case Op::tan:
        return std::tan(x);
      case Op::cosh:
        return std::cosh(x);
      case Op::sinh:
        return std::sinh(x);
      case Op::tanh:
        return std::tanh(x);
      case Op::acos:
        return std::acos(x);
      case Op::asin:
        return std::asin(x);
      case Op::atan:
        return std::atan(x);
      case Op::acosh:
        return std::acosh(x);
      case Op::asinh:
        return std::asinh(x);
      case Op::atanh:
        return std::atanh(x);
      case Op::sqrt:
        return std::sqrt(x);
      case Op::rsqrt:
        return 1 / std::sqrt(x);
      case Op::cbrt:
        return std::cbrt(x);
      case Op::erf:
        return std::erf(x);
      case Op::erfc:
        return std::erfc(x);
      default:
        return 0.4769362762044699;  // erf_inv(0.5)
    }
  };
  for (const Case& c : cases) {
    const std::string name(op_name(c.op));
    const double want = reference(c.op, c.x);
    const Tensor f = unary(c.op, make<float>({static_cast<float>(c.x)}));
    ASSERT_EQ(f.dtype(), DType::f32) << name;
    EXPECT_NEAR(values<float>(f)[0], want, 3e-7 * std::fabs(want)) << name;
    const Tensor d = unary(c.op, make<double>({c.x}));
    ASSERT_EQ(d.dtype(), DType::f64) << name;
    EXPECT_NEAR(values<double>(d)[0], want, 2e-15 * std::fabs(want)) << name;
  }
}

TEST(ElementwiseUnary, FloatFunctionsOfIntegersGiveF32) {
  const Tensor s = sqrt(make<s32>({4, 9}));
  ASSERT_EQ(s.dtype(), DType::f32);
  EXPECT_EQ(values<float>(s), (std::vector<float>{2, 3}));
  EXPECT_EQ(exp(make<u8>({0})).dtype(), DType::f32);
  EXPECT_EQ(values<float>(exp(make<u8>({0})))[0], 1.0f);
  EXPECT_EQ(erf(make<s64>({0})).dtype(), DType::f32);
  EXPECT_EQ(exp(from_vector(std::vector<f16>{f16(1.0f)}, &cpu())).dtype(), DType::f16);
  EXPECT_EQ(float(values<f16>(exp(from_vector(std::vector<f16>{f16(1.0f)}, &cpu())))[0]),
            float(f16(2.718281828f)));
  const Tensor b = exp(from_vector(std::vector<bf16>{bf16(2.0f), bf16(-kInf)}, &cpu()));
  ASSERT_EQ(b.dtype(), DType::bf16);
  EXPECT_EQ(float(values<bf16>(b)[0]), float(bf16(7.389056f)));
  EXPECT_EQ(float(values<bf16>(b)[1]), 0.0f);
}

TEST(ElementwiseUnary, SpecialValuesOfFloatFunctions) {
  const auto e = values<float>(exp(make<float>({kInf, -kInf, kNaN, 89, -104, 88.7f, -87.3f})));
  EXPECT_EQ(e[0], kInf);
  EXPECT_EQ(e[1], 0.0f);
  EXPECT_TRUE(std::isnan(e[2]));
  EXPECT_EQ(e[3], kInf);
  EXPECT_EQ(e[4], 0.0f);
  EXPECT_NEAR(e[5], std::exp(double{88.7f}), 2.4e-7 * std::exp(double{88.7f}));
  EXPECT_NEAR(e[6], std::exp(double{-87.3f}), 2.4e-7 * std::exp(double{-87.3f}));
  const auto l = values<float>(log(make<float>({0, -0.0f, -1, kInf, kNaN, 1, 1e-45f})));
  EXPECT_EQ(l[0], -kInf);
  EXPECT_EQ(l[1], -kInf);
  EXPECT_TRUE(std::isnan(l[2]));
  EXPECT_EQ(l[3], kInf);
  EXPECT_TRUE(std::isnan(l[4]));
  EXPECT_EQ(l[5], 0.0f);
  EXPECT_NEAR(l[6], std::log(1.401298464e-45), 2e-5);
  const auto inv = values<double>(erf_inv(make<double>({1, -1, 1.5, 0, -0.0, 1 - 1e-15})));
  EXPECT_EQ(inv[0], INFINITY);
  EXPECT_EQ(inv[1], -INFINITY);
  EXPECT_TRUE(std::isnan(inv[2]));
  EXPECT_EQ(inv[3], 0.0);
  EXPECT_TRUE(std::signbit(inv[4]));
  const double tail = 1 - (1 - 1e-15);  // exactly 1 - x for the x passed in
  EXPECT_NEAR(std::erfc(inv[5]) / tail, 1, 1e-12);
  const auto sg = values<float>(sigmoid(make<float>({-kInf, kInf, 0, -200})));
  EXPECT_EQ(sg, (std::vector<float>{0, 1, 0.5f, 0}));
  const auto rs = values<float>(rsqrt(make<float>({0, kInf, -1})));
  EXPECT_EQ(rs[0], kInf);
  EXPECT_EQ(rs[1], 0.0f);
  EXPECT_TRUE(std::isnan(rs[2]));
}

// The vectorised float exp/log stay within 2 ulp of the double result everywhere.
double ulp_error(float got, double want) {
  if (std::isnan(want)) return std::isnan(got) ? 0 : 1e9;
  if (std::isinf(want)) return static_cast<double>(got) == want ? 0 : 1e9;
  const float w = static_cast<float>(want);
  const double ulp = w == 0 ? 1.401298464e-45 : std::fabs(std::nextafter(w, INFINITY) - w);
  return std::fabs(static_cast<double>(got) - want) / ulp;
}

// Every 4099th float: the scalar functions (the SSE2 baseline's code) and the tensor ops
// (the widest vector ISA's loops, with fused multiply-adds) both within 2 ulp.
std::vector<float> sampled_floats() {
  std::vector<float> xs;
  for (std::uint64_t b = 0; b < 0x100000000ull; b += 4099) {
    xs.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(b)));
  }
  return xs;
}

template <class Scalar, class Reference>
double worst_ulp(const std::vector<float>& xs, const std::vector<float>& got, Scalar scalar,
                 Reference reference) {
  double worst = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double want = reference(double{xs[i]});
    worst = std::max({worst, ulp_error(scalar(xs[i]), want), ulp_error(got[i], want)});
  }
  return worst;
}

TEST(ElementwiseUnary, VectorisedExpAndLogWithinTwoUlp) {
  const std::vector<float> xs = sampled_floats();
  const Tensor x = make(xs);
  EXPECT_LE(worst_ulp(xs, values<float>(exp(x)), cpu_kernels::exp_f32,
                      [](double v) { return std::exp(v); }),
            2.0);
  EXPECT_LE(worst_ulp(xs, values<float>(log(x)), cpu_kernels::log_f32,
                      [](double v) { return std::log(v); }),
            2.0);
}

TEST(ElementwiseUnary, VectorisedTanhWithinTwoUlp) {
  const std::vector<float> xs = sampled_floats();
  const double worst = worst_ulp(xs, values<float>(tanh(make(xs))), cpu_kernels::tanh_f32,
                                 [](double v) { return std::tanh(v); });
  EXPECT_LE(worst, 2.0);
  // Around the switch between the polynomial and the exp form, every float.
  for (float x = 0.5f; x < 0.75f; x = std::nextafter(x, 1.0f)) {
    ASSERT_LE(ulp_error(cpu_kernels::tanh_f32(x), std::tanh(double{x})), 2.0) << x;
  }
  const auto t = values<float>(tanh(make<float>({0.0f, -0.0f, kInf, -kInf, kNaN, 1e-30f, -20.0f})));
  EXPECT_EQ(t[0], 0.0f);
  EXPECT_FALSE(std::signbit(t[0]));
  EXPECT_TRUE(std::signbit(t[1]));
  EXPECT_EQ(t[2], 1.0f);
  EXPECT_EQ(t[3], -1.0f);
  EXPECT_TRUE(std::isnan(t[4]));
  EXPECT_EQ(t[5], 1e-30f);
  EXPECT_EQ(t[6], -1.0f);
}

TEST(ElementwiseUnary, ErfInvInvertsErf) {
  for (double x = -0.999999; x < 1; x += 0.0123457) {
    const double y = cpu_kernels::erf_inv_f64(x);
    EXPECT_NEAR(std::erf(y), x, 4e-16) << x;
  }
  for (double t : {1e-3, 1e-8, 1e-12, 1e-15}) {
    const double x = 1 - t, tail = 1 - x;  // tail is exact
    EXPECT_NEAR(std::erfc(cpu_kernels::erf_inv_f64(x)) / tail, 1, 1e-12) << t;
  }
  const auto f = values<float>(erf_inv(make<float>({0.9f, -0.3f})));
  EXPECT_EQ(f[0], static_cast<float>(cpu_kernels::erf_inv_f64(double{0.9f})));
  EXPECT_EQ(f[1], static_cast<float>(cpu_kernels::erf_inv_f64(double{-0.3f})));
}

TEST(ElementwiseUnary, AbsNegateSignKeepTheType) {
  const s32 mn = std::numeric_limits<s32>::min();
  EXPECT_EQ(values<s32>(abs(make<s32>({-3, 4, mn}))), (std::vector<s32>{3, 4, mn}));
  EXPECT_EQ(values<u8>(abs(make<u8>({200}))), (std::vector<u8>{200}));
  EXPECT_EQ(values<s32>(negate(make<s32>({-3, 0, mn}))), (std::vector<s32>{3, 0, mn}));
  EXPECT_EQ(values<u8>(negate(make<u8>({1, 0}))), (std::vector<u8>{255, 0}));
  EXPECT_EQ(values<s8>(sign(make<s8>({-7, 0, 9}))), (std::vector<s8>{-1, 0, 1}));
  EXPECT_EQ(values<u8>(sign(make<u8>({0, 9}))), (std::vector<u8>{0, 1}));
  const auto fs = values<float>(sign(make<float>({-2, 0, 3, kNaN, -kInf})));
  EXPECT_EQ(fs[0], -1.0f);
  EXPECT_EQ(fs[1], 0.0f);
  EXPECT_EQ(fs[2], 1.0f);
  EXPECT_TRUE(std::isnan(fs[3]));
  EXPECT_EQ(fs[4], -1.0f);
  const auto fa = values<double>(abs(make<double>({-2.5, -kInf, -0.0})));
  EXPECT_EQ(fa[0], 2.5);
  EXPECT_EQ(fa[1], INFINITY);
  EXPECT_FALSE(std::signbit(fa[2]));
  EXPECT_EQ(values<float>(negate(make<float>({1.5f, -0.0f}))), (std::vector<float>{-1.5f, 0.0f}));
}

TEST(ElementwiseUnary, RoundingOps) {
  const Tensor x = make<float>({-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 2.4f, kInf});
  EXPECT_EQ(values<float>(round(x)), (std::vector<float>{-3, -2, -1, 1, 2, 3, 2, kInf}));
  EXPECT_EQ(values<float>(floor(x)), (std::vector<float>{-3, -2, -1, 0, 1, 2, 2, kInf}));
  EXPECT_EQ(values<float>(ceil(x)), (std::vector<float>{-2, -1, -0.0f, 1, 2, 3, 3, kInf}));
  EXPECT_EQ(values<s32>(round(make<s32>({-7, 7}))), (std::vector<s32>{-7, 7}));
  EXPECT_EQ(values<u8>(floor(make<u8>({7}))), (std::vector<u8>{7}));
  EXPECT_EQ(values<s64>(ceil(make<s64>({-7}))), (std::vector<s64>{-7}));
  EXPECT_EQ(round(make<s32>({1})).dtype(), DType::s32);
}

// The vectorised floor/ceil/round against libm, bit for bit (zero signs included), over
// halves, near-halves, both sides of 2^23 / 2^52, huge values, infinities and NaN.
template <class F>
void check_rounding_against_libm() {
  std::vector<F> xs = {F(0.0),
                       F(-0.0),
                       std::numeric_limits<F>::infinity(),
                       -std::numeric_limits<F>::infinity(),
                       std::numeric_limits<F>::max(),
                       -std::numeric_limits<F>::max(),
                       std::numeric_limits<F>::denorm_min(),
                       -std::numeric_limits<F>::denorm_min()};
  const F big = sizeof(F) == 4 ? F(8388608.0) : F(4503599627370496.0);
  for (F base : {F(0), F(1), F(2), F(1e3), big / 2, big, big * 2}) {
    for (F offset : {F(0), F(0.25), F(0.5), F(0.75), std::nextafter(F(0.5), F(0)),
                     std::nextafter(F(0.5), F(1)), std::nextafter(F(1), F(0))}) {
      xs.push_back(base + offset);
      xs.push_back(-(base + offset));
    }
  }
  const Tensor t = make<F>(xs);
  const std::vector<F> fl = values<F>(floor(t)), ce = values<F>(ceil(t)), ro = values<F>(round(t));
  auto same = [](F a, F b) {
    return std::memcmp(&a, &b, sizeof(F)) == 0 || (std::isnan(a) && std::isnan(b));
  };
  for (std::size_t i = 0; i < xs.size(); ++i) {
    EXPECT_TRUE(same(fl[i], std::floor(xs[i]))) << "floor " << xs[i] << " gave " << fl[i];
    EXPECT_TRUE(same(ce[i], std::ceil(xs[i]))) << "ceil " << xs[i] << " gave " << ce[i];
    EXPECT_TRUE(same(ro[i], std::round(xs[i]))) << "round " << xs[i] << " gave " << ro[i];
  }
  const F nan = std::numeric_limits<F>::quiet_NaN();
  EXPECT_TRUE(std::isnan(values<F>(floor(make<F>({nan})))[0]));
  EXPECT_TRUE(std::isnan(values<F>(round(make<F>({nan})))[0]));
}

TEST(ElementwiseUnary, RoundingMatchesLibmBitForBit) {
  check_rounding_against_libm<float>();
  check_rounding_against_libm<double>();
}

// The SWAR bit counts against std::popcount / std::countl_zero: every 8- and 16-bit value,
// and 32/64-bit values with every single bit and pseudo-random patterns.
template <class T>
void check_bit_counts(const std::vector<T>& xs) {
  using U = std::make_unsigned_t<T>;
  const Tensor t = make<T>(xs);
  const std::vector<T> pc = values<T>(population_count(t)), lz = values<T>(count_leading_zeros(t));
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const auto u = static_cast<U>(xs[i]);
    ASSERT_EQ(pc[i], static_cast<T>(std::popcount(u))) << "population_count of " << +xs[i];
    ASSERT_EQ(lz[i], static_cast<T>(std::countl_zero(u))) << "count_leading_zeros of " << +xs[i];
  }
}

TEST(ElementwiseUnary, BitCountsMatchTheStandardLibrary) {
  std::vector<std::int8_t> s8s;
  std::vector<std::uint16_t> u16s;
  for (int v = -128; v < 128; ++v) s8s.push_back(static_cast<std::int8_t>(v));
  for (int v = 0; v < 65536; ++v) u16s.push_back(static_cast<std::uint16_t>(v));
  check_bit_counts(s8s);
  check_bit_counts(u16s);
  std::vector<s32> s32s = {0, -1, std::numeric_limits<s32>::min()};
  std::vector<std::uint64_t> u64s = {0, ~std::uint64_t{0}};
  for (int b = 0; b < 64; ++b) {
    u64s.push_back(std::uint64_t{1} << b);
    u64s.push_back((std::uint64_t{1} << b) - 1);
    if (b < 32) s32s.push_back(static_cast<s32>(std::uint32_t{1} << b));
  }
  std::uint64_t state = 88172645463325252ull;
  for (int i = 0; i < 4096; ++i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    u64s.push_back(state >> (i % 64));
    s32s.push_back(static_cast<s32>(state));
  }
  check_bit_counts(s32s);
  check_bit_counts(u64s);
}

// iota's runs (a ramp per row, or runs of equal values) across thread chunk boundaries.
TEST(Creation, IotaAlongEveryAxisOfALargeShape) {
  const Shape shape{3, 70001, 5};
  for (std::int64_t axis = -1; axis < 3; ++axis) {
    const Tensor t = axis < 0 ? iota(shape, DType::s64, std::nullopt, &cpu())
                              : iota(shape, DType::s64, axis, &cpu());
    const std::vector<s64> got = values<s64>(t);
    const s64 inner = axis < 0 ? 1 : (axis == 0 ? 70001 * 5 : axis == 1 ? 5 : 1);
    const s64 dim = axis < 0 ? 3 * 70001 * 5 : shape[static_cast<std::size_t>(axis)];
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], (static_cast<s64>(i) / inner) % dim) << "axis " << axis << " at " << i;
    }
  }
  const std::vector<float> f = values<float>(iota({20000001}, DType::f32, std::nullopt, &cpu()));
  for (std::size_t i = 0; i < f.size(); i += 9973) EXPECT_EQ(f[i], static_cast<float>(i));
  EXPECT_EQ(f.back(), 20000000.0f);
}

// eye on tall, wide and stacked shapes large enough to split across threads.
TEST(Creation, EyeOfTallWideAndStackedShapes) {
  for (const Shape& shape : {Shape{3000, 700}, Shape{700, 3000}, Shape{4, 513, 257}, Shape{1, 1}}) {
    const std::vector<float> got = values<float>(eye(shape, DType::f32, &cpu()));
    const s64 cols = shape.back(), rows = shape[shape.size() - 2];
    for (std::size_t i = 0; i < got.size(); ++i) {
      const s64 c = static_cast<s64>(i) % cols, r = (static_cast<s64>(i) / cols) % rows;
      ASSERT_EQ(got[i], r == c ? 1.0f : 0.0f) << "at " << i;
    }
  }
}

TEST(ElementwiseUnary, BitOps) {
  EXPECT_EQ(values<u8>(bitwise_not(make<u8>({0, 0x0f}))), (std::vector<u8>{0xff, 0xf0}));
  EXPECT_EQ(values<s32>(bitwise_not(make<s32>({0, -1}))), (std::vector<s32>{-1, 0}));
  EXPECT_EQ(values<u8>(count_leading_zeros(make<u8>({0, 1, 0x80}))), (std::vector<u8>{8, 7, 0}));
  EXPECT_EQ(values<s32>(count_leading_zeros(make<s32>({0, 1, -1}))), (std::vector<s32>{32, 31, 0}));
  EXPECT_EQ(values<s64>(count_leading_zeros(make<s64>({1}))), (std::vector<s64>{63}));
  EXPECT_EQ(values<u8>(population_count(make<u8>({0, 0xff, 0x81}))), (std::vector<u8>{0, 8, 2}));
  EXPECT_EQ(values<s32>(population_count(make<s32>({-1, 7}))), (std::vector<s32>{32, 3}));
}

TEST(ElementwiseUnary, PredicatesAndComplexParts) {
  const Tensor f = make<float>({1, kNaN, kInf, -kInf});
  EXPECT_EQ(values<u8>(is_nan(f)), (std::vector<u8>{0, 1, 0, 0}));
  EXPECT_EQ(values<u8>(is_infinity(f)), (std::vector<u8>{0, 0, 1, 1}));
  EXPECT_EQ(values<u8>(is_nan(make<s32>({1, 2}))), (std::vector<u8>{0, 0}));
  EXPECT_EQ(values<u8>(is_infinity(make<u8>({255}))), (std::vector<u8>{0}));
  const Tensor h = from_vector(std::vector<f16>{f16(kNaN), f16(1.0f)}, &cpu());
  EXPECT_EQ(values<u8>(is_nan(h)), (std::vector<u8>{1, 0}));
  // logical_not: 1 where x == 0 (-0 too; NaN, infinities and subnormals are nonzero), u8 for
  // every dtype.
  const Tensor z = make<float>({0, -0.0f, kNaN, kInf, std::numeric_limits<float>::denorm_min(), 2});
  EXPECT_EQ(values<u8>(logical_not(z)), (std::vector<u8>{1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(values<u8>(logical_not(make<double>({0, -0.0, 1e-320}))), (std::vector<u8>{1, 1, 0}));
  EXPECT_EQ(values<u8>(logical_not(make<u8>({0, 1, 255}))), (std::vector<u8>{1, 0, 0}));
  EXPECT_EQ(values<u8>(logical_not(make<s64>({std::numeric_limits<s64>::min(), 0, -1}))),
            (std::vector<u8>{0, 1, 0}));
  const Tensor hz = from_vector(std::vector<f16>{f16(0.0f), f16(-0.0f), f16(kNaN)}, &cpu());
  EXPECT_EQ(logical_not(hz).dtype(), DType::u8);
  EXPECT_EQ(values<u8>(logical_not(hz)), (std::vector<u8>{1, 1, 0}));
  EXPECT_EQ(logical_not(make<s32>({})).dtype(), DType::u8);
  EXPECT_EQ(values<s32>(real(make<s32>({3, -4}))), (std::vector<s32>{3, -4}));
  EXPECT_EQ(values<float>(conjugate(make<float>({1.5f}))), (std::vector<float>{1.5f}));
  const Tensor im = imag(make<double>({1.5, -2}));
  ASSERT_EQ(im.dtype(), DType::f64);
  EXPECT_EQ(values<double>(im), (std::vector<double>{0, 0}));
  EXPECT_EQ(values<s8>(imag(make<s8>({5}))), (std::vector<s8>{0}));
}

TEST(ElementwiseUnary, EmptyAndRankZero) {
  const Tensor e = exp(make<float>({}, {0, 3}));
  EXPECT_EQ(e.shape(), (Shape{0, 3}));
  const Tensor r = negate(scalar_tensor(5, DType::s32, &cpu()));
  EXPECT_EQ(r.shape(), Shape{});
  EXPECT_EQ(r.item<s32>(), -5);
}

// ---- errors ----

TEST(ElementwiseErrors, NonBroadcastableShapesNameBothShapes) {
  const Tensor a = make<float>({1, 2, 3}, {3}), b = make<float>({1, 2, 3, 4}, {2, 2});
  try {
    add(a, b);
    FAIL() << "expected ShapeError";
  } catch (const ShapeError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("[add]", 0), 0u) << m;
    EXPECT_NE(m.find("{3}"), std::string::npos) << m;
    EXPECT_NE(m.find("{2, 2}"), std::string::npos) << m;
  }
  EXPECT_THROW(less(a, b), ShapeError);
  EXPECT_EQ(values<float>(a), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(values<float>(b), (std::vector<float>{1, 2, 3, 4}));
}

TEST(ElementwiseErrors, IntegerOnlyBinaryOpsRejectFloats) {
  const Tensor f = make<float>({1.5f}), i = make<s32>({2});
  for (Op op : {Op::quotient, Op::bitwise_and, Op::bitwise_or, Op::bitwise_xor, Op::left_shift,
                Op::right_shift}) {
    const std::string name(op_name(op));
    try {
      binary(op, i, f);
      FAIL() << "expected TypeError from " << name;
    } catch (const TypeError& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.rfind("[" + name + "]", 0), 0u) << m;
      EXPECT_NE(m.find("s32"), std::string::npos) << m;
      EXPECT_NE(m.find("f32"), std::string::npos) << m;
    }
  }
  EXPECT_THROW(quotient(i, 2.5), TypeError);  // a float literal makes the operation f32
  EXPECT_EQ(values<float>(f), (std::vector<float>{1.5f}));
  EXPECT_EQ(values<s32>(i), (std::vector<s32>{2}));
}

TEST(ElementwiseErrors, IntegerOnlyUnaryOpsRejectFloats) {
  const Tensor f = make<double>({1.5, 2}, {2, 1});
  for (Op op : {Op::bitwise_not, Op::count_leading_zeros, Op::population_count}) {
    const std::string name(op_name(op));
    try {
      unary(op, f);
      FAIL() << "expected TypeError from " << name;
    } catch (const TypeError& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.rfind("[" + name + "]", 0), 0u) << m;
      EXPECT_NE(m.find("f64 {2, 1}"), std::string::npos) << m;
    }
  }
  EXPECT_EQ(values<double>(f), (std::vector<double>{1.5, 2}));
}

TEST(ElementwiseErrors, EmptyHandlesAndWrongFamilies) {
  EXPECT_THROW(exp(Tensor()), Error);
  EXPECT_THROW(add(Tensor(), make<float>({1})), Error);
  EXPECT_THROW(add(Tensor(), 1), Error);
  EXPECT_THROW(unary(Op::add, make<float>({1})), Unsupported);
  EXPECT_THROW(binary(Op::exp, make<float>({1}), make<float>({1})), Unsupported);
}

}  // namespace
}  // namespace vkt
