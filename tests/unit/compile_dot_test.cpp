// vkt::compile's dot groups on the cpu: the planner takes a dot whose result only an
// elementwise epilogue reads into one group with it (the GEMM, then the epilogue over
// cache-sized blocks of C); results equal eager bit for bit.
#include <gtest/gtest.h>

#include "support/compile_programs.h"
#include "support/dot_corpus.h"
#include "support/dot_programs.h"
#include "vkt/compile.h"

namespace vkt {
namespace {

using testing::dot_values;
using testing::expect_same_bytes;
using testing::mlp_gelu;

Tensor input(const Shape& shape, float phase = 0.0f) {
  return from_vector(dot_values(static_cast<std::size_t>(numel(shape)), phase), shape, &cpu());
}

TEST(CompileDot, MlpIsOneDotGroupStep) {
  const Tensor x = input({70, 90}), w = input({90, 50}, 1.0f), bias = input({50}, 2.0f);
  auto f = compile(mlp_gelu);
  expect_same_bytes(f(x, w, bias), mlp_gelu(x, w, bias));
  const std::string plan = f.describe();
  EXPECT_NE(plan.find("steps (1)"), std::string::npos) << plan;
  EXPECT_NE(plan.find("fused dot group"), std::string::npos) << plan;
  EXPECT_NE(plan.find("dot v0 v1"), std::string::npos) << plan;
}

TEST(CompileDot, ALoneEpilogueOpJoinsAndCReturnedIsWrittenToo) {
  const Tensor x = input({3, 17}), w = input({17, 129}, 0.5f);
  auto prog = [](const Tensor& a, const Tensor& b) {
    const Tensor d = dot(a, b);
    return std::make_pair(d, tanh(d));
  };
  auto f = compile(prog);
  const auto [d, y] = f(x, w);
  const auto [ed, ey] = prog(x, w);
  expect_same_bytes(d, ed);
  expect_same_bytes(y, ey);
  const std::string plan = f.describe();
  EXPECT_NE(plan.find("steps (1)"), std::string::npos) << plan;
  EXPECT_NE(plan.find("fused dot group"), std::string::npos) << plan;
}

TEST(CompileDot, DotReadByAReductionKeepsItsOwnStep) {
  const Tensor x = input({20, 30}), w = input({30, 40}, 0.6f);
  auto prog = [](const Tensor& a, const Tensor& b) {
    const Tensor c = dot(a, b);
    return std::make_pair(exp(c), sum(c, {1}));
  };
  auto f = compile(prog);
  const auto [e, s] = f(x, w);
  const auto [ee, es] = prog(x, w);
  expect_same_bytes(e, ee);
  expect_same_bytes(s, es);
  const std::string plan = f.describe();
  EXPECT_EQ(plan.find("fused dot group"), std::string::npos) << plan;
  EXPECT_NE(plan.find("dispatch %2 dot"), std::string::npos) << plan;
}

TEST(CompileDot, RandomDotProgramsEqualEagerBitForBit) {
  std::uint32_t fused = 0;
  for (std::uint32_t seed = 1; seed <= 100; ++seed) {
    const std::vector<Tensor> in = testing::make_dot_corpus_inputs(seed);
    const std::vector<Tensor> eager = testing::dot_corpus_program(seed, in[0], in[1], in[2], in[3]);
    auto f = compile([seed](const Tensor& x, const Tensor& w, const Tensor& r, const Tensor& c) {
      return testing::dot_corpus_program(seed, x, w, r, c);
    });
    const std::vector<Tensor> got = f(in[0], in[1], in[2], in[3]);
    fused += f.describe().find("fused dot group") != std::string::npos ? 1 : 0;
    ASSERT_EQ(got.size(), eager.size()) << "seed " << seed;
    for (std::size_t k = 0; k < got.size(); ++k) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " output " + std::to_string(k));
      expect_same_bytes(got[k], eager[k]);
    }
  }
  // Most programs take the dot group (the others read C outside the epilogue).
  EXPECT_GE(fused, 50u);
}

}  // namespace
}  // namespace vkt
