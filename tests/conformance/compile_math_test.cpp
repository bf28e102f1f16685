// Every elementwise op inside a fused kernel gives eager's bits (docs/compile.md): the
// kernels call the shaders' shared math functions, which the driver optimises in each
// kernel's context, so a step left free to be contracted or rewritten (cbrt's Newton steps:
// the compile fuzzer's seed 22) rounded differently there. Each op runs in chains of six
// per compiled function over values across the range, specials included.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "conformance/fixture.h"
#include "fuzz/compile_check.h"
#include "vkt/compile.h"

namespace vkt {
namespace {

// Magnitudes from 2^-30 to 2^30 in eighths, both signs, dense values in [-4, 4] and the
// specials; as f64, converted to the dtype under test.
std::vector<double> spread() {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> v = {0.0, -0.0, inf, -inf, std::nan(""), 1, -1, 0.5, -0.5, 2, 3, 1e-45, 1e38};
  for (int k = -30; k <= 30; ++k) {
    for (int j = 0; j < 8; ++j) {
      const double x = std::ldexp(1.0 + j / 8.0, k);
      v.push_back(x);
      v.push_back(-x);
    }
  }
  for (int i = 0; i < 512; ++i) v.push_back(-4.0 + 8.0 * (i + 0.37) / 512.0);
  return v;
}

class CompileMath : public testing::VulkanUntieredTest {
 protected:
  // ops over their arguments, each as op(...) * 1 so it sits inside a fused group, six to a
  // compiled function (the groups' buffers stay within the device's 8): compiled and
  // eager, compared. Ops that refuse the dtype (integer-only ones) are left out.
  void check(const std::vector<Op>& ops, DType d, bool binary) {
    const std::vector<double> v = spread();
    const auto n = static_cast<std::int64_t>(v.size());
    std::vector<double> w(v.rbegin(), v.rend());
    std::rotate(w.begin(), w.begin() + 7, w.end());  // partners vary across the range
    const Tensor x = as_type(from_vector(v, {n}, &gpu()), d);
    const Tensor y = as_type(from_vector(w, {n}, &gpu()), d);
    std::vector<Op> taken;
    for (Op op : ops) {
      try {
        (void)(binary ? vkt::binary(op, x, y) : vkt::unary(op, x));
        taken.push_back(op);
      } catch (const TypeError&) {
      }
    }
    for (std::size_t first = 0; first < taken.size(); first += 6) {
      const std::vector<Op> chunk(
          taken.begin() + static_cast<std::ptrdiff_t>(first),
          taken.begin() + static_cast<std::ptrdiff_t>(std::min(first + 6, taken.size())));
      const auto program = [&chunk, binary](const Tensor& a, const Tensor& b) {
        std::vector<Tensor> out;
        for (Op op : chunk) {
          out.push_back(multiply(binary ? vkt::binary(op, a, b) : vkt::unary(op, a), 1));
        }
        return out;
      };
      auto f = compile(program);
      const std::vector<Tensor> eager = program(x, y);
      for (int call = 0; call < 2; ++call) {
        if (call == 1) {  // the ops ran inside generated kernels, not as eager dispatches
          EXPECT_NE(f.describe().find("fused group"), std::string::npos) << f.describe();
        }
        const std::vector<Tensor> compiled = f(x, y);
        for (std::size_t k = 0; k < chunk.size(); ++k) {
          EXPECT_EQ(fuzz::compiled_difference(eager[k], compiled[k]), "")
              << op_name(chunk[k]) << " on " << dtype_name(d) << (call ? " (replay)" : "") << "\n"
              << f.describe();
        }
      }
    }
  }
};

std::vector<Op> family(OpFamily f) {
  std::vector<Op> out;
  for (Op o : all_ops()) {
    if (op_family(o) == f) out.push_back(o);
  }
  return out;
}

TEST_F(CompileMath, EveryUnaryOpFusedGivesEagerBits) {
  for (DType d : {DType::f32, DType::f64}) {
    check(family(OpFamily::unary), d, false);
  }
}

TEST_F(CompileMath, EveryBinaryOpFusedGivesEagerBits) {
  for (DType d : {DType::f32, DType::f64}) {
    check(family(OpFamily::binary), d, true);
  }
}

}  // namespace
}  // namespace vkt
