// conv on the device against the cpu backend (im2col + OpenBLAS): 1-3 spatial axes, strides,
// asymmetric and negative padding, input and kernel dilation, feature and batch groups,
// odd sizes and many tiles, every float dtype the device has, integer inputs promoted, NaN and
// Inf in the input. Each native call is one dispatch (two where K splits: the rule's
// decision, its forced counts, and its sums' reproducibility are tested here too). 4 spatial
// axes fall back to the cpu.
// Floats are compared with a tolerance that grows with the reduction length K = Cg * taps
// and with sum |x||w| (summation orders differ: a split K's order, chunks then their sums,
// is one more within the same bound); poisoned outputs read as NaN if unwritten.
#include <cmath>
#include <string>
#include <vector>

#include "common/settings.h"
#include "conformance/conv_check.h"
#include "conformance/fixture.h"
#include "support/compare.h"
#include "vulkan/ops/conv_split.h"
#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

using conv_check::conv_close;
using conv_check::magnitudes;
using conv_check::make;

struct ConvCase {
  std::string name;
  Shape input, kernel;
  std::vector<std::int64_t> strides;
  std::vector<std::pair<std::int64_t, std::int64_t>> padding;
  std::vector<std::int64_t> input_dilation, kernel_dilation;
  std::int64_t feature_groups = 1, batch_groups = 1;
};

ConvOptions options(const ConvCase& c) {
  ConvOptions o;
  o.strides = c.strides;
  o.padding = c.padding;
  o.input_dilation = c.input_dilation;
  o.kernel_dilation = c.kernel_dilation;
  o.feature_group_size = c.feature_groups;
  o.batch_group_size = c.batch_groups;
  return o;
}

const std::vector<ConvCase>& conv_cases() {
  static const std::vector<ConvCase> cases = {
      {"1d valid", {2, 3, 9}, {4, 3, 3}, {}, {}, {}, {}},
      {"1d stride 3, pad {2, 0}", {1, 2, 10}, {3, 2, 4}, {3}, {{2, 0}}, {}, {}},
      {"2d 3x3 pad 1", {2, 5, 7, 6}, {8, 5, 3, 3}, {}, {{1, 1}, {1, 1}}, {}, {}},
      {"2d stride 2 asymmetric pad", {2, 3, 9, 8}, {4, 3, 3, 2}, {2, 1}, {{1, 2}, {0, 3}}, {}, {}},
      {"2d negative pad", {1, 2, 8, 8}, {3, 2, 2, 2}, {}, {{-1, 0}, {2, -3}}, {}, {}},
      {"2d input dilation", {1, 3, 5, 4}, {2, 3, 2, 3}, {}, {{1, 1}, {0, 0}}, {2, 3}, {}},
      {"2d kernel dilation", {2, 2, 9, 9}, {3, 2, 3, 2}, {1, 2}, {}, {}, {2, 3}},
      {"2d both dilations, strides",
       {1, 2, 6, 7},
       {2, 2, 3, 3},
       {2, 2},
       {{2, 1}, {1, 2}},
       {2, 1},
       {1, 2}},
      {"2d feature groups 3", {2, 6, 5, 5}, {9, 2, 3, 3}, {}, {{1, 1}, {1, 1}}, {}, {}, 3},
      {"2d depthwise", {1, 4, 6, 6}, {4, 1, 3, 3}, {}, {{1, 1}, {1, 1}}, {}, {}, 4},
      {"2d batch groups 2", {4, 3, 6, 5}, {6, 3, 2, 2}, {}, {}, {}, {}, 1, 2},
      {"1d batch groups 3, stride 2", {6, 2, 11}, {3, 2, 3}, {2}, {}, {}, {}, 1, 3},
      {"3d", {2, 2, 4, 5, 6}, {3, 2, 2, 3, 2}, {1, 2, 1}, {{1, 0}, {0, 1}, {1, 1}}, {}, {}},
      {"3d dilations", {1, 1, 5, 4, 6}, {2, 1, 2, 2, 3}, {2, 1, 2}, {}, {1, 1, 2}, {1, 2, 1}},
      {"1x1 kernel", {2, 7, 5, 3}, {5, 7, 1, 1}, {}, {}, {}, {}},
      {"odd sizes, many column tiles",
       {3, 7, 19, 23},
       {5, 7, 3, 5},
       {1, 1},
       {{2, 1}, {0, 3}},
       {},
       {}},
      {"more than 64 out channels per group",
       {1, 3, 11, 13},
       {70, 3, 3, 3},
       {},
       {{1, 1}, {1, 1}},
       {},
       {}},
      {"long K (input channels 40 x 9 taps)",
       {1, 40, 6, 6},
       {20, 40, 3, 3},
       {},
       {{1, 1}, {1, 1}},
       {},
       {}},
      {"kernel as large as the input", {1, 2, 4, 4}, {3, 2, 4, 4}, {}, {}, {}, {}},
      // A kernel cotangent as its rule writes it (batch and channels swapped, g the kernel):
      // a kernel longer than the output, and K long enough to split.
      {"kernel cotangent geometry, split K",
       {3, 4, 18, 20},
       {5, 4, 16, 18},
       {},
       {{1, 1}, {1, 1}},
       {},
       {}},
      {"kernel cotangent geometry, dilation 2, groups 2",
       {2, 8, 33, 33},
       {4, 4, 16, 16},
       {},
       {{1, 0}, {1, 0}},
       {},
       {2, 2},
       2},
      {"zero input channels", {2, 0, 4}, {3, 0, 2}, {}, {}, {}, {}},
      {"zero batch", {0, 2, 5}, {3, 2, 2}, {}, {}, {}, {}},
      {"empty kernel axis", {1, 2, 5}, {3, 2, 0}, {}, {}, {}, {2}},
  };
  return cases;
}

std::vector<DType> float_dtypes() {
  std::vector<DType> out = {DType::f32, DType::f16, DType::bf16};
  if (static_cast<vk::VulkanBackend&>(vulkan()).dtype_supported(DType::f64)) {
    out.push_back(DType::f64);
  }
  return out;
}

class Conv : public VulkanTest {
 protected:
  void check(const ConvCase& c, const Tensor& x, const Tensor& w, std::uint64_t fallbacks) {
    const std::string what = c.name + " " + std::string(dtype_name(x.dtype())) + "*" +
                             std::string(dtype_name(w.dtype()));
    const ConvOptions o = options(c);
    const Tensor want = conv(x, w, o);
    const Tensor mag = conv(magnitudes(x), magnitudes(w), o);
    const Tensor gx = transfer(x, gpu()), gw = transfer(w, gpu());
    LedgerScope scope;
    const Tensor got = conv(gx, gw, o);
    EXPECT_EQ(scope.delta().fallbacks, fallbacks) << what << ": " << scope.delta().to_string();
    if (fallbacks == 0) {
      EXPECT_EQ(&got.backend(), &gpu()) << what;
      // The conv, plus one conversion per input not already in the out dtype.
      const std::uint64_t conversions =
          (x.dtype() != want.dtype() ? 1u : 0u) + (w.dtype() != want.dtype() ? 1u : 0u);
      // The direct kernel: one dispatch. The im2col path (conv_gemm=1, and f16's
      // default where the device has cooperative matrices; one group only): im2col, the GEMM
      // and a split K's second pass.
      const bool one_group = c.feature_groups == 1 && c.batch_groups == 1;
      const bool took_gemm = vk::testing::last_conv_took_gemm();
      if (got.size() > 0 && gemm_) {
        EXPECT_EQ(took_gemm, one_group) << what;
      }
      if (got.size() > 0) {
        if (vk::testing::last_conv_winograd()) {  // transforms, the GEMM, the outputs
          EXPECT_GE(scope.delta().dispatches, 3u + conversions) << what;
        } else if (took_gemm || vk::testing::last_conv_splits() > 1) {  // a split K adds its sum
          EXPECT_LE(scope.delta().dispatches, 3u + conversions) << what;
        } else {
          EXPECT_EQ(scope.delta().dispatches, 1u + conversions) << what;
        }
      }
    }
    const std::int64_t k = numel(c.kernel) / std::max<std::int64_t>(c.kernel[0], 1);
    EXPECT_TRUE(conv_close(got, want, mag, want.dtype(), k)) << what;
  }
  void check(const ConvCase& c, DType d, std::uint64_t fallbacks) {
    check(c, make(c.input, d, 1), make(c.kernel, d, 2), fallbacks);
  }
  bool gemm_ = false;  // conv_gemm=1 is set
};

TEST_F(Conv, EveryFloatDtypeAndGeometryIsNative) {
  for (DType d : float_dtypes()) {
    for (const ConvCase& c : conv_cases()) check(c, d, 0);
  }
}

// A few output tiles over a long K (a kernel cotangent's geometry): the direct kernel splits
// K into f32 partials (f64's in f64) and adds them, for every dtype.
TEST_F(Conv, FewTilesOverALongKSplitK) {
  const ConvCase& c = conv_cases().at(19);
  ASSERT_EQ(c.name, "kernel cotangent geometry, split K");
  for (DType d : float_dtypes()) {
    check(c, d, 0);
    // f16 where the device has cooperative matrices takes im2col + dot's GEMM instead,
    // which splits K by dot's own rule.
    if (!vk::testing::last_conv_took_gemm()) {
      EXPECT_GT(vk::testing::last_conv_splits(), 1u) << dtype_name(d);
    }
  }
}

// K's split forced to a count (conv_split.h) for the test's duration.
class ForcedSplits {
 public:
  explicit ForcedSplits(std::uint32_t s) { vk::testing::force_conv_splits(s); }
  ~ForcedSplits() { vk::testing::force_conv_splits(0); }
  ForcedSplits(const ForcedSplits&) = delete;
  ForcedSplits& operator=(const ForcedSplits&) = delete;
};

// The kernel cotangent conv as d_conv writes it for x {8, 4, 20, 20} and g {8, 6, 20, 20}
// (batch and channels swapped, g the kernel; 3x3 outputs over K = 8 x 20 x 20), its strided
// forward's (the cotangent's kernel dilated by the stride) and a batch-grouped one: one
// output tile over a long K, which the rule splits on any device (K / 256 slices at most)
// where the direct kernel runs it.
TEST_F(Conv, KernelCotangentShapesSplitByTheRule) {
  const OverrideScope direct("conv_winograd=0");  // f32's rule takes Winograd's F(3x3, 2x2)
  const std::vector<ConvCase> cases = {
      {"cotangent of x {8, 4, 20, 20}, pad 1",
       {4, 8, 20, 20},
       {6, 8, 20, 20},
       {},
       {{1, 1}, {1, 1}},
       {},
       {}},
      {"cotangent of stride 2, pad 1",
       {4, 8, 20, 20},
       {6, 8, 10, 10},
       {},
       {{1, 0}, {1, 0}},
       {},
       {2, 2}},
      {"batch groups 2", {4, 8, 12, 12}, {6, 8, 10, 10}, {}, {}, {}, {}, 1, 2},
  };
  for (const ConvCase& c : cases) {
    for (DType d : float_dtypes()) {
      check(c, d, 0);
      if (!vk::testing::last_conv_took_gemm()) {  // as in FewTilesOverALongKSplitK
        EXPECT_GT(vk::testing::last_conv_splits(), 1u) << c.name << " " << dtype_name(d);
      }
    }
  }
}

// Forced slices over geometries with strides, asymmetric padding, both dilations, feature
// and batch groups, 3 axes (a few: each is a pipeline to compile, about a second on a cold
// lavapipe) in f32 (f16's partials: the tests above); 1 forces no split where the rule would.
TEST_F(Conv, ForcedSplitKMatchesTheCpu) {
  {
    const ForcedSplits three(3);
    for (const std::size_t i : std::vector<std::size_t>{3, 7, 8, 10, 12}) {
      const ConvCase& c = conv_cases().at(i);
      check(c, DType::f32, 0);
      const std::int64_t k = numel(c.kernel) / c.kernel[0];
      // Chunks of ceil(K / 3) rounded up to the K step (at most 16): two or three of them.
      if (k > 16) {
        EXPECT_GT(vk::testing::last_conv_splits(), 1u) << c.name;
      }
    }
  }
  const ForcedSplits one(1);
  check(conv_cases().at(19), DType::f32, 0);
  EXPECT_EQ(vk::testing::last_conv_splits(), 1u);
}

// A split conv's partials are added in a fixed order: the same bits every run.
TEST_F(Conv, SplitKIsReproducible) {
  const ForcedSplits five(5);
  const ConvCase& c = conv_cases().at(19);
  const Tensor x = transfer(make(c.input, DType::f32, 1), gpu());
  const Tensor w = transfer(make(c.kernel, DType::f32, 2), gpu());
  const std::vector<float> first = conv(x, w, options(c)).to_vector<float>();
  ASSERT_EQ(vk::testing::last_conv_splits(), 5u);
  for (int run = 0; run < 3; ++run) {
    EXPECT_EQ(conv(x, w, options(c)).to_vector<float>(), first) << "run " << run;
  }
}

// The rule itself, for devices this machine is not: about 4 workgroups per compute unit (256
// where the device reports none), slices of at least 256 K rows in whole K steps, partials
// within the storage range; an output with enough tiles, or a short K, does not split.
TEST(ConvSplitRule, FillsTheDeviceFromItsComputeUnits) {
  EXPECT_EQ(vk::conv_split_target(132), 528u);
  EXPECT_EQ(vk::conv_split_target(2), 8u);
  EXPECT_EQ(vk::conv_split_target(0), 256u);
  const std::uint64_t range = std::uint64_t{1} << 32;
  // The ResNet block's kernel cotangent: a 64 x 576 output (5 tiles of 64 x 128), K = 100352.
  const std::uint64_t k = 100352, out = 64 * 64 * 9;
  for (const std::uint32_t units : {132u, 2u, 0u}) {
    const vk::KSplit s = vk::conv_split_rule(units, 5, out, k, 4, 16, range);
    SCOPED_TRACE(units);
    // ceil(target / tiles) slices, a few fewer where chunks round up to whole K steps.
    const std::uint64_t want = (vk::conv_split_target(units) + 4) / 5;
    EXPECT_LE(s.splits, want);
    EXPECT_GE(s.splits, want * 9 / 10);
    EXPECT_EQ(s.chunk % 16, 0u);
    EXPECT_GE(s.chunk, 256u);
    EXPECT_GE(s.splits * s.chunk, k);
    EXPECT_LT((s.splits - 1) * s.chunk, k);
  }
  // Its forward conv: 784 tiles of K = 576, more than the target. A short K: one chunk.
  EXPECT_EQ(vk::conv_split_rule(132, 784, 32 * 64 * 3136, 576, 4, 16, range).splits, 1u);
  EXPECT_EQ(vk::conv_split_rule(132, 1, 64, 500, 4, 16, range).splits, 1u);
  EXPECT_EQ(vk::conv_split_rule(132, 1, 64, 500, 4, 16, range).chunk, 500u);
  // Slices of at least 256 rows: K = 1024 gives 4 however large the device.
  EXPECT_EQ(vk::conv_split_rule(132, 1, 64, 1024, 4, 16, range).splits, 4u);
  // Partials past the storage range: as many slices as fit.
  EXPECT_EQ(vk::conv_split_rule(132, 5, out, k, 4, 16, out * 4 * 10).splits, 10u);
  // K = 0: one chunk, of at least 1.
  const vk::KSplit empty = vk::conv_split_rule(132, 1, 64, 0, 4, 16, range);
  EXPECT_EQ(empty.splits, 1u);
  EXPECT_GE(empty.chunk, 1u);
}

// The implicit GEMM where the device would take im2col for f16 (cooperative matrices).
TEST_F(Conv, F16ImplicitGemmWhenAsked) {
  const OverrideScope force("conv_gemm=0");
  for (const ConvCase& c : conv_cases()) {
    check(c, DType::f16, 0);
    EXPECT_FALSE(vk::testing::last_conv_took_gemm()) << c.name;
  }
}

// im2col + dot's GEMM (conv_gemm=1) for every geometry with one group (the others keep the
// implicit GEMM); f16 takes cooperative matrices there where the device has them. Positions
// that are not a multiple of the 16-byte store's width (most conv_cases; f64 always) take
// the element-per-store im2col (conv_im2col.comp), the others conv_im2col_vec.comp.
TEST_F(Conv, Im2colGemmPathMatchesTheCpu) {
  const OverrideScope force("conv_gemm=1");
  gemm_ = true;
  for (DType d : float_dtypes()) {
    for (const ConvCase& c : conv_cases()) check(c, d, 0);
  }
  // The ResNet layer's shape, smaller: 64 -> 64 channels, 3x3, pad 1, positions % 8 == 0.
  const ConvCase resnet{
      "64->64 3x3 pad 1", {2, 64, 8, 8}, {64, 64, 3, 3}, {}, {{1, 1}, {1, 1}}, {}, {}};
  check(resnet, DType::f16, 0);
  check(resnet, DType::f32, 0);
  // Stride 2 with positions % 8 == 0: the 16-byte im2col stores (conv_im2col_vec.comp) with
  // strided origins; then the same channels with 7x7 and 7x5 outputs (49 and 35 positions)
  // on the element shader.
  const ConvCase strided{
      "stride 2, 8x8 out", {2, 3, 16, 16}, {4, 3, 3, 3}, {2, 2}, {{1, 1}, {1, 1}}, {}, {}};
  for (DType d : float_dtypes()) check(strided, d, 0);
  const ConvCase resnet_odd{
      "64->64 3x3 pad 1, 7x7 out", {2, 64, 7, 7}, {64, 64, 3, 3}, {}, {{1, 1}, {1, 1}}, {}, {}};
  const ConvCase strided_odd{
      "stride 2, 7x5 out", {2, 3, 14, 10}, {4, 3, 3, 3}, {2, 2}, {{1, 1}, {1, 1}}, {}, {}};
  check(resnet_odd, DType::f16, 0);
  check(strided_odd, DType::f32, 0);
}

// The im2col path marks its passes for the device timer: im2col, then the GEMM, whose
// device times add up to the whole (vkt-bench conv's C_gpu_im2col_us and C_gpu_gemm_us).
TEST_F(Conv, Im2colPathReportsTwoTimedPasses) {
  const OverrideScope force("conv_gemm=1");
  const Tensor x = transfer(make({2, 8, 8, 8}, DType::f32, 9), gpu());
  const Tensor w = transfer(make({8, 8, 3, 3}, DType::f32, 10), gpu());
  ConvOptions o;
  o.padding = {{1, 1}, {1, 1}};
  gpu().synchronize();
  gpu().begin_device_timer();
  const Tensor got = conv(x, w, o);
  gpu().end_device_timer();
  const double total = gpu().device_timer_us();
  if (total < 0) GTEST_SKIP() << "the device has no timestamps";
  const std::vector<double> passes = gpu().device_timer_passes_us();
  ASSERT_EQ(passes.size(), 2u);
  EXPECT_GE(passes[0], 0.0);
  EXPECT_GE(passes[1], 0.0);
  EXPECT_NEAR(passes[0] + passes[1], total, 1e-3 * total + 1e-3);
  // The implicit GEMM marks nothing.
  const OverrideScope implicit("conv_gemm=0");
  gpu().begin_device_timer();
  const Tensor again = conv(x, w, o);
  gpu().end_device_timer();
  EXPECT_GE(gpu().device_timer_us(), 0.0);
  EXPECT_TRUE(gpu().device_timer_passes_us().empty());
}

TEST_F(Conv, IntegerAndMixedInputsPromote) {
  const ConvCase c{"2d s32 and u8", {2, 3, 6, 5}, {4, 3, 3, 2}, {}, {{1, 1}, {0, 1}}, {}, {}};
  const Tensor x = as_type(iota(c.input, DType::s32), DType::s32);
  const Tensor w = as_type(iota(c.kernel, DType::u8), DType::u8);
  check(c, x, w, 0);  // f32 out; small integers: exact on both
  check(c, make(c.input, DType::f16, 5), make(c.kernel, DType::bf16, 6), 0);  // f32 out
}

TEST_F(Conv, NanAndInfinityPropagateAsOnTheCpu) {
  const ConvCase c{"2d specials", {1, 2, 6, 6}, {3, 2, 3, 3}, {}, {{1, 1}, {1, 1}}, {}, {}};
  for (DType d : float_dtypes()) {
    std::vector<double> v = as_doubles(make(c.input, DType::f64, 3));
    v[7] = std::nan("");
    v[20] = INFINITY;
    v[50] = -INFINITY;
    v[51] = -0.0;
    check(c, as_type(from_vector(v, c.input), d), make(c.kernel, d, 4), 0);
  }
}

TEST_F(Conv, FourSpatialAxesFallBack) {
  const ConvCase c{"4d", {1, 2, 3, 3, 3, 3}, {2, 2, 2, 1, 2, 2}, {}, {}, {}, {}};
  check(c, DType::f32, 1);
}

TEST_F(Conv, GeometryPastInt32PositionsFallsBack) {
  // Two outputs 2^30 apart: the shader's int32 positions would wrap, so the cpu runs it.
  const ConvCase c{"stride 2^30",
                   {1, 2, 5},
                   {3, 2, 2},
                   {std::int64_t{1} << 30},
                   {{0, std::int64_t{1} << 30}},
                   {},
                   {}};
  check(c, DType::f32, 1);
}

TEST_F(Conv, LayoutsTransposeOnTheDevice) {
  // NHWC input, HWIO kernel, NHWC output: the permutations run as native transposes.
  const Tensor x = make({2, 5, 4, 3}, DType::f32, 7), w = make({3, 2, 3, 4}, DType::f32, 8);
  ConvOptions o;
  o.input_permutation = {0, 3, 1, 2};
  o.kernel_permutation = {3, 2, 0, 1};
  o.output_permutation = {0, 3, 1, 2};
  o.padding_mode = ConvPadding::same;
  const Tensor want = conv(x, w, o);
  LedgerScope scope;
  const Tensor got = conv(transfer(x, gpu()), transfer(w, gpu()), o);
  EXPECT_EQ(scope.delta().fallbacks, 0u) << scope.delta().to_string();
  EXPECT_EQ(got.shape(), (Shape{2, 5, 4, 4}));
  EXPECT_TRUE(conv_close(got, want, conv(magnitudes(x), magnitudes(w), o), DType::f32, 18));
}

}  // namespace
}  // namespace vkt::testing
