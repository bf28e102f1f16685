// VKT_VK_OP_SPIRV: elementwise pipelines from per-op modules (the family's shader recompiled
// with VKT_ONLY_OPS) give the embedded uber-shaders' results byte for byte: every unary and
// binary op on f32, a sample on the other dtypes, same-shape, scalar and broadcast operands.
#include <limits>
#include <string>
#include <vector>

#include "conformance/elementwise_op_lists.h"
#include "conformance/fixture.h"
#include "vkt/backend/op_info.h"
#include "vkt/error.h"
#include "vkt/ledger.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

const std::vector<Op> kUnarySample = {Op::negate, Op::abs,  Op::sign,        Op::is_nan,
                                      Op::exp,    Op::sqrt, Op::logical_not, Op::round};
const std::vector<Op> kBinarySample = {Op::add,   Op::multiply, Op::divide,      Op::pow,
                                       Op::equal, Op::less,     Op::bitwise_and, Op::right_shift};
const std::vector<DType> kOtherDTypes = {DType::f16, DType::bf16, DType::s32, DType::u8,
                                         DType::s64, DType::f64,  DType::c64};

// Edge values first (signed zeros, NaN, infinities, subnormal, huge), then a spread.
Tensor input(DType d, const Shape& s, double salt) {
  const std::vector<double> edges = {0.0,
                                     -0.0,
                                     1.0,
                                     -1.0,
                                     0.5,
                                     1e-40,
                                     3e38,
                                     -7.25,
                                     100.0,
                                     std::numeric_limits<double>::quiet_NaN(),
                                     std::numeric_limits<double>::infinity(),
                                     -2.5};
  std::vector<double> v(static_cast<std::size_t>(numel(s)));
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = i < edges.size() ? edges[(i + static_cast<std::size_t>(salt)) % edges.size()]
                            : salt * 0.37 * static_cast<double>(i % 97) - 17.0;
  }
  return transfer(as_type(from_vector(v, s, &cpu()), d), vulkan());
}

class ElementwiseOpSpirv : public VulkanTest {
 protected:
  void TearDown() override {
    vk::testing::set_op_spirv(was_on_);
    VulkanTest::TearDown();
  }
  // `run` with the embedded modules, then with per-op ones; false when the call is not native
  // (the op table sends it to the cpu). A per-op run must go through the kernel cache.
  template <class F>
  bool expect_same_bytes(F&& run, const std::string& what) {
    vk::testing::set_op_spirv(false);
    LedgerScope embedded_scope;
    Tensor embedded;
    try {
      embedded = run();
    } catch (const Error&) {
      return false;  // an op the dtype does not take (bitwise on complex, less on complex)
    }
    if (embedded_scope.delta().fallbacks != 0) return false;
    vk::testing::set_op_spirv(true);
    LedgerScope per_op_scope;
    const Tensor per_op = run();
    const LedgerCounts c = per_op_scope.delta();
    EXPECT_EQ(c.fallbacks, 0u) << what;
    EXPECT_GE(c.kernel_compiles + c.kernel_cache_hits + c.kernel_disk_hits, 1u)
        << what << ": the per-op module was not used";
    EXPECT_TRUE(embedded.to_bytes() == per_op.to_bytes()) << what;
    return true;
  }
  bool was_on_ = vk::testing::op_spirv();
};

TEST_F(ElementwiseOpSpirv, UnarySameBytesAsTheEmbeddedModule) {
  int compared = 0;
  auto check = [&](Op op, DType d) {
    if (op_info(op).dtypes == OpDTypes::integer && !is_integer(d)) return;
    const Tensor a = input(d, {4099}, 1);
    compared += expect_same_bytes([&] { return unary(op, a); },
                                  std::string(op_name(op)) + " " + std::string(dtype_name(d)));
  };
  for (Op op : kUnaryOps) check(op, DType::f32);
  for (DType d : kOtherDTypes) {
    for (Op op : kUnarySample) check(op, d);
  }
  EXPECT_GE(compared, 40);
}

TEST_F(ElementwiseOpSpirv, BinarySameBytesAsTheEmbeddedModule) {
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {{4099}, {4099}}, {{}, {33}}, {{33}, {}}, {{3, 1, 5}, {4, 1}}};
  int compared = 0;
  auto check = [&](Op op, DType d) {
    if (op_info(op).dtypes == OpDTypes::integer && !is_integer(d)) return;
    for (std::size_t k = 0; k < shapes.size(); ++k) {
      const Tensor a = input(d, shapes[k].first, 1), b = input(d, shapes[k].second, 5);
      compared +=
          expect_same_bytes([&] { return binary(op, a, b); },
                            std::string(op_name(op)) + " " + std::string(dtype_name(d)) + " " +
                                shape_str(shapes[k].first) + " " + shape_str(shapes[k].second));
    }
  };
  for (Op op : kBinaryOps) check(op, DType::f32);
  for (DType d : kOtherDTypes) {
    for (Op op : kBinarySample) check(op, d);
  }
  EXPECT_GE(compared, 100);
}

}  // namespace
}  // namespace vkt::testing
