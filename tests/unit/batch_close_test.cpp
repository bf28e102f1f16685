// to_batched (Nx's :repeat / :discard leftovers) and all_close's cases NumPy does not have.
#include <gtest/gtest.h>

#include <limits>

#include "vkt/vkt.h"

namespace vkt {
namespace {

std::vector<std::int32_t> values(const Tensor& t) {
  return t.to_vector<std::int32_t>();
}

TEST(ToBatched, RepeatWrapsTheLastBatchAroundAsNx) {
  const Tensor t = reshape(iota({10}, DType::s32, std::nullopt, &cpu()), {5, 2});
  const std::vector<Tensor> b = to_batched(t, 2);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[0].shape(), (Shape{2, 2}));
  EXPECT_EQ(values(b[0]), (std::vector<std::int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(values(b[1]), (std::vector<std::int32_t>{4, 5, 6, 7}));
  EXPECT_EQ(values(b[2]), (std::vector<std::int32_t>{8, 9, 0, 1}));  // tail, then the head
  const std::vector<Tensor> d = to_batched(t, 2, Leftover::discard);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(values(d[1]), (std::vector<std::int32_t>{4, 5, 6, 7}));
  const std::vector<Tensor> whole = to_batched(t, 5);
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_EQ(values(whole[0]), values(t));
  // Nx's doc example: [1, 2, 3] in batches of 2 -> [1, 2], [3, 1].
  const std::vector<Tensor> nx = to_batched(from_vector<std::int32_t>({1, 2, 3}, &cpu()), 2);
  ASSERT_EQ(nx.size(), 2u);
  EXPECT_EQ(values(nx[1]), (std::vector<std::int32_t>{3, 1}));
}

TEST(ToBatched, BadInputs) {
  const Tensor t = iota({3}, DType::s32, std::nullopt, &cpu());
  EXPECT_THROW(to_batched(scalar_tensor(1, DType::s32, &cpu()), 1), ShapeError);
  EXPECT_THROW(to_batched(t, 0), ShapeError);
  EXPECT_THROW(to_batched(t, 4), ShapeError);
  EXPECT_THROW(to_batched(Tensor(), 1), Error);
}

TEST(AllClose, NxDocCasesAndIntegerMinimum) {
  auto f = [](std::vector<double> v) { return from_vector<double>(v, &cpu()); };
  // Nx's doc examples.
  EXPECT_EQ(all_close(f({1e10, 1e-7}), f({1.00001e10, 1e-8})).item<int>(), 0);
  EXPECT_EQ(all_close(f({1e-8, 1e-8}), f({1e-8, 1e-9})).item<int>(), 1);
  const Tensor r = all_close(f({1.0}), f({1.0}));
  EXPECT_EQ(r.dtype(), DType::u8);
  EXPECT_EQ(r.rank(), 0);
  // abs(s8 -128) wraps in s8; Nx widens b to f64 first, so x is close to itself.
  const Tensor x = from_vector<std::int8_t>({-128, 5}, &cpu());
  EXPECT_EQ(all_close(x, x).item<int>(), 1);
  EXPECT_EQ(all_close(from_vector<std::int32_t>({1}, &cpu()), f({1.000001})).item<int>(), 1);
}

TEST(AllClose, BadInputsNameAllClose) {
  const Tensor a = iota({3}, DType::f32, std::nullopt, &cpu());
  const Tensor b = iota({4}, DType::f32, std::nullopt, &cpu());
  try {
    all_close(a, b);
    ADD_FAILURE() << "no throw";
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("all_close"), std::string::npos) << e.what();
  }
  EXPECT_THROW(all_close(a, a, {-1.0, 0.0, false}), Error);
  EXPECT_THROW(all_close(a, a, {std::numeric_limits<double>::quiet_NaN(), 0.0, false}), Error);
  EXPECT_THROW(all_close(Tensor(), a), Error);
}

}  // namespace
}  // namespace vkt
