// conv by Winograd's algorithms on the device (vulkan/ops/conv_winograd.cpp) against the cpu
// backend: F(2x2, 3x3) for 3 x 3 kernels and F(3x3, 2x2) for 3 x 3 outputs of a large kernel
// (a kernel cotangent), forced with the conv_winograd override over odd and partial tiles,
// asymmetric and negative padding, chunks of images, NaN, infinities and values near the
// float limit (which the direct sum recomputes), and the rule's choices without it.
#include "vulkan/ops/conv_winograd.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "common/settings.h"
#include "conformance/conv_check.h"
#include "conformance/fixture.h"
#include "vulkan/runtime/backend.h"

namespace vkt::testing {
namespace {

using conv_check::conv_close;
using conv_check::magnitudes;
using conv_check::make;

struct Case {
  std::string name;
  Shape input, kernel;
  std::vector<std::pair<std::int64_t, std::int64_t>> padding;
};

ConvOptions options(const Case& c) {
  ConvOptions o;
  o.padding = c.padding;
  return o;
}

// The images of each chunk forced to a count for the scope's duration.
class ForcedChunk {
 public:
  explicit ForcedChunk(std::int64_t items) { vk::testing::force_winograd_chunk(items); }
  ~ForcedChunk() { vk::testing::force_winograd_chunk(0); }
  ForcedChunk(const ForcedChunk&) = delete;
  ForcedChunk& operator=(const ForcedChunk&) = delete;
};

// Winograd's rounding follows the magnitudes of the output's whole tile (its transforms mix
// the tile's outputs), not of its own window: each output's sum of magnitudes replaced by
// the largest in its side x side tile of out [P0, P1, OH, OW]. So an output whose window
// reads only zeros (padding) may hold its neighbours' rounding residue (docs/grad.md).
Tensor tile_magnitudes(const Tensor& mag, std::int64_t side) {
  const Shape& s = mag.shape();
  std::vector<double> v = as_doubles(mag), out(v.size());
  const std::int64_t planes = s[0] * s[1], oh = s[2], ow = s[3];
  for (std::int64_t p = 0; p < planes; ++p) {
    for (std::int64_t y = 0; y < oh; ++y) {
      for (std::int64_t x = 0; x < ow; ++x) {
        double m = 0;
        for (std::int64_t ty = y / side * side; ty < std::min(oh, y / side * side + side); ++ty) {
          for (std::int64_t tx = x / side * side; tx < std::min(ow, x / side * side + side); ++tx) {
            m = std::max(m, v[static_cast<std::size_t>((p * oh + ty) * ow + tx)]);
          }
        }
        out[static_cast<std::size_t>((p * oh + y) * ow + x)] = m;
      }
    }
  }
  return from_vector(out, s);
}

bool all_finite(const Tensor& t) {
  for (const double v : as_doubles(t)) {
    if (!std::isfinite(v)) return false;
  }
  return true;
}

class ConvWinograd : public VulkanTest {
 protected:
  // x and w on the device against the cpu, expecting Winograd (or not) and no fallback.
  // The recompute stays on only where an operand holds a NaN or an infinity, or where
  // `overflows` says the transforms overflow: otherwise a pass reading scratch nobody wrote
  // (NaN under VKT_POISON) must show.
  void check(const Case& c, const Tensor& x, const Tensor& w, bool winograd,
             bool overflows = false) {
    vk::testing::set_winograd_recompute(overflows || !all_finite(x) || !all_finite(w));
    const ConvOptions o = options(c);
    const Tensor want = conv(x, w, o);
    const bool small_kernel = c.kernel[2] == 3 && c.kernel[3] == 3;
    const Tensor own = conv(magnitudes(x), magnitudes(w), o);
    const Tensor mag = winograd ? tile_magnitudes(own, small_kernel ? 2 : 3) : own;
    const Tensor gx = transfer(x, gpu()), gw = transfer(w, gpu());
    LedgerScope scope;
    const Tensor got = conv(gx, gw, o);
    vk::testing::set_winograd_recompute(true);
    EXPECT_EQ(scope.delta().fallbacks, 0u) << c.name << ": " << scope.delta().to_string();
    EXPECT_EQ(&got.backend(), &gpu()) << c.name;
    EXPECT_EQ(vk::testing::last_conv_winograd(), winograd) << c.name;
    last_dispatches_ = scope.delta().dispatches;
    const std::int64_t k = numel(c.kernel) / std::max<std::int64_t>(c.kernel[0], 1);
    EXPECT_TRUE(conv_close(got, want, mag, DType::f32, k)) << c.name;
  }
  void check(const Case& c, bool winograd) {
    check(c, make(c.input, DType::f32, 1), make(c.kernel, DType::f32, 2), winograd);
  }
  std::uint64_t last_dispatches_ = 0;
};

const std::vector<Case>& small_kernel_cases() {
  static const std::vector<Case> cases = {
      {"pad 1, even sizes", {2, 5, 8, 6}, {7, 5, 3, 3}, {{1, 1}, {1, 1}}},
      {"odd output sizes (partial tiles)", {3, 4, 9, 7}, {6, 4, 3, 3}, {{1, 1}, {1, 1}}},
      {"valid, one channel", {1, 1, 5, 5}, {1, 1, 3, 3}, {}},
      {"asymmetric padding", {2, 3, 7, 10}, {5, 3, 3, 3}, {{2, 0}, {0, 3}}},
      {"negative padding", {1, 6, 9, 9}, {4, 6, 3, 3}, {{-1, 2}, {1, -2}}},
      {"a one-element output", {1, 3, 3, 3}, {2, 3, 3, 3}, {}},
      {"more channels than a tile", {2, 70, 6, 5}, {66, 70, 3, 3}, {{1, 1}, {1, 1}}},
  };
  return cases;
}

// 3 x 3 outputs: kernel cotangents as d_conv writes them (channels and batch swapped, the
// output's cotangent the kernel), odd kernels (a tile's second row or column past its end),
// and padding on one side only.
const std::vector<Case>& small_output_cases() {
  static const std::vector<Case> cases = {
      {"cotangent of x {8, 4, 20, 20}, pad 1", {4, 8, 20, 20}, {6, 8, 20, 20}, {{1, 1}, {1, 1}}},
      {"odd kernel 9 x 11", {3, 5, 11, 11}, {2, 5, 9, 11}, {{0, 0}, {1, 1}}},
      {"one-sided padding", {2, 3, 12, 13}, {5, 3, 11, 12}, {{1, 0}, {0, 1}}},
      {"2 x 2 kernel", {1, 2, 4, 4}, {3, 2, 2, 2}, {}},
  };
  return cases;
}

TEST_F(ConvWinograd, SmallKernelMatchesTheCpu) {
  const OverrideScope force("conv_winograd=1");
  for (const Case& c : small_kernel_cases()) check(c, true);
}

TEST_F(ConvWinograd, SmallOutputMatchesTheCpu) {
  const OverrideScope force("conv_winograd=1");
  for (const Case& c : small_output_cases()) check(c, true);
}

// Random geometries of both algorithms (seeded, so a failure names a case that replays):
// sizes, channels, batches, padding from -1 to 3 on each side, and for F(3x3, 2x2) kernels
// from 2 x 2 to 12 x 12 with the input sized for 3 x 3 outputs.
TEST_F(ConvWinograd, RandomGeometriesMatchTheCpu) {
  const OverrideScope force("conv_winograd=1");
  std::uint32_t state = 12345;
  auto draw = [&](std::int64_t lo, std::int64_t hi) {
    state = state * 1664525u + 1013904223u;
    return lo + static_cast<std::int64_t>((state >> 8) % static_cast<std::uint32_t>(hi - lo + 1));
  };
  for (int i = 0; i < 40; ++i) {
    const std::int64_t n = draw(1, 3), c = draw(1, 9), o = draw(1, 9);
    const std::pair<std::int64_t, std::int64_t> ph{draw(-1, 3), draw(-1, 3)},
        pw{draw(-1, 3), draw(-1, 3)};
    if (i % 2 == 0) {  // F(2x2, 3x3): the padded input at least 3 x 3
      const std::int64_t h = std::max<std::int64_t>(draw(1, 12), 3 - ph.first - ph.second);
      const std::int64_t w = std::max<std::int64_t>(draw(1, 12), 3 - pw.first - pw.second);
      check({"3x3 kernel, case " + std::to_string(i), {n, c, h, w}, {o, c, 3, 3}, {ph, pw}}, true);
    } else {  // F(3x3, 2x2): 3 x 3 outputs
      const std::int64_t kh = draw(2, 12), kw = draw(2, 12);
      const std::int64_t h = kh + 2 - ph.first - ph.second, w = kw + 2 - pw.first - pw.second;
      if (h < 1 || w < 1) continue;
      check({"3x3 outputs, case " + std::to_string(i), {n, c, h, w}, {o, c, kh, kw}, {ph, pw}},
            true);
    }
  }
}

// Chunks of images (F(2x2, 3x3): each chunk its own outputs) and of contracted images
// (F(3x3, 2x2): each chunk adds to the output), uneven last chunks included: one pass per
// chunk at least, the same values as one chunk.
TEST_F(ConvWinograd, ChunksMatchOneChunk) {
  const OverrideScope force("conv_winograd=1");
  const Case forward{"5 images in chunks of 2", {5, 4, 7, 6}, {3, 4, 3, 3}, {{1, 1}, {1, 1}}};
  const Case cotangent{
      "7 contracted images in chunks of 3", {2, 7, 10, 10}, {3, 7, 10, 10}, {{1, 1}, {1, 1}}};
  for (const Case& c : {forward, cotangent}) {
    check(c, true);
    const std::uint64_t whole = last_dispatches_;
    const ForcedChunk chunk(c.name == forward.name ? 2 : 3);
    check(c, true);
    EXPECT_GE(last_dispatches_, whole + 2 * 3) << c.name;  // two more chunks of 3 passes
  }
}

// NaN and infinities in either operand, and finite values near the float limit whose
// transforms overflow: every output the direct sum would give, NaN or infinite where the
// cpu's is.
TEST_F(ConvWinograd, NonFiniteAndHugeValuesFollowTheDirectSum) {
  const OverrideScope force("conv_winograd=1");
  const double big = 0.75 * std::numeric_limits<float>::max();
  for (const Case& c : {small_kernel_cases()[0], small_output_cases()[1]}) {
    std::vector<double> x = as_doubles(make(c.input, DType::f64, 3));
    std::vector<double> w = as_doubles(make(c.kernel, DType::f64, 4));
    x[7] = std::nan("");
    x[20] = INFINITY;
    x[x.size() - 3] = -INFINITY;
    w[w.size() / 2] = std::nan("");
    const Tensor xs = as_type(from_vector(x, c.input), DType::f32);
    const Tensor ws = as_type(from_vector(w, c.kernel), DType::f32);
    check({c.name + " with NaN and infinities", c.input, c.kernel, c.padding}, xs, ws, true);
    {  // in chunks of one image: the recompute only where the last chunk has added
      const ForcedChunk chunk(1);
      check({c.name + " with NaN and infinities, chunks", c.input, c.kernel, c.padding}, xs, ws,
            true);
    }
    // Two neighbours near the limit in each plane: B^T's sum of them overflows, the direct
    // sums (weights 1 / K) stay finite.
    std::vector<double> huge = as_doubles(make(c.input, DType::f64, 5));
    const std::int64_t plane = c.input[2] * c.input[3];
    for (std::size_t i = 0; i < huge.size(); i += static_cast<std::size_t>(plane)) {
      huge[i] = huge[i + 1] = big;
    }
    std::vector<double> ones(w.size(), 1.0 / static_cast<double>(numel(c.kernel) / c.kernel[0]));
    check({c.name + " near the float limit", c.input, c.kernel, c.padding},
          as_type(from_vector(huge, c.input), DType::f32),
          as_type(from_vector(ones, c.kernel), DType::f32), true, true);
  }
}

// Outputs whose window reads only padding are the direct sum's zeros, not a rounding residue
// of the tile's other outputs (the random test found one at -1.2e-7), with the recompute of
// non-finite outputs off. F(3x3, 2x2)'s outputs mix the whole tile (F(2x2, 3x3)'s keep to
// their windows' rows and columns, so theirs are zeros anyway).
TEST_F(ConvWinograd, PaddingOnlyWindowsGiveExactZeros) {
  const OverrideScope force("conv_winograd=1");
  // 3 x 3 outputs of a 2 x 4 kernel, padding 2 above a 2-row input: output row 0's window
  // is rows -2 and -1.
  const Case c{"padding-only row", {3, 4, 2, 4}, {5, 4, 2, 4}, {{2, 0}, {1, 1}}};
  check(c, true);  // within the tile bound
  vk::testing::set_winograd_recompute(false);
  const Tensor got = conv(transfer(make(c.input, DType::f32, 1), gpu()),
                          transfer(make(c.kernel, DType::f32, 2), gpu()), options(c));
  vk::testing::set_winograd_recompute(true);
  EXPECT_TRUE(vk::testing::last_conv_winograd());
  ASSERT_EQ(got.shape(), (Shape{3, 5, 3, 3}));
  const std::vector<float> v = got.to_vector<float>();
  int zeros = 0;
  for (std::size_t i = 0; i < v.size(); i += 9) {
    for (std::size_t x = 0; x < 3; ++x) {
      EXPECT_EQ(v[i + x], 0.0f) << "output " << i + x;
      ++zeros;
    }
  }
  EXPECT_EQ(zeros, 3 * 5 * 3);
}

// The rule, without the override: a kernel cotangent of 8 x 8 taps or more and a 3 x 3
// kernel over 64 channels each way take Winograd; fewer taps or channels keep the direct
// kernel, and so, even when forced, do strides, groups, dilations and other dtypes.
TEST_F(ConvWinograd, TheRuleTakesCotangentsAndWideLayers) {
  check(small_output_cases()[0], true);
  check({"a 64-channel layer", {1, 64, 6, 6}, {64, 64, 3, 3}, {{1, 1}, {1, 1}}}, true);
  check({"8 channels", {1, 8, 6, 6}, {8, 8, 3, 3}, {{1, 1}, {1, 1}}}, false);
  check({"3 x 3 outputs of a 3 x 4 kernel", {1, 2, 5, 6}, {2, 2, 3, 4}, {}}, false);
  // Forced on, where neither algorithm applies: the direct kernel (each conv native, so the
  // flag read is this call's).
  const OverrideScope force("conv_winograd=1");
  const Tensor x = transfer(make({1, 2, 8, 8}, DType::f32, 1), gpu());
  const Tensor w = transfer(make({3, 2, 3, 3}, DType::f32, 2), gpu());
  auto expect_direct = [&](const Tensor& a, const Tensor& b, const ConvOptions& o,
                           const char* what) {
    (void)conv(x, w);  // Winograd: the flag is set
    ASSERT_TRUE(vk::testing::last_conv_winograd()) << what;
    LedgerScope scope;
    (void)conv(a, b, o);
    ASSERT_EQ(scope.delta().fallbacks, 0u) << what;
    EXPECT_FALSE(vk::testing::last_conv_winograd()) << what;
  };
  ConvOptions strided;
  strided.strides = {2, 2};
  expect_direct(x, w, strided, "stride 2");
  ConvOptions groups;
  groups.feature_group_size = 2;
  expect_direct(x, transfer(make({4, 1, 3, 3}, DType::f32, 2), gpu()), groups, "feature groups");
  ConvOptions dilated;
  dilated.kernel_dilation = {2, 1};
  expect_direct(x, w, dilated, "kernel dilation");
  ConvOptions input_dilated;
  input_dilated.input_dilation = {1, 2};
  expect_direct(x, w, input_dilated, "input dilation");
  if (static_cast<vk::VulkanBackend&>(gpu()).dtype_supported(DType::f16)) {
    expect_direct(as_type(x, DType::f16), as_type(w, DType::f16), {}, "f16");
  }
}

}  // namespace
}  // namespace vkt::testing
