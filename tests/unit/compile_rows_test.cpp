// vkt::compile's row groups on the cpu: which groups the planner forms (softmax, log-softmax
// with dropped axes, layer norm in both forms, a prologue joining, two groups in a row) and
// when it keeps the other plan (rows too long, a member read by an unfused op before the
// group could run); results equal eager bit for bit (the same kernels, reductions of whole
// rows as reduce.cpp makes them).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "cpu/compile/compiled_rows.h"
#include "support/compile_programs.h"
#include "vkt/compile.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::expect_same_bytes;
using testing::log_softmax_dropped;
using testing::softmax_rows;
using testing::wave;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Variance as E[x^2] - mean^2: its sum of squares does not read the group's values, so it
// joins as a reduction a member reads.
Tensor layer_norm_moments(const Tensor& x, const Tensor& gamma) {
  const double len = static_cast<double>(x.shape()[1]);
  const Tensor mean = divide(sum(x, {1}, true), len);
  const Tensor var = subtract(divide(sum(multiply(x, x), {1}, true), len), multiply(mean, mean));
  return multiply(divide(subtract(x, mean), sqrt(add(var, 1e-5))), gamma);
}

TEST(CompileRows, SoftmaxIsOneRowGroup) {
  for (const Shape& shape : {Shape{300, 5000}, Shape{1, 1}, Shape{37, 33}, Shape{5, 65535},
                             Shape{4, 3, 10}, Shape{64}}) {
    const Tensor x = from_vector(wave(static_cast<std::size_t>(numel(shape))), shape, &cpu());
    auto f = compile(softmax_rows);
    SCOPED_TRACE(shape_str(shape));
    expect_same_bytes(f(x), softmax_rows(x));
    const std::string plan = f.describe();
    EXPECT_NE(plan.find("steps (1)"), std::string::npos) << plan;
    EXPECT_NE(plan.find("row group"), std::string::npos) << plan;
    if (shape.back() > 1) {
      EXPECT_EQ(count(plan, "(per row)"), 2u) << plan;  // the max and the sum
    }
  }
}

TEST(CompileRows, RowsPastTheLimitKeepTheReductionPlan) {
  const std::int64_t len = cpu_kernels::kMaxFusedRow + 1;
  const Tensor x = from_vector(wave(static_cast<std::size_t>(2 * len)), {2, len}, &cpu());
  auto f = compile(softmax_rows);
  expect_same_bytes(f(x), softmax_rows(x));
  const std::string plan = f.describe();
  EXPECT_EQ(plan.find("row group"), std::string::npos) << plan;
  EXPECT_NE(plan.find("steps (3)"), std::string::npos) << plan;
}

TEST(CompileRows, DroppedAxesAndLayerNormMomentsAreOneGroup) {
  const Tensor x = from_vector(wave(50 * 700), {50, 700}, &cpu());
  auto f = compile(log_softmax_dropped);
  expect_same_bytes(f(x), log_softmax_dropped(x));
  EXPECT_NE(f.describe().find("steps (1)"), std::string::npos) << f.describe();
  const Tensor gamma = from_vector(wave(700), {700}, &cpu());
  auto g = compile(layer_norm_moments);
  expect_same_bytes(g(x, gamma), layer_norm_moments(x, gamma));
  const std::string plan = g.describe();
  EXPECT_NE(plan.find("steps (1)"), std::string::npos) << plan;
  EXPECT_EQ(count(plan, "= sum v"), 2u) << plan;
}

TEST(CompileRows, PrologueJoinsAndChainedSoftmaxesAreOneGroup) {
  const Tensor x = from_vector(wave(40 * 90), {40, 90}, &cpu());
  auto scaled = [](const Tensor& t) { return softmax_rows(multiply(t, 1.5f)); };
  auto f = compile(scaled);
  expect_same_bytes(f(x), scaled(x));
  EXPECT_NE(f.describe().find("steps (1)"), std::string::npos) << f.describe();
  EXPECT_NE(f.describe().find("= multiply v"), std::string::npos) << f.describe();
  // The second softmax reduces the first's rows: four reductions, one pass over x.
  auto twice = [](const Tensor& t) { return softmax_rows(softmax_rows(t)); };
  auto g = compile(twice);
  expect_same_bytes(g(x), twice(x));
  const std::string plan = g.describe();
  EXPECT_NE(plan.find("steps (1)"), std::string::npos) << plan;
  EXPECT_EQ(count(plan, "(per row)"), 4u) << plan;
}

// A running sum over the row maxima reads a member before the group's last node and is
// read by it: the group could not run in one place, so the planner keeps the other plan.
TEST(CompileRows, MemberReadByAnUnfusedOpInsideTheGroupKeepsTheOtherPlan) {
  const Tensor x = from_vector(wave(20 * 30), {20, 30}, &cpu());
  auto prog = [](const Tensor& t) {
    const Tensor m = reduce_max(t, {1}, true);
    return exp(subtract(subtract(t, m), cumulative_sum(m, 0)));
  };
  auto f = compile(prog);
  expect_same_bytes(f(x), prog(x));
  EXPECT_EQ(f.describe().find("row group"), std::string::npos) << f.describe();
}

// A per-row value read through a bitcast is not a member's value: the group evaluates each
// member in its own dtype, so the bitcast's reader stays outside (the compile fuzzer's seed
// 5, program 11721: an inf product bitcast to u32 and converted back gave inf, not 2^31).
TEST(CompileRows, BitcastOfAPerRowValueStaysOutsideTheGroup) {
  const Tensor x = from_vector(std::vector<float>{1e30f, 1e30f, 3, 4, 1, 2, 3, 4}, {2, 4}, &cpu());
  auto prog = [](const Tensor& t) {
    const Tensor p = product(t, {1});
    return select(p, as_type(bitcast(p, DType::u32), DType::f32), p);
  };
  auto f = compile(prog);
  const Tensor eager = prog(x);
  expect_same_bytes(f(x), eager);
  EXPECT_EQ(eager.to_vector<float>()[0], 2139095040.0f);  // inf's bits, as a number
}

// A leaf broadcast along a middle axis is not read in place by the row blocks: the group
// runs op by op, still eager's result.
TEST(CompileRows, LeafTheBlocksCannotReadRunsTheGroupOpByOp) {
  const Tensor x = from_vector(wave(3 * 4 * 20), {3, 4, 20}, &cpu());
  const Tensor scale = from_vector(wave(3 * 20), {3, 1, 20}, &cpu());
  auto prog = [](const Tensor& t, const Tensor& s) { return multiply(softmax_rows(t), s); };
  auto f = compile(prog);
  LedgerScope scope;
  expect_same_bytes(f(x, scale), prog(x, scale));
  EXPECT_EQ(scope.delta().kernel_compiles, 0u);  // no fused kernel: the ops one by one
  EXPECT_NE(f.describe().find("row group"), std::string::npos) << f.describe();
}

TEST(CompileRows, HalfDoubleAndSpecialValuesEqualEager) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> v = wave(4 * 50);
  for (std::size_t c = 0; c < 50; ++c) {
    v[c] = -inf;
    v[50 + c] = 2.5f;
    v[100 + c] = c == 7 ? std::nanf("") : -0.0f;
  }
  const Tensor x = from_vector(v, {4, 50}, &cpu());
  for (DType d : {DType::f32, DType::f16, DType::bf16, DType::f64}) {
    SCOPED_TRACE(dtype_name(d));
    const Tensor xd = as_type(x, d);
    expect_same_bytes(compile(softmax_rows)(xd), softmax_rows(xd));
    expect_same_bytes(compile(log_softmax_dropped)(xd), log_softmax_dropped(xd));
    auto others = [](const Tensor& t) {
      const Tensor lo = reduce_min(t, {1}, true);
      const Tensor scaled = multiply(subtract(t, lo), product(multiply(t, 0.01f), {1}, true));
      return std::vector<Tensor>{select(any(is_nan(t), {1}, true), scaled, t),
                                 select(all(t, {1}, true), scaled, lo), lo};
    };
    const std::vector<Tensor> got = compile(others)(xd), want = others(xd);
    for (std::size_t k = 0; k < want.size(); ++k) expect_same_bytes(got[k], want[k]);
  }
}

}  // namespace
}  // namespace vkt
