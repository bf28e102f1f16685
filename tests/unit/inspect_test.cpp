// inspect / operator<<: Nx's printed form (Nx.Tensor's Inspect, Nx.Backend.inspect, Nx.Ryu).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "vkt/vkt.h"

namespace vkt {
namespace {

TEST(Inspect, MatrixAsNxPrintsIt) {
  const Tensor t = from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}, &cpu());
  EXPECT_EQ(inspect(t),
            "#Nx.Tensor<\n  f32[2][3]\n  [\n    [1.0, 2.0, 3.0],\n    [4.0, 5.0, 6.0]\n  ]\n>");
  std::ostringstream os;
  os << t;
  EXPECT_EQ(os.str(), inspect(t));
}

TEST(Inspect, ScalarAndVector) {
  EXPECT_EQ(inspect(scalar_tensor(1, DType::s32, &cpu())), "#Nx.Tensor<\n  s32\n  1\n>");
  EXPECT_EQ(inspect(from_vector<std::uint8_t>({1, 0}, &cpu())),
            "#Nx.Tensor<\n  u8[2]\n  [1, 0]\n>");
  EXPECT_EQ(inspect(from_vector<std::int64_t>({-5, 7}, &cpu())),
            "#Nx.Tensor<\n  s64[2]\n  [-5, 7]\n>");
}

TEST(Inspect, RankThreeNestsByTwoSpaces) {
  const Tensor t = iota({2, 1, 2}, DType::s32, std::nullopt, &cpu());
  EXPECT_EQ(inspect(t),
            "#Nx.Tensor<\n  s32[2][1][2]\n  [\n    [\n      [0, 1]\n    ],\n    [\n      [2, 3]\n"
            "    ]\n  ]\n>");
}

TEST(Inspect, ElidesAfterLimitAsNx) {
  const Tensor v = iota({5}, DType::s32, std::nullopt, &cpu());
  EXPECT_EQ(inspect(v, 3), "#Nx.Tensor<\n  s32[5]\n  [0, 1, 2, ...]\n>");
  EXPECT_EQ(inspect(v, 5), "#Nx.Tensor<\n  s32[5]\n  [0, 1, 2, 3, 4]\n>");
  EXPECT_EQ(inspect(v, 0), "#Nx.Tensor<\n  s32[5]\n  [...]\n>");
  // The limit runs out inside the first row: the row and the outer list both end in "...".
  const Tensor m = iota({3, 3}, DType::s32, std::nullopt, &cpu());
  EXPECT_EQ(inspect(m, 2), "#Nx.Tensor<\n  s32[3][3]\n  [\n    [0, 1, ...],\n    ...\n  ]\n>");
  // It runs out exactly at a row's end: no "..." inside the row.
  EXPECT_EQ(inspect(m, 3), "#Nx.Tensor<\n  s32[3][3]\n  [\n    [0, 1, 2],\n    ...\n  ]\n>");
  // The default limit is 50.
  const std::string big = inspect(iota({60}, DType::s32, std::nullopt, &cpu()));
  EXPECT_NE(big.find("48, 49, ...]"), std::string::npos) << big;
  EXPECT_EQ(big.find("50,"), std::string::npos) << big;
}

TEST(Inspect, FloatsAreShortestRoundTripInNxFormat) {
  const Tensor f = from_vector<float>(
      {0.1f, -0.0f, 1e30f, 1.5e-7f, 100.0f, 123456.7f, NAN, INFINITY, -INFINITY, 0.001f}, &cpu());
  EXPECT_EQ(inspect(f),
            "#Nx.Tensor<\n  f32[10]\n  [0.1, -0.0, 1e30, 1.5e-7, 100.0, 123456.7, NaN, Inf, -Inf, "
            "0.001]\n>");
  // f64 prints as Erlang's Float.to_string: a single digit keeps ".0" before the exponent.
  const Tensor d = from_vector<double>({1e-128, 0.1, 2.5e22}, &cpu());
  EXPECT_EQ(inspect(d), "#Nx.Tensor<\n  f64[3]\n  [1.0e-128, 0.1, 2.5e22]\n>");
  // Halves print their own shortest digits, not the float's; one digit: "1e3" (Nx.Ryu).
  const Tensor h = as_type(from_vector<float>({0.1f, 1000.0f, 65504.0f}, &cpu()), DType::f16);
  EXPECT_EQ(inspect(h), "#Nx.Tensor<\n  f16[3]\n  [0.1, 1e3, 6.55e4]\n>");
  const Tensor b = as_type(from_vector<float>({0.1f, 3.0f}, &cpu()), DType::bf16);
  EXPECT_EQ(inspect(b), "#Nx.Tensor<\n  bf16[2]\n  [0.1, 3.0]\n>");
}

TEST(Inspect, EmptyAndBadInput) {
  EXPECT_EQ(inspect(full({0}, 0, DType::f32, &cpu())), "#Nx.Tensor<\n  f32[0]\n  []\n>");
  EXPECT_THROW(inspect(Tensor()), Error);
  EXPECT_THROW(inspect(iota({2}, DType::s32, std::nullopt, &cpu()), -1), ShapeError);
}

}  // namespace
}  // namespace vkt
