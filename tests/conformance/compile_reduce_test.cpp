// vkt::compile on Vulkan: elementwise prologues fused into reductions (a generated variant
// of reduce.comp reads the group's leaves instead of a written intermediate), and values
// read by several groups recomputed in each. Results equal eager Vulkan bit for bit.
#include <gtest/gtest.h>

#include <cmath>

#include "common/settings.h"
#include "conformance/fixture.h"
#include "support/compile_programs.h"
#include "support/run_op.h"
#include "vkt/compile.h"

namespace vkt::testing {
namespace {

class VulkanCompileReduce : public VulkanTest {};

// Over columns: rows take the row-group kernel instead (compile_rows_test.cpp).
Tensor softmax_columns(const Tensor& x) {
  const Tensor e = exp(subtract(x, reduce_max(x, {0}, true)));
  return divide(e, sum(e, {0}, true));
}

TEST_F(VulkanCompileReduce, SoftmaxOverColumnsIsThreeDispatchesAndEqualsEager) {
  const Tensor x = from_vector(wave(40 * 300), {40, 300}, &gpu());
  auto f = compile(softmax_columns);
  const Tensor expected = softmax_columns(x);
  EXPECT_EQ(f(x).to_bytes(), expected.to_bytes());
  LedgerScope scope;
  const Tensor again = f(x);
  // max; sum of exp(x - max) with the exp fused; exp(x - max) / sum recomputed and fused.
  EXPECT_EQ(scope.delta().dispatches, 3u) << f.describe();
  EXPECT_EQ(again.to_bytes(), expected.to_bytes());
}

TEST_F(VulkanCompileReduce, EveryLayoutAndRuleEqualsEager) {
  struct Case {
    Shape shape;
    Axes axes;
  };
  // Row mode split over workgroups or not, column mode, non-adjacent axes (several
  // passes, the first fused), size-1 and size-0 axes.
  const std::vector<Case> cases = {{{64, 3000}, {1}},   {{2, 70000}, {1}}, {{300, 40}, {0}},
                                   {{5, 6, 7}, {0, 2}}, {{5, 6, 7}, {1}},  {{5, 1, 7}, {1}},
                                   {{2, 0, 3}, {1}},    {{7}, {0}}};
  const std::vector<Op> ops = {Op::sum,        Op::product, Op::reduce_max,
                               Op::reduce_min, Op::any,     Op::all};
  // Two rules per layout, rotating, so every rule meets several layouts (each is a compile).
  std::size_t turn = 0;
  for (const Case& c : cases) {
    const Tensor x = from_vector(wave(static_cast<std::size_t>(numel(c.shape))), c.shape, &gpu());
    for (Op op : {ops[turn++ % ops.size()], ops[turn++ % ops.size()]}) {
      const bool keep = op == Op::sum || op == Op::any;
      auto prog = [&](const Tensor& t) {
        return run_reduce(op, add(multiply(t, 1.0001f), sin(t)), c.axes, keep);
      };
      SCOPED_TRACE(std::string(op_name(op)) + " " + shape_str(c.shape));
      const Tensor expected = prog(x);
      const Tensor got = compile(prog)(x);
      ASSERT_EQ(got.shape(), expected.shape());
      EXPECT_EQ(got.to_bytes(), expected.to_bytes());
    }
  }
}

// With vec4 rows passes forced (Overrides::reduce_vec4; lavapipe's rule is the element
// path), a fused prologue combines in eager's vec4 order: rows past kMaxFusedRow, split or
// not (reduce_groups=1), of 4k elements and one row of 4k + 1.
TEST_F(VulkanCompileReduce, Vec4RowsEqualEager) {
  const OverrideScope vec4("reduce_vec4=1");
  const std::vector<std::pair<Shape, Axes>> cases = {
      {{2, 70000}, {1}}, {{3, 4100}, {1}}, {{9001}, {0}}, {{2, 3, 5000}, {0, 2}}};
  for (const char* groups : {"", "1"}) {
    const OverrideScope split(std::string("reduce_groups=") + groups);
    for (const auto& [shape, axes] : cases) {
      const Tensor x = from_vector(wave(static_cast<std::size_t>(numel(shape))), shape, &gpu());
      // Each rule is a pipeline of its own: sum on every layout, max and any on the first.
      const std::vector<Op> ops = shape == cases.front().first
                                      ? std::vector<Op>{Op::sum, Op::reduce_max, Op::any}
                                      : std::vector<Op>{Op::sum};
      for (Op op : ops) {
        const Axes reduced = axes;
        auto prog = [op, reduced](const Tensor& t) {
          return run_reduce(op, add(multiply(t, 1.0001f), sin(t)), reduced, false);
        };
        SCOPED_TRACE(std::string(op_name(op)) + " " + shape_str(shape) + " groups " + groups);
        EXPECT_EQ(compile(prog)(x).to_bytes(), prog(x).to_bytes());
      }
    }
  }
}

TEST_F(VulkanCompileReduce, SelectAndClipFuseIntoOneDispatch) {
  const Tensor x = from_vector(wave(5000), {50, 100}, &gpu());
  const Tensor lo = from_vector(wave(100), {100}, &gpu());
  auto prog = [](const Tensor& t, const Tensor& l) {
    const Tensor picked = select(less(t, 0.5f), exp(t), multiply(t, 2.0f));
    return clip(picked, l, add(l, 1.5f));
  };
  auto f = compile(prog);
  const Tensor expected = prog(x, lo);
  EXPECT_EQ(f(x, lo).to_bytes(), expected.to_bytes());
  LedgerScope scope;
  EXPECT_EQ(f(x, lo).to_bytes(), expected.to_bytes());
  EXPECT_EQ(scope.delta().dispatches, 1u) << f.describe();
}

TEST_F(VulkanCompileReduce, IntegerAndHalfProloguesEqualEager) {
  const Tensor h = as_type(from_vector(wave(5000), {50, 100}, &gpu()), DType::f16);
  auto fh = [](const Tensor& t) { return sum(multiply(t, t), {1}, true); };
  EXPECT_EQ(compile(fh)(h).to_bytes(), fh(h).to_bytes());
  const Tensor i =
      as_type(multiply(from_vector(wave(5000), {50, 100}, &gpu()), 100.0f), DType::s32);
  auto fi = [](const Tensor& t) { return sum(multiply(t, t), {0, 1}); };  // to s64
  EXPECT_EQ(compile(fi)(i).to_bytes(), fi(i).to_bytes());
  auto fm = [](const Tensor& t) { return reduce_max(abs(t), {0}); };
  EXPECT_EQ(compile(fm)(i).to_bytes(), fm(i).to_bytes());
}

}  // namespace
}  // namespace vkt::testing
