// One-pass reductions (VKT_VK_REDUCE_PASSES=1, the default): a split rows pass is one
// dispatch whose last workgroup combines the partials in the second pass's order. Its
// results must equal the two-dispatch path's (=2) bit for bit, for every op and accumulator
// type, through both second-pass modes (rows from 64 partials a row, else columns), second
// passes of several workgroups, vec4 combines and the shared-memory tree; and the dispatch
// counts show which path ran. Validation (synchronization included) checks the counter's
// zeroing and the partials' barriers.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "conformance/fixture.h"
#include "support/compare.h"
#include "support/scoped_env.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

enum class Rule { sum, product, max, min, all, any, argmax, argmin };
const Rule kRules[] = {Rule::sum, Rule::product, Rule::max,    Rule::min,
                       Rule::all, Rule::any,     Rule::argmax, Rule::argmin};

const char* rule_name(Rule r) {
  switch (r) {
    case Rule::sum:
      return "sum";
    case Rule::product:
      return "product";
    case Rule::max:
      return "reduce_max";
    case Rule::min:
      return "reduce_min";
    case Rule::all:
      return "all";
    case Rule::any:
      return "any";
    case Rule::argmax:
      return "argmax";
    default:
      return "argmin";
  }
}

// Reduces the last axis of `t` (every axis for rank 1); arg ops with ties to the low index.
Tensor apply(Rule r, const Tensor& t) {
  const std::int64_t last = static_cast<std::int64_t>(t.rank()) - 1;
  const Axes axes = t.rank() <= 1 ? Axes{} : Axes{last};
  switch (r) {
    case Rule::sum:
      return sum(t, axes);
    case Rule::product:
      return product(t, axes);
    case Rule::max:
      return reduce_max(t, axes);
    case Rule::min:
      return reduce_min(t, axes);
    case Rule::all:
      return all(t, axes);
    case Rule::any:
      return any(t, axes);
    case Rule::argmax:
      return argmax(t, t.rank() <= 1 ? std::nullopt : std::optional<std::int64_t>(last));
    default:
      return argmin(t, t.rank() <= 1 ? std::nullopt : std::optional<std::int64_t>(last));
  }
}

// Values of dtype d with ties, zeros (all/any), signs and, for products, factors near 1 (so
// long float products stay finite and integer ones wrap the same on both paths).
Tensor values(DType d, const Shape& s, Rule r) {
  const std::int64_t n = numel(s);
  std::vector<double> v(static_cast<std::size_t>(n));
  std::uint32_t x = 12345u;
  for (std::int64_t i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    const double u = static_cast<double>(x >> 8) / static_cast<double>(1u << 24);
    double val = std::floor(u * 9) - (is_signed_integer(d) || is_float(d) ? 4 : 0);
    if (is_float(d)) val = r == Rule::product ? 1 + (u - 0.5) * 0.002 : val + u;
    if (r == Rule::all && (x >> 4) % 4096 != 0) val = val == 0 ? 1 : val;  // mostly nonzero
    v[static_cast<std::size_t>(i)] = val;
  }
  return as_type(from_vector(v, s), d);
}

bool device_has(DType d) {
  const vk::DeviceCaps caps = vk::testing::device_caps();
  if (d == DType::f64) return caps.float64 && caps.int64;
  return itemsize(d) < 8 || caps.int64;
}

class ReducePasses : public VulkanTest {
 protected:
  // `rule` over `host` on the device with one and with two passes: equal bytes, and the
  // one-pass path ran in `one_pass_dispatches` dispatches where given.
  void check(Rule rule, const Tensor& host, const std::string& what,
             std::optional<std::uint64_t> one_pass_dispatches = std::nullopt) {
    const Tensor dev = transfer(host, gpu());
    Tensor one, two;
    std::uint64_t one_count = 0, two_count = 0;
    {
      const ScopedEnvVar env("VKT_VK_REDUCE_PASSES", "2");
      LedgerScope scope;
      two = apply(rule, dev);
      two_count = scope.delta().dispatches;
      EXPECT_EQ(scope.delta().fallbacks, 0u) << what;
    }
    {
      const ScopedEnvVar env("VKT_VK_REDUCE_PASSES", "1");
      LedgerScope scope;
      one = apply(rule, dev);
      one_count = scope.delta().dispatches;
      EXPECT_EQ(scope.delta().fallbacks, 0u) << what;
    }
    ASSERT_EQ(one.shape(), two.shape()) << what;
    EXPECT_EQ(one.to_bytes(), two.to_bytes()) << what;
    if (one_pass_dispatches) {
      EXPECT_EQ(one_count, *one_pass_dispatches) << what;
      EXPECT_EQ(two_count, *one_pass_dispatches + 1) << what;
    }
    // And the cpu's answer where it is exact (integers, max/min, truth tests, indices).
    if (!is_float(host.dtype()) || (rule != Rule::sum && rule != Rule::product)) {
      EXPECT_TRUE(tensors_close(one, apply(rule, host), Tolerance{0, 0})) << what;
    }
  }
};

std::string describe(Rule r, DType d, const Shape& s) {
  return std::string(rule_name(r)) + " " + std::string(dtype_name(d)) + " " + shape_str(s);
}

// Every rule and accumulator type on one long row (second pass: rows mode, 256 partials)
// and three long rows (one second-pass workgroup of 8 rows), one dispatch each.
TEST_F(ReducePasses, EveryRuleAndDtypeEqualsTwoPasses) {
  for (DType d : {DType::u8, DType::s8, DType::s32, DType::u32, DType::s64, DType::f16, DType::bf16,
                  DType::f32, DType::f64}) {
    if (!device_has(d)) continue;
    for (Rule r : kRules) {
      for (const Shape& s : {Shape{1 << 20}, Shape{3, 1 << 20}}) {
        check(r, values(d, s, r), describe(r, d, s), 1u);
      }
    }
  }
}

// Sizes that do not split (one dispatch either way), that split into few partials (second
// pass in columns mode), and 2^24 + 5; empty tensors.
TEST_F(ReducePasses, SizesAndEmptyTensors) {
  for (std::int64_t n : {1, 3, 4096, 8193, 100000, (1 << 24) + 5}) {
    for (Rule r : {Rule::sum, Rule::max, Rule::argmax, Rule::any}) {
      if (n > (1 << 20) && r == Rule::any) continue;  // lavapipe's time: three rules suffice
      const Shape s{n};
      const std::optional<std::uint64_t> dispatches =
          n <= 4096 ? std::nullopt : std::optional<std::uint64_t>(1);
      check(r, values(DType::f32, s, r), describe(r, DType::f32, s), dispatches);
    }
  }
  for (const Shape& s : {Shape{0}, Shape{3, 0}, Shape{0, 5}}) {
    for (Rule r : {Rule::sum, Rule::product, Rule::max, Rule::all}) {
      check(r, values(DType::f32, s, r), describe(r, DType::f32, s));
    }
  }
}

// Second passes of several workgroups: rows mode with 8 rows a workgroup (20 rows of 74
// partials: 3 workgroups) and columns mode past 256 outputs (300 rows of 5 partials), with
// 32-bit and 64-bit accumulators and arg indices.
TEST_F(ReducePasses, SecondPassesOfSeveralWorkgroups) {
  for (const Shape& s : {Shape{20, 300000}, Shape{300, 20000}, Shape{40, 100000}}) {
    for (DType d : {DType::s32, DType::f32, DType::f64}) {
      if (!device_has(d)) continue;
      for (Rule r : {Rule::sum, Rule::min, Rule::argmin, Rule::all}) {
        check(r, values(d, s, r), describe(r, d, s), 1u);
      }
    }
  }
}

// The vec4 paths (lavapipe's default is the element path), with and without subgroup
// shuffles, and workgroup targets that move the splits (VKT_VK_REDUCE_GROUPS): the combine
// takes the second pass's vec4 scan where it would (f32 arg partials).
TEST_F(ReducePasses, Vec4AndTreeVariants) {
  const bool saved = vk::testing::subgroup_reductions();
  for (const char* reduce : {"vec4", "scalar"}) {
    const ScopedEnvVar vec4("VKT_VK_REDUCE", reduce);
    for (bool subgroups : {true, false}) {
      vk::testing::set_subgroup_reductions(subgroups);
      for (const char* groups : {"", "7", "600"}) {
        const ScopedEnvVar split("VKT_VK_REDUCE_GROUPS", groups);
        for (const Shape& s : {Shape{1 << 20}, Shape{3, 1 << 20}, Shape{2, 40963}}) {
          for (Rule r : {Rule::sum, Rule::max, Rule::argmax, Rule::argmin}) {
            check(r, values(DType::f32, s, r),
                  describe(r, DType::f32, s) + " " + reduce + " groups " + groups +
                      (subgroups ? "" : " no subgroups"));
          }
        }
      }
    }
  }
  vk::testing::set_subgroup_reductions(saved);
}

// Reductions of one tensor and of each other's results in one batch: every one-pass
// scratch is its own, so results are those of separate calls.
TEST_F(ReducePasses, BatchedReductionsShareNothing) {
  const Tensor h = values(DType::f32, {4, 70000}, Rule::sum);
  const Tensor dev = transfer(h, gpu());
  const Tensor a = sum(dev), b = reduce_max(dev), c = argmax(dev, 1), d = sum(dev, {1});
  const Tensor e = sum(sum(dev, {1}));
  EXPECT_EQ(a.to_bytes(), sum(dev).to_bytes());
  EXPECT_EQ(b.to_bytes(), reduce_max(h).to_bytes());
  EXPECT_EQ(c.to_bytes(), argmax(h, 1).to_bytes());
  EXPECT_EQ(e.to_bytes(), sum(d).to_bytes());
}

TEST_F(ReducePasses, BadPassesValueNamesTheVariable) {
  const Tensor dev = transfer(values(DType::f32, {100000}, Rule::sum), gpu());
  const ScopedEnvVar env("VKT_VK_REDUCE_PASSES", "3");
  try {
    (void)sum(dev).to_bytes();
    FAIL() << "VKT_VK_REDUCE_PASSES=3 was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("VKT_VK_REDUCE_PASSES='3'"), std::string::npos)
        << e.what();
  }
  const ScopedEnvVar good("VKT_VK_REDUCE_PASSES", "1");
  EXPECT_TRUE(
      tensors_close(sum(dev), sum(values(DType::f32, {100000}, Rule::sum)), Tolerance{1e-5, 1e-2}));
}

}  // namespace
}  // namespace vkt::testing
