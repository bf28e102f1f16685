// vkt::compile on the cpu: tracing, plan reuse per signature, fusion, and compiled results
// equal to eager ones bit for bit on a corpus of random programs.
#include "vkt/compile.h"

#include <gtest/gtest.h>

#include "support/compile_corpus.h"
#include "support/compile_programs.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::expect_same_bytes;

std::vector<float> ramp(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) / static_cast<float>(n) - 0.3f;
  return v;
}

Tensor chain(const Tensor& x, const Tensor& b) {
  Tensor y = add(multiply(x, 2.0), b);
  y = tanh(y);
  y = subtract(y, exp(negate(abs(x))));
  return as_type(y, DType::f16);
}

TEST(Compile, ChainEqualsEagerAndReplaysPerSignature) {
  auto f = compile(chain);
  const Tensor x = from_vector(ramp(40000), {200, 200}, &cpu());
  const Tensor b = from_vector(ramp(200), {200}, &cpu());
  LedgerScope scope;
  auto delta = [&] { return scope.delta(); };
  expect_same_bytes(f(x, b), chain(x, b));
  EXPECT_EQ(delta().traces, 1u);
  expect_same_bytes(f(x, b), chain(x, b));
  EXPECT_EQ(delta().traces, 1u);
  EXPECT_EQ(delta().plan_reuses, 1u);
  // A new shape or dtype is a new signature.
  const Tensor x2 = from_vector(ramp(10), {10}, &cpu());
  const Tensor b2 = from_vector(ramp(1), {1}, &cpu());
  expect_same_bytes(f(x2, b2), chain(x2, b2));
  expect_same_bytes(f(as_type(x2, DType::bf16), b2), chain(as_type(x2, DType::bf16), b2));
  EXPECT_EQ(delta().traces, 3u);
  EXPECT_EQ(f.plans(), 3u);
}

TEST(Compile, ElementwiseChainIsOneFusedGroupWithSharedSubexpressions) {
  auto f = compile([](const Tensor& x) {
    const Tensor e1 = exp(x), e2 = exp(x);  // the same subexpression twice
    return add(multiply(e1, e2), 1.0);
  });
  const Tensor x = from_vector(ramp(1000), &cpu());
  const Tensor y = f(x);
  expect_same_bytes(y, add(multiply(exp(x), exp(x)), 1.0));
  const std::string plan = f.describe();
  EXPECT_NE(plan.find("steps (1)"), std::string::npos) << plan;
  EXPECT_NE(plan.find("fused group"), std::string::npos) << plan;
  // exp appears twice in the traced graph, once in the fused group.
  const std::size_t group_at = plan.find("fused group");
  EXPECT_EQ(plan.find("exp", group_at), plan.rfind("exp")) << plan;
}

TEST(Compile, AnIntermediateReturnedTooIsWrittenByTheSameFusedKernel) {
  auto prog = [](const Tensor& x) {
    const Tensor y = exp(multiply(x, 0.5f));
    return std::make_tuple(y, add(y, 1.0f), sum(y));
  };
  auto f = compile(prog);
  const Tensor x = from_vector(ramp(5000), {50, 100}, &cpu());
  auto [y, z, s] = f(x);
  auto [ey, ez, es] = prog(x);
  expect_same_bytes(y, ey);
  expect_same_bytes(z, ez);
  expect_same_bytes(s, es);
  // y feeds sum (not fused), so it roots its own group; z's group holds add alone.
  const std::string plan = f.describe();
  EXPECT_NE(plan.find("fused group"), std::string::npos) << plan;
  auto g = compile([](const Tensor& t) {
    const Tensor a = tanh(t);
    return std::make_pair(a, multiply(a, a));
  });
  auto [a, aa] = g(x);
  expect_same_bytes(a, tanh(x));
  expect_same_bytes(aa, multiply(tanh(x), tanh(x)));
  EXPECT_NE(g.describe().find("steps (1)"), std::string::npos) << g.describe();
}

TEST(Compile, UnfusedOpsRunInOrderAndScalarsAreStatic) {
  auto f = compile([](const Tensor& x, double scale) {
    const Tensor shifted = subtract(x, reduce_max(x, {1}, true));
    const Tensor e = exp(multiply(shifted, scale));
    return std::make_pair(divide(e, sum(e, {1}, true)), reshape(e, {-1}));
  });
  const Tensor x = from_vector(ramp(64 * 33), {64, 33}, &cpu());
  auto eager = [&](double scale) {
    const Tensor e = exp(multiply(subtract(x, reduce_max(x, {1}, true)), scale));
    return std::make_pair(divide(e, sum(e, {1}, true)), reshape(e, {-1}));
  };
  for (double scale : {1.0, 0.5, 1.0}) {
    auto [p, flat] = f(x, scale);
    auto [ep, eflat] = eager(scale);
    expect_same_bytes(p, ep);
    expect_same_bytes(flat, eflat);
  }
  EXPECT_EQ(f.plans(), 2u);  // two scale values
}

TEST(Compile, CapturedTensorsAndReturnedInputs) {
  const Tensor w = from_vector<float>({1, 2, 3}, &cpu());
  auto f = compile([&](const Tensor& x) { return std::make_tuple(add(x, w), x, w); });
  const Tensor x = from_vector<float>({4, 5, 6}, &cpu());
  auto [s, same, captured] = f(x);
  EXPECT_EQ(s.to_vector<float>(), (std::vector<float>{5, 7, 9}));
  EXPECT_EQ(same.storage(), x.storage());
  EXPECT_EQ(captured.to_vector<float>(), w.to_vector<float>());
}

TEST(Compile, ReadingATracedTensorIsAClearErrorAndLeavesTheProcessUsable) {
  auto f = compile([](const Tensor& x) {
    const float first = x.to_vector<float>()[0];  // needs a value: impossible at trace time
    return add(x, first);
  });
  const Tensor x = from_vector<float>({1, 2}, &cpu());
  try {
    f(x);
    FAIL() << "expected vkt::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("[compile]"), std::string::npos) << e.what();
  }
  EXPECT_EQ(add(x, 1.0f).to_vector<float>(), (std::vector<float>{2, 3}));
  auto g = compile([](const Tensor& t) { return negate(t); });
  EXPECT_EQ(g(x).to_vector<float>(), (std::vector<float>{-1, -2}));
}

TEST(Compile, EscapedTracedTensorIsRejected) {
  Tensor leaked;
  auto f = compile([&](const Tensor& x) {
    leaked = exp(x);
    return leaked;
  });
  f(from_vector<float>({1}, &cpu()));
  EXPECT_THROW(add(leaked, 1.0f), Error);
}

TEST(Compile, BadInputInsideTheFunctionThrowsTheOpsError) {
  auto f = compile([](const Tensor& a, const Tensor& b) { return add(a, b); });
  EXPECT_THROW(f(from_vector<float>({1, 2}, &cpu()), from_vector<float>({1, 2, 3}, &cpu())),
               ShapeError);
  EXPECT_EQ(f(from_vector<float>({1}, &cpu()), from_vector<float>({2}, &cpu())).item<float>(),
            3.0f);
}

TEST(Compile, LargeChainAcrossBlocksWithBroadcastLeaves) {
  auto f = compile([](const Tensor& x, const Tensor& col, const Tensor& row) {
    Tensor y = x;
    for (int k = 0; k < 16; ++k) y = add(multiply(y, 0.999f), k % 2 ? col : row);
    return y;
  });
  const Tensor x = from_vector(ramp(300 * 257), {300, 257}, &cpu());
  const Tensor col = from_vector(ramp(300), {300, 1}, &cpu());
  const Tensor row = from_vector(ramp(257), {257}, &cpu());
  Tensor e = x;
  for (int k = 0; k < 16; ++k) e = add(multiply(e, 0.999f), k % 2 ? col : row);
  expect_same_bytes(f(x, col, row), e);
}

TEST(Compile, RandomProgramsEqualEagerBitForBit) {
  for (std::uint32_t seed = 1; seed <= 300; ++seed) {
    const testing::CorpusCase c = testing::make_corpus_case(seed);
    const Tensor eager = testing::corpus_program(seed, c.inputs);
    Tensor compiled;
    const auto prog = [seed](const auto&... t) { return testing::corpus_program(seed, {t...}); };
    if (c.inputs.size() == 1) compiled = compile(prog)(c.inputs[0]);
    if (c.inputs.size() == 2) compiled = compile(prog)(c.inputs[0], c.inputs[1]);
    if (c.inputs.size() == 3) compiled = compile(prog)(c.inputs[0], c.inputs[1], c.inputs[2]);
    ASSERT_EQ(compiled.dtype(), eager.dtype()) << "seed " << seed;
    ASSERT_EQ(compiled.shape(), eager.shape()) << "seed " << seed;
    ASSERT_EQ(compiled.to_bytes(), eager.to_bytes()) << "seed " << seed;
  }
}

}  // namespace
}  // namespace vkt
