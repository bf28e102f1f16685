// Host <-> device transfers: every dtype, 0 bytes, 1 element, odd sizes, several chunks.
#include <cstdlib>
#include <numeric>
#include <vector>

#include "conformance/fixture.h"
#include "vulkan/context.h"
#include "vulkan/testing.h"

namespace vkt::testing {
namespace {

class Transfer : public VulkanTest {};

std::vector<std::byte> pattern(std::size_t n, unsigned seed) {
  std::vector<std::byte> v(n);
  std::uint32_t x = seed * 2654435761u + 1;
  for (auto& b : v) {
    x = x * 1664525u + 1013904223u;
    b = static_cast<std::byte>(x >> 24);
  }
  return v;
}

TEST_F(Transfer, RoundTripsEveryDtypeAndSize) {
  for (DType d : kAllDTypes) {
    for (std::int64_t n : {0, 1, 3, 7, 255, 257, 1001, 65537}) {
      const auto bytes =
          pattern(static_cast<std::size_t>(n) * itemsize(d), static_cast<unsigned>(n));
      const Tensor t = from_bytes(bytes, d, {n}, &gpu());
      EXPECT_EQ(&t.backend(), &gpu());
      EXPECT_EQ(t.to_bytes(), bytes) << dtype_name(d) << " n=" << n;
    }
  }
}

TEST_F(Transfer, RoundTripsSeveralChunksExactly) {
  // 4 chunks of 16 MiB and an odd tail: the staging ring of 3 is reused within one transfer.
  const std::size_t n = (56u << 20) + 5;
  const auto bytes = pattern(n, 7);
  LedgerScope scope;
  const Tensor t = from_bytes(bytes, DType::u8, {static_cast<std::int64_t>(n)}, &gpu());
  std::vector<std::byte> back(n);
  t.read_into(back);
  EXPECT_TRUE(back == bytes);
  const LedgerCounts d = scope.delta();
  EXPECT_EQ(d.uploads, 1u);
  EXPECT_EQ(d.downloads, 1u);
  EXPECT_EQ(d.download_bytes, n);
}

TEST_F(Transfer, TransferToCpuAndBack) {
  const std::vector<float> v = {1.5f, -2.0f, 3.25f};
  const Tensor c = from_vector(v);
  const Tensor g = transfer(c, gpu());
  EXPECT_EQ(&g.backend(), &gpu());
  EXPECT_EQ(transfer(g, gpu()).storage().get(), g.storage().get());  // same backend: no copy
  EXPECT_EQ(transfer(g, cpu()).to_vector<float>(), v);
}

TEST_F(Transfer, ValidationIsOnWhenAsked) {
  const char* v = std::getenv("VKT_VALIDATION");
  if (v == nullptr || std::string(v) != "1") GTEST_SKIP() << "VKT_VALIDATION is not 1";
  gpu();
  EXPECT_TRUE(vk::validation_enabled());
}

TEST_F(Transfer, StagingEnvironmentIsHonoured) {
  const char* v = std::getenv("VKT_VK_STAGING");
  if (v == nullptr || std::string(v) != "1") GTEST_SKIP() << "VKT_VK_STAGING is not 1";
  EXPECT_FALSE(vk::testing::host_mapped());
}

TEST(VulkanDevice, ReportListsDevicesAndLimits) {
  const std::string r = vk::device_report();
  EXPECT_NE(r.find("(default)"), std::string::npos) << r;
  EXPECT_NE(r.find("maxStorageBufferRange"), std::string::npos) << r;
  EXPECT_NE(r.find("shaderFloat64"), std::string::npos) << r;
}

TEST(VulkanDevice, NameStartsWithVulkan) {
  EXPECT_EQ(vulkan().name().rfind("vulkan:", 0), 0u);
}

TEST(VulkanDevice, MissingIndexThrowsNoDevice) {
  try {
    vulkan(999);
    FAIL() << "no exception";
  } catch (const NoDevice& e) {
    EXPECT_NE(std::string(e.what()).find("999"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace vkt::testing
