// window_scatter_max / window_scatter_min: dtypes, ties, NaN, padding, bad inputs (values are
// checked against a reference in tests/golden/apigaps_golden_test.cpp).
#include <gtest/gtest.h>

#include <cmath>

#include "vkt/vkt.h"

namespace vkt {
namespace {

TEST(WindowScatter, DTypeIsInitMeetingSource) {
  const Tensor t = iota({4}, DType::s32, std::nullopt, &cpu());
  const Tensor src = from_vector<std::int32_t>({5, 6}, &cpu());
  EXPECT_EQ(window_scatter_max(t, src, 0, {2}, {{2}, {}, {}}).dtype(), DType::s32);
  const Tensor f = window_scatter_max(t, src, 0.5, {2}, {{2}, {}, {}});
  EXPECT_EQ(f.dtype(), DType::f32);
  EXPECT_EQ(f.to_vector<float>(), (std::vector<float>{0.5f, 5.5f, 0.5f, 6.5f}));
  const Tensor h = as_type(src, DType::f16);
  EXPECT_EQ(window_scatter_min(t, h, 0, {2}, {{2}, {}, {}}).dtype(), DType::f16);
}

TEST(WindowScatter, TiesGoToTheLastPositionAndCollisionsSum) {
  const Tensor t = from_vector<float>({1, 3, 3, 1}, &cpu());
  const Tensor src = from_vector<float>({10, 20, 30}, &cpu());
  // Windows {1,3} {3,3} {3,1} (positions 0-1, 1-2, 2-3): max at 1, at 2 (the later 3), at 2.
  EXPECT_EQ(window_scatter_max(t, src, 0, {2}).to_vector<float>(),
            (std::vector<float>{0, 10, 50, 0}));
  // Windows' minima: at 0, at 2 (the later 3), at 3.
  EXPECT_EQ(window_scatter_min(t, src, 0, {2}).to_vector<float>(),
            (std::vector<float>{10, 0, 20, 30}));
}

TEST(WindowScatter, NaNIsChosenOnlyAsTheFirstElement) {
  const Tensor t = from_vector<float>({NAN, 1, 2, NAN}, &cpu());
  const Tensor src = from_vector<float>({10, 20}, &cpu());
  // {NaN, 1}: nothing is >= NaN, NaN stays; {2, NaN}: NaN >= 2 is false, 2 stays.
  EXPECT_EQ(window_scatter_max(t, src, 0, {2}, {{2}, {}, {}}).to_vector<float>(),
            (std::vector<float>{10, 0, 20, 0}));
}

TEST(WindowScatter, PaddingIsNeverChosen) {
  // Every value is below the init value 0 the padding would hold in Nx's BinaryBackend.
  const Tensor t = from_vector<float>({-5, -3}, &cpu());
  const Tensor src = from_vector<float>({1, 2, 4}, &cpu());
  EXPECT_EQ(window_scatter_max(t, src, 0, {2}, {{}, {{1, 1}}, {}}).to_vector<float>(),
            (std::vector<float>{1, 6}));
}

TEST(WindowScatter, RankZeroAndEmpty) {
  const Tensor s = scalar_tensor(3.0, DType::f32, &cpu());
  EXPECT_EQ(window_scatter_max(s, scalar_tensor(2.0, DType::f32, &cpu()), 1, {}).item<float>(), 3);
  const Tensor e = full({0, 2}, 0, DType::f32, &cpu());
  EXPECT_EQ(window_scatter_max(e, full({0, 1}, 0, DType::f32, &cpu()), 0, {1, 2}).shape(),
            (Shape{0, 2}));
}

// Nx's window_scatter takes init_value as a tensor: the dtypes promote, positions no source
// chose keep init bit for bit, and the gradient reaches init once per output element.
TEST(WindowScatter, TensorInitPromotesAndMatchesTheScalarForm) {
  const Tensor t = from_vector<float>({1, 3, 3, 1, 2, 0}, &cpu());
  const Tensor src = from_vector<std::int32_t>({10, 20, 30, 40, 50}, &cpu());
  const Tensor init = scalar_tensor(0.5, DType::f32, &cpu());
  const Tensor r = window_scatter_max(t, src, init, {2});
  EXPECT_EQ(r.dtype(), DType::f32);
  EXPECT_EQ(r.to_vector<float>(),
            window_scatter_max(t, as_type(src, DType::f32), 0.5, {2}).to_vector<float>());
  for (DType d : {DType::u8, DType::s32, DType::s64, DType::f64}) {
    const Tensor i = scalar_tensor(7, d, &cpu());
    const DType out = promote(DType::s32, d);
    const Tensor expected = window_scatter_min(t, as_type(src, out), 7, {3}, {{1}, {{1, 0}}, {}});
    const Tensor got = window_scatter_min(t, src, i, {3}, {{1}, {{1, 0}}, {}});
    EXPECT_EQ(got.dtype(), out) << dtype_name(d);
    EXPECT_EQ(as_type(got, DType::f64).to_vector<double>(),
              as_type(expected, DType::f64).to_vector<double>())
        << dtype_name(d);
  }
  const std::vector<float> neg_zero =
      window_scatter_max(t, from_vector<float>({10, 20, 30}, &cpu()),
                         scalar_tensor(-0.0, DType::f32, &cpu()), {2}, {{2}, {}, {}})
          .to_vector<float>();
  // Windows {1,3} {3,1} {2,0}: the chosen positions 1, 2, 4; the others keep -0.
  EXPECT_EQ(neg_zero, (std::vector<float>{0, 10, 20, 0, 30, 0}));
  for (std::size_t i : {0u, 3u, 5u}) EXPECT_TRUE(std::signbit(neg_zero[i])) << i;
  const std::vector<Tensor> g = grad(
      [&](const std::vector<Tensor>& p) {
        return std::vector<Tensor>{sum(window_scatter_max(t, p[0], p[1], {2}))};
      },
      {as_type(src, DType::f64), scalar_tensor(0.0, DType::f64, &cpu())});
  EXPECT_EQ(g[0].to_vector<double>(), (std::vector<double>(5, 1.0)));
  EXPECT_EQ(g[1].item<double>(), 6.0);
}

TEST(WindowScatter, TensorInitMustBeRankZero) {
  const Tensor t = iota({4}, DType::f32, std::nullopt, &cpu());
  const Tensor src = full({2}, 1, DType::f32, &cpu());
  try {
    window_scatter_min(t, src, full({1}, 0, DType::f32, &cpu()), {2}, {{2}, {}, {}});
    ADD_FAILURE() << "no throw";
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "[window_scatter_min] init_value must be a rank-0 tensor, got f32 {1}"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(window_scatter_max(t, src, Tensor(), {2}, {{2}, {}, {}}), Error);
  EXPECT_THROW(window_scatter_max(t, src, scalar_tensor(0.0, DType::f32, &cpu()), {4}), ShapeError);
}

TEST(WindowScatter, BadInputs) {
  const Tensor t = iota({4, 4}, DType::f32, std::nullopt, &cpu());
  const Tensor src = full({2, 2}, 1, DType::f32, &cpu());
  try {
    window_scatter_max(t, src, 0, {2, 2});  // windows {3, 3}, source {2, 2}
    ADD_FAILURE() << "no throw";
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("[window_scatter_max] source shape {2, 2}"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(window_scatter_min(t, src, 0, {2}), ShapeError);
  EXPECT_THROW(window_scatter_min(t, src, 0, {2, 0}), ShapeError);
  EXPECT_THROW(window_scatter_min(t, src, 0, {2, 2}, {{2, 2}, {{-1, 0}, {0, 0}}, {}}), ShapeError);
  EXPECT_THROW(window_scatter_max(Tensor(), src, 0, {2, 2}), Error);
  EXPECT_THROW(window_scatter_max(t, Tensor(), 0, {2, 2}), Error);
  EXPECT_NO_THROW(window_scatter_max(t, src, 0, {2, 2}, {{2, 2}, {}, {}}));
}

}  // namespace
}  // namespace vkt
