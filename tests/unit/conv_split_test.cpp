// conv on the cpu against a direct sum in double, on layers wide enough (64 input channels
// x 3x3 taps) that the output positions are cut into several column tiles whose edges fall
// inside output rows, under both work splits (cpu_conv_split=tiles|images): strides,
// padding (negative too), input and kernel dilation, feature groups; and kernels longer than
// the output, whose columns are filled along K.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "common/settings.h"
#include "support/compare.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::as_doubles;

struct Layer {
  Shape input, kernel;
  ConvOptions opts;
};

// out[n, o, y, x] = sum over c, ky, kx of k[o, c, ky, kx] * the dilated, padded input.
std::vector<double> direct_conv(const Tensor& x, const Tensor& k, const ConvOptions& o,
                                const Shape& out_shape) {
  const std::vector<double> xv = as_doubles(x), kv = as_doubles(k);
  const Shape &xs = x.shape(), &ks = k.shape();
  const std::int64_t groups = o.feature_group_size, og = ks[0] / groups, cg = ks[1];
  std::vector<double> out(static_cast<std::size_t>(numel(out_shape)), 0.0);
  std::size_t at = 0;
  for (std::int64_t n = 0; n < out_shape[0]; ++n) {
    for (std::int64_t oc = 0; oc < out_shape[1]; ++oc) {
      for (std::int64_t y = 0; y < out_shape[2]; ++y) {
        for (std::int64_t xo = 0; xo < out_shape[3]; ++xo, ++at) {
          double acc = 0;
          for (std::int64_t c = 0; c < cg; ++c) {
            const std::int64_t ci = (oc / og) * cg + c;
            for (std::int64_t ky = 0; ky < ks[2]; ++ky) {
              for (std::int64_t kx = 0; kx < ks[3]; ++kx) {
                const std::int64_t py =
                    y * o.strides[0] + ky * o.kernel_dilation[0] - o.padding[0].first;
                const std::int64_t px =
                    xo * o.strides[1] + kx * o.kernel_dilation[1] - o.padding[1].first;
                if (py < 0 || px < 0 || py % o.input_dilation[0] != 0 ||
                    px % o.input_dilation[1] != 0) {
                  continue;
                }
                const std::int64_t iy = py / o.input_dilation[0], ix = px / o.input_dilation[1];
                if (iy >= xs[2] || ix >= xs[3]) continue;
                acc += kv[static_cast<std::size_t>(((oc * cg + c) * ks[2] + ky) * ks[3] + kx)] *
                       xv[static_cast<std::size_t>(((n * xs[1] + ci) * xs[2] + iy) * xs[3] + ix)];
              }
            }
          }
          out[at] = acc;
        }
      }
    }
  }
  return out;
}

Tensor random_tensor(const Shape& shape, DType d, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(-8, 8);
  std::vector<double> v(static_cast<std::size_t>(numel(shape)));
  for (double& e : v) e = dist(rng) / 8.0;
  return as_type(from_vector(v, shape, &cpu()), d);
}

ConvOptions options(std::vector<std::int64_t> strides,
                    std::vector<std::pair<std::int64_t, std::int64_t>> pad,
                    std::vector<std::int64_t> in_dil, std::vector<std::int64_t> k_dil,
                    std::int64_t groups) {
  ConvOptions o;
  o.strides = std::move(strides);
  o.padding = std::move(pad);
  o.input_dilation = std::move(in_dil);
  o.kernel_dilation = std::move(k_dil);
  o.feature_group_size = groups;
  return o;
}

TEST(ConvSplit, EverySplitMatchesADirectSum) {
  const std::vector<Layer> layers = {
      {{3, 64, 23, 37}, {5, 64, 3, 3}, options({1, 1}, {{1, 1}, {1, 1}}, {1, 1}, {1, 1}, 1)},
      {{2, 64, 19, 29}, {4, 64, 3, 2}, options({2, 3}, {{2, -1}, {0, 2}}, {1, 1}, {2, 1}, 1)},
      {{2, 64, 11, 13}, {3, 64, 3, 3}, options({1, 2}, {{1, 0}, {2, 1}}, {2, 3}, {1, 2}, 1)},
      {{2, 128, 17, 21}, {6, 64, 3, 3}, options({1, 1}, {{0, 0}, {1, 1}}, {1, 1}, {1, 1}, 2)},
      {{4, 64, 9, 70}, {2, 64, 1, 1}, options({1, 1}, {{0, 0}, {0, 0}}, {1, 1}, {1, 1}, 1)},
      // Kernels longer than the output (kernel cotangents as convs): columns along K.
      {{3, 8, 20, 22}, {5, 8, 17, 19}, options({1, 1}, {{1, 1}, {1, 1}}, {1, 1}, {1, 1}, 1)},
      {{2, 6, 21, 21}, {4, 3, 9, 9}, options({1, 1}, {{1, 0}, {1, 0}}, {1, 1}, {2, 2}, 2)},
      {{2, 4, 7, 8}, {3, 4, 10, 11}, options({1, 1}, {{1, 1}, {0, 1}}, {2, 2}, {1, 1}, 1)},
  };
  for (const char* split : {"tiles", "images"}) {
    const OverrideScope forced(std::string("cpu_conv_split=") + split);
    std::uint32_t seed = 1;
    for (const Layer& l : layers) {
      for (DType d : {DType::f32, DType::f64}) {
        const Tensor x = random_tensor(l.input, d, seed++), k = random_tensor(l.kernel, d, seed++);
        const Tensor got = conv(x, k, l.opts);
        const std::vector<double> want = direct_conv(x, k, l.opts, got.shape());
        const std::vector<double> g = as_doubles(got);
        ASSERT_EQ(g.size(), want.size());
        std::size_t bad = 0;
        for (std::size_t i = 0; i < g.size(); ++i) {
          // Sums of eighths times eighths: exact in f32 and f64 at these sizes.
          if (g[i] != want[i] && bad++ == 0) {
            ADD_FAILURE() << split << " " << dtype_name(d) << " " << shape_str(l.input)
                          << " element " << i << ": " << g[i] << " != " << want[i];
          }
        }
      }
    }
  }
}

TEST(ConvSplit, AnUnknownSplitIsAnError) {
  EXPECT_THROW(OverrideScope("cpu_conv_split=rows"), Error);
  const Tensor x = full({1, 2, 5}, 1, DType::f32, &cpu()),
               k = full({1, 2, 3}, 1, DType::f32, &cpu());
  EXPECT_EQ(conv(x, k).to_vector<float>(), std::vector<float>(3, 6.0f));
}

}  // namespace
}  // namespace vkt
