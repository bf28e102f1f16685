// The conv and window rules against central differences in f64 (every conv option alone and
// combined, every window option), ties sent where Nx sends them, and the conv backward run
// natively on Vulkan with the cpu's result.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/grad_check.h"
#include "vkt/compile.h"
#include "vkt/grad.h"
#include "vkt/ledger.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using grad_check::check;
using grad_check::Fn;
using grad_check::values;
using Ts = std::vector<Tensor>;

struct ConvCase {
  std::string name;
  Shape input, kernel;
  ConvOptions opts;
};

// sum(conv(x, k) * w) with fixed weights w, so every output element's cotangent differs.
void check_conv(const ConvCase& c, std::uint32_t seed) {
  const Tensor x = values(c.input, -1, 1, seed);
  const Tensor k = values(c.kernel, -1, 1, seed + 1);
  const Tensor w = values(conv(x, k, c.opts).shape(), -1, 1, seed + 2);
  const ConvOptions opts = c.opts;
  check(c.name, [opts, w](const Ts& a) { return sum(multiply(conv(a[0], a[1], opts), w)); },
        {x, k});
}

ConvOptions strided_padded(std::size_t spatial) {
  ConvOptions o;
  o.strides.assign(spatial, 2);
  o.padding.assign(spatial, {1, 1});
  return o;
}

TEST(GradWindow, Conv1dEachOption) {
  ConvOptions kdil;
  kdil.kernel_dilation = {2};
  ConvOptions idil;
  idil.input_dilation = {2};
  ConvOptions negative;
  negative.padding = {{-1, 2}};
  ConvOptions fg2;
  fg2.feature_group_size = 2;
  ConvOptions fg3;
  fg3.feature_group_size = 3;
  ConvOptions bg2;
  bg2.batch_group_size = 2;
  ConvOptions same;
  same.padding_mode = ConvPadding::same;
  same.kernel_dilation = {2};
  ConvOptions nwc;  // input {N, W, C}, kernel {W, I, O}, output {N, W, O}
  nwc.input_permutation = {0, 2, 1};
  nwc.kernel_permutation = {2, 1, 0};
  nwc.output_permutation = {0, 2, 1};
  const std::vector<ConvCase> cases = {
      {"plain, batch 1, one channel", {1, 1, 5}, {1, 1, 3}, {}},
      {"plain, batch 2, three channels", {2, 3, 6}, {2, 3, 3}, {}},
      {"stride 2 with padding", {2, 3, 7}, {2, 3, 3}, strided_padded(1)},
      {"stride 2 with padding, one channel", {1, 1, 8}, {1, 1, 2}, strided_padded(1)},
      {"kernel dilation 2", {2, 3, 8}, {2, 3, 3}, kdil},
      {"input dilation 2", {1, 3, 5}, {2, 3, 3}, idil},
      {"negative padding", {2, 1, 7}, {3, 1, 3}, negative},
      {"feature groups 2", {2, 4, 6}, {2, 2, 3}, fg2},
      {"feature groups 3 (depthwise)", {1, 3, 6}, {3, 1, 2}, fg3},
      {"batch groups 2", {2, 3, 6}, {4, 3, 3}, bg2},
      {"batch groups 2, batch 4", {4, 1, 5}, {2, 1, 2}, bg2},
      {"same padding, dilated kernel", {2, 3, 6}, {2, 3, 3}, same},
      {"NWC layout", {2, 6, 3}, {3, 3, 2}, nwc},
  };
  std::uint32_t seed = 1;
  for (const ConvCase& c : cases) check_conv(c, seed += 3);
}

TEST(GradWindow, Conv1dCombined) {
  ConvOptions all;
  all.strides = {2};
  all.padding = {{2, -1}};
  all.input_dilation = {2};
  all.kernel_dilation = {2};
  all.feature_group_size = 2;
  check_conv({"stride, padding, both dilations, feature groups", {2, 4, 7}, {4, 2, 3}, all}, 50);
  ConvOptions bg = all;
  bg.feature_group_size = 1;
  bg.batch_group_size = 2;
  bg.padding = {{1, 2}};
  check_conv({"stride, padding, both dilations, batch groups", {4, 3, 6}, {2, 3, 2}, bg}, 53);
  ConvOptions odd;  // a stride that leaves the input's last elements unread
  odd.strides = {3};
  odd.padding = {{0, -1}};
  check_conv({"stride 3 leaving a tail", {1, 2, 11}, {2, 2, 2}, odd}, 56);
}

TEST(GradWindow, Conv2dEachOption) {
  ConvOptions kdil;
  kdil.kernel_dilation = {2, 1};
  ConvOptions idil;
  idil.input_dilation = {1, 2};
  ConvOptions negative;
  negative.padding = {{-1, 1}, {2, -1}};
  ConvOptions fg;
  fg.feature_group_size = 2;
  ConvOptions bg;
  bg.batch_group_size = 2;
  ConvOptions nhwc;  // input {N, H, W, C}, kernel {H, W, I, O}, output {N, H, W, O}
  nhwc.input_permutation = {0, 3, 1, 2};
  nhwc.kernel_permutation = {3, 2, 0, 1};
  nhwc.output_permutation = {0, 3, 1, 2};
  const std::vector<ConvCase> cases = {
      {"plain, batch 1, one channel", {1, 1, 5, 4}, {1, 1, 3, 2}, {}},
      {"plain, batch 2, three channels", {2, 3, 4, 4}, {2, 3, 2, 3}, {}},
      {"stride 2 with padding", {2, 3, 5, 6}, {2, 3, 3, 3}, strided_padded(2)},
      {"kernel dilation 2", {1, 3, 6, 4}, {2, 3, 2, 2}, kdil},
      {"input dilation 2", {2, 1, 4, 3}, {3, 1, 2, 2}, idil},
      {"negative padding", {1, 3, 5, 5}, {2, 3, 2, 3}, negative},
      {"feature groups 2", {2, 4, 4, 3}, {2, 2, 2, 2}, fg},
      {"batch groups 2", {2, 3, 4, 4}, {2, 3, 2, 2}, bg},
      {"NHWC layout", {2, 4, 3, 3}, {2, 2, 3, 2}, nhwc},
  };
  std::uint32_t seed = 100;
  for (const ConvCase& c : cases) check_conv(c, seed += 3);
}

TEST(GradWindow, Conv2dCombined) {
  ConvOptions all;
  all.strides = {2, 1};
  all.padding = {{1, 2}, {-1, 1}};
  all.input_dilation = {2, 1};
  all.kernel_dilation = {1, 2};
  all.feature_group_size = 2;
  all.input_permutation = {0, 3, 1, 2};
  all.kernel_permutation = {3, 2, 0, 1};
  all.output_permutation = {0, 3, 1, 2};
  check_conv({"NHWC, stride, padding, dilations, feature groups", {2, 4, 5, 4}, {2, 3, 2, 2}, all},
             200);
  ConvOptions bg = all;
  bg.feature_group_size = 1;
  bg.batch_group_size = 2;
  check_conv({"NHWC, stride, padding, dilations, batch groups", {2, 3, 5, 3}, {2, 3, 3, 4}, bg},
             203);
}

// The conv rule under vkt::compile gives the eager gradient.
TEST(GradWindow, ConvGradientCompiles) {
  ConvOptions o = strided_padded(2);
  o.kernel_dilation = {1, 2};
  const TensorFunction loss = [o](const Ts& a) { return Ts{sum(sin(conv(a[0], a[1], o)))}; };
  const Ts args = {values({2, 3, 6, 6}, -1, 1, 300), values({4, 3, 3, 2}, -1, 1, 301)};
  const Ts eager = grad(loss, args);
  const Ts traced = compile(grad(loss))(args);
  for (std::size_t i = 0; i < 2; ++i) {
    const std::vector<double> e = eager[i].to_vector<double>();
    const std::vector<double> t = traced[i].to_vector<double>();
    ASSERT_EQ(e.size(), t.size());
    for (std::size_t j = 0; j < e.size(); ++j) EXPECT_NEAR(t[j], e[j], 1e-12);
  }
}

// The window options each window op is checked with (x is {4, 6}).
std::vector<std::pair<std::string, WindowOptions>> window_cases() {
  WindowOptions strided;
  strided.strides = {2, 3};
  WindowOptions padded;
  padded.padding = {{1, 1}, {0, 1}};  // no window lies in padding only (its max is -inf)
  WindowOptions dilated;
  dilated.dilations = {2, 1};
  WindowOptions all;
  all.strides = {2, 2};
  all.padding = {{1, 1}, {1, 0}};
  all.dilations = {1, 2};
  return {{"plain", {}},
          {"strides", strided},
          {"padding", padded},
          {"dilations", dilated},
          {"strides, padding and dilations", all}};
}

TEST(GradWindow, WindowSumAndProduct) {
  Tensor x = values({4, 6}, 0.5, 1.5, 400);
  for (const auto& [name, o] : window_cases()) {
    const WindowOptions opts = o;
    const Tensor w = values(window_sum(x, {2, 3}, opts).shape(), -1, 1, 401);
    check("window_sum " + name,
          [opts, w](const Ts& a) {
            return sum(multiply(window_sum(a[0], {2, 3}, opts), w));
          },
          {x});
    check("window_product " + name,
          [opts, w](const Ts& a) {
            return sum(multiply(window_product(a[0], {2, 3}, opts), w));
          },
          {x});
  }
  // Zeros: a window with one zero (the others' product flows to it), one with two (nothing
  // flows anywhere in it), rank 3.
  std::vector<double> v = values({2, 3, 4}, 0.5, 1.5, 402).to_vector<double>();
  v[1] = 0;
  v[13] = 0;
  v[14] = 0;
  const Tensor z = from_vector<double>(v, {2, 3, 4}, &cpu());
  WindowOptions o;
  o.strides = {1, 2, 1};
  o.padding = {{0, 1}, {1, 0}, {0, 0}};
  const Tensor w = values(window_product(z, {1, 2, 2}, o).shape(), -1, 1, 403);
  check("window_product with zeros",
        [o, w](const Ts& a) {
          return sum(multiply(window_product(a[0], {1, 2, 2}, o), w));
        },
        {z});
  const Ts g = grad([](const Ts& a) { return Ts{sum(window_product(a[0], {2}))}; },
                    {from_vector<double>({2, 0, 0, 3}, &cpu())});
  // Windows {2,0}, {0,0}, {0,3}: d/dx = {0, 2, 3, 0}, no NaN from a division by zero.
  EXPECT_EQ(g[0].to_vector<double>(), (std::vector<double>{0, 2, 3, 0}));
}

TEST(GradWindow, WindowMaxAndMinDistinctValues) {
  const Tensor x = values({4, 6}, -1, 1, 500);
  for (const auto& [name, o] : window_cases()) {
    const WindowOptions opts = o;
    const Tensor w = values(window_max(x, {2, 3}, opts).shape(), -1, 1, 501);
    check("window_max " + name,
          [opts, w](const Ts& a) {
            return sum(multiply(window_max(a[0], {2, 3}, opts), w));
          },
          {x});
    check("window_min " + name,
          [opts, w](const Ts& a) {
            return sum(multiply(window_min(a[0], {2, 3}, opts), w));
          },
          {x});
  }
}

// Nx: window_max's cotangent goes through window_scatter_max, which picks the last of tied
// elements in row-major window order; window_scatter's source cotangent reads from there.
TEST(GradWindow, TiesGoToTheLastSelectedElement) {
  const Tensor x = from_vector<double>({1, 3, 3, 2, 1, 1}, &cpu());
  const Ts gmax = grad([](const Ts& a) { return Ts{sum(window_max(a[0], {3}))}; }, {x});
  // Windows {1,3,3}, {3,3,2}, {3,2,1}, {2,1,1}: the maxima at 2, 2, 2, 3 (not 1).
  EXPECT_EQ(gmax[0].to_vector<double>(), (std::vector<double>{0, 0, 3, 1, 0, 0}));
  const Ts gmin = grad([](const Ts& a) { return Ts{sum(window_min(a[0], {3}))}; }, {x});
  // Minima at 0, 3, 4, 5 (not 4).
  EXPECT_EQ(gmin[0].to_vector<double>(), (std::vector<double>{1, 0, 0, 1, 1, 1}));
  const Tensor w = from_vector<double>({10, 20, 30, 40, 50, 60}, &cpu());
  const Ts gs = grad(
      [x, w](const Ts& a) { return Ts{sum(multiply(window_scatter_max(x, a[0], 0, {3}), w))}; },
      {from_vector<double>({1, 1, 1, 1}, &cpu())});
  EXPECT_EQ(gs[0].to_vector<double>(), (std::vector<double>{30, 30, 30, 40}));
}

TEST(GradWindow, WindowScatterMaxAndMin) {
  const Tensor t = values({4, 6}, -1, 1, 600);
  for (const auto& [name, o] : window_cases()) {
    const WindowOptions opts = o;
    const Tensor src = values(window_max(t, {2, 3}, opts).shape(), -1, 1, 601);
    const Tensor w = values(t.shape(), -1, 1, 602);
    // t a primal too: its gradient is zero, which central differences confirm.
    check("window_scatter_max " + name,
          [opts, w](const Ts& a) {
            return sum(multiply(window_scatter_max(a[0], a[1], 0.5, {2, 3}, opts), w));
          },
          {t, src});
    check("window_scatter_min " + name,
          [opts, w](const Ts& a) {
            return sum(multiply(window_scatter_min(a[0], a[1], -0.5, {2, 3}, opts), w));
          },
          {t, src});
  }
}

Backend* vulkan_or_null() {
  try {
    return &vulkan();
  } catch (const NoDevice&) {
    return nullptr;
  }
}

// The pullback of `loss` at f32 primals on the cpu and on the device: the device's records
// no fallback (every backward op native) and gives the cpu's cotangents.
void expect_native_backward(const std::string& name, const TensorFunction& loss, const Ts& cpu_args,
                            Backend& gpu) {
  SCOPED_TRACE(name);
  const Ts expected = grad(loss, cpu_args);
  Ts gpu_args;
  for (const Tensor& a : cpu_args) gpu_args.push_back(transfer(a, gpu));
  Vjp v = vjp(loss, gpu_args);  // the forward pass, outside the ledger's scope
  const Tensor one = full({}, 1, DType::f32, &gpu);
  LedgerScope scope;
  const Ts got = v.pullback({one});
  gpu.synchronize();
  const LedgerCounts d = scope.delta();
  EXPECT_EQ(d.fallbacks, 0u) << d.to_string();
  EXPECT_TRUE(d.fallbacks_by_op.empty()) << d.to_string();
  EXPECT_EQ(d.downloads, 0u) << d.to_string();
  EXPECT_GT(d.dispatches, 0u) << d.to_string();
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(&got[i].backend(), &gpu);
    const std::vector<float> e = expected[i].to_vector<float>();
    const std::vector<float> g = got[i].to_vector<float>();
    ASSERT_EQ(e.size(), g.size());
    for (std::size_t j = 0; j < e.size(); ++j) {
      EXPECT_NEAR(g[j], e[j], 1e-4 * (1 + std::abs(e[j]))) << "primal " << i << " element " << j;
    }
  }
}

Tensor f32_values(const Shape& shape, std::uint32_t seed) {
  return as_type(values(shape, -1, 1, seed), DType::f32);
}

TEST(GradWindow, ConvBackwardRunsNativelyOnVulkan) {
  Backend* gpu = vulkan_or_null();
  if (gpu == nullptr) GTEST_SKIP() << "no Vulkan device";
  ConvOptions strided = strided_padded(2);
  ConvOptions dilated;
  dilated.input_dilation = {2, 1};
  dilated.kernel_dilation = {1, 2};
  dilated.padding = {{-1, 1}, {1, 0}};
  ConvOptions fg;
  fg.feature_group_size = 2;
  fg.strides = {1, 2};
  ConvOptions bg;
  bg.batch_group_size = 2;
  ConvOptions nhwc = strided;
  nhwc.input_permutation = {0, 3, 1, 2};
  nhwc.kernel_permutation = {3, 2, 0, 1};
  nhwc.output_permutation = {0, 3, 1, 2};
  const std::vector<ConvCase> cases = {
      {"stride 2 with padding", {2, 3, 6, 5}, {4, 3, 3, 3}, strided},
      {"dilations and negative padding", {1, 3, 5, 5}, {2, 3, 2, 2}, dilated},
      {"feature groups", {2, 4, 5, 6}, {4, 2, 3, 2}, fg},
      {"batch groups", {4, 3, 5, 5}, {4, 3, 2, 2}, bg},
      {"NHWC", {2, 6, 5, 3}, {3, 3, 3, 4}, nhwc},
  };
  std::uint32_t seed = 700;
  for (const ConvCase& c : cases) {
    const Tensor x = f32_values(c.input, seed++);
    const Tensor k = f32_values(c.kernel, seed++);
    const Tensor w = f32_values(conv(x, k, c.opts).shape(), seed++);
    const ConvOptions o = c.opts;
    expect_native_backward(
        "conv " + c.name, [o](const Ts& a) { return Ts{sum(multiply(conv(a[0], a[1], o), a[2]))}; },
        {x, k, w}, *gpu);
  }
}

// The window rules' backward ops (window_sum, pad, slice, select, window_scatter) are
// native on the device too.
TEST(GradWindow, WindowBackwardRunsNativelyOnVulkan) {
  Backend* gpu = vulkan_or_null();
  if (gpu == nullptr) GTEST_SKIP() << "no Vulkan device";
  WindowOptions o;
  o.strides = {1, 2, 2};
  o.padding = {{0, 0}, {1, 1}, {1, 0}};
  o.dilations = {1, 1, 2};
  const Shape window{1, 2, 3};
  const Tensor x = f32_values({2, 5, 6}, 800);
  const Tensor w = f32_values(window_sum(x, window, o).shape(), 801);
  const Tensor wt = f32_values(x.shape(), 802);
  using Window = Tensor (*)(const Tensor&, const Shape&, const WindowOptions&);
  const std::vector<std::pair<std::string, Window>> ops = {{"window_sum", &window_sum},
                                                           {"window_product", &window_product},
                                                           {"window_max", &window_max},
                                                           {"window_min", &window_min}};
  for (const auto& [name, op] : ops) {
    expect_native_backward(
        name,
        [op = op, window, o](const Ts& a) { return Ts{sum(multiply(op(a[0], window, o), a[1]))}; },
        {x, w}, *gpu);
  }
  expect_native_backward(
      "window_scatter_max",
      [window, o](const Ts& a) {
        return Ts{sum(multiply(window_scatter_max(a[0], a[1], 0.0f, window, o), a[2]))};
      },
      {x, w, wt}, *gpu);
  expect_native_backward(
      "window_scatter_min",
      [window, o](const Ts& a) {
        return Ts{sum(multiply(window_scatter_min(a[0], a[1], 0.0f, window, o), a[2]))};
      },
      {x, w, wt}, *gpu);
}

}  // namespace
}  // namespace vkt
