// ±0 in the device's max/min: reduce_max of a set holding both zeros is +0 and reduce_min -0,
// on the sign bit, whatever order the device combines them in: every float dtype it stores,
// one invocation per output (7), one workgroup's tree (1000), rows split across workgroups
// and a second pass (100000, {3, 1048576}), columns, non-adjacent axes (a pass each), the
// f32 vec4 and no-subgroup variants, vkt::compile's fused reductions, and elementwise
// max/min, scans and windows; argmax/argmin tie the zeros (docs/semantics-elementwise.md).
#include <string>
#include <vector>

#include "common/settings.h"
#include "conformance/fixture.h"
#include "support/signed_zeros.h"
#include "vkt/compile.h"
#include "vkt/ledger.h"
#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

class SignedZeroReduce : public VulkanTest {
 protected:
  bool device_has(DType d) {
    const vk::DeviceCaps& caps = dynamic_cast<vk::VulkanBackend&>(gpu()).context().caps();
    return d != DType::f64 || (caps.float64 && caps.int64);
  }

  // reduce_max over `max_order` and reduce_min over `min_order`, spread over `shape` so each
  // output of `axes` holds the whole order, on the device: every output a zero of the rule's
  // sign. f32 must run natively (the other dtypes' support is the device's).
  void check(DType d, const ZeroOrder& max_order, const ZeroOrder& min_order, const Shape& shape,
             const Axes& axes, const std::string& what) {
    const Tensor hi = transfer(spread_order(d, max_order.second, shape, axes), gpu());
    const Tensor lo = transfer(spread_order(d, min_order.second, shape, axes), gpu());
    LedgerScope scope;
    const Tensor got_max = reduce_max(hi, axes), got_min = reduce_min(lo, axes);
    if (d == DType::f32) {
      EXPECT_EQ(scope.delta().fallbacks, 0u) << what << ": " << scope.delta().to_string();
    }
    const std::string at = what + " " + std::string(dtype_name(d)) + " " + shape_str(shape) +
                           " axes " + shape_str(axes) + " " + max_order.first;
    EXPECT_TRUE(all_zeros_signed(got_max, false)) << "reduce_max " << at;
    EXPECT_TRUE(all_zeros_signed(got_min, true)) << "reduce_min " << at;
  }

  void check_orders(DType d, const Shape& shape, const Axes& axes, bool every_order,
                    const std::string& what) {
    std::int64_t len = 1;
    for (std::size_t a = 0; a < shape.size(); ++a) {
      bool reduced = axes.empty();
      for (std::int64_t x : axes) reduced = reduced || x == static_cast<std::int64_t>(a);
      if (reduced) len *= shape[a];
    }
    const auto max_orders = zero_orders(len, -1.0, every_order);
    const auto min_orders = zero_orders(len, 1.0, every_order);
    for (std::size_t k = 0; k < max_orders.size(); ++k) {
      check(d, max_orders[k], min_orders[k], shape, axes, what);
    }
  }
};

const DType kFloats[] = {DType::f16, DType::bf16, DType::f32, DType::f64};

TEST_F(SignedZeroReduce, EveryFloatDtypeOnePassAndSplitPasses) {
  struct Case {
    Shape shape;
    Axes axes;
    bool every_order;
  };
  const std::vector<Case> cases = {
      {{7}, {}, true},              // short rows: one invocation per output
      {{1000}, {}, true},           // one workgroup's tree
      {{100000}, {}, true},         // split across workgroups, then a second pass
      {{3, 1048576}, {1}, false},   // split rows of several outputs
      {{20001, 3}, {0}, true},      // columns split across invocations
      {{40, 3, 50}, {0, 2}, true},  // non-adjacent axes: a pass each through the accumulator
  };
  for (DType d : kFloats) {
    if (!device_has(d)) continue;
    for (const Case& c : cases) check_orders(d, c.shape, c.axes, c.every_order, "default");
  }
}

// f32 rows read as vec4s (forced: lavapipe's rule is the element path), splits moved by the
// workgroup count, and the shared-memory tree without subgroup shuffles.
TEST_F(SignedZeroReduce, F32Vec4SplitAndNoSubgroupVariants) {
  const std::vector<std::pair<Shape, Axes>> cases = {
      {{1000}, {}}, {{100000}, {}}, {{3, 20001}, {1}}, {{20001, 4}, {0}}};
  for (const char* setting :
       {"reduce_vec4=1", "reduce_groups=3", "reduce_vec4=1,reduce_groups=1"}) {
    const OverrideScope scope(setting);
    for (const auto& [shape, axes] : cases) check_orders(DType::f32, shape, axes, true, setting);
  }
  const bool saved = vk::testing::subgroup_reductions();
  vk::testing::set_subgroup_reductions(false);
  for (const auto& [shape, axes] : cases)
    check_orders(DType::f32, shape, axes, true, "no subgroups");
  vk::testing::set_subgroup_reductions(saved);
}

// vkt::compile: a reduction with a fused prologue, and a row group (the max feeds a subtract
// in the same kernel: x - max(x) keeps x's zeros only where the max is +0).
TEST_F(SignedZeroReduce, CompiledReductionsKeepTheRule) {
  auto prologue = compile([](const Tensor& x) { return reduce_max(negate(x), {1}); });
  auto row = compile([](const Tensor& x) { return subtract(x, reduce_max(x, {1}, true)); });
  for (DType d : {DType::f16, DType::f32}) {
    for (std::int64_t n : {7, 1000, 100000}) {
      for (const auto& [name, order] : zero_orders(n, 1.0, n < 100000)) {
        const std::string what = std::string(dtype_name(d)) + " " + std::to_string(n) + " " + name;
        const Tensor x = spread_order(d, order, {3, n}, {1});  // zeros and +1
        EXPECT_TRUE(all_zeros_signed(prologue(transfer(x, gpu())), false)) << what;
        const Tensor below = negate(x);  // zeros and -1: the max is +0
        const Tensor got = transfer(row(transfer(below, gpu())), cpu());
        EXPECT_EQ(as_type(got, DType::f64).to_bytes(), as_type(below, DType::f64).to_bytes())
            << "x - max(x) " << what;
      }
    }
  }
}

// Elementwise max/min, a scan long enough to carry between workgroups, and windows.
TEST_F(SignedZeroReduce, ElementwiseScansAndWindowsShareTheRule) {
  for (DType d : kFloats) {
    if (!device_has(d)) continue;
    const Tensor ab = transfer(as_type(from_vector(std::vector<double>{-0.0, 0.0}), d), gpu());
    const Tensor ba = reverse(ab);
    EXPECT_TRUE(all_zeros_signed(max(ab, ba), false)) << dtype_name(d);
    EXPECT_TRUE(all_zeros_signed(max(ba, ab), false)) << dtype_name(d);
    EXPECT_TRUE(all_zeros_signed(min(ab, ba), true)) << dtype_name(d);
    EXPECT_TRUE(all_zeros_signed(min(ba, ab), true)) << dtype_name(d);
    for (const auto& [name, order] : zero_orders(100000, -1.0, false)) {
      const Tensor x = transfer(spread_order(d, order, {100000}, {}), gpu());
      const Tensor last = slice(cumulative_max(x), {99999}, {1});
      EXPECT_TRUE(all_zeros_signed(last, false)) << dtype_name(d) << " cumulative_max " << name;
      EXPECT_TRUE(all_zeros_signed(slice(cumulative_min(negate(x)), {99999}, {1}), true))
          << dtype_name(d) << " cumulative_min " << name;
    }
    EXPECT_TRUE(all_zeros_signed(window_max(ab, {2}), false)) << dtype_name(d);
    EXPECT_TRUE(all_zeros_signed(window_max(ba, {2}), false)) << dtype_name(d);
    EXPECT_TRUE(all_zeros_signed(window_min(ab, {2}), true)) << dtype_name(d);
    EXPECT_TRUE(all_zeros_signed(window_min(ba, {2}), true)) << dtype_name(d);
  }
}

// argmax/argmin compare values (-0 == +0): the tie-break picks the first or last zero.
// f32 only: the tie rule per dtype is NativeReduce.ArgEveryDtypeAxisAndTieRule's; here the
// zeros' part of it, where each dtype would add seconds of pipelines on lavapipe.
TEST_F(SignedZeroReduce, ArgReductionsTieTheZeros) {
  for (DType d : {DType::f32}) {
    for (std::int64_t n : {2, 1000, 100000}) {
      std::vector<double> v(static_cast<std::size_t>(n), -1.0);
      v[1] = -0.0;
      v[static_cast<std::size_t>(n) - 1] = 0.0;
      const Tensor t = transfer(as_type(from_vector(v), d), gpu());
      const std::string what = std::string(dtype_name(d)) + " " + std::to_string(n);
      EXPECT_EQ(argmax(t).item<std::int64_t>(), 1) << what;
      EXPECT_EQ(argmax(t, 0, false, TieBreak::high).item<std::int64_t>(), n - 1) << what;
      EXPECT_EQ(argmin(negate(t)).item<std::int64_t>(), 1) << what;
      EXPECT_EQ(argmin(negate(t), 0, false, TieBreak::high).item<std::int64_t>(), n - 1) << what;
    }
  }
}

}  // namespace
}  // namespace vkt::testing
