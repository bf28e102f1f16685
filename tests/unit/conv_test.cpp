// conv on the cpu against independent identities: a ones kernel over one channel is
// window_sum (strides, padding, dilations), a 1x1 kernel is a dot over channels, depthwise
// groups are per-channel convs, batch groups pick input images; promotion, empty sums and
// the error messages.
#include <gtest/gtest.h>

#include <random>

#include "support/compare.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::tensors_close;

Tensor random_tensor(const Shape& shape, DType d, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(-8, 8);
  std::vector<double> v(static_cast<std::size_t>(numel(shape)));
  for (double& x : v) x = dist(rng) / 4.0;
  return as_type(from_vector(v, shape, &cpu()), d);
}

TEST(Conv, OnesKernelIsWindowSum) {
  const Tensor x = random_tensor({1, 1, 9, 8}, DType::f64, 1);
  const Tensor ones = full({1, 1, 3, 2}, 1, DType::f64, &cpu());
  ConvOptions o;
  o.strides = {2, 1};
  o.padding = {{1, 2}, {0, 1}};
  o.kernel_dilation = {2, 3};
  WindowOptions w;
  w.strides = {1, 1, 2, 1};
  w.padding = {{0, 0}, {0, 0}, {1, 2}, {0, 1}};
  w.dilations = {1, 1, 2, 3};
  EXPECT_TRUE(tensors_close(conv(x, ones, o), window_sum(x, {1, 1, 3, 2}, w)));
}

TEST(Conv, PointwiseKernelIsDotOverChannels) {
  for (DType d : {DType::f32, DType::f64, DType::f16, DType::bf16}) {
    const Tensor x = random_tensor({2, 5, 3, 4}, d, 2);
    const Tensor k = random_tensor({6, 5, 1, 1}, d, 3);
    // out[n, o, h, w] = sum_c k[o, c] x[n, c, h, w]
    const Tensor want = transpose(dot(reshape(k, {6, 5}), {1}, {}, x, {1}, {}), {1, 0, 2, 3});
    EXPECT_TRUE(tensors_close(conv(x, k), want)) << dtype_name(d);
  }
}

TEST(Conv, DepthwiseIsOneConvPerChannel) {
  const Tensor x = random_tensor({2, 3, 6, 5}, DType::f32, 4);
  const Tensor k = random_tensor({3, 1, 3, 3}, DType::f32, 5);
  ConvOptions o;
  o.padding_mode = ConvPadding::same;
  o.feature_group_size = 3;
  const Tensor all = conv(x, k, o);
  ConvOptions one = o;
  one.feature_group_size = 1;
  for (std::int64_t c = 0; c < 3; ++c) {
    const Tensor xc = slice(x, {0, c, 0, 0}, {2, 1, 6, 5});
    const Tensor kc = slice(k, {c, 0, 0, 0}, {1, 1, 3, 3});
    EXPECT_TRUE(tensors_close(slice(all, {0, c, 0, 0}, {2, 1, 6, 5}), conv(xc, kc, one)));
  }
}

TEST(Conv, BatchGroupsReadImagesAGroupApart) {
  // 4 images, 2 groups: out channel group g of out image n reads image n + 2 g.
  const Tensor x = random_tensor({4, 2, 5}, DType::f64, 6);
  const Tensor k = random_tensor({6, 2, 2}, DType::f64, 7);
  ConvOptions o;
  o.batch_group_size = 2;
  const Tensor out = conv(x, k, o);
  ASSERT_EQ(out.shape(), (Shape{2, 6, 4}));
  for (std::int64_t n = 0; n < 2; ++n) {
    for (std::int64_t g = 0; g < 2; ++g) {
      const Tensor image = slice(x, {n + 2 * g, 0, 0}, {1, 2, 5});
      const Tensor filters = slice(k, {3 * g, 0, 0}, {3, 2, 2});
      EXPECT_TRUE(tensors_close(slice(out, {n, 3 * g, 0}, {1, 3, 4}), conv(image, filters)))
          << "n " << n << " g " << g;
    }
  }
}

TEST(Conv, PromotesLikeNx) {
  const Tensor xs = random_tensor({1, 1, 4}, DType::s32, 8);
  const Tensor ku = random_tensor({1, 1, 2}, DType::u8, 9);
  EXPECT_EQ(conv(xs, ku).dtype(), DType::f32);
  EXPECT_EQ(conv(as_type(xs, DType::f16), as_type(ku, DType::bf16)).dtype(), DType::f32);
  EXPECT_EQ(conv(xs, as_type(ku, DType::f16)).dtype(), DType::f16);
  EXPECT_EQ(conv(xs, as_type(ku, DType::f64)).dtype(), DType::f64);
}

TEST(Conv, EmptySumsAreZeroAndEmptyBatchesEmpty) {
  const Tensor x = full({2, 0, 4}, 1, DType::f32, &cpu());
  const Tensor k = full({3, 0, 2}, 1, DType::f32, &cpu());
  const Tensor out = conv(x, k);
  ASSERT_EQ(out.shape(), (Shape{2, 3, 3}));
  for (float v : out.to_vector<float>()) EXPECT_EQ(v, 0.0f);
  EXPECT_EQ(
      conv(full({0, 2, 5}, 1, DType::f32, &cpu()), full({3, 2, 2}, 1, DType::f32, &cpu())).shape(),
      (Shape{0, 3, 4}));
}

TEST(Conv, ErrorsNameTheOpAndTheValues) {
  const Tensor x = full({1, 3, 5}, 1, DType::f32, &cpu());
  const Tensor k = full({2, 2, 3}, 1, DType::f32, &cpu());
  try {
    (void)conv(x, k);
    FAIL() << "no error";
  } catch (const ShapeError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("[conv] ", 0), 0u) << m;
    EXPECT_NE(m.find("input channels 3"), std::string::npos) << m;
    EXPECT_NE(m.find("kernel input channels 2"), std::string::npos) << m;
  }
  ConvOptions o;
  o.strides = {0};
  EXPECT_THROW((void)conv(x, full({2, 3, 3}, 1, DType::f32, &cpu()), o), ShapeError);
  // The inputs are still usable after a failure.
  EXPECT_EQ(conv(x, full({2, 3, 3}, 1, DType::f32, &cpu())).to_vector<float>(),
            std::vector<float>(6, 9.0f));
}

}  // namespace
}  // namespace vkt
