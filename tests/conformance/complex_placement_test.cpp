// Where each complex elementwise op and conversion runs on the Vulkan backend, asserted
// exactly: native on a device that keeps f32 subnormals; where f32 flushes them (the H100 and
// H200), c64 arithmetic and complex conversions fall back once each with their result on the
// cpu, and c128 arithmetic and c64's bit-decided ops stay native (complex_placement.h).
#include "conformance/complex_placement.h"

#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "conformance/elementwise_op_lists.h"
#include "conformance/fixture.h"
#include "vulkan/ops/op_support.h"

namespace vkt::testing {
namespace {

class ComplexPlacement : public VulkanTest {
 protected:
  // Runs f on the device and checks where it ran against the rule for `op` on dtype d.
  template <class F>
  void expect_runs_where_the_rule_says(Op op, DType d, const std::string& what, F&& f) {
    const bool table_native = op == Op::as_type || vk::vulkan_native(op, d);
    const bool falls_back = !table_native || (vk::testing::f32_flushes() &&
                                              complex_falls_back_where_f32_flushes(op, d));
    LedgerScope scope;
    const Tensor got = f();
    const LedgerCounts delta = scope.delta();
    EXPECT_EQ(delta.fallbacks, falls_back ? 1u : 0u) << what << ": " << delta.to_string();
    if (falls_back) {
      EXPECT_EQ(delta.fallbacks_by_op.count(std::string(op_name(op))), 1u) << what;
      EXPECT_EQ(&got.backend(), &cpu()) << what << ": a fallback leaves its result on the cpu";
    } else {
      EXPECT_EQ(&got.backend(), &gpu()) << what;
    }
    ++checked_;
  }
  void elementwise_ops();
  void conversions();
  int checked_ = 0;
};

Tensor complex_on_device(DType d, std::int64_t n, double shift) {
  std::vector<std::complex<double>> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = {shift + 0.25 * static_cast<double>(i), shift - 0.5 * static_cast<double>(i)};
  }
  return copy(as_type(from_vector(v, {n}, &cpu()), d), vulkan());
}

// The complex dtypes this device stores (c128 needs shaderFloat64).
std::vector<DType> device_complex_dtypes() {
  if (vk::testing::device_caps().float64) return {DType::c64, DType::c128};
  return {DType::c64};
}

// For the test's life, the rules of a device that flushes f32 subnormals, whatever this one
// does, so lavapipe also asserts the fallbacks an H100 takes.
class AssumeF32Flush {
 public:
  AssumeF32Flush() { vk::testing::set_f32_flushes(true); }
  ~AssumeF32Flush() { vk::testing::set_f32_flushes(std::nullopt); }
  AssumeF32Flush(const AssumeF32Flush&) = delete;
  AssumeF32Flush& operator=(const AssumeF32Flush&) = delete;
};

void ComplexPlacement::elementwise_ops() {
  for (DType d : device_complex_dtypes()) {
    const Tensor a = complex_on_device(d, 37, 0.5), b = complex_on_device(d, 37, -1.5);
    for (Op op : kUnaryOps) {
      if (!op_accepts(op, d)) continue;
      const std::string what = std::string(op_name(op)) + " " + std::string(dtype_name(d));
      expect_runs_where_the_rule_says(op, d, what, [&] { return unary(op, a); });
    }
    for (Op op : kBinaryOps) {
      if (!op_accepts(op, d)) continue;
      const std::string what = std::string(op_name(op)) + " " + std::string(dtype_name(d));
      expect_runs_where_the_rule_says(op, d, what, [&] { return binary(op, a, b); });
    }
  }
  EXPECT_GE(checked_, 15);  // the complex rows of the table
}

void ComplexPlacement::conversions() {
  const std::vector<DType> complex_dtypes = device_complex_dtypes();
  const bool f64 = complex_dtypes.size() == 2;
  for (DType d : complex_dtypes) {
    const Tensor z = complex_on_device(d, 41, 0.75);
    const Tensor x = copy(from_vector(std::vector<float>(41, 2.5f), {41}, &cpu()), vulkan());
    for (DType other : {DType::f32, DType::f64, DType::s32, DType::u8, DType::c64, DType::c128}) {
      if (other == d || (!f64 && (other == DType::f64 || other == DType::c128))) continue;
      const std::string to = std::string(dtype_name(d)) + " to " + std::string(dtype_name(other));
      expect_runs_where_the_rule_says(Op::as_type, d, to, [&] { return as_type(z, other); });
      const Tensor real = is_complex(other) ? x : as_type(x, other);
      const std::string from =
          std::string(dtype_name(real.dtype())) + " to " + std::string(dtype_name(d));
      expect_runs_where_the_rule_says(Op::as_type, d, from, [&] { return as_type(real, d); });
    }
  }
}

TEST_F(ComplexPlacement, ElementwiseOpsRunWhereTheRuleSays) {
  elementwise_ops();
}

TEST_F(ComplexPlacement, ElementwiseOpsRunWhereTheRuleSaysIfF32Flushes) {
  const AssumeF32Flush flushing;
  ASSERT_TRUE(vk::testing::f32_flushes());
  elementwise_ops();
}

TEST_F(ComplexPlacement, ConversionsRunWhereTheRuleSays) {
  conversions();
}

TEST_F(ComplexPlacement, ConversionsRunWhereTheRuleSaysIfF32Flushes) {
  const AssumeF32Flush flushing;
  conversions();
}

}  // namespace
}  // namespace vkt::testing
