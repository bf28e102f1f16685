#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "unit/movement_helpers.h"

namespace vkt {
namespace {

using movement_test::counting;
using movement_test::expect_error;
using movement_test::kTestDTypes;
using movement_test::make;
using movement_test::values;
using testing::tensors_close;

// Reference transpose through multi-indices.
std::vector<double> naive_transpose(const std::vector<double>& in, const Shape& shape,
                                    const Axes& perm) {
  Shape out_shape;
  for (std::int64_t p : perm) out_shape.push_back(shape[static_cast<std::size_t>(p)]);
  const auto in_strides = contiguous_strides(shape);
  std::vector<double> out(in.size());
  std::vector<std::int64_t> idx(shape.size(), 0);
  for (std::size_t o = 0; o < out.size(); ++o) {
    std::int64_t rem = static_cast<std::int64_t>(o), src = 0;
    for (std::size_t a = out_shape.size(); a-- > 0;) {
      const std::int64_t i = rem % out_shape[a];
      rem /= out_shape[a];
      src += i * in_strides[static_cast<std::size_t>(perm[a])];
    }
    out[o] = in[static_cast<std::size_t>(src)];
  }
  return out;
}

TEST(Movement, ReshapeAliasesAndInfers) {
  const Tensor t = counting({2, 3, 4});
  const Tensor r = reshape(t, {4, -1});
  EXPECT_EQ(r.shape(), (Shape{4, 6}));
  EXPECT_EQ(r.storage(), t.storage());
  EXPECT_TRUE(tensors_close(reshape(r, {2, 3, 4}), t));
  EXPECT_EQ(reshape(counting({0, 3}), {-1, 3}).shape(), (Shape{0, 3}));
  EXPECT_EQ(reshape(counting({1}), {}).shape(), Shape{});
}

TEST(Movement, ReshapeErrors) {
  const Tensor t = counting({2, 3});
  expect_error<ShapeError>([&] { reshape(t, {4, 2}); }, {"[reshape]", "{2, 3}", "{4, 2}"});
  expect_error<ShapeError>([&] { reshape(t, {-1, -1}); }, {"[reshape]", "{-1, -1}"});
  expect_error<ShapeError>([&] { reshape(t, {4, -1}); }, {"[reshape]", "{4, -1}"});
  EXPECT_EQ(values(t), values(counting({2, 3})));
}

TEST(Movement, UndefinedTensorsAreRejected) {
  const Tensor empty;
  expect_error<Error>([&] { reshape(empty, {}); }, {"[reshape]", "empty"});
  expect_error<Error>([&] { transpose(empty); }, {"[transpose]", "empty"});
  expect_error<Error>([&] { concatenate({counting({2}), empty}); }, {"[concatenate]", "empty"});
  expect_error<Error>([&] { put_slice(counting({2}), {0}, empty); }, {"[put_slice]", "empty"});
}

TEST(Movement, Squeeze) {
  const Tensor t = counting({1, 3, 1, 2});
  EXPECT_EQ(squeeze(t).shape(), (Shape{3, 2}));
  EXPECT_EQ(squeeze(t, {-2}).shape(), (Shape{1, 3, 2}));
  EXPECT_EQ(squeeze(t).storage(), t.storage());
  expect_error<ShapeError>([&] { squeeze(t, {1}); }, {"[squeeze]", "axis 1", "size 3"});
  expect_error<AxisError>([&] { squeeze(t, {4}); }, {"[squeeze]", "4"});
}

TEST(Movement, BroadcastAllDtypes) {
  for (DType d : kTestDTypes) {
    const Tensor row = make({1, 2, 3}, {3}, d);
    EXPECT_TRUE(tensors_close(broadcast(row, {2, 3}), make({1, 2, 3, 1, 2, 3}, {2, 3}, d)));
    const Tensor col = make({1, 2}, {2}, d);
    EXPECT_TRUE(tensors_close(broadcast(col, {2, 3}, {0}), make({1, 1, 1, 2, 2, 2}, {2, 3}, d)));
    EXPECT_TRUE(tensors_close(broadcast(make({7}, {}, d), {2, 2}), make({7, 7, 7, 7}, {2, 2}, d)));
  }
  EXPECT_EQ(broadcast(counting({2, 1}), {4, 0, 2, 1}).shape(), (Shape{4, 0, 2, 1}));
  const Tensor mid = broadcast(counting({2, 1, 3}), {5, 2, 4, 3});
  const auto v = values(mid);
  for (std::int64_t a = 0; a < 5; ++a) {
    for (std::int64_t b = 0; b < 2; ++b) {
      for (std::int64_t c = 0; c < 4; ++c) {
        for (std::int64_t e = 0; e < 3; ++e) {
          ASSERT_EQ(v[static_cast<std::size_t>(((a * 2 + b) * 4 + c) * 3 + e)], b * 3 + e);
        }
      }
    }
  }
}

TEST(Movement, BroadcastErrors) {
  const Tensor t = counting({2, 3});
  expect_error<ShapeError>([&] { broadcast(t, {2, 4}); }, {"[broadcast]", "{2, 3}", "{2, 4}"});
  expect_error<ShapeError>([&] { broadcast(t, {3}); }, {"[broadcast]", "{2, 3}", "{3}"});
  expect_error<AxisError>([&] { broadcast(t, {2, 3, 3}, {1, 0}); }, {"[broadcast]", "{1, 0}"});
  expect_error<AxisError>([&] { broadcast(t, {2, 3, 3}, {0}); }, {"[broadcast]", "{0}"});
}

TEST(Movement, TransposeMatchesReference) {
  struct Case {
    Shape shape;
    Axes perm;
  };
  const std::vector<Case> cases = {{{2, 3}, {1, 0}},
                                   {{67, 131}, {1, 0}},
                                   {{3, 4, 5}, {1, 2, 0}},
                                   {{3, 4, 5}, {2, 0, 1}},
                                   {{2, 70, 90}, {0, 2, 1}},
                                   {{2, 3, 1, 4, 5}, {4, 2, 0, 3, 1}},
                                   {{2, 1, 3, 2, 2, 3}, {5, 4, 3, 2, 1, 0}},
                                   {{0, 3}, {1, 0}}};
  for (DType d : kTestDTypes) {
    for (const Case& c : cases) {
      const Tensor t = counting(c.shape, d);
      Shape out_shape;
      for (std::int64_t p : c.perm) out_shape.push_back(c.shape[static_cast<std::size_t>(p)]);
      const Tensor expected = make(naive_transpose(values(t), c.shape, c.perm), out_shape, d);
      EXPECT_TRUE(tensors_close(transpose(t, c.perm), expected))
          << dtype_name(d) << " " << shape_str(c.shape);
    }
  }
}

TEST(Movement, TransposeTwiceIsIdentity) {
  const Tensor t = counting({300, 517});
  EXPECT_TRUE(tensors_close(transpose(transpose(t)), t));
  const Tensor big = counting({1500, 1531}, DType::s16);  // large enough for two threads
  const Tensor big_t = transpose(big);
  EXPECT_TRUE(tensors_close(transpose(big_t), big));
  EXPECT_TRUE(tensors_close(slice(big_t, {1530, 7}, {1, 1}), slice(big, {7, 1530}, {1, 1})));
  const Tensor r = counting({3, 40, 50, 2});
  EXPECT_TRUE(tensors_close(transpose(transpose(r, {2, 0, 3, 1}), {1, 3, 0, 2}), r));
  EXPECT_EQ(transpose(make({5}, {})).shape(), Shape{});
}

TEST(Movement, TransposeErrors) {
  const Tensor t = counting({2, 3, 4});
  expect_error<AxisError>([&] { transpose(t, {0, 0, 1}); }, {"[transpose]", "{0, 0, 1}"});
  expect_error<AxisError>([&] { transpose(t, {0, 1}); }, {"[transpose]", "{0, 1}"});
  expect_error<AxisError>([&] { transpose(t, {0, 1, 3}); }, {"[transpose]", "3"});
}

TEST(Movement, PadLowHighInterior) {
  for (DType d : kTestDTypes) {
    const Tensor t = make({1, 2, 3}, {3}, d);
    EXPECT_TRUE(tensors_close(pad(t, 9, {{1, 2, 1}}), make({9, 1, 9, 2, 9, 3, 9, 9}, {8}, d)));
    EXPECT_TRUE(tensors_close(pad(t, 0, {{-1, 1, 0}}), make({2, 3, 0}, {3}, d)));
    EXPECT_TRUE(tensors_close(pad(t, 5, {{-2, -1, 2}}), make({5, 2, 5, 5}, {4}, d)));
  }
  const Tensor m = counting({2, 2}, DType::s32);
  EXPECT_TRUE(
      tensors_close(pad(m, -1, {{1, 0, 0}, {0, 1, 1}}),
                    make({-1, -1, -1, -1, 0, -1, 1, -1, 2, -1, 3, -1}, {3, 4}, DType::s32)));
  // Out of range values convert with as_type semantics: float saturates into u8.
  EXPECT_TRUE(tensors_close(pad(make({1}, {1}, DType::u8), 300.0, {{1, 0, 0}}),
                            make({255, 1}, {2}, DType::u8)));
  EXPECT_TRUE(tensors_close(pad(make({1}, {}, DType::f32), 0, {}), make({1}, {})));
  EXPECT_EQ(pad(counting({0, 2}), 1, {{1, 1, 3}, {0, 0, 0}}).shape(), (Shape{2, 2}));
  EXPECT_EQ(pad(counting({2, 3}), 1, {{-2, 0, 0}, {0, 0, 0}}).shape(), (Shape{0, 3}));
}

// Nx's pad takes the value as a tensor: the result is the promoted dtype, the value lands
// bit for bit (NaN, -0) and the gradient reaches it, once per padded position.
TEST(Movement, PadWithATensorValuePromotesAndKeepsItsBits) {
  const Tensor t = make({1, 2, 3}, {3}, DType::s32);
  const std::vector<PadAxis> config = {{-1, 2, 1}};  // {v, 2, v, 3, v, v}
  const Tensor nan = scalar_tensor(NAN, DType::f32, &cpu());
  const Tensor r = pad(t, nan, config);
  EXPECT_EQ(r.dtype(), DType::f32);
  const std::vector<float> got = r.to_vector<float>();
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got[1], 2.0f);
  EXPECT_EQ(got[3], 3.0f);
  for (std::size_t i : {0u, 2u, 4u, 5u}) EXPECT_TRUE(std::isnan(got[i])) << i;
  const std::vector<float> neg_zero =
      pad(t, scalar_tensor(-0.0, DType::f32, &cpu()), config).to_vector<float>();
  EXPECT_TRUE(std::signbit(neg_zero[0]) && std::signbit(neg_zero[5]));
  // The same numbers as the scalar form on the promoted tensor, in every dtype pair.
  const Tensor m = counting({2, 3}, DType::u8);
  const std::vector<PadAxis> grid = {{1, -1, 1}, {-2, 2, 2}};
  for (DType d : {DType::u8, DType::s16, DType::f16, DType::f64, DType::c64}) {
    const Tensor v = scalar_tensor(7.0, d, &cpu());
    const Tensor expected = pad(as_type(m, promote(DType::u8, d)), 7, grid);
    EXPECT_TRUE(tensors_close(pad(m, v, grid), expected)) << dtype_name(d);
    EXPECT_EQ(pad(m, v, grid).dtype(), expected.dtype()) << dtype_name(d);
  }
  // A config that changes nothing still promotes.
  EXPECT_EQ(pad(t, nan, {{0, 0, 0}}).dtype(), DType::f32);
  EXPECT_EQ(pad(counting({0, 2}), scalar_tensor(4.0, DType::f32, &cpu()), {{1, 0, 0}, {0, 0, 0}})
                .to_vector<float>(),
            (std::vector<float>{4, 4}));
  const Tensor x = make({1, 2, 3}, {3}, DType::f64);
  const std::vector<Tensor> g = grad(
      [&](const std::vector<Tensor>& p) {
        return std::vector<Tensor>{sum(pad(p[0], p[1], config))};
      },
      {x, scalar_tensor(0.5, DType::f64, &cpu())});
  EXPECT_EQ(g[0].to_vector<double>(), (std::vector<double>{0, 1, 1}));
  EXPECT_EQ(g[1].item<double>(), 4.0);
}

TEST(Movement, PadWithATensorValueRejectsBadValues) {
  const Tensor t = counting({2, 2}, DType::f32);
  expect_error<ShapeError>(
      [&] {
        pad(t, full({2}, 1, DType::f32, &cpu()), {{1, 1, 0}, {0, 0, 0}});
      },
      {"[pad] the pad value must be a rank-0 tensor, got f32 {2}"});
  expect_error<Error>([&] { pad(t, Tensor(), {{1, 1, 0}, {0, 0, 0}}); }, {"[pad]"});
  expect_error<ShapeError>(
      [&] {
        pad(t, scalar_tensor(1.0, DType::f32, &cpu()), {{1, 1, 0}});
      },
      {"[pad]"});
}

TEST(Movement, PadThenNegativePadIsIdentity) {
  const Tensor t = counting({3, 4, 2, 3, 2}, DType::s16);
  const std::vector<PadAxis> grow = {{1, 2, 0}, {0, 3, 1}, {2, 0, 2}, {1, 1, 0}, {0, 0, 0}};
  std::vector<PadAxis> shrink;
  for (const PadAxis& c : grow) shrink.push_back({-c.lo, -c.hi, 0});
  const Tensor grown = pad(t, 7, grow);
  // Cropping undoes lo/hi; slicing with stride interior+1 undoes the interior padding.
  const Tensor cropped = pad(grown, 0, shrink);
  Shape lengths = t.shape();
  std::vector<std::int64_t> strides;
  for (const PadAxis& c : grow) strides.push_back(c.interior + 1);
  EXPECT_TRUE(tensors_close(slice(cropped, {0, 0, 0, 0, 0}, lengths, strides), t));
}

TEST(Movement, PadErrors) {
  const Tensor t = counting({2, 3});
  expect_error<ShapeError>([&] { pad(t, 0, {{0, 0, -1}, {0, 0, 0}}); }, {"[pad]", "-1"});
  expect_error<ShapeError>([&] { pad(t, 0, {{0, 0, 0}, {-2, -2, 0}}); }, {"[pad]", "-1", "axis 1"});
  expect_error<ShapeError>([&] { pad(t, 0, {{0, 0, 0}}); }, {"[pad]", "{2, 3}"});
}

TEST(Movement, Reverse) {
  for (DType d : kTestDTypes) {
    const Tensor t = make({1, 2, 3, 4, 5, 6}, {2, 3}, d);
    EXPECT_TRUE(tensors_close(reverse(t), make({6, 5, 4, 3, 2, 1}, {2, 3}, d)));
    EXPECT_TRUE(tensors_close(reverse(t, {1}), make({3, 2, 1, 6, 5, 4}, {2, 3}, d)));
    EXPECT_TRUE(tensors_close(reverse(t, {0}), make({4, 5, 6, 1, 2, 3}, {2, 3}, d)));
  }
  const Tensor big = counting({4, 3, 5, 2, 3});
  EXPECT_TRUE(tensors_close(reverse(reverse(big, {0, 2, 4}), {4, 2, 0}), big));
  EXPECT_TRUE(tensors_close(reverse(make({3}, {})), make({3}, {})));
  expect_error<AxisError>([&] { reverse(big, {5}); }, {"[reverse]", "5"});
  expect_error<AxisError>([&] { reverse(big, {1, -4}); }, {"[reverse]"});
}

TEST(Movement, SliceStridedAndClamped) {
  const Tensor t = counting({4, 6}, DType::s32);
  EXPECT_TRUE(tensors_close(slice(t, {1, 1}, {2, 3}, {2, 2}),
                            make({7, 9, 11, 19, 21, 23}, {2, 3}, DType::s32)));
  // Start 5 with 2 columns is clamped to 4.
  EXPECT_TRUE(tensors_close(slice(t, {0, 5}, {1, 2}), make({4, 5}, {1, 2}, DType::s32)));
  EXPECT_TRUE(tensors_close(slice(t, {-3, 0}, {1, 1}), make({0}, {1, 1}, DType::s32)));
  EXPECT_EQ(slice(t, {2, 2}, {0, 3}).shape(), (Shape{0, 3}));
  for (DType d : kTestDTypes) {
    const Tensor v = counting({10}, d);
    EXPECT_TRUE(tensors_close(slice(v, {1}, {3}, {4}), make({1, 5, 9}, {3}, d)));
  }
}

TEST(Movement, SliceErrors) {
  const Tensor t = counting({4, 6});
  expect_error<ShapeError>([&] { slice(t, {0, 0}, {5, 1}); }, {"[slice]", "{5, 1}", "{4, 6}"});
  expect_error<ShapeError>([&] { slice(t, {0, 0}, {3, 3}, {2, 1}); }, {"[slice]", "{2, 1}"});
  expect_error<ShapeError>([&] { slice(t, {0, 0}, {1, 1}, {0, 1}); }, {"[slice]", "{0, 1}"});
  expect_error<ShapeError>([&] { slice(t, {0, 0}, {-1, 1}); }, {"[slice]", "{-1, 1}"});
  expect_error<ShapeError>([&] { slice(t, {0}, {1}); }, {"[slice]", "rank 2"});
}

TEST(Movement, PutSlice) {
  const Tensor t = make({0, 0, 0, 0, 0, 0}, {2, 3}, DType::s32);
  const Tensor u = make({1, 2}, {1, 2}, DType::s32);
  EXPECT_TRUE(tensors_close(put_slice(t, {1, 2}, u), make({0, 0, 0, 0, 1, 2}, {2, 3}, DType::s32)));
  EXPECT_TRUE(tensors_close(put_slice(t, {0, 0}, make({1.5, 2.5}, {1, 2})),
                            make({1.5, 2.5, 0, 0, 0, 0}, {2, 3})));
  EXPECT_EQ(values(t), std::vector<double>(6, 0.0));
  for (DType d : kTestDTypes) {
    const Tensor big = counting({3, 4, 5}, d);
    const Tensor part = slice(big, {1, 1, 2}, {2, 2, 3});
    EXPECT_TRUE(
        tensors_close(put_slice(make(std::vector<double>(60, 0), {3, 4, 5}, d), {1, 1, 2}, part),
                      pad(part, 0, {{1, 0, 0}, {1, 1, 0}, {2, 0, 0}})));
  }
  expect_error<ShapeError>(
      [&] {
        put_slice(t, {0, 0}, make({1, 2, 3, 4}, {1, 4}));
      },
      {"[put_slice]", "{1, 4}", "{2, 3}"});
  expect_error<ShapeError>([&] { put_slice(t, {0, 0}, make({1}, {1})); }, {"[put_slice]", "{1}"});
}

TEST(Movement, ConcatenateAxes) {
  for (DType d : kTestDTypes) {
    const Tensor a = counting({2, 3, 2}, d), b = counting({2, 1, 2}, d);
    const Tensor c = concatenate({a, b}, 1);
    EXPECT_EQ(c.shape(), (Shape{2, 4, 2}));
    EXPECT_TRUE(tensors_close(slice(c, {0, 0, 0}, {2, 3, 2}), a));
    EXPECT_TRUE(tensors_close(slice(c, {0, 3, 0}, {2, 1, 2}), b));
    const Tensor c0 = concatenate({a, a, a}, 0);
    EXPECT_TRUE(tensors_close(slice(c0, {4, 0, 0}, {2, 3, 2}), a));
    const Tensor c2 = concatenate({a, counting({2, 3, 0}, d), a}, -1);
    EXPECT_TRUE(tensors_close(slice(c2, {0, 0, 2}, {2, 3, 2}), a));
  }
  EXPECT_TRUE(tensors_close(concatenate({make({1}, {1}, DType::u8), make({-2}, {1}, DType::s8)}),
                            make({1, -2}, {2}, DType::s16)));
  EXPECT_TRUE(tensors_close(concatenate({make({1}, {1}, DType::s32), make({0.5}, {1}, DType::f16)}),
                            make({1, 0.5}, {2}, DType::f16)));
  // Large enough to take the parallel paths.
  const Tensor x = counting({2048, 3000}), y = counting({2048, 1000});
  const Tensor xy = concatenate({x, y}, 1);
  EXPECT_TRUE(tensors_close(slice(xy, {0, 3000}, {2048, 1000}), y));
  EXPECT_TRUE(tensors_close(slice(xy, {0, 0}, {2048, 3000}), x));
  const Tensor xx = concatenate({x, x, x}, 0);
  EXPECT_TRUE(tensors_close(slice(xx, {4096, 0}, {2048, 3000}), x));
}

TEST(Movement, ConcatenateErrors) {
  const Tensor a = counting({2, 3}), b = counting({3, 3});
  expect_error<ShapeError>([&] { concatenate({}); }, {"[concatenate]"});
  expect_error<ShapeError>([&] { concatenate({a, b}, 1); }, {"[concatenate]", "{2, 3}", "{3, 3}"});
  expect_error<ShapeError>([&] { concatenate({a, counting({6})}); }, {"[concatenate]", "{6}"});
  expect_error<ShapeError>(
      [&] {
        concatenate({make({1}, {}), make({1}, {})});
      },
      {"[concatenate]", "rank-0"});
  expect_error<AxisError>([&] { concatenate({a, b}, 2); }, {"[concatenate]", "axis 2"});
}

TEST(Movement, Stack) {
  const Tensor a = make({1, 2}, {2}), b = make({3, 4}, {2});
  EXPECT_TRUE(tensors_close(stack({a, b}), make({1, 2, 3, 4}, {2, 2})));
  EXPECT_TRUE(tensors_close(stack({a, b}, -1), make({1, 3, 2, 4}, {2, 2})));
  EXPECT_TRUE(tensors_close(stack({make({1}, {}), make({2}, {})}), make({1, 2}, {2})));
  expect_error<ShapeError>([&] { stack({a, make({1}, {1})}); }, {"[stack]", "{2}", "{1}"});
  expect_error<AxisError>([&] { stack({a, b}, 3); }, {"[stack]", "3"});
}

}  // namespace
}  // namespace vkt
