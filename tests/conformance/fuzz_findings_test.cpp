// Regression tests for what the differential fuzzer (tests/fuzz) found, one each, device
// against the cpu: f64 acosh of values past 1e154 (t * t overflowed to inf on the device),
// and pow with a signalling NaN operand (glibc's pow gave NaN for pow(sNaN, 0) and
// pow(1, sNaN), where C and the device give 1).
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "conformance/fixture.h"
#include "support/compare.h"
#include "support/op_tolerance.h"
#include "vulkan/testing.h"

namespace vkt::testing {
namespace {

class FuzzFindings : public VulkanTest {};

TEST_F(FuzzFindings, AcoshF64OfHugeValues) {
  if (!vk::testing::device_caps().float64) GTEST_SKIP() << "no shaderFloat64";
  const Tensor x = from_vector(std::vector<double>{9.6066e256, 6.62631e286, 1.7976931348623157e308,
                                                   1.5e154, 1e150, 3.0, 1.0},
                               &cpu());
  const Tensor g = acosh(transfer(x, gpu())), c = acosh(x);
  EXPECT_TRUE(tensors_close(g, c, elementwise_tolerance(DType::f64)));
  EXPECT_NEAR(c.to_vector<double>()[2], 710.47586007394386, 1e-12);
}

TEST_F(FuzzFindings, PowWithSignallingNaN) {
  const float snan = std::bit_cast<float>(std::uint32_t{0x7fa00000u});
  const float qnan = std::bit_cast<float>(std::uint32_t{0x7fc00000u});
  const Tensor a = from_vector(std::vector<float>{snan, 1.0f, qnan, 1.0f, snan, 2.0f}, &cpu());
  const Tensor b = from_vector(std::vector<float>{0.0f, snan, -0.0f, qnan, 2.0f, snan}, &cpu());
  const std::vector<float> c = pow(a, b).to_vector<float>();
  EXPECT_EQ(c[0], 1.0f);  // pow(x, 0) = 1 for any x, even a NaN (C11 F.10.4.4)
  EXPECT_EQ(c[1], 1.0f);  // pow(1, y) = 1 for any y, even a NaN
  EXPECT_EQ(c[2], 1.0f);
  EXPECT_EQ(c[3], 1.0f);
  EXPECT_TRUE(std::isnan(c[4]) && std::isnan(c[5]));
  for (DType d : {DType::f32, DType::f16, DType::bf16}) {
    const Tensor x = as_type(a, d), y = as_type(b, d);
    EXPECT_TRUE(tensors_close(pow(transfer(x, gpu()), transfer(y, gpu())), pow(x, y),
                              elementwise_tolerance(d)))
        << dtype_name(d);
  }
}

}  // namespace
}  // namespace vkt::testing
