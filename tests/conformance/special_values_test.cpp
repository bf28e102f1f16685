// Special values through every elementwise op and dtype: subnormals, +-0, +-inf, NaN, the
// largest finite values, the smallest normals and (by saturation) the integer extremes, as
// every pair through a broadcast for binary ops. The device must give the cpu's answer with
// a tolerance of a few ulp and an absolute floor of 2 subnormal ulp. Where the device
// flushes subnormals in arithmetic (flush.h; VKT_TEST_ASSUME_FLUSH=1 pretends it does), the
// ops outside exact_under_flush may instead give the flushed answer: the cpu's result for
// operands flushed to 0, itself flushed.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "conformance/fixture.h"
#include "conformance/flush.h"
#include "support/compare.h"
#include "support/op_tolerance.h"
#include "vkt/backend/op_call.h"

namespace vkt::testing {
namespace {

#define VKT_SPECIAL_OP(name) Op::name,
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// Narrow dtypes saturate the wide extremes to inf and flush the narrow subnormals of wider
// types to 0, so each dtype meets its own extremes in one list.
const std::vector<double> kSpecial = {0.0,
                                      -0.0,
                                      1.4e-45,
                                      -1.4e-45,
                                      1e-40,
                                      -2.5e-39,
                                      1.1754942e-38,
                                      1.17549435e-38,
                                      3.4028235e38,
                                      -3.4028235e38,
                                      kInf,
                                      -kInf,
                                      kNaN,
                                      1.0,
                                      -1.0,
                                      0.5,
                                      -2.5,
                                      89.0,
                                      1e-20,
                                      7.0,
                                      6e-8,
                                      -3e-6,
                                      6.1035e-5,
                                      65504.0,
                                      4.9e-324,
                                      -1e-310,
                                      2.2250738585072014e-308,
                                      1.7976931348623157e308,
                                      -1.7976931348623157e308,
                                      710.0,
                                      1e-160};

class SpecialValues : public VulkanTest {
 protected:
  // One op on the device against the cpu. Where the device flushes (or VKT_TEST_ASSUME_FLUSH
  // says so) and the op is flush-dependent, each element may instead be the flushed answer;
  // every other op must give the cpu's answer.
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
    if (!(is_float(d) && !exact_under_flush(op) && device_flushes(d))) {
      const auto plain = tensors_close(g, c, tol);
      if (!plain) ADD_FAILURE() << op_name(op) << " " << dtype_name(d) << ": " << plain.message();
      return;
    }
    ++flush_checks_;
    const Tensor cf = run(on_cpu_flushed);
    const Tensor expected = is_float(cf.dtype()) ? flushed(cf) : cf;
    ASSERT_EQ(g.dtype(), c.dtype());
    ASSERT_EQ(expected.dtype(), c.dtype());
    // Element by element (any dtype, read as doubles): the plain answer or the flushed one.
    const std::vector<double> gv = as_doubles(g), cv = as_doubles(c), fv = as_doubles(expected);
    ASSERT_EQ(gv.size(), cv.size());
    ASSERT_EQ(fv.size(), cv.size());
    for (std::size_t i = 0; i < gv.size(); ++i) {
      auto near = [&](double e) {
        if (std::isnan(gv[i]) || std::isnan(e)) return std::isnan(gv[i]) && std::isnan(e);
        if (std::isinf(gv[i]) || std::isinf(e)) return gv[i] == e;
        return std::fabs(gv[i] - e) <= tol.atol + tol.rtol * std::fabs(e);
      };
      EXPECT_TRUE(near(cv[i]) || near(fv[i]))
          << op_name(op) << " " << dtype_name(d) << " element " << i << ": " << gv[i] << ", cpu "
          << cv[i] << ", flushed " << fv[i];
    }
  }
  int flush_checks_ = 0;
};

Tensor special(DType d, const Shape& s) {
  return as_type(from_vector(kSpecial, s, &cpu()), d);
}

TEST_F(SpecialValues, EveryBinaryOpAndDtype) {
  const std::int64_t n = static_cast<std::int64_t>(kSpecial.size());
  for (DType d : kRealDTypes) {
    const Tensor a = special(d, {n, 1}), b = special(d, {1, n});
    for (Op op : {VKT_BINARY_OPS(VKT_SPECIAL_OP)}) {
      if (!is_integer(d) && op_info(op).dtypes == OpDTypes::integer) continue;
      check(op, d, [&](const std::vector<Tensor>& t) { return binary(op, t[0], t[1]); }, {a, b});
    }
  }
  if (assume_flush()) {
    EXPECT_GT(flush_checks_, 0);  // the flush branch ran
  }
}

TEST_F(SpecialValues, EveryUnaryOpAndDtype) {
  const std::int64_t n = static_cast<std::int64_t>(kSpecial.size());
  for (DType d : kRealDTypes) {
    const Tensor a = special(d, {n});
    for (Op op : {VKT_UNARY_OPS(VKT_SPECIAL_OP)}) {
      if (!is_integer(d) && op_info(op).dtypes == OpDTypes::integer) continue;
      check(op, d, [&](const std::vector<Tensor>& t) { return unary(op, t[0]); }, {a});
    }
  }
  if (assume_flush()) {
    EXPECT_GT(flush_checks_, 0);  // the flush branch ran
  }
}

#undef VKT_SPECIAL_OP

}  // namespace
}  // namespace vkt::testing
