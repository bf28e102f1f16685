// Host <-> device transfers: every dtype, 0 bytes, 1 element, odd sizes, several chunks.
#include <algorithm>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "common/settings.h"
#include "conformance/fixture.h"
#include "vulkan/runtime/context.h"
#include "vulkan/runtime/pinned_reads.h"
#include "vulkan/runtime/testing.h"

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
  for (DType d : kRealDTypes) {
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

// Every consumer read lands the same bytes: to_cpu (pinned from a discrete device, or the
// staging run here), read_into a caller's buffer, to_vector and to_bytes; sizes on both
// sides of the pinned threshold and of the 16 MiB staging chunk, none a multiple of either.
TEST_F(Transfer, EveryReadKindLandsTheSameBytes) {
  const std::size_t pinned_min = vk::PinnedPool::kMinBytes;
  for (std::size_t n : {std::size_t{1}, std::size_t{4093}, pinned_min - 4, pinned_min + 12,
                        (std::size_t{16} << 20) + 36, (std::size_t{33} << 20) + 4}) {
    const auto bytes = pattern(n, static_cast<unsigned>(n));
    const auto count = static_cast<std::int64_t>(n / 4);
    const std::span<const std::byte> used(bytes.data(), static_cast<std::size_t>(count) * 4);
    const Tensor t = from_bytes(used, DType::f32, {count}, &gpu());
    const std::vector<std::byte> expect(used.begin(), used.end());
    auto holds_expected = [&](const void* p) {  // p may be null when nothing was read
      return std::equal(expect.begin(), expect.end(), static_cast<const std::byte*>(p));
    };

    LedgerScope scope;
    const Tensor h = t.to_cpu();
    EXPECT_EQ(scope.delta().downloads, count > 0 ? 1u : 0u) << n;
    EXPECT_TRUE(h.backend().is_cpu());
    const std::span<const float> view = h.host_span<float>();
    ASSERT_EQ(view.size(), static_cast<std::size_t>(count));
    EXPECT_TRUE(holds_expected(view.data())) << "to_cpu " << n;

    std::vector<std::byte> into(expect.size(), std::byte{0xEE});
    t.read_into(into);
    EXPECT_TRUE(into == expect) << "read_into " << n;
    EXPECT_TRUE(t.to_bytes() == expect) << "to_bytes " << n;
    const std::vector<float> vec = t.to_vector<float>();
    EXPECT_TRUE(holds_expected(vec.data())) << "to_vector " << n;
  }
}

// A read's host memory is reused once its tensor is gone, and never while it lives.
TEST_F(Transfer, ReadsReuseHostMemoryWithoutAliasing) {
  const std::int64_t n = 1 << 18;  // 1 MiB: the pinned path on a discrete device
  const Tensor a = full({n}, 1.5f, DType::f32, &gpu());
  const Tensor b = full({n}, -2.0f, DType::f32, &gpu());
  const void* first = nullptr;
  {
    const Tensor ha = a.to_cpu();
    const Tensor hb = b.to_cpu();
    EXPECT_NE(ha.host_span<float>().data(), hb.host_span<float>().data());
    EXPECT_EQ(ha.host_span<float>()[n - 1], 1.5f);
    EXPECT_EQ(hb.host_span<float>()[0], -2.0f);
    first = ha.host_span<float>().data();
  }
  const Tensor again = b.to_cpu();
  EXPECT_EQ(again.host_span<float>()[n / 2], -2.0f);
  // Freed buffers of this size class come back (which one: the pool's order).
  const Tensor more = a.to_cpu();
  const void* p = again.host_span<float>().data();
  const void* q = more.host_span<float>().data();
  EXPECT_NE(p, q);
  EXPECT_TRUE(p == first || q == first);
}

TEST_F(Transfer, HostSpanNeedsHostMemoryAndTheRightType) {
  const Tensor g = full({4}, 2.0f, DType::f32, &gpu());
  if (g.storage()->host_data() == nullptr) {
    EXPECT_THROW((void)g.host_span<float>(), Error);
  }
  EXPECT_THROW((void)g.to_cpu().host_span<double>(), TypeError);
  EXPECT_EQ(g.to_cpu().host_span<float>()[3], 2.0f);
  EXPECT_THROW((void)Tensor().to_cpu(), Error);
  const Tensor c = full({2}, 1.0f, DType::f32);
  EXPECT_EQ(c.to_cpu().storage().get(), c.storage().get());  // already there: no copy
}

TEST_F(Transfer, ValidationIsOnWhenAsked) {
  if (!settings().validation) GTEST_SKIP() << "VKT_VALIDATION is not 1";
  gpu();
  EXPECT_TRUE(vk::validation_enabled());
}

TEST_F(Transfer, StagingEnvironmentIsHonoured) {
  if (!settings().staging) GTEST_SKIP() << "VKT_VK_STAGING is not 1";
  EXPECT_FALSE(vk::testing::host_mapped());
}

// Small host tensors (up to 4 KiB) reach a device whose working memory is not host-mapped
// either by a memcpy into device-local, host-visible memory (the default where the device
// has it) or inline in the command buffer (small_uploads_mapped=0): the same bytes either
// way, read back through staging, and used by ops as their host-held indices.
TEST_F(Transfer, SmallUploadsMappedOrByCommand) {
  for (const char* mode : {"mapped", "command"}) {
    SCOPED_TRACE(mode);
    const bool mapped = std::string(mode) == "mapped";
    const OverrideScope force(mapped ? "staging=1,small_uploads_mapped=1"
                                     : "staging=1,small_uploads_mapped=0");
    const std::unique_ptr<Backend> dev = vk::testing::separate_backend();
    std::string how;
    for (const auto& [key, value] : dev->properties()) {
      if (key == "small_uploads") how = value;
    }
    if (std::string(mode) == "command" || how.rfind("mapped", 0) == 0) {
      EXPECT_EQ(how.rfind(mode, 0), 0u) << how;
    }
    for (std::size_t n : {1, 3, 4096, 4097}) {
      const std::vector<std::byte> bytes = pattern(n, static_cast<unsigned>(n));
      const Tensor t = transfer(from_bytes(bytes, DType::u8, {static_cast<std::int64_t>(n)}), *dev);
      EXPECT_EQ(t.to_bytes(), bytes) << n;
    }
    const Tensor x = transfer(from_vector<float>({1, 2, 3, 4, 5, 6, 7}), *dev);
    const Tensor idx = from_vector<std::int64_t>({6, 0, -4, 99, 3}, Shape{5, 1});
    const Tensor g = gather(x, idx);
    EXPECT_EQ(&g.backend(), dev.get());
    EXPECT_EQ(g.to_vector<float>(), (std::vector<float>{7, 1, 1, 7, 4}));
    const Tensor put = indexed_put(x, from_vector<std::int64_t>({1, 5, 1}, Shape{3, 1}),
                                   from_vector<float>({8, 9, 10}));
    EXPECT_EQ(put.to_vector<float>(), (std::vector<float>{1, 10, 3, 4, 5, 9, 7}));
  }
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

// VKT_DEVICE: digits are an index, anything else a name substring; neither fitting is
// NoDevice naming the variable, even for an index too long for any integer.
TEST(VulkanDevice, DeviceSettingIsAnIndexOrAName) {
  const std::vector<std::string> names{"llvmpipe (LLVM 15.0.7, 256 bits)", "NVIDIA H200"};
  EXPECT_EQ(vk::device_by_setting("1", names), 1);
  EXPECT_EQ(vk::device_by_setting("00", names), 0);
  EXPECT_EQ(vk::device_by_setting("nvidia", names), 1);
  EXPECT_EQ(vk::device_by_setting("LLVMPIPE", names), 0);
  for (const char* bad : {"2", "99999999999999999999999", "radeon"}) {
    try {
      (void)vk::device_by_setting(bad, names);
      FAIL() << bad << ": no exception";
    } catch (const NoDevice& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(std::string("VKT_DEVICE='") + bad + "'"), std::string::npos) << what;
    }
  }
}

}  // namespace
}  // namespace vkt::testing
