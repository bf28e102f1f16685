// reduce / window_reduce with a caller's function: Nx's doc examples, dtypes, order, padding
// folded as acc, bad inputs (NumPy cases in tests/golden/apigaps_golden_test.cpp).
#include <gtest/gtest.h>

#include <complex>
#include <string>
#include <vector>

#include "vkt/vkt.h"

namespace vkt {
namespace {

Scalar add_fn(Scalar x, Scalar acc) {
  return x.as<std::int64_t>() + acc.as<std::int64_t>();
}

TEST(ReduceCallable, NxDocExamples) {
  // Nx.reduce(Nx.tensor([[1, 2, 3], [4, 5, 6]]), 0, [axes: [1]], &Nx.add/2) -> [6, 15].
  const Tensor t = from_vector<std::int32_t>({1, 2, 3, 4, 5, 6}, {2, 3}, &cpu());
  EXPECT_EQ(reduce(t, 0, add_fn, {1}).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{6, 15}));
  // keep_axes and axes {0}: [[5, 7, 9]].
  const Tensor k = reduce(t, 0, add_fn, {0}, true);
  EXPECT_EQ(k.shape(), (Shape{1, 3}));
  EXPECT_EQ(k.to_vector<std::int32_t>(), (std::vector<std::int32_t>{5, 7, 9}));
  // Nx.window_reduce(t, 0, {2}, [strides: [1], padding: :valid], add) over [[..]]: rank 2.
  const Tensor w = window_reduce(t, 0, {1, 2}, {}, add_fn);
  EXPECT_EQ(w.to_vector<std::int32_t>(), (std::vector<std::int32_t>{3, 5, 9, 11}));
}

TEST(ReduceCallable, FoldsInRowMajorOrderFromAcc) {
  // A non-commutative function shows the order: acc * 10 + x over 1, 2, 3 from acc 9.
  const Tensor t = from_vector<std::int64_t>({1, 2, 3}, &cpu());
  auto digits = [](Scalar x, Scalar acc) {
    return acc.as<std::int64_t>() * 10 + x.as<std::int64_t>();
  };
  EXPECT_EQ(reduce(t, 9, digits).item<std::int64_t>(), 9123);
  auto typed = [](std::int64_t x, std::int64_t acc) { return acc * 10 + x; };
  EXPECT_EQ(reduce_typed<std::int64_t>(t, 9, typed).item<std::int64_t>(), 9123);
  // Two reduced axes, the innermost fastest.
  const Tensor m = from_vector<std::int64_t>({1, 2, 3, 4}, {2, 2}, &cpu());
  EXPECT_EQ(reduce_typed<std::int64_t>(m, 0, typed, {0, 1}).item<std::int64_t>(), 1234);
  // Reducing axis 0 of a matrix: a strided run per output.
  EXPECT_EQ(reduce_typed<std::int64_t>(m, 0, typed, {0}).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{13, 24}));
}

TEST(ReduceCallable, WindowPaddingFoldsAcc) {
  // Window 3 over [1, 2] padded by 1 each side: windows {acc, 1, 2}: acc*100 + 1*10 + 2.
  const Tensor t = from_vector<std::int64_t>({1, 2}, &cpu());
  auto typed = [](std::int64_t x, std::int64_t acc) { return acc * 10 + x; };
  const Tensor w = window_reduce_typed<std::int64_t>(t, 7, {3}, {{}, {{1, 1}}, {}}, typed);
  // Window 0 from acc 7: 7 (padding), 1, 2 -> 7712; window 1: 1, 2, 7 (padding) -> 7127.
  EXPECT_EQ(w.to_vector<std::int64_t>(), (std::vector<std::int64_t>{7712, 7127}));
  // Dilation 2, stride 1 on 2-D with padding on both axes: compare with the Scalar form.
  const Tensor m = iota({3, 4}, DType::s64, std::nullopt, &cpu());
  const WindowOptions o{{1, 2}, {{1, 0}, {0, 2}}, {2, 1}};
  auto scalar = [](Scalar x, Scalar acc) {
    return (acc.as<std::int64_t>() * 3 + x.as<std::int64_t>()) % 1000003;
  };
  auto same = [](std::int64_t x, std::int64_t acc) { return (acc * 3 + x) % 1000003; };
  EXPECT_EQ(window_reduce(m, 5, {2, 3}, o, scalar).to_vector<std::int64_t>(),
            window_reduce_typed<std::int64_t>(m, 5, {2, 3}, o, same).to_vector<std::int64_t>());
}

TEST(ReduceCallable, DTypes) {
  const Tensor t = from_vector<std::int32_t>({1, 2}, &cpu());
  // A float acc with an integer tensor gives f32 (Nx's binary_type); window_reduce keeps t's.
  auto fadd = [](Scalar x, Scalar acc) { return x.as_double() + acc.as_double(); };
  const Tensor r = reduce(t, 0.5, fadd);
  EXPECT_EQ(r.dtype(), DType::f32);
  EXPECT_EQ(r.item<float>(), 3.5f);
  EXPECT_EQ(window_reduce(t, 0.5, {2}, {}, fadd).dtype(), DType::s32);
  // The function's result is converted to the out dtype as as_type does: integers wrap (as
  // Nx.add of u8 tensors does), floats saturate into integers.
  const Tensor u = from_vector<std::uint8_t>({200, 100}, &cpu());
  EXPECT_EQ(reduce(u, 0, add_fn).item<int>(), 44);
  EXPECT_EQ(reduce(u, 0, fadd).item<int>(), 255);
  // The typed form computes in T: t is converted first.
  EXPECT_EQ(reduce_typed<double>(t, 0.25, [](double x, double a) { return x + a; }).dtype(),
            DType::f64);
  const Tensor h = as_type(t, DType::f16);
  EXPECT_EQ(reduce_typed<f16>(h, f16(0.0f), [](f16 x, f16 a) { return f16(float(x) + float(a)); })
                .item<float>(),
            3.0f);
}

// Nx.reduce and Nx.window_reduce take complex tensors and accumulators: the fold runs in the
// complex dtype, element by element in row-major order.
TEST(ReduceCallable, ComplexFoldsInOrder) {
  using C = std::complex<float>;
  const Tensor t = from_vector<C>({{1, 2}, {3, -1}, {-2, 0.5f}, {0, 4}}, {2, 2}, &cpu());
  // acc * i + x is not commutative: the result shows the order (each step exact in c64).
  auto rotate_add = [](Scalar x, Scalar acc) {
    return acc.as_complex() * std::complex<double>(0, 1) + x.as_complex();
  };
  auto fold = [](std::vector<C> xs, C acc) {
    for (const C& x : xs) acc = acc * C(0, 1) + x;
    return acc;
  };
  const Tensor rows = reduce(t, Scalar(C(1, 1)), rotate_add, {1});
  EXPECT_EQ(rows.dtype(), DType::c64);
  EXPECT_EQ(rows.to_vector<C>(),
            (std::vector<C>{fold({{1, 2}, {3, -1}}, {1, 1}), fold({{-2, 0.5f}, {0, 4}}, {1, 1})}));
  // The typed form in c128, over both axes.
  using Z = std::complex<double>;
  const Tensor z = as_type(t, DType::c128);
  const Tensor all = reduce_typed<Z>(z, Z(1, 1), [](Z x, Z acc) { return acc * Z(0, 1) + x; });
  EXPECT_EQ(all.dtype(), DType::c128);
  const C expected = fold({{1, 2}, {3, -1}, {-2, 0.5f}, {0, 4}}, {1, 1});
  EXPECT_EQ(all.item<Z>(), Z(expected.real(), expected.imag()));
  // A complex acc makes a real tensor c64 (Nx's binary_type); a real acc keeps c128.
  const Tensor real = from_vector<float>({1, 2, 3}, &cpu());
  EXPECT_EQ(reduce(real, Scalar(C(0, 1)), rotate_add).item<C>(), fold({1, 2, 3}, {0, 1}));
  EXPECT_EQ(reduce(z, 0, rotate_add, {0}).dtype(), DType::c128);
  // window_reduce keeps t's dtype, and a padding position folds acc.
  const Tensor row = from_vector<C>({{1, 2}, {3, -1}}, &cpu());
  const Tensor w = window_reduce(row, Scalar(C(2, 0)), {2}, {{}, {{1, 0}}, {}}, rotate_add);
  EXPECT_EQ(w.dtype(), DType::c64);
  EXPECT_EQ(w.to_vector<C>(),
            (std::vector<C>{fold({{2, 0}, {1, 2}}, {2, 0}), fold({{1, 2}, {3, -1}}, {2, 0})}));
}

TEST(ReduceCallable, EmptyAndBadInputs) {
  const Tensor e = full({0, 3}, 0, DType::s32, &cpu());
  EXPECT_EQ(reduce(e, 4, add_fn, {0}).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{4, 4, 4}));
  const Tensor t = iota({2, 3}, DType::s32, std::nullopt, &cpu());
  EXPECT_THROW(reduce(t, 0, ReduceFunction{}), Error);
  EXPECT_THROW(reduce(t, 0, add_fn, {2}), AxisError);
  EXPECT_THROW(reduce(t, 0, add_fn, {0, 0}), AxisError);
  EXPECT_THROW(reduce(Tensor(), 0, add_fn), Error);
  EXPECT_THROW(window_reduce(t, 0, {2}, {}, add_fn), ShapeError);
  EXPECT_THROW(window_reduce(t, 0, {1, 1}, {}, ReduceFunction{}), Error);
  try {
    window_reduce(t, 0, {1, 0}, {}, add_fn);
    ADD_FAILURE() << "no throw";
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("[window_reduce]"), std::string::npos) << e.what();
  }
  // A function that throws leaves the process usable.
  auto throwing = [](Scalar, Scalar) -> Scalar { throw std::runtime_error("user"); };
  EXPECT_THROW(reduce(from_vector<std::int32_t>({1}, &cpu()), 0, throwing), std::runtime_error);
  // Also when it throws on several threads at once.
  const Tensor big = full({8192, 16}, 1, DType::s32, &cpu());
  EXPECT_THROW(reduce(big, 0, throwing, {1}), std::runtime_error);
  EXPECT_THROW(window_reduce(big, 0, {1, 16}, {}, throwing), std::runtime_error);
  EXPECT_EQ(reduce(t, 0, add_fn).item<int>(), 15);
}

}  // namespace
}  // namespace vkt
