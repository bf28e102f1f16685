// dot (Nx.dot/6 and /2) and matmul on the cpu: batch axes, contracting axes anywhere,
// transposed layouts, integer wrap, halves, 0-size, rank 0, NumPy matmul rules, errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>

#include "support/compare.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::as_doubles;
using testing::tensors_close;

Tensor make(const std::vector<double>& v, Shape shape, DType dtype) {
  return as_type(from_vector(v, std::move(shape), &cpu()), dtype);
}

std::vector<double> random_values(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(-8, 8);
  std::vector<double> v(n);
  for (double& x : v) x = dist(rng) / 4.0;
  return v;
}

// Direct evaluation of Nx.dot/6 in double: out[batch, free_a, free_b].
std::vector<double> reference_dot(const std::vector<double>& a, const Shape& sa, const Axes& ca,
                                  const Axes& ba, const std::vector<double>& b, const Shape& sb,
                                  const Axes& cb, const Axes& bb, Shape& out_shape) {
  auto free_of = [](const Shape& s, const Axes& c, const Axes& bt) {
    Axes f;
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(s.size()); ++i) {
      if (std::find(c.begin(), c.end(), i) == c.end() &&
          std::find(bt.begin(), bt.end(), i) == bt.end())
        f.push_back(i);
    }
    return f;
  };
  const Axes fa = free_of(sa, ca, ba), fb = free_of(sb, cb, bb);
  out_shape.clear();
  for (auto ax : ba) out_shape.push_back(sa[static_cast<std::size_t>(ax)]);
  for (auto ax : fa) out_shape.push_back(sa[static_cast<std::size_t>(ax)]);
  for (auto ax : fb) out_shape.push_back(sb[static_cast<std::size_t>(ax)]);
  Shape cshape;
  for (auto ax : ca) cshape.push_back(sa[static_cast<std::size_t>(ax)]);
  const auto stra = contiguous_strides(sa), strb = contiguous_strides(sb);
  const auto ostr = contiguous_strides(out_shape), cstr = contiguous_strides(cshape);
  const std::int64_t n = numel(out_shape), kn = numel(cshape);
  std::vector<double> out(static_cast<std::size_t>(n), 0.0);
  for (std::int64_t o = 0; o < n; ++o) {
    std::int64_t offa = 0, offb = 0;
    std::size_t d = 0;
    auto coord = [&](std::size_t i) { return (o / ostr[i]) % out_shape[i]; };
    for (std::size_t i = 0; i < ba.size(); ++i, ++d) {
      offa += coord(d) * stra[static_cast<std::size_t>(ba[i])];
      offb += coord(d) * strb[static_cast<std::size_t>(bb[i])];
    }
    for (auto ax : fa) offa += coord(d++) * stra[static_cast<std::size_t>(ax)];
    for (auto ax : fb) offb += coord(d++) * strb[static_cast<std::size_t>(ax)];
    double acc = 0;
    for (std::int64_t k = 0; k < kn; ++k) {
      std::int64_t ka = offa, kb = offb;
      for (std::size_t i = 0; i < ca.size(); ++i) {
        const std::int64_t c = (k / cstr[i]) % cshape[i];
        ka += c * stra[static_cast<std::size_t>(ca[i])];
        kb += c * strb[static_cast<std::size_t>(cb[i])];
      }
      acc += a[static_cast<std::size_t>(ka)] * b[static_cast<std::size_t>(kb)];
    }
    out[static_cast<std::size_t>(o)] = acc;
  }
  return out;
}

void check_dot(const Shape& sa, const Axes& ca, const Axes& ba, const Shape& sb, const Axes& cb,
               const Axes& bb, DType dtype) {
  SCOPED_TRACE(std::string(dtype_name(dtype)) + " a " + shape_str(sa) + " b " + shape_str(sb) +
               " contract " + shape_str(ca) + "/" + shape_str(cb) + " batch " + shape_str(ba) +
               "/" + shape_str(bb));
  const auto va = random_values(static_cast<std::size_t>(numel(sa)), 1);
  const auto vb = random_values(static_cast<std::size_t>(numel(sb)), 2);
  const Tensor a = make(va, sa, dtype), b = make(vb, sb, dtype);
  Shape out_shape;
  // Inputs are exact in every float dtype (quarters up to 2), so are the products.
  const auto expected =
      reference_dot(as_doubles(a), sa, ca, ba, as_doubles(b), sb, cb, bb, out_shape);
  const Tensor got = dot(a, ca, ba, b, cb, bb);
  EXPECT_TRUE(tensors_close(got, make(expected, out_shape, dtype)));
}

TEST(Dot, LayoutsAndDTypes) {
  // Signed dtypes only: the inputs are negative too (unsigned dot: UnsignedAndLargerMatrices).
  for (DType dtype :
       {DType::f32, DType::f64, DType::f16, DType::bf16, DType::s32, DType::s64, DType::s16}) {
    check_dot({3, 4}, {1}, {}, {4, 5}, {0}, {}, dtype);                 // plain gemm
    check_dot({4, 3}, {0}, {}, {4, 5}, {0}, {}, dtype);                 // a transposed
    check_dot({3, 4}, {1}, {}, {5, 4}, {1}, {}, dtype);                 // b transposed
    check_dot({2, 3, 4}, {2}, {0}, {2, 4, 5}, {1}, {0}, dtype);         // batched
    check_dot({3, 2, 4}, {2}, {1}, {4, 5, 2}, {0}, {2}, dtype);         // batch axes not leading
    check_dot({2, 3, 4, 5}, {3, 1}, {}, {5, 6, 3}, {0, 2}, {}, dtype);  // two contracting axes
    check_dot({3}, {}, {}, {4}, {}, {}, dtype);                         // outer product
    check_dot({2, 3, 2, 4}, {1}, {0, 2}, {2, 2, 3, 5}, {2}, {1, 0}, dtype);  // crossed batch
  }
}

TEST(Dot, UnsignedAndLargerMatrices) {
  const std::vector<double> a{1, 2, 3, 4, 5, 6}, b{7, 8, 9, 10, 11, 12};
  const Tensor got = dot(make(a, {2, 3}, DType::u8), make(b, {3, 2}, DType::u8));
  EXPECT_EQ(got.to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{58, 64, 139, 154}));
  check_dot({70, 130}, {1}, {}, {130, 90}, {0}, {}, DType::f32);
  check_dot({130, 70}, {0}, {}, {90, 130}, {1}, {}, DType::f64);
  check_dot({3, 40, 50}, {2}, {0}, {3, 50, 60}, {1}, {0}, DType::s32);
  // Crosses the integer kernel's row, column and depth tiles; b arrives transposed.
  check_dot({2, 70, 300}, {2}, {0}, {2, 270, 300}, {2}, {0}, DType::s32);
  check_dot({300, 33}, {0}, {}, {300, 260}, {0}, {}, DType::s64);
  check_dot({40, 50}, {1}, {}, {50, 60}, {0}, {}, DType::f16);
}

TEST(Dot, IntegersWrapInTheirType) {
  // 200 * 2 + 100 * 1 = 500 = 244 mod 256.
  const Tensor a = from_vector<std::uint8_t>({200, 100});
  const Tensor b = from_vector<std::uint8_t>({2, 1});
  EXPECT_EQ(dot(a, b).to_vector<std::uint8_t>(), std::vector<std::uint8_t>{244});
  const std::int32_t big = std::numeric_limits<std::int32_t>::max();
  const Tensor c = from_vector<std::int32_t>({big, big});
  const Tensor d = from_vector<std::int32_t>({2, 1});
  // 3 * (2^31 - 1) overflows s32; the result is the product modulo 2^32.
  const std::uint32_t wrapped = 3u * static_cast<std::uint32_t>(big);
  EXPECT_EQ(dot(c, d).to_vector<std::int32_t>(),
            std::vector<std::int32_t>{static_cast<std::int32_t>(wrapped)});
  const std::int64_t big64 = std::numeric_limits<std::int64_t>::max();
  const Tensor e = from_vector<std::int64_t>({big64, -3});
  const Tensor f = from_vector<std::int64_t>({4, 5});
  const std::uint64_t w64 = 4u * static_cast<std::uint64_t>(big64) - 15u;
  EXPECT_EQ(dot(e, f).to_vector<std::int64_t>(),
            std::vector<std::int64_t>{static_cast<std::int64_t>(w64)});
  // u16 products overflow int: must still wrap, not be undefined.
  const Tensor g = from_vector<std::uint16_t>({65535, 65535});
  EXPECT_EQ(dot(g, g).to_vector<std::uint16_t>(), std::vector<std::uint16_t>{2});
}

TEST(Dot, HalvesAccumulateInF32) {
  // 2048 + 1 + 1 ... in f16 steps would stall at 2048; f32 accumulation reaches 2048 + 64.
  std::vector<double> a(65, 1.0), b(65, 1.0);
  a[0] = 2048;
  const Tensor got = dot(make(a, {65}, DType::f16), make(b, {65}, DType::f16));
  EXPECT_EQ(got.dtype(), DType::f16);
  EXPECT_EQ(as_doubles(got)[0], 2112.0);
}

TEST(Dot, PromotesMixedDTypes) {
  const Tensor a = from_vector<std::int32_t>({1, 2});
  const Tensor b = from_vector<float>({0.5f, 0.25f});
  const Tensor got = dot(a, b);
  EXPECT_EQ(got.dtype(), DType::f32);
  EXPECT_EQ(got.to_vector<float>(), std::vector<float>{1.0f});
  EXPECT_EQ(dot(from_vector<std::uint8_t>({3}), from_vector<std::int8_t>({-2})).dtype(),
            DType::s16);
}

TEST(Dot, ZeroSizeContractionGivesZeros) {
  const Tensor a = from_vector<float>({}, {2, 0});
  const Tensor b = from_vector<float>({}, {0, 3});
  const Tensor got = dot(a, b);
  EXPECT_EQ(got.shape(), (Shape{2, 3}));
  EXPECT_EQ(got.to_vector<float>(), std::vector<float>(6, 0.0f));
  EXPECT_EQ(dot(from_vector<std::int32_t>({}, {3, 0}), from_vector<std::int32_t>({}, Shape{0}))
                .to_vector<std::int32_t>(),
            std::vector<std::int32_t>(3, 0));
  const Tensor b42 = from_vector<float>(std::vector<float>(8, 1.0f), {4, 2});
  EXPECT_EQ(dot(from_vector<float>({}, {0, 4}), b42).shape(), (Shape{0, 2}));
}

TEST(Dot, RankZeroMultiplies) {
  const Tensor s = from_vector<float>({2}, Shape{});
  const Tensor v = from_vector<float>({1, 2, 3}, {3});
  EXPECT_EQ(dot(s, v).to_vector<float>(), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(dot(v, s).shape(), (Shape{3}));
  EXPECT_EQ(dot(s, s).to_vector<float>(), std::vector<float>{4});
  EXPECT_EQ(dot(s, s).shape(), Shape{});
}

TEST(Dot, TwoArgumentFormIsNumpyDot) {
  // 1-D . 1-D inner product; 2-D . 1-D; 3-D . 3-D contracts a's last with b's second-to-last.
  const Tensor v = from_vector<double>({1, 2, 3});
  EXPECT_EQ(dot(v, v).to_vector<double>(), std::vector<double>{14});
  EXPECT_EQ(dot(v, v).shape(), Shape{});
  check_dot({2, 3, 4}, {2}, {}, {5, 4, 6}, {1}, {}, DType::f64);
  const auto va = random_values(24, 3), vb = random_values(120, 4);
  const Tensor a = make(va, {2, 3, 4}, DType::f64), b = make(vb, {5, 4, 6}, DType::f64);
  Shape shape;
  const auto expected = reference_dot(va, {2, 3, 4}, {2}, {}, vb, {5, 4, 6}, {1}, {}, shape);
  EXPECT_TRUE(tensors_close(dot(a, b), make(expected, shape, DType::f64)));
  EXPECT_EQ(dot(a, b).shape(), (Shape{2, 3, 5, 6}));
}

TEST(Matmul, FollowsNumpyShapes) {
  const auto va = random_values(2 * 3 * 4, 5), vb = random_values(2 * 4 * 5, 6);
  const Tensor a = make(va, {2, 3, 4}, DType::f32), b = make(vb, {2, 4, 5}, DType::f32);
  Shape shape;
  auto expected = reference_dot(va, {2, 3, 4}, {2}, {0}, vb, {2, 4, 5}, {1}, {0}, shape);
  EXPECT_TRUE(tensors_close(matmul(a, b), make(expected, shape, DType::f32)));
  // b without batch dims broadcasts against a's batch.
  const Tensor b2 = make(random_values(20, 7), {4, 5}, DType::f32);
  EXPECT_EQ(matmul(a, b2).shape(), (Shape{2, 3, 5}));
  // Leading size-1 batch dims.
  const Tensor a1 = make(va, {1, 2, 3, 4}, DType::f32);
  EXPECT_EQ(matmul(a1, b).shape(), (Shape{1, 2, 3, 5}));
  EXPECT_TRUE(tensors_close(matmul(a1, b), make(expected, {1, 2, 3, 5}, DType::f32)));
  // 1-D operands are promoted and the added axis removed.
  const Tensor v4 = make(random_values(4, 8), {4}, DType::f32);
  EXPECT_EQ(matmul(a, v4).shape(), (Shape{2, 3}));
  EXPECT_EQ(matmul(v4, b).shape(), (Shape{2, 5}));
  EXPECT_EQ(matmul(v4, v4).shape(), Shape{});
}

template <class E>
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "no error";
}

TEST(Dot, ErrorsNameAxesAndSizes) {
  const Tensor a = from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor b = from_vector<float>({1, 2, 3, 4, 5, 6, 7, 8}, {4, 2});
  std::string msg = error_of<ShapeError>([&] { (void)dot(a, {1}, {}, b, {0}, {}); });
  EXPECT_NE(msg.find("[dot]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("size 3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("size 4"), std::string::npos) << msg;
  msg = error_of<AxisError>([&] { (void)dot(a, {2}, {}, b, {0}, {}); });
  EXPECT_NE(msg.find("[dot]"), std::string::npos) << msg;
  msg = error_of<AxisError>([&] { (void)dot(a, {0}, {0}, b, {1}, {1}); });
  EXPECT_NE(msg.find("[dot]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("repeated"), std::string::npos) << msg;
  msg = error_of<AxisError>([&] { (void)dot(a, {0, 1}, {}, b, {1}, {}); });
  EXPECT_NE(msg.find("[dot]"), std::string::npos) << msg;
  const Tensor b43 = from_vector<float>(std::vector<float>(12, 1.0f), {4, 3});
  msg = error_of<ShapeError>([&] { (void)dot(a, {1}, {0}, b43, {1}, {0}); });
  EXPECT_NE(msg.find("batch axis 0 of a (size 2)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(size 4)"), std::string::npos) << msg;
  msg = error_of<ShapeError>([&] { (void)dot(a, a); });
  EXPECT_NE(msg.find("[dot]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("{2, 3}"), std::string::npos) << msg;
  EXPECT_EQ(a.to_vector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_THROW((void)dot(Tensor(), a), Error);
}

// dot of 16-bit float operands into f32 keeps them narrow (the backend widens inside the
// product): the same f32 sums as widening both first, bit for bit on the cpu, in every
// layout prepare() handles (transposed, batched, permuted) and for an empty K.
TEST(Dot, SixteenBitOperandsIntoF32EqualWideningFirst) {
  struct Case {
    Shape sa;
    Axes ca, ba;
    Shape sb;
    Axes cb, bb;
  };
  const std::vector<Case> cases = {{{5, 7}, {1}, {}, {7, 3}, {0}, {}},
                                   {{7, 5}, {0}, {}, {3, 7}, {1}, {}},
                                   {{2, 4, 6}, {2}, {0}, {2, 6, 3}, {1}, {0}},
                                   {{4, 2, 6}, {2}, {1}, {6, 3, 2}, {0}, {2}},
                                   {{3, 0}, {1}, {}, {0, 2}, {0}, {}}};
  std::uint32_t seed = 7;
  for (DType d : {DType::f16, DType::bf16, DType::f8, DType::f8_e4m3fn}) {
    for (const Case& c : cases) {
      std::vector<double> va(static_cast<std::size_t>(numel(c.sa))),
          vb(static_cast<std::size_t>(numel(c.sb)));
      std::mt19937 rng(seed++);
      std::uniform_real_distribution<double> u(-3.0, 3.0);
      for (double& x : va) x = u(rng);
      for (double& x : vb) x = u(rng);
      const Tensor a = make(va, c.sa, d), b = make(vb, c.sb, d);
      const Tensor got = dot(a, c.ca, c.ba, b, c.cb, c.bb, DType::f32);
      const Tensor want =
          dot(as_type(a, DType::f32), c.ca, c.ba, as_type(b, DType::f32), c.cb, c.bb);
      ASSERT_EQ(got.dtype(), DType::f32) << dtype_name(d);
      EXPECT_EQ(got.shape(), want.shape()) << dtype_name(d);
      EXPECT_EQ(got.to_bytes(), want.to_bytes()) << dtype_name(d) << " " << shape_str(c.sa);
    }
  }
  // Mixed 8-bit formats meet in f16, which holds both exactly.
  const Tensor e5 = make({1.5, -57344, 0.25}, {3}, DType::f8);
  const Tensor e4 = make({448, 0.125, -2}, {3}, DType::f8_e4m3fn);
  EXPECT_EQ(dot(e5, e4, DType::f32).item<double>(), 1.5 * 448 + -57344 * 0.125 + 0.25 * -2);
}

TEST(Matmul, ErrorsNameShapes) {
  const Tensor a = from_vector<float>(std::vector<float>(24, 1.0f), {2, 3, 4});
  const Tensor b = from_vector<float>(std::vector<float>(60, 1.0f), {3, 4, 5});
  std::string msg = error_of<ShapeError>([&] { (void)matmul(a, b); });
  EXPECT_NE(msg.find("[matmul]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("{2, 3, 4}"), std::string::npos) << msg;
  EXPECT_NE(msg.find("{3, 4, 5}"), std::string::npos) << msg;
  msg = error_of<ShapeError>([&] { (void)matmul(a, from_vector<float>({1, 2, 3})); });
  EXPECT_NE(msg.find("[matmul]"), std::string::npos) << msg;
  msg = error_of<ShapeError>([&] { (void)matmul(from_vector<float>({1}, Shape{}), a); });
  EXPECT_NE(msg.find("rank >= 1"), std::string::npos) << msg;
  EXPECT_EQ(a.to_vector<float>(), std::vector<float>(24, 1.0f));
}

}  // namespace
}  // namespace vkt
