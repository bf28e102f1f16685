// slice / put_slice with start indices in scalar integer tensors on the cpu: the same
// clamping as integer starts, and bad starts.
#include <gtest/gtest.h>

#include "vkt/vkt.h"

namespace vkt {
namespace {

Tensor s(std::int64_t v, DType d = DType::s64) {
  return scalar_tensor(v, d, &cpu());
}

TEST(SliceTensorStarts, MatchesIntegerStartsIncludingClamping) {
  const Tensor t = iota({4, 5}, DType::f32, std::nullopt, &cpu());
  for (std::int64_t r : {-3, 0, 1, 2, 9}) {
    for (std::int64_t c : {-1, 0, 2, 4, 100}) {
      EXPECT_EQ(slice(t, {s(r), s(c, DType::s32)}, {2, 2}).to_vector<float>(),
                slice(t, std::vector<std::int64_t>{r, c}, {2, 2}).to_vector<float>())
          << r << "," << c;
      EXPECT_EQ(slice(t, {s(r), s(c)}, {2, 2}, {2, 1}).to_vector<float>(),
                slice(t, std::vector<std::int64_t>{r, c}, {2, 2}, {2, 1}).to_vector<float>());
      const Tensor u = full({2, 3}, -1, DType::f32, &cpu());
      EXPECT_EQ(put_slice(t, {s(r), s(c)}, u).to_vector<float>(),
                put_slice(t, std::vector<std::int64_t>{r, c}, u).to_vector<float>());
    }
  }
  const std::vector<Tensor> starts = {s(1, DType::u8), s(1, DType::s16)};
  EXPECT_EQ(slice(t, starts, {1, 1}).item<float>(), 6.0f);
}

TEST(SliceTensorStarts, BadStarts) {
  const Tensor t = iota({4, 5}, DType::f32, std::nullopt, &cpu());
  EXPECT_THROW(slice(t, {s(0)}, {1, 1}), ShapeError);  // one start for rank 2
  EXPECT_THROW(slice(t, {s(0), scalar_tensor(1.0, DType::f32, &cpu())}, {1, 1}), TypeError);
  EXPECT_THROW(slice(t, {s(0), iota({1}, DType::s64, std::nullopt, &cpu())}, {1, 1}), ShapeError);
  EXPECT_THROW(slice(t, {s(0), Tensor()}, {1, 1}), Error);
  EXPECT_THROW(slice(t, {s(0), s(0)}, {5, 1}), ShapeError);
  EXPECT_THROW(put_slice(t, {s(0), s(0)}, full({5, 1}, 0, DType::f32, &cpu())), ShapeError);
  EXPECT_THROW(put_slice(t, {s(0)}, full({1, 1}, 0, DType::f32, &cpu())), ShapeError);
  try {
    slice(t, {s(0), scalar_tensor(1.5, DType::f64, &cpu())}, {1, 1});
    ADD_FAILURE() << "no throw";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("[slice] start 1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace vkt
