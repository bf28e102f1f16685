// Ops on narrow dtypes on the cpu: arithmetic in the wide type with Nx's wrapping and
// saturation, results kept narrow, word-moving ops on the codes, and vkt::compile.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "vkt/compile.h"
#include "vkt/grad.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

Tensor ints(DType d, const std::vector<std::int32_t>& v, Shape shape = {}) {
  if (shape.empty()) shape = {static_cast<std::int64_t>(v.size())};
  return as_type(from_vector(v, shape, &cpu()), d);
}
Tensor floats(DType d, const std::vector<double>& v) {
  return as_type(from_vector(v, &cpu()), d);
}
std::vector<std::int32_t> values(const Tensor& t) {
  return as_type(t, DType::s32).to_vector<std::int32_t>();
}
std::vector<double> float_values(const Tensor& t) {
  return as_type(t, DType::f64).to_vector<double>();
}

TEST(NarrowOps, IntegerArithmeticWrapsInTheNarrowWidth) {
  const Tensor a = ints(DType::s4, {7, -8, 3, -1});
  const Tensor b = ints(DType::s4, {1, -1, 4, -1});
  const Tensor sum = add(a, b);
  EXPECT_EQ(sum.dtype(), DType::s4);
  EXPECT_EQ(values(sum), (std::vector<std::int32_t>{-8, 7, 7, -2}));
  EXPECT_EQ(values(multiply(a, b)), (std::vector<std::int32_t>{7, -8, -4, 1}));
  EXPECT_EQ(values(negate(ints(DType::s4, {-8}))), (std::vector<std::int32_t>{-8}));
  EXPECT_EQ(values(add(ints(DType::u4, {15, 9}), ints(DType::u4, {1, 9}))),
            (std::vector<std::int32_t>{0, 2}));
  EXPECT_EQ(values(add(ints(DType::u2, {3}), ints(DType::u2, {2}))),
            (std::vector<std::int32_t>{1}));
  // A literal takes the tensor's type (Nx's weak scalars) and wraps there too.
  EXPECT_EQ(values(add(ints(DType::s2, {1, -2}), 1)), (std::vector<std::int32_t>{-2, -1}));
  const Tensor mixed = add(ints(DType::s4, {-8}), ints(DType::u4, {15}));
  EXPECT_EQ(mixed.dtype(), DType::s8);
  EXPECT_EQ(values(mixed), (std::vector<std::int32_t>{7}));
  EXPECT_EQ(values(right_shift(ints(DType::s4, {-8, 6}), ints(DType::s4, {1, 1}))),
            (std::vector<std::int32_t>{-4, 3}));
  EXPECT_EQ(values(bitwise_not(ints(DType::s4, {0, 5}))), (std::vector<std::int32_t>{-1, -6}));
}

TEST(NarrowOps, BitCountsCountTheNarrowWidth) {
  EXPECT_EQ(values(count_leading_zeros(ints(DType::u4, {1, 0, 15}))),
            (std::vector<std::int32_t>{3, 4, 0}));
  EXPECT_EQ(values(count_leading_zeros(ints(DType::s2, {1, -1}))),
            (std::vector<std::int32_t>{1, 0}));
  EXPECT_EQ(values(population_count(ints(DType::s4, {-1, -8, 3}))),
            (std::vector<std::int32_t>{4, 1, 2}));
  EXPECT_EQ(count_leading_zeros(ints(DType::s4, {1})).dtype(), DType::s4);
}

TEST(NarrowOps, FloatArithmeticRoundsOnceAndKeepsTheFormatsOverflow) {
  const Tensor a = floats(DType::f8_e4m3fn, {448, 1.5, -2, 0.0625});
  const Tensor s = add(a, a);
  EXPECT_EQ(s.dtype(), DType::f8_e4m3fn);
  EXPECT_EQ(float_values(s), (std::vector<double>{448, 3, -4, 0.125}));  // 896 saturates
  const Tensor e = floats(DType::f8, {57344, 1.25, -0.0});
  const std::vector<double> doubled = float_values(multiply(e, 2));
  EXPECT_TRUE(std::isinf(doubled[0]));
  EXPECT_EQ(doubled[1], 2.5);
  EXPECT_TRUE(std::signbit(doubled[2]));
  // 1.25 * 1.25 = 1.5625: between 1.5 and 1.75 (E5M2), nearer 1.5.
  EXPECT_EQ(float_values(multiply(e, e))[1], 1.5);
  const Tensor root = sqrt(floats(DType::f8, {4.0}));
  EXPECT_EQ(root.dtype(), DType::f8);
  EXPECT_EQ(float_values(root), (std::vector<double>{2.0}));
  EXPECT_EQ(add(floats(DType::f8, {1}), floats(DType::f8_e4m3fn, {1})).dtype(), DType::f16);
  const Tensor nan_check = is_nan(floats(DType::f8_e4m3fn, {NAN, 1}));
  EXPECT_EQ(nan_check.to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{1, 0}));
}

TEST(NarrowOps, ConversionRoundsOnceFromF64) {
  // Halfway between E4M3FN's 1.0 and 1.125 plus 2^-40: via f32 it would tie and go to 1.0.
  const Tensor x = from_vector(std::vector<double>{1.0625 + std::ldexp(1.0, -40)}, &cpu());
  EXPECT_EQ(as_type(x, DType::f8_e4m3fn).item<double>(), 1.125);
  EXPECT_EQ(as_type(as_type(x, DType::f32), DType::f8_e4m3fn).item<double>(), 1.0);
  EXPECT_EQ(
      values(as_type(from_vector(std::vector<float>{100, -100, NAN, 2.9f}, &cpu()), DType::s4)),
      (std::vector<std::int32_t>{7, -8, 0, 2}));
  EXPECT_EQ(values(as_type(from_vector(std::vector<std::int64_t>{9, -9, 16}, &cpu()), DType::s4)),
            (std::vector<std::int32_t>{-7, 7, 0}));
  EXPECT_EQ(values(as_type(ints(DType::s4, {-1, 7}), DType::u2)),
            (std::vector<std::int32_t>{3, 3}));
  EXPECT_EQ(float_values(as_type(ints(DType::s4, {-8, 7}), DType::f8)),
            (std::vector<double>{-8, 7}));
  EXPECT_EQ(as_type(floats(DType::f8, {-3.5}), DType::c64).item<std::complex<float>>(),
            std::complex<float>(-3.5f, 0));
  EXPECT_EQ(float_values(as_type(floats(DType::f8, {57344, -0.5}), DType::f8_e4m3fn)),
            (std::vector<double>{448, -0.5}));
}

TEST(NarrowOps, WordMovingOpsKeepTheCodes) {
  const Tensor m = ints(DType::s4, {1, -2, 3, -4, 5, -6}, {2, 3});
  EXPECT_EQ(values(transpose(m)), (std::vector<std::int32_t>{1, -4, -2, 5, 3, -6}));
  EXPECT_EQ(transpose(m).dtype(), DType::s4);
  EXPECT_EQ(values(reverse(m, {1})), (std::vector<std::int32_t>{3, -2, 1, -6, 5, -4}));
  EXPECT_EQ(values(slice(m, {0, 1}, {2, 2})), (std::vector<std::int32_t>{-2, 3, 5, -6}));
  EXPECT_EQ(values(concatenate({m, m}, 0)).size(), 12u);
  EXPECT_EQ(values(pad(ints(DType::s4, {1, 2}), -3, {{1, 1, 1}})),
            (std::vector<std::int32_t>{-3, 1, -3, 2, -3}));
  EXPECT_EQ(float_values(pad(floats(DType::f8_e4m3fn, {1}), 1000.0, {{1, 0, 0}})),
            (std::vector<double>{448, 1}));  // the pad value converts as as_type would
  EXPECT_EQ(values(take(m, ints(DType::s64, {2, 0}), 1)),
            (std::vector<std::int32_t>{3, 1, -6, -4}));
  EXPECT_EQ(values(broadcast(ints(DType::u2, {3}), {3})), (std::vector<std::int32_t>{3, 3, 3}));
  // A select's predicate is a value: f8 -0 is false though its code is 0x80.
  const Tensor pred = floats(DType::f8, {-0.0, 2.0});
  EXPECT_EQ(float_values(select(pred, floats(DType::f8, {1, 1}), floats(DType::f8, {5, 5}))),
            (std::vector<double>{5, 1}));
}

TEST(NarrowOps, ReductionsSortAndCreationWork) {
  const Tensor t = ints(DType::s4, {7, -8, 3, 5});
  EXPECT_EQ(values(reduce_max(t)), (std::vector<std::int32_t>{7}));
  EXPECT_EQ(values(sort(t)), (std::vector<std::int32_t>{-8, 3, 5, 7}));
  EXPECT_EQ(sort(t).dtype(), DType::s4);
  EXPECT_EQ(argmax(t, 0).item<std::int64_t>(), 0);
  EXPECT_EQ(values(sum(t)), (std::vector<std::int32_t>{7}));
  EXPECT_EQ(values(iota({10}, DType::s4)),
            (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 6, 7, -8, -7}));
  EXPECT_EQ(float_values(full({2}, 1.0625 + std::ldexp(1.0, -40), DType::f8_e4m3fn)),
            (std::vector<double>{1.125, 1.125}));
  EXPECT_EQ(values(full({1}, 9, DType::u2)), (std::vector<std::int32_t>{1}));
  EXPECT_EQ(values(eye(2, DType::u2)), (std::vector<std::int32_t>{1, 0, 0, 1}));
  EXPECT_EQ(float_values(dot(floats(DType::f8, {1, 2}), floats(DType::f8, {3, 4}))),
            (std::vector<double>{12}));
}

TEST(NarrowOps, Fp8DotToF32MultipliesExactly) {
  // E4M3 values whose products and sums all fit f32's 24 bits: the f32 result is exact.
  const std::vector<double> av = {1.125, -448, 0.015625, 3.5}, bv = {-0.875, 0.25, 240, 1.75};
  const Tensor a = as_type(from_vector(av, &cpu()), DType::f8_e4m3fn);
  const Tensor b = as_type(from_vector(bv, &cpu()), DType::f8_e4m3fn);
  const Tensor d = dot(a, b, DType::f32);
  EXPECT_EQ(d.dtype(), DType::f32);
  EXPECT_EQ(d.item<double>(), 1.125 * -0.875 + -448 * 0.25 + 0.015625 * 240 + 3.5 * 1.75);
  EXPECT_EQ(dot(a, b).dtype(), DType::f8_e4m3fn);  // Nx's type without a preference
  const Tensor i = dot(as_type(a, DType::s8), as_type(b, DType::s8), DType::s32);
  EXPECT_EQ(i.dtype(), DType::s32);
  try {
    dot(from_vector(std::vector<float>{1}, &cpu()), from_vector(std::vector<float>{1}, &cpu()),
        DType::f16);
    FAIL() << "a preferred type narrower than the operands should be a TypeError";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("[dot] preferred type f16 cannot hold the operands' f32"),
              std::string::npos)
        << e.what();
  }
}

TEST(NarrowOps, ErrorsNameTheNarrowDType) {
  try {
    bitwise_and(floats(DType::f8, {1}), floats(DType::f8, {1}));
    FAIL() << "bitwise_and of f8 should be a TypeError";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("f8"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ints(DType::s4, {1}).to_vector<std::int8_t>(), TypeError);
}

TEST(NarrowOps, InspectPrintsValues) {
  EXPECT_NE(inspect(ints(DType::s4, {1, -2})).find("s4[2]\n  [1, -2]"), std::string::npos)
      << inspect(ints(DType::s4, {1, -2}));
  const std::string f = inspect(floats(DType::f8_e4m3fn, {448, -0.5, NAN}));
  // 450.0 is the shortest decimal that reads back as 448, and what Nx's docs print.
  EXPECT_NE(f.find("[450.0, -0.5, NaN]"), std::string::npos) << f;
}

TEST(NarrowOps, CompiledEqualsEager) {
  auto f =
      compile([](const Tensor& a, const Tensor& b) { return transpose(add(multiply(a, b), a)); });
  for (DType d : {DType::s4, DType::u2, DType::f8, DType::f8_e4m3fn}) {
    const Tensor a =
        as_type(from_vector(std::vector<float>{1, 2, 3, -1, 7, 0.5f}, {2, 3}, &cpu()), d);
    const Tensor b = as_type(from_vector(std::vector<float>{3, -2, 1, 1, 2, 4}, {2, 3}, &cpu()), d);
    const Tensor got = f(a, b), want = transpose(add(multiply(a, b), a));
    EXPECT_EQ(got.dtype(), d);
    EXPECT_EQ(got.to_bytes(), want.to_bytes()) << dtype_name(d);
  }
}

TEST(NarrowOps, GradientsFlowThroughAnF8Cast) {
  // FP8 training's quantize step: a straight cast's gradient is the cotangent, cast back.
  const Tensor x = from_vector(std::vector<float>{1.1f, -2.9f, 300.0f}, &cpu());
  const auto loss = [](const std::vector<Tensor>& p) {
    const Tensor q = as_type(as_type(p[0], DType::f8_e4m3fn), DType::f32);
    return std::vector<Tensor>{sum(multiply(q, p[0]))};
  };
  const std::vector<Tensor> g = grad(loss, {x});
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].dtype(), DType::f32);
  // d/dx (q(x) * x) = q(x) + x's cotangent through the casts, which JAX's rule (and ours)
  // casts to each cast's input dtype: through f8_e4m3fn it is quantized too.
  const std::vector<float> q = as_type(as_type(x, DType::f8_e4m3fn), DType::f32).to_vector<float>();
  const std::vector<float> want = {q[0] + q[0], q[1] + q[1], q[2] + q[2]};
  EXPECT_EQ(g[0].to_vector<float>(), want);
  // The gradient of an f8 primal is f8, as the cotangent takes each input's dtype.
  const Tensor x8 = as_type(x, DType::f8);
  const auto square = [](const std::vector<Tensor>& p) {
    return std::vector<Tensor>{sum(as_type(multiply(p[0], p[0]), DType::f32))};
  };
  const std::vector<Tensor> g8 = grad(square, {x8});
  EXPECT_EQ(g8[0].dtype(), DType::f8);
  // Through a move: the f8 transpose must carry the cotangent (a u8 view would drop it).
  const Tensor w = from_vector(std::vector<float>{1, 2, 3, 4}, {2, 2}, &cpu());
  const auto moved = [&](const std::vector<Tensor>& p) {
    return std::vector<Tensor>{sum(multiply(as_type(transpose(p[0]), DType::f32), w))};
  };
  const Tensor m8 = as_type(from_vector(std::vector<float>{1, 2, 3, 4}, {2, 2}, &cpu()), DType::f8);
  EXPECT_EQ(as_type(grad(moved, {m8})[0], DType::f32).to_vector<float>(),
            (std::vector<float>{1, 3, 2, 4}));
  // 2 x in f8 arithmetic: exact, a power of two.
  EXPECT_EQ(as_type(g8[0], DType::f32).to_vector<float>(),
            multiply(as_type(x8, DType::f32), 2.0f).to_vector<float>());
}

}  // namespace
}  // namespace vkt
