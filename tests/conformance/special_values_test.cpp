// Special values through every elementwise op and dtype: subnormals, +-0, +-inf, NaN, the
// largest finite values, the smallest normals and (by saturation) the integer extremes, as
// every pair through a broadcast for binary ops. The device must give the cpu's answer with
// a tolerance of a few ulp and an absolute floor of 2 subnormal ulp. Where the device
// flushes subnormals in arithmetic (flush.h), the ops outside kExactUnderFlush may instead
// give the flushed answer: the cpu's result for operands flushed to 0, itself flushed.
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "conformance/fixture.h"
#include "conformance/flush.h"
#include "support/compare.h"
#include "support/op_tolerance.h"
#include "vkt/op_call.h"

namespace vkt::testing {
namespace {

#define VKT_SPECIAL_OP(name) Op::name,
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// Narrow dtypes saturate the wide extremes to inf and flush the narrow subnormals of wider
// types to 0, so each dtype meets its own extremes in one list.
const std::vector<double> kSpecial = {
    0.0, -0.0, 1.4e-45, -1.4e-45, 1e-40, -2.5e-39, 1.1754942e-38, 1.17549435e-38,
    3.4028235e38, -3.4028235e38, kInf, -kInf, kNaN, 1.0, -1.0, 0.5, -2.5, 89.0, 1e-20,
    7.0, 6e-8, -3e-6, 6.1035e-5, 65504.0, 4.9e-324, -1e-310, 2.2250738585072014e-308,
    1.7976931348623157e308, -1.7976931348623157e308, 710.0, 1e-160};

class SpecialValues : public VulkanTest {
 protected:
  // One op on the device against the cpu; under a flush, the flushed answer is accepted too.
  template <class F>
  void check(Op op, DType d, F&& run, const std::vector<Tensor>& inputs) {
    std::vector<Tensor> on_gpu, on_cpu, on_cpu_flushed;
    for (const Tensor& t : inputs) {
      on_gpu.push_back(transfer(t, gpu()));
      on_cpu.push_back(t);
      on_cpu_flushed.push_back(flushed(t));
    }
    const Tensor g = run(on_gpu), c = run(on_cpu);
    const Tolerance tol = is_float(c.dtype()) ? special_tolerance(c.dtype()) : Tolerance{};
    const auto plain = tensors_close(g, c, tol);
    if (plain) return;
    if (is_float(d) && d != DType::f16 && !exact_under_flush(op) && device_flushes(d)) {
      const Tensor cf = run(on_cpu_flushed);
      const Tensor expected = is_float(cf.dtype()) ? flushed(cf) : cf;
      // Element by element: the plain answer or the flushed one.
      const std::vector<double> gv = as_doubles(g), cv = as_doubles(c), fv = as_doubles(expected);
      for (std::size_t i = 0; i < gv.size(); ++i) {
        auto near = [&](double e) {
          return (std::isnan(gv[i]) && std::isnan(e)) || gv[i] == e ||
                 std::fabs(gv[i] - e) <= tol.atol + tol.rtol * std::fabs(e);
        };
        EXPECT_TRUE(near(cv[i]) || near(fv[i]))
            << op_name(op) << " " << dtype_name(d) << " element " << i << ": " << gv[i]
            << ", cpu " << cv[i] << ", flushed " << fv[i];
      }
      return;
    }
    ADD_FAILURE() << op_name(op) << " " << dtype_name(d) << ": " << plain.message();
  }
};

Tensor special(DType d, const Shape& s) {
  return as_type(from_vector(kSpecial, s, &cpu()), d);
}

TEST_F(SpecialValues, EveryBinaryOpAndDtype) {
  const std::int64_t n = static_cast<std::int64_t>(kSpecial.size());
  for (DType d : kAllDTypes) {
    const Tensor a = special(d, {n, 1}), b = special(d, {1, n});
    for (Op op : {VKT_BINARY_OPS(VKT_SPECIAL_OP)}) {
      if (!is_integer(d) && (op == Op::quotient || op == Op::bitwise_and || op == Op::bitwise_or ||
                             op == Op::bitwise_xor || op == Op::left_shift ||
                             op == Op::right_shift)) {
        continue;
      }
      check(op, d, [&](const std::vector<Tensor>& t) { return binary(op, t[0], t[1]); }, {a, b});
    }
  }
}

TEST_F(SpecialValues, EveryUnaryOpAndDtype) {
  const std::int64_t n = static_cast<std::int64_t>(kSpecial.size());
  for (DType d : kAllDTypes) {
    const Tensor a = special(d, {n});
    for (Op op : {VKT_UNARY_OPS(VKT_SPECIAL_OP)}) {
      const bool int_only = op == Op::bitwise_not || op == Op::count_leading_zeros ||
                            op == Op::population_count;
      if (int_only && !is_integer(d)) continue;
      check(op, d, [&](const std::vector<Tensor>& t) { return unary(op, t[0]); }, {a});
    }
  }
}

#undef VKT_SPECIAL_OP

}  // namespace
}  // namespace vkt::testing
