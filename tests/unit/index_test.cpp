#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "unit/movement_helpers.h"

namespace vkt {
namespace {

using movement_test::counting;
using movement_test::expect_error;
using movement_test::kTestDTypes;
using movement_test::make;
using movement_test::make_s64;
using movement_test::values;
using testing::tensors_close;

TEST(Index, GatherRowsAndElements) {
  for (DType d : kTestDTypes) {
    const Tensor t = counting({3, 4}, d);
    // k = 2: single elements; out-of-range indices clamp.
    const Tensor idx2 = make_s64({0, 1, 2, 3, 5, -1, 1, 9}, {4, 2});
    EXPECT_TRUE(tensors_close(gather(t, idx2), make({1, 11, 8, 7}, {4}, d)));
    // k = 1 on axis 0: rows.
    EXPECT_TRUE(tensors_close(gather(t, make_s64({2, 0}, {2, 1})),
                              make({8, 9, 10, 11, 0, 1, 2, 3}, {2, 4}, d)));
    // k = 1 on axis 1: columns, any integer index dtype.
    EXPECT_TRUE(tensors_close(gather(t, make({3, 0}, {2, 1}, DType::u8), {1}),
                              make({3, 7, 11, 0, 4, 8}, {2, 3}, d)));
  }
  // Axes in a non-sorted order pair with the index columns.
  const Tensor t = counting({2, 3, 4});
  EXPECT_TRUE(
      tensors_close(gather(t, make_s64({3, 1}, {1, 2}), {2, 0}), make({15, 19, 23}, {1, 3})));
  EXPECT_TRUE(tensors_close(gather(t, make_s64({1, 2}, {1, 1, 2}), {0, 1}),
                            make({20, 21, 22, 23}, {1, 1, 4})));
  EXPECT_EQ(gather(t, make_s64({}, {0, 2})).shape(), (Shape{0, 4}));
}

TEST(Index, GatherErrors) {
  const Tensor t = counting({3, 4});
  expect_error<TypeError>([&] { gather(t, make({0.5, 1}, {1, 2})); }, {"[gather]", "f32"});
  expect_error<ShapeError>(
      [&] {
        gather(t, make_s64({0, 0, 0}, {1, 3}));
      },
      {"[gather]", "{3, 4}", "3"});
  expect_error<ShapeError>([&] { gather(t, make_s64({0}, {})); }, {"[gather]", "rank"});
  expect_error<AxisError>([&] { gather(t, make_s64({0, 0}, {1, 2}), {1, 1}); }, {"[gather]", "1"});
  expect_error<ShapeError>(
      [&] {
        gather(counting({0, 2}), make_s64({0}, {1, 1}));
      },
      {"[gather]", "size 0"});
}

TEST(Index, Take) {
  for (DType d : kTestDTypes) {
    const Tensor t = counting({2, 3}, d);
    EXPECT_TRUE(tensors_close(take(t, make_s64({2, 0, 7, -3}, {2, 2}), 1),
                              make({2, 0, 2, 0, 5, 3, 5, 3}, {2, 2, 2}, d)));
    EXPECT_TRUE(tensors_close(take(t, make_s64({1}, {})), make({3, 4, 5}, {3}, d)));
  }
  const Tensor big = counting({6, 5, 4, 3});
  const Tensor picked = take(big, make({4, 0}, {2}, DType::s16), 1);
  EXPECT_TRUE(tensors_close(slice(picked, {0, 0, 0, 0}, {6, 1, 4, 3}),
                            slice(big, {0, 4, 0, 0}, {6, 1, 4, 3})));
  expect_error<TypeError>([&] { take(big, make({1}, {1}, DType::f16)); }, {"[take]", "f16"});
  expect_error<AxisError>([&] { take(big, make_s64({1}, {1}), 4); }, {"[take]", "4"});
}

TEST(Index, TakeAlongAxis) {
  for (DType d : kTestDTypes) {
    const Tensor t = make({10, 30, 20, 60, 50, 40}, {2, 3}, d);
    const Tensor idx = make_s64({0, 2, 1, 2, 1, 0}, {2, 3});
    EXPECT_TRUE(
        tensors_close(take_along_axis(t, idx, 1), make({10, 20, 30, 40, 50, 60}, {2, 3}, d)));
    EXPECT_TRUE(tensors_close(take_along_axis(t, make_s64({1, 5, -1}, {1, 3}), 0),
                              make({60, 50, 20}, {1, 3}, d)));
  }
  const Tensor t = counting({2, 3});
  expect_error<ShapeError>(
      [&] {
        take_along_axis(t, make_s64({0, 0}, {2, 1}), 0);
      },
      {"[take_along_axis]", "{2, 1}", "{2, 3}"});
  expect_error<TypeError>(
      [&] {
        take_along_axis(t, make({0, 0, 0}, {1, 3}), 0);
      },
      {"[take_along_axis]", "f32"});
}

TEST(Index, SelectBroadcastsAndPromotes) {
  const Tensor pred = make({1, 0, 2}, {3}, DType::u8);
  EXPECT_TRUE(
      tensors_close(select(pred, make({1, 2, 3}, {3}, DType::s32), make({-1}, {}, DType::s32)),
                    make({1, -1, 3}, {3}, DType::s32)));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // NaN is nonzero (true); -0.0 is zero (false).
  const Tensor fpred = make({nan, -0.0, 0.5, 0}, {2, 2}, DType::f32);
  EXPECT_TRUE(
      tensors_close(select(fpred, make({1, 2}, {2}, DType::u8), make({0.5}, {}, DType::f16)),
                    make({1, 0.5, 1, 0.5}, {2, 2}, DType::f16)));
  for (DType d : kTestDTypes) {
    EXPECT_TRUE(
        tensors_close(select(make({0, 1}, {2, 1}, d), counting({2, 3}, d), make({9}, {}, d)),
                      make({9, 9, 9, 3, 4, 5}, {2, 3}, d)));
  }
  expect_error<ShapeError>([&] { select(pred, counting({2}), counting({3})); },
                           {"[select]", "{3}", "{2}"});
}

TEST(Index, Clip) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (DType d : {DType::f16, DType::bf16, DType::f32, DType::f64}) {
    const Tensor t = make({-5, 0.5, 3, nan, INFINITY}, {5}, d);
    EXPECT_TRUE(tensors_close(clip(t, -1, 2), make({-1, 0.5, 2, nan, 2}, {5}, d)));
  }
  for (DType d : {DType::u8, DType::s16, DType::s32, DType::s64}) {
    EXPECT_TRUE(
        tensors_close(clip(counting({2, 3}, d), 1, 4), make({1, 1, 2, 3, 4, 4}, {2, 3}, d)));
  }
  // A float literal with an integer tensor gives f32 (weak scalars).
  EXPECT_TRUE(tensors_close(clip(make({1, 5}, {2}, DType::s32), 1.5, 3), make({1.5, 3}, {2})));
  // Per-column bounds broadcast; dtypes promote.
  EXPECT_TRUE(tensors_close(clip(counting({2, 3}, DType::s16), make({1, 0, 4}, {3}, DType::s32),
                                 make({2, 1, 4}, {3}, DType::u8)),
                            make({1, 1, 4, 2, 1, 4}, {2, 3}, DType::s32)));
  expect_error<ShapeError>(
      [&] {
        clip(counting({2, 3}), counting({2}), counting({3}));
      },
      {"[clip]", "{2}"});
}

TEST(Index, IndexedAddAccumulatesAndSkips) {
  for (DType d : kTestDTypes) {
    const Tensor t = make({1, 1, 1, 1}, {4}, d);
    const Tensor idx = make_s64({0, 2, 0, 4, -1, 3}, {6, 1});
    const Tensor upd = make({1, 2, 3, 50, 60, 4}, {6}, d);
    EXPECT_TRUE(tensors_close(indexed_add(t, idx, upd), make({5, 1, 3, 5}, {4}, d)));
    EXPECT_TRUE(tensors_close(indexed_put(t, idx, upd), make({3, 1, 2, 4}, {4}, d)));
  }
  // Rows of a matrix, and columns through `axes`.
  const Tensor m = counting({3, 2}, DType::s32);
  EXPECT_TRUE(tensors_close(
      indexed_add(m, make_s64({1, 1}, {2, 1}), make({1, 1, 10, 10}, {2, 2}, DType::s32)),
      make({0, 1, 13, 14, 4, 5}, {3, 2}, DType::s32)));
  EXPECT_TRUE(
      tensors_close(indexed_put(m, make_s64({1}, {1, 1}), make({7, 8, 9}, {1, 3}, DType::s32), {1}),
                    make({0, 7, 2, 8, 4, 9}, {3, 2}, DType::s32)));
  // Promotion for add; put keeps t's dtype.
  EXPECT_TRUE(tensors_close(
      indexed_add(make({1, 2}, {2}, DType::s32), make_s64({1}, {1, 1}), make({0.5}, {1})),
      make({1, 2.5}, {2})));
  EXPECT_TRUE(tensors_close(
      indexed_put(make({1, 2}, {2}, DType::s32), make_s64({1}, {1, 1}), make({7.9}, {1})),
      make({1, 7}, {2}, DType::s32)));
  // Integers wrap.
  EXPECT_TRUE(tensors_close(
      indexed_add(make({250}, {1}, DType::u8), make_s64({0}, {1, 1}), make({10}, {1}, DType::u8)),
      make({4}, {1}, DType::u8)));
  // Many duplicates over a large rest (the parallel split).
  const Tensor z = make(std::vector<double>(3 * 40000, 0), {3, 40000});
  const Tensor ones = make(std::vector<double>(5 * 40000, 1), {5, 40000});
  const Tensor sums = indexed_add(z, make_s64({2, 2, 0, 2, 2}, {5, 1}), ones);
  EXPECT_EQ(values(sums)[2 * 40000 + 39999], 4.0);
  EXPECT_EQ(values(sums)[40000], 0.0);
}

TEST(Index, UndefinedTensorsAreRejected) {
  const Tensor empty;
  expect_error<Error>([&] { take(counting({2}), empty); }, {"[take]", "empty"});
  expect_error<Error>([&] { select(empty, counting({2}), counting({2})); }, {"[select]", "empty"});
  expect_error<Error>([&] { clip(empty, 0, 1); }, {"[clip]", "empty"});
  expect_error<Error>([&] { indexed_add(counting({2}), empty, counting({1})); },
                      {"[indexed_add]", "empty"});
}

TEST(Index, IndexedUpdateErrors) {
  const Tensor t = counting({3, 2});
  expect_error<ShapeError>(
      [&] {
        indexed_add(t, make_s64({0}, {1, 1}), counting({1, 3}));
      },
      {"[indexed_add]", "{1, 3}", "{1, 2}"});
  expect_error<ShapeError>(
      [&] {
        indexed_put(t, make_s64({0}, {1}), counting({1, 2}));
      },
      {"[indexed_put]", "{1}"});
  expect_error<TypeError>(
      [&] {
        indexed_put(t, make({0}, {1, 1}), counting({1, 2}));
      },
      {"[indexed_put]", "f32"});
  expect_error<AxisError>(
      [&] {
        indexed_add(t, make_s64({0}, {1, 1}), counting({1, 3}), {2});
      },
      {"[indexed_add]", "2"});
  EXPECT_EQ(values(t), values(counting({3, 2})));
}

}  // namespace
}  // namespace vkt
