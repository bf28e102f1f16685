// conv on the device against the cpu backend (im2col + OpenBLAS): 1-3 spatial axes, strides,
// asymmetric and negative padding, input and kernel dilation, feature and batch groups,
// odd sizes and many tiles, every float dtype the device has, integer inputs promoted, NaN and
// Inf in the input. Each native call is one dispatch. 4 spatial axes fall back to the cpu.
// Floats are compared with a tolerance that grows with the reduction length K = Cg * taps
// and with sum |x||w| (summation orders differ); poisoned outputs read as NaN if unwritten.
#include <cmath>
#include <string>
#include <vector>

#include "common/settings.h"
#include "conformance/fixture.h"
#include "support/compare.h"
#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

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

// Deterministic values in [-1, 1).
Tensor make(const Shape& shape, DType d, std::uint32_t seed) {
  std::vector<double> v(static_cast<std::size_t>(numel(shape)));
  std::uint32_t s = seed * 2654435761u + 12345u;
  for (double& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<double>(s >> 8) / static_cast<double>(1u << 23) - 1.0;
  }
  return as_type(from_vector(v, shape), d);
}

Tensor magnitudes(const Tensor& t) {
  std::vector<double> v = as_doubles(t);
  for (double& x : v) x = std::fabs(x);
  return from_vector(v, t.shape());
}

// Relative part growing with sqrt(K), absolute part relative to sum |x||w|; NaN where the cpu
// has NaN, the same infinity where it has one.
::testing::AssertionResult conv_close(const Tensor& got, const Tensor& want, const Tensor& mag,
                                      DType d, std::int64_t k) {
  if (got.dtype() != want.dtype() || got.shape() != want.shape()) {
    return ::testing::AssertionFailure()
           << "got " << dtype_name(got.dtype()) << shape_str(got.shape()) << ", want "
           << dtype_name(want.dtype()) << shape_str(want.shape());
  }
  const double root = std::sqrt(static_cast<double>(std::max<std::int64_t>(k, 1)));
  const double rtol = d == DType::f64    ? 1e-13 * root
                      : d == DType::f16  ? 2e-3
                      : d == DType::bf16 ? 1.6e-2
                                         : 1e-5 * root;
  const double atol = d == DType::f64 ? 1e-15 * root : 1e-5 * root;
  const std::vector<double> g = as_doubles(got), w = as_doubles(want), m = as_doubles(mag);
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (std::isnan(w[i]) && std::isnan(g[i])) continue;
    if (std::isinf(w[i]) && g[i] == w[i]) continue;
    const double bound = rtol * std::fabs(w[i]) + atol * m[i];
    if (!(std::fabs(g[i] - w[i]) <= bound)) {
      return ::testing::AssertionFailure()
             << "element " << i << ": " << g[i] << " vs cpu " << w[i] << " (bound " << bound << ")";
    }
  }
  return ::testing::AssertionSuccess();
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
        if (took_gemm || vk::testing::last_conv_splits() > 1) {  // a split K adds its sum
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

// A few output tiles over a long K (a kernel cotangent's geometry): f32 and f64 split K
// and add the partial outputs; f16 runs one chunk.
TEST_F(Conv, FewTilesOverALongKSplitK) {
  const ConvCase& c = conv_cases().at(19);
  ASSERT_EQ(c.name, "kernel cotangent geometry, split K");
  for (DType d : float_dtypes()) {
    check(c, d, 0);
    const bool splits = d == DType::f32 || d == DType::f64;
    EXPECT_EQ(vk::testing::last_conv_splits() > 1, splits) << dtype_name(d);
  }
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
