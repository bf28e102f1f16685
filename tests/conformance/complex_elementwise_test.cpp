// c64/c128 elementwise ops, conversion and creation on a Vulkan tensor against the cpu
// backend: every unary and binary op the op table lets take complex numbers, on random
// values and on special parts (signed zeros, inf, NaN, large magnitudes). Today these run
// by the fallback rule (the result on the cpu, equal bits); once a family is native the
// same checks hold it to the cpu within the per-dtype tolerance.
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "conformance/fixture.h"
#include "support/compare.h"
#include "vkt/backend/op_info.h"
#include "vkt/compile.h"

namespace vkt::testing {
namespace {

class ComplexElementwise : public VulkanTest {};

// Random parts in [-3, 3] after the special parts crossed with each other.
Tensor complex_input(DType d, std::size_t random_count, unsigned seed) {
  const double inf = std::numeric_limits<double>::infinity();
  const double big = d == DType::c64 ? 1e30 : 1e300;
  const std::vector<double> parts = {0, -0.0, 1, -1.5, inf, -inf, std::nan(""), big};
  std::vector<std::complex<double>> v;
  for (double re : parts) {
    for (double im : parts) v.emplace_back(re, im);
  }
  unsigned state = seed;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<double>(state >> 8) / static_cast<double>(1u << 24) * 6 - 3;
  };
  for (std::size_t i = 0; i < random_count; ++i) v.emplace_back(next(), next());
  return as_type(from_vector(v, &cpu()), d);
}

std::vector<Op> complex_ops(OpFamily family) {
  std::vector<Op> ops;
  for (Op op : all_ops()) {
    if (op_family(op) == family && op_accepts(op, DType::c64)) ops.push_back(op);
  }
  return ops;
}

TEST_F(ComplexElementwise, UnaryOpsOnVulkanTensorsEqualTheCpu) {
  for (DType d : kComplexDTypes) {
    const Tensor x = complex_input(d, 200, 7);
    const Tensor on_gpu = transfer(x, gpu());
    for (Op op : complex_ops(OpFamily::unary)) {
      SCOPED_TRACE(std::string(op_name(op)) + " " + std::string(dtype_name(d)));
      const Tensor want = unary(op, x);
      const Tensor got = unary(op, on_gpu);
      EXPECT_TRUE(tensors_close(got, want));
    }
  }
}

TEST_F(ComplexElementwise, BinaryOpsOnVulkanTensorsEqualTheCpu) {
  for (DType d : kComplexDTypes) {
    // Every special part against a row of values, broadcast (264 x 8).
    const Tensor a = reshape(complex_input(d, 200, 11), {-1, 1});
    const Tensor b = as_type(from_vector<std::complex<double>>({{0, -0.0},
                                                                {-1.5, 1},
                                                                {std::nan(""), 0},
                                                                {1e30, -2},
                                                                {0.25, 2},
                                                                {-3, 0.5},
                                                                {2, 0},
                                                                {0, -1}},
                                                               {1, 8}, &cpu()),
                             d);
    const Tensor ga = transfer(a, gpu()), gb = transfer(b, gpu());
    for (Op op : complex_ops(OpFamily::binary)) {
      SCOPED_TRACE(std::string(op_name(op)) + " " + std::string(dtype_name(d)));
      EXPECT_TRUE(tensors_close(binary(op, ga, gb), binary(op, a, b)));
      // A complex literal with a real Vulkan tensor makes it complex, as on the cpu.
      const Tensor real = transfer(from_vector<float>({1.5f, -2, 0}, &cpu()), gpu());
      const Scalar lit(std::complex<double>(0.5, -1));
      EXPECT_TRUE(tensors_close(binary(op, real, scalar_tensor(lit, d, &cpu())),
                                binary(op, real.to_cpu(), scalar_tensor(lit, d, &cpu()))));
    }
  }
}

TEST_F(ComplexElementwise, ConversionAndCreationOnVulkanEqualTheCpu) {
  for (DType d : kComplexDTypes) {
    SCOPED_TRACE(std::string(dtype_name(d)));
    const Tensor x = complex_input(d, 50, 3);
    const Tensor g = transfer(x, gpu());
    for (DType to : kValueDTypes) {
      EXPECT_TRUE(tensors_close(as_type(g, to), as_type(x, to))) << dtype_name(to);
      const Tensor r = transfer(as_type(x, to), gpu());
      EXPECT_EQ(as_type(r, d).to_bytes(), as_type(as_type(x, to), d).to_bytes()) << dtype_name(to);
    }
    EXPECT_EQ(copy(g, gpu()).to_bytes(), x.to_bytes());
    const Scalar value(std::complex<double>(1.25, -3));
    EXPECT_EQ(full({3, 5}, value, d, &gpu()).to_bytes(), full({3, 5}, value, d, &cpu()).to_bytes());
    EXPECT_EQ(iota({4, 3}, d, 0, &gpu()).to_bytes(), iota({4, 3}, d, 0, &cpu()).to_bytes());
    EXPECT_EQ(eye({3, 4}, d, &gpu()).to_bytes(), eye({3, 4}, d, &cpu()).to_bytes());
  }
}

// Compiled graphs over complex Vulkan tensors: the fused-group compilers refuse complex
// groups, so they run op by op and give eager's bits.
TEST_F(ComplexElementwise, CompiledGraphsOnVulkanEqualEager) {
  auto program = [](const Tensor& z, const Tensor& x) {
    const Tensor y = add(multiply(exp(z), std::complex<float>(0.5f, -1)), x);
    return std::make_pair(divide(y, add(abs(z), 1.0f)), phase(sqrt(y)));
  };
  auto f = compile(program);
  const Tensor z = transfer(complex_input(DType::c64, 400, 5), gpu());
  const Tensor x = transfer(iota({464}, DType::f32, std::nullopt, &cpu()), gpu());
  const auto [a, b] = f(z, x);
  const auto [ea, eb] = program(z, x);
  EXPECT_EQ(a.to_bytes(), ea.to_bytes());
  EXPECT_EQ(b.to_bytes(), eb.to_bytes());
}

}  // namespace
}  // namespace vkt::testing
