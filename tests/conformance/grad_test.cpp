// Gradients on Vulkan: every rule family gives the cpu's gradient within f32 tolerance, the
// gradient stays on the device, and a training step of an MLP and of a CNN on resident
// parameters records no fallback and no download (the seed project's conv backward ran on
// the cpu unnoticed; here it cannot). A device tensor the function captures is a constant.
#include <array>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "common/settings.h"
#include "conformance/fixture.h"
#include "support/grad_check.h"
#include "vkt/compile.h"
#include "vulkan/ops/conv_split.h"

namespace vkt::testing {
namespace {

using Ts = std::vector<Tensor>;
using Unary = std::function<Tensor(const Tensor&)>;

Tensor f32_values(const Shape& shape, double lo, double hi, std::uint32_t seed) {
  return as_type(grad_check::values(shape, lo, hi, seed), DType::f32);
}

class GradOnVulkan : public VulkanTest {};

// d/dx sum(f(x) * w), w fixed weights, on the cpu and on the device.
void expect_same_gradient(const std::string& name, const Unary& f, const Tensor& x_cpu) {
  SCOPED_TRACE(name);
  const Shape out = f(x_cpu).shape();
  const TensorFunction loss = [f](const Ts& a) { return Ts{sum(multiply(f(a[0]), a[1]))}; };
  const Tensor w = f32_values(out, -1, 1, 99);
  const Tensor expected = grad(loss, {x_cpu, w}, {0})[0];
  const Tensor x_gpu = transfer(x_cpu, vulkan());
  const Tensor w_gpu = transfer(w, vulkan());
  LedgerScope scope;
  const Tensor got = grad(loss, {x_gpu, w_gpu}, {0})[0];
  const LedgerCounts d = scope.delta();
  EXPECT_EQ(&got.backend(), &vulkan());
  EXPECT_EQ(d.fallbacks, 0u) << d.to_string();
  EXPECT_EQ(d.downloads, 0u) << d.to_string();
  const std::vector<float> e = expected.to_vector<float>();
  const std::vector<float> g = got.to_vector<float>();
  ASSERT_EQ(e.size(), g.size());
  for (std::size_t i = 0; i < e.size(); ++i) {
    EXPECT_NEAR(g[i], e[i], 2e-4 * (1 + std::abs(e[i]))) << "element " << i;
  }
}

TEST_F(GradOnVulkan, EveryRuleFamilyMatchesTheCpu) {
  const Tensor x = f32_values({3, 4}, 0.2, 1.2, 1);
  const Tensor m = f32_values({4, 5}, -1, 1, 2);
  const Tensor idx = from_vector<std::int64_t>({2, 0, 2, 1}, {4});
  const std::vector<std::pair<std::string, Unary>> cases = {
      {"unary", [](const Tensor& t) { return tanh(add(exp(t), sqrt(t))); }},
      {"binary", [](const Tensor& t) { return divide(pow(t, 1.5f), max(t, 0.6f)); }},
      {"broadcast", [](const Tensor& t) { return multiply(t, sum(t, {0}, true)); }},
      {"reductions", [](const Tensor& t) { return add(reduce_max(t, {1}), product(t, {1})); }},
      {"movement",
       [](const Tensor& t) {
         const Tensor part = pad(transpose(slice(t, {0, 1}, {3, 2})), 0.0f, {{1, 1, 0}, {0, 0, 0}});
         return concatenate({transpose(t), reverse(part, {0})}, 1);  // {4, 6}
       }},
      {"dot", [&](const Tensor& t) { return matmul(t, transfer(m, t.backend())); }},
      {"indexing",
       [&](const Tensor& t) {
         const Tensor i = transfer(idx, t.backend());
         return add(take(t, i, 1), clip(t, 0.4f, 0.9f));
       }},
      {"sort and top_k",
       [](const Tensor& t) {
         return concatenate({sort(t, 1), top_k(t, 2).first}, 1);
       }},
      {"scans",
       [](const Tensor& t) { return add(cumulative_product(t, 1), cumulative_max(t, 0)); }},
      {"select", [](const Tensor& t) { return select(greater(t, 0.7f), exp(t), negate(t)); }},
  };
  for (const auto& [name, f] : cases) expect_same_gradient(name, f, x);
}

TEST_F(GradOnVulkan, ConvAndWindowsMatchTheCpu) {
  const Tensor img = f32_values({2, 3, 6, 6}, -1, 1, 3);
  const Tensor k = f32_values({4, 3, 3, 3}, -1, 1, 4);
  ConvOptions strided;
  strided.strides = {2, 2};
  strided.padding = {{1, 1}, {1, 1}};
  expect_same_gradient(
      "conv input", [&](const Tensor& t) { return conv(t, transfer(k, t.backend()), strided); },
      img);
  expect_same_gradient(
      "conv kernel", [&](const Tensor& t) { return conv(transfer(img, t.backend()), t, strided); },
      k);
  WindowOptions pool;
  pool.strides = {1, 1, 2, 2};
  expect_same_gradient(
      "window_max",
      [&](const Tensor& t) {
        return window_max(t, {1, 1, 2, 2}, pool);
      },
      img);
  expect_same_gradient(
      "window_sum",
      [&](const Tensor& t) {
        return window_sum(t, {1, 1, 3, 3}, {});
      },
      img);
}

// A conv's kernel cotangent is a conv of few output tiles over a long K (3x3 outputs over
// K = 8 x 20 x 20 here; strided, its kernel dilates). Unstrided, f32's rule takes Winograd's
// F(3x3, 2x2) for it; the direct kernel splits K by the rule on any device, then forced to 7
// slices.
TEST_F(GradOnVulkan, ConvKernelCotangentSplitsK) {
  const Tensor img = f32_values({8, 4, 20, 20}, -1, 1, 5);
  const Tensor k = f32_values({6, 4, 3, 3}, -1, 1, 6);
  for (const std::int64_t stride : {1, 2}) {
    ConvOptions o;
    o.strides = {stride, stride};
    o.padding = {{1, 1}, {1, 1}};
    const Unary f = [&](const Tensor& t) { return conv(transfer(img, t.backend()), t, o); };
    expect_same_gradient("conv kernel, stride " + std::to_string(stride), f, k);
    EXPECT_EQ(vk::testing::last_conv_winograd(), stride == 1) << "stride " << stride;
    const OverrideScope direct("conv_winograd=0");
    expect_same_gradient("conv kernel, direct, stride " + std::to_string(stride), f, k);
    EXPECT_GT(vk::testing::last_conv_splits(), 1u) << "stride " << stride;
    vk::testing::force_conv_splits(7);
    expect_same_gradient("conv kernel, 7 slices, stride " + std::to_string(stride), f, k);
    EXPECT_EQ(vk::testing::last_conv_splits(), 7u) << "stride " << stride;
    vk::testing::force_conv_splits(0);
  }
}

// Mean softmax cross-entropy of logits {n, classes} against one-hot labels.
Tensor cross_entropy(const Tensor& logits, const Tensor& one_hot) {
  const Tensor top = stop_gradient(reduce_max(logits, {1}, true));
  const Tensor shifted = subtract(logits, top);
  const Tensor log_norm = log(sum(exp(shifted), {1}, true));
  const Tensor picked = sum(multiply(subtract(shifted, log_norm), one_hot));
  return divide(negate(picked), static_cast<float>(logits.dim(0)));
}

// Three SGD steps of `loss` on resident parameters: no fallback, no download until the
// losses are read, and the loss goes down.
void expect_resident_training(const TensorFunction& loss, Ts params, const Ts& data) {
  const std::size_t n = params.size();
  std::vector<int> argnums;
  for (std::size_t i = 0; i < n; ++i) argnums.push_back(static_cast<int>(i));
  const TensorFunction step = value_and_grad(loss, argnums);
  Ts losses;
  LedgerScope scope;
  for (int s = 0; s < 3; ++s) {
    Ts args = params;
    args.insert(args.end(), data.begin(), data.end());
    const Ts out = step(args);
    losses.push_back(out[0]);
    for (std::size_t i = 0; i < n; ++i) params[i] = subtract(params[i], multiply(out[1 + i], 0.5f));
  }
  const LedgerCounts d = scope.delta();
  EXPECT_EQ(d.fallbacks, 0u) << d.to_string();
  EXPECT_EQ(d.downloads, 0u) << d.to_string();
  for (const Tensor& p : params) EXPECT_EQ(&p.backend(), &vulkan());
  EXPECT_LT(losses[2].item<float>(), losses[0].item<float>());
}

Tensor one_hot_labels(std::int64_t n, std::int64_t classes) {
  const Tensor labels = remainder(iota({n, 1}, DType::s32), static_cast<std::int32_t>(classes));
  return transfer(as_type(equal(labels, iota({n, classes}, DType::s32, 1)), DType::f32), vulkan());
}

TEST_F(GradOnVulkan, MlpStepStaysOnTheDevice) {
  auto on_gpu = [](const Tensor& t) { return transfer(t, vulkan()); };
  const Ts params = {
      on_gpu(f32_values({16, 32}, -0.3, 0.3, 5)), full({32}, 0, DType::f32, &vulkan()),
      on_gpu(f32_values({32, 4}, -0.3, 0.3, 6)), full({4}, 0, DType::f32, &vulkan())};
  const Ts data = {on_gpu(f32_values({8, 16}, -1, 1, 7)), one_hot_labels(8, 4)};
  const TensorFunction loss = [](const Ts& a) {  // w1, b1, w2, b2, x, y
    const Tensor h = max(add(matmul(a[4], a[0]), a[1]), 0.0f);
    return Ts{cross_entropy(add(matmul(h, a[2]), a[3]), a[5])};
  };
  expect_resident_training(loss, params, data);
}

TEST_F(GradOnVulkan, CnnStepStaysOnTheDevice) {
  auto on_gpu = [](const Tensor& t) { return transfer(t, vulkan()); };
  const Ts params = {on_gpu(f32_values({4, 1, 3, 3}, -0.3, 0.3, 8)),
                     on_gpu(f32_values({4 * 4 * 4, 3}, -0.3, 0.3, 9))};
  const Ts data = {on_gpu(f32_values({6, 1, 8, 8}, -1, 1, 10)), one_hot_labels(6, 3)};
  const TensorFunction loss = [](const Ts& a) {  // kernel, dense, images, labels
    ConvOptions same;
    same.padding = {{1, 1}, {1, 1}};
    const Tensor features = max(conv(a[2], a[0], same), 0.0f);  // {6, 4, 8, 8}
    WindowOptions pool;
    pool.strides = {1, 1, 2, 2};
    const Tensor pooled = window_max(features, {1, 1, 2, 2}, pool);  // {6, 4, 4, 4}
    return Ts{cross_entropy(matmul(reshape(pooled, {6, 64}), a[1]), a[3])};
  };
  expect_resident_training(loss, params, data);
  // The same step compiled: one plan, the same gradients.
  auto compiled = compile(grad(loss, std::vector<int>{0, 1}));
  Ts args = params;
  args.insert(args.end(), data.begin(), data.end());
  const Ts eager = grad(loss, args, {0, 1});
  const Ts traced = compiled(args);
  for (std::size_t i = 0; i < 2; ++i) {
    const std::vector<float> e = eager[i].to_vector<float>();
    const std::vector<float> t = traced[i].to_vector<float>();
    for (std::size_t j = 0; j < e.size(); ++j) EXPECT_NEAR(t[j], e[j], 1e-5 * (1 + std::abs(e[j])));
  }
}

// A device tensor the function reads without taking it (a closure's weights) is a constant
// of the trace, kept by reference: no gradient, no copy to the host, and compile keeps it in
// the plan, as JAX's jit keeps a closed-over array.
TEST_F(GradOnVulkan, ACapturedDeviceTensorIsAConstant) {
  const Tensor w = transfer(from_vector<float>({1, 2, 3, 4}), vulkan());
  const Tensor x = transfer(from_vector<float>({1, -1, 2, 0.5f}), vulkan());
  const TensorFunction loss = [w](const Ts& a) {
    return Ts{sum(multiply(multiply(a[0], a[0]), w))};
  };
  LedgerScope scope;
  const Ts g = grad(loss, {x}, {0});
  const Ts value = compile(loss)(Ts{x});
  const LedgerCounts d = scope.delta();
  EXPECT_EQ(d.downloads, 0u) << d.to_string();
  EXPECT_EQ(d.fallbacks, 0u) << d.to_string();
  EXPECT_EQ(&g[0].backend(), &vulkan());
  EXPECT_EQ(g[0].to_vector<float>(), (std::vector<float>{2, -4, 12, 4}));  // 2 x w
  EXPECT_EQ(value[0].item<float>(), 1.0f + 2.0f + 12.0f + 1.0f);
}

// Only what leads to a differentiated primal gets a backward pass (JAX's linearize): the
// conv of data by a kernel, differentiated in the kernel alone, runs no input cotangent, no
// share for relu's 0, and fills no zeros for the data; the kernel's gradient is unchanged.
TEST_F(GradOnVulkan, NoBackwardWorkWhereNoArgnumIsReached) {
  auto on_gpu = [](const Tensor& t) { return transfer(t, vulkan()); };
  const Tensor k = on_gpu(f32_values({4, 3, 3, 3}, -0.3, 0.3, 11));
  const Tensor x = on_gpu(f32_values({2, 3, 9, 9}, -1, 1, 12));
  const TensorFunction loss = [](const Ts& a) {  // kernel, images
    ConvOptions same;
    same.padding = {{1, 1}, {1, 1}};
    const Tensor h = max(conv(a[1], a[0], same), 0.0f);
    return Ts{sum(multiply(h, h))};
  };
  auto convs_and_fills = [&](const std::vector<int>& argnums, Ts& grads) {
    vulkan().begin_op_profile();
    grads = grad(loss, {k, x}, argnums);
    int convs = 0, fills = 0, reductions = 0;
    for (const Backend::OpTime& t : vulkan().end_op_profile()) {
      convs += t.label.rfind("conv ", 0) == 0;
      fills += t.label.rfind("full ", 0) == 0 && t.label.find("{2, 3, 9, 9}") != std::string::npos;
      reductions +=
          t.label.rfind("sum ", 0) == 0 && t.label.find("<- {2, 4, 9, 9}") != std::string::npos;
    }
    return std::array<int, 3>{convs, fills, reductions};
  };
  Ts kernel_only, both;
  const std::array<int, 3> one = convs_and_fills({0}, kernel_only);
  const std::array<int, 3> two = convs_and_fills({0, 1}, both);
  // The forward conv and the kernel cotangent; with the images too, their cotangent.
  EXPECT_EQ(one[0], 2);
  EXPECT_EQ(two[0], 3);
  EXPECT_EQ(one[1], 0);
  // The loss's sum over h, and nothing summing relu's share of its 0 down to a scalar.
  EXPECT_EQ(one[2], 1);
  ASSERT_EQ(kernel_only.size(), 1u);
  EXPECT_EQ(kernel_only[0].to_vector<float>(), both[0].to_vector<float>());
}

}  // namespace
}  // namespace vkt::testing
