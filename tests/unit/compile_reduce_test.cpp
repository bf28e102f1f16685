// vkt::compile on the cpu: elementwise prologues fused into reductions (the reduced value
// is never written) give eager's result bit for bit, floats included, on every layout the
// fused kernel takes apart: short rows several to a block, long rows over several blocks,
// one output split over threads, and reductions over leading or non-adjacent axes.
#include <gtest/gtest.h>

#include <cmath>

#include "support/compile_programs.h"
#include "support/run_op.h"
#include "vkt/compile.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::expect_same_bytes;
using testing::softmax_rows;
using testing::wave;

TEST(CompileReduce, PrologueIsFusedIntoTheReductionAndNeverWritten) {
  auto f = compile([](const Tensor& x, const Tensor& m) { return sum(exp(subtract(x, m)), {1}); });
  const Tensor x = from_vector(wave(64 * 300), {64, 300}, &cpu());
  const Tensor m = reduce_max(x, {1}, true);
  expect_same_bytes(f(x, m), sum(exp(subtract(x, m)), {1}));
  const std::string plan = f.describe();
  EXPECT_NE(plan.find("steps (1)"), std::string::npos) << plan;
  EXPECT_NE(plan.find("reduces v"), std::string::npos) << plan;
}

// On the cpu (no recomputation) the exponential that both the sum and the division read is
// written by the sum's kernel as it sums it: max, that kernel, the division. (Rows up to
// cpu_kernels::kMaxFusedRow are one row group instead: compile_rows_test.cpp.)
TEST(CompileReduce, SoftmaxSumWritesTheExponentialItReduces) {
  for (const Shape& shape : {Shape{3, 70000}, Shape{2, 65536}}) {
    const Tensor x = from_vector(wave(static_cast<std::size_t>(numel(shape))), shape, &cpu());
    auto f = compile(softmax_rows);
    expect_same_bytes(f(x), softmax_rows(x));
    const std::string plan = f.describe();
    EXPECT_NE(plan.find("steps (3)"), std::string::npos) << plan;
    EXPECT_NE(plan.find("also writes"), std::string::npos) << plan;
  }
}

TEST(CompileReduce, EveryLayoutAndRuleEqualsEagerBitForBit) {
  struct Case {
    Shape shape;
    Axes axes;
  };
  // Rows shorter than a block; rows over several blocks; one output split over threads;
  // leading, middle and non-adjacent axes (the prologue then reduced by the backend).
  const std::vector<Case> cases = {{{4096, 64}, {1}}, {{3, 100000}, {1}},  {{300000}, {0}},
                                   {{64, 300}, {0}},  {{5, 6, 7}, {0, 2}}, {{5, 6, 7}, {1}},
                                   {{5, 1, 7}, {1}},  {{2, 0, 3}, {1}},    {{7}, {0}}};
  const std::vector<Op> ops = {Op::sum,        Op::product, Op::reduce_max,
                               Op::reduce_min, Op::any,     Op::all};
  for (const Case& c : cases) {
    const Tensor x = from_vector(wave(static_cast<std::size_t>(numel(c.shape))), c.shape, &cpu());
    for (Op op : ops) {
      for (bool keep : {false, true}) {
        auto prog = [&](const Tensor& t) {
          return testing::run_reduce(op, add(multiply(t, 1.0001f), sin(t)), c.axes, keep);
        };
        auto f = compile(prog);
        SCOPED_TRACE(std::string(op_name(op)) + " " + shape_str(c.shape));
        expect_same_bytes(f(x), prog(x));
      }
    }
  }
}

TEST(CompileReduce, SelectClipAndBroadcastsFuseIntoOneGroup) {
  const Tensor x = from_vector(wave(70000), {700, 100}, &cpu());
  const Tensor lo = from_vector(wave(100), {100}, &cpu());
  auto prog = [](const Tensor& t, const Tensor& l) {
    const Tensor picked = select(less(t, 0.5f), exp(t), multiply(t, 2.0f));
    return clip(picked, l, add(l, 1.5f));
  };
  auto f = compile(prog);
  expect_same_bytes(f(x, lo), prog(x, lo));
  const std::string plan = f.describe();
  EXPECT_NE(plan.find("steps (1)"), std::string::npos) << plan;
  // One-element operands: a literal branch and scalar bounds.
  auto eager_g = [](const Tensor& t) {
    const Tensor one = from_vector(std::vector<float>{1.0f}, {}, &cpu());
    return clip(select(t, one, t), Scalar(-1), Scalar(2));
  };
  expect_same_bytes(compile(eager_g)(x), eager_g(x));
}

TEST(CompileReduce, HalfAndIntegerProloguesEqualEager) {
  const Tensor h = as_type(from_vector(wave(5000), {50, 100}, &cpu()), DType::f16);
  auto fh = compile([](const Tensor& t) { return sum(multiply(t, t), {1}, true); });
  expect_same_bytes(fh(h), sum(multiply(h, h), {1}, true));
  const Tensor i =
      as_type(multiply(from_vector(wave(5000), {50, 100}, &cpu()), 100.0f), DType::s32);
  auto fi = compile([](const Tensor& t) { return sum(multiply(t, t), {0, 1}); });  // to s64
  expect_same_bytes(fi(i), sum(multiply(i, i), {0, 1}));
  auto fp = compile([](const Tensor& t) { return product(add(t, 1), {1}); });  // wraps
  expect_same_bytes(fp(i), product(add(i, 1), {1}));
}

}  // namespace
}  // namespace vkt
