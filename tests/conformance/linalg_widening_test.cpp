// dot of 16-bit float operands into f32 on the device (JAX's preferred_element_type=f32 over
// f16, bf16 and both FP8 formats): the operands stay 16-bit into the GEMM, which stores its
// unrounded f32 sums, in every kernel the device has, split K and a C that is not one
// contiguous block included; no fallback, no transfer, the cpu's bits where every sum is
// exact, and no conversion passes beyond the narrow dtype's one step to f16.
#include <string>
#include <vector>

#include "common/settings.h"
#include "conformance/fixture.h"
#include "vkt/compile.h"
#include "vkt/grad.h"
#include "vulkan/runtime/backend.h"

namespace vkt::testing {
namespace {

struct WideningCase {
  std::string name;
  Shape a, b;
  Axes contract_a, batch_a, contract_b, batch_b;
  bool c_contiguous = true;  // C is [batch, M, N] as the GEMM writes it
};

std::vector<WideningCase> widening_cases() {
  return {
      {"1x1x1", {1, 1}, {1, 1}, {1}, {}, {0}, {}},
      {"odd 3x5x7", {3, 5}, {5, 7}, {1}, {}, {0}, {}},
      {"64 cubed", {64, 64}, {64, 64}, {1}, {}, {0}, {}},
      {"coopmat tiles 128x96x256", {128, 96}, {96, 256}, {1}, {}, {0}, {}},
      {"split K 8x8192x8", {8, 8192}, {8192, 8}, {1}, {}, {0}, {}},
      {"transposed a", {40, 24}, {40, 36}, {0}, {}, {0}, {}},
      {"3 batches", {3, 33, 17}, {3, 17, 40}, {2}, {0}, {1}, {0}},
      // b's free axes {4, 3} around K: C is [M, P, Q], rows P * Q apart (no single stride).
      {"b's free group split", {5, 6}, {4, 6, 3}, {1}, {}, {1}, {}, false},
      {"K = 0", {4, 0}, {0, 3}, {1}, {}, {0}, {}},
  };
}

// Quarters in [-2, 2]: exact in every 16- and 8-bit float, and every sum of their products
// is exact in f32 at these sizes, so any order of adding gives the cpu's bits.
Tensor quarters(const Shape& shape, DType d, std::uint32_t seed) {
  std::vector<double> v(static_cast<std::size_t>(numel(shape)));
  std::uint32_t s = seed * 2654435761u + 99u;
  for (double& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<double>(static_cast<int>((s >> 16) % 17) - 8) / 4.0;
  }
  return as_type(from_vector(v, shape, &cpu()), d);
}

DType operand_type(DType d) {
  return d == DType::bf16 ? DType::bf16 : DType::f16;
}

class LinalgWidening : public VulkanTest {
 protected:
  static bool supported(DType d) {
    auto& vb = static_cast<vk::VulkanBackend&>(gpu());
    return vb.dtype_supported(d) && vb.dtype_supported(operand_type(d));
  }

  // Every case with operands of dtype d under the overrides in force.
  void check_all(DType d) {
    std::uint32_t seed = 1;
    for (const WideningCase& c : widening_cases()) {
      const std::string what = c.name + " " + std::string(dtype_name(d));
      const Tensor a = quarters(c.a, d, seed++), b = quarters(c.b, d, seed++);
      const Tensor want = dot(a, c.contract_a, c.batch_a, b, c.contract_b, c.batch_b, DType::f32);
      const Tensor ga = transfer(a, gpu()), gb = transfer(b, gpu());
      LedgerScope scope;
      const Tensor got = dot(ga, c.contract_a, c.batch_a, gb, c.contract_b, c.batch_b, DType::f32);
      const LedgerCounts widening = scope.delta();
      EXPECT_EQ(widening.fallbacks, 0u) << what << ": " << widening.to_string();
      EXPECT_EQ(widening.uploads + widening.downloads, 0u) << what;
      ASSERT_EQ(&got.backend(), &gpu()) << what;
      ASSERT_EQ(got.dtype(), DType::f32) << what;
      EXPECT_EQ(got.to_bytes(), want.to_bytes()) << what;
      if (d != operand_type(d) || !c.c_contiguous) continue;
      // The same kernel launches as the operands' own dot: nothing widens them first.
      LedgerScope plain_scope;
      (void)dot(ga, c.contract_a, c.batch_a, gb, c.contract_b, c.batch_b);
      EXPECT_EQ(widening.dispatches, plain_scope.delta().dispatches) << what;
    }
  }
};

TEST_F(LinalgWidening, SixteenBitOperandsIntoF32MatchTheCpuInEveryKernel) {
  auto& vb = static_cast<vk::VulkanBackend&>(gpu());
  std::vector<std::string> settings = {"", "dot_kernel=tiled", "dot_kernel=reg", "coopmat=0"};
  if (vb.context().caps().coopmat_nv) settings.push_back("coopmat=1,coopmat_api=nv");
  if (vb.context().caps().coopmat_khr) settings.push_back("coopmat=1,coopmat_api=khr");
  for (const std::string& s : settings) {
    const OverrideScope force(s);
    SCOPED_TRACE("overrides '" + s + "'");
    for (DType d : {DType::f16, DType::bf16, DType::f8, DType::f8_e4m3fn}) {
      if (supported(d)) check_all(d);
    }
  }
}

// The two 8-bit formats meet in f16, which holds both: still one native product.
TEST_F(LinalgWidening, MixedEightBitFormatsMeetInF16) {
  if (!supported(DType::f8) || !supported(DType::f8_e4m3fn)) {
    GTEST_SKIP() << gpu().name() << " stores no f16";
  }
  const Tensor a = quarters({16, 32}, DType::f8, 5), b = quarters({32, 24}, DType::f8_e4m3fn, 6);
  LedgerScope scope;
  const Tensor got = dot(transfer(a, gpu()), transfer(b, gpu()), DType::f32);
  EXPECT_EQ(scope.delta().fallbacks, 0u) << scope.delta().to_string();
  EXPECT_EQ(&got.backend(), &gpu());
  EXPECT_EQ(got.to_bytes(), dot(a, b, DType::f32).to_bytes());
}

// Compiled, with an epilogue the dot groups would fuse, and differentiated: the cpu's bits
// (exact sums), on the device; each operand's gradient in its own dtype.
TEST_F(LinalgWidening, CompiledAndDifferentiatedEqualTheCpu) {
  if (!supported(DType::f16)) GTEST_SKIP() << gpu().name() << " stores no f16";
  const auto f = [](const Tensor& a, const Tensor& b) {
    return max(add(dot(a, b, DType::f32), 1.0), 0.0);
  };
  const Tensor a = quarters({24, 40}, DType::f16, 7), b = quarters({40, 32}, DType::f16, 8);
  const Tensor ga = transfer(a, gpu()), gb = transfer(b, gpu());
  const Tensor want = f(a, b);
  auto compiled = compile(f);
  for (int call = 0; call < 2; ++call) {  // the trace, then the plan's replay
    LedgerScope scope;
    const Tensor got = compiled(ga, gb);
    EXPECT_EQ(scope.delta().fallbacks, 0u) << scope.delta().to_string();
    EXPECT_EQ(&got.backend(), &gpu());
    EXPECT_EQ(got.to_bytes(), want.to_bytes()) << "call " << call;
  }
  const auto loss = [](const std::vector<Tensor>& x) {
    return std::vector<Tensor>{sum(dot(x[0], x[1], DType::f32))};
  };
  const std::vector<Tensor> host = grad(loss, {a, b}), device = grad(loss, {ga, gb});
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(device[k].dtype(), DType::f16) << k;
    EXPECT_EQ(&device[k].backend(), &gpu()) << k;
    EXPECT_EQ(device[k].to_bytes(), host[k].to_bytes()) << k;
  }
}

}  // namespace
}  // namespace vkt::testing
