// top_k's values: gathered by take_along_axis (indexing family), so this file links once
// that family is present.
#include <gtest/gtest.h>

#include "vkt/vkt.h"

namespace vkt {
namespace {

TEST(TopK, ValuesMatch) {
  const Tensor t = from_vector<float>({1, 3, 3, 2, 3, 0, 5, 5, 4, 5}, {2, 5});
  const auto [values, indices] = top_k(t, 3);
  EXPECT_EQ(values.dtype(), DType::f32);
  EXPECT_EQ(values.shape(), (Shape{2, 3}));
  EXPECT_EQ(values.to_vector<float>(), (std::vector<float>{3, 3, 3, 5, 5, 5}));
  EXPECT_EQ(indices.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 4, 1, 2, 4}));
  const auto [v2, i2] = top_k(from_vector<std::int32_t>({4, -1, 9, 9, 0}), 2);
  EXPECT_EQ(v2.to_vector<std::int32_t>(), (std::vector<std::int32_t>{9, 9}));
  EXPECT_EQ(i2.to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 3}));
}

}  // namespace
}  // namespace vkt
