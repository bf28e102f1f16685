// Several Vulkan devices in one process (issue 39): vkt::vulkan(i) is a backend of its own per
// device (pool, queue, pipelines), transfer is the one way across (through the host: both
// crossings, and the move by its path, in the ledger), one op over two devices is an error
// naming both, and the cpu is a third place. Needs two devices: ctest's vulkan_two_devices
// entry lists lavapipe's driver twice (VK_DRIVER_FILES), which the loader then offers as two
// devices; skipped elsewhere.
#include <algorithm>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "conformance/fixture.h"
#include "support/compare.h"
#include "support/op_tolerance.h"
#include "vkt/ledger.h"

namespace vkt::testing {
namespace {

class MultiDevice : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    try {
      (void)vulkan(1);
    } catch (const NoDevice&) {
      GTEST_SKIP() << "one Vulkan device here (ctest's vulkan_two_devices entry offers two)";
    }
  }
  static Backend& first() { return vulkan(0); }
  static Backend& second() { return vulkan(1); }
};

std::vector<float> ramp(std::int64_t n, float scale) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = scale * static_cast<float>(i % 97) - 3.0f;
  return v;
}

TEST_F(MultiDevice, EachDeviceIsABackendOfItsOwn) {
  EXPECT_NE(&first(), &second());
  EXPECT_EQ(&vulkan(0), &first());  // the same backend each time it is asked for
  EXPECT_EQ(&vulkan(1), &second());
}

TEST_F(MultiDevice, EachDeviceRunsOpsNativelyAndKeepsTheResults) {
  const std::vector<float> a = ramp(4099, 0.25f), b = ramp(4099, -0.5f);
  const Tensor expected = add(exp(multiply(from_vector(a), 0.01f)), from_vector(b));
  for (Backend* dev : {&first(), &second()}) {
    LedgerScope scope;
    const Tensor got = add(exp(multiply(from_vector(a, dev), 0.01f)), from_vector(b, dev));
    EXPECT_EQ(scope.delta().fallbacks, 0u) << dev->name();
    EXPECT_EQ(&got.backend(), dev);
    // Within exp's tolerance: the two devices may be different models.
    EXPECT_TRUE(tensors_close(got, expected, elementwise_tolerance(DType::f32))) << dev->name();
  }
}

TEST_F(MultiDevice, OneOpOverTwoDevicesIsAnErrorAndBothGoOn) {
  const Tensor x = from_vector(ramp(64, 1.0f), &first());
  const Tensor y = from_vector(ramp(64, 2.0f), &second());
  try {
    (void)add(x, y);
    ADD_FAILURE() << "add over two devices ran";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("[add]"), std::string::npos) << what;
    EXPECT_NE(what.find("transfer"), std::string::npos) << what;  // says the way across
    // Each device by its own name (two of one model differ by index).
    EXPECT_NE(first().name(), second().name());
    EXPECT_NE(what.find(first().name()), std::string::npos) << what;
    EXPECT_NE(what.find(second().name()), std::string::npos) << what;
  }
  // Both devices still work, and the way across is explicit.
  const Tensor sum = add(x, transfer(y, first()));
  EXPECT_EQ(&sum.backend(), &first());
  const std::vector<float> want = ramp(64, 1.0f), other = ramp(64, 2.0f);
  std::vector<float> expected(want.size());
  for (std::size_t i = 0; i < want.size(); ++i) expected[i] = want[i] + other[i];
  EXPECT_EQ(sum.to_vector<float>(), expected);
}

TEST_F(MultiDevice, TransferBetweenDevicesCrossesTheHostOnceEachWay) {
  const std::vector<float> values = ramp(1 << 16, 0.5f);
  const Tensor on_first = from_vector(values, &first());
  first().synchronize();
  LedgerScope scope;
  const Tensor on_second = transfer(on_first, second());
  const LedgerCounts d = scope.delta();
  EXPECT_EQ(&on_second.backend(), &second());
  EXPECT_EQ(d.downloads, 1u) << d.to_string();
  EXPECT_EQ(d.uploads, 1u) << d.to_string();
  EXPECT_EQ(d.download_bytes, values.size() * sizeof(float)) << d.to_string();
  EXPECT_EQ(d.upload_bytes, values.size() * sizeof(float)) << d.to_string();
  // The move itself, by its path: staged through the host.
  EXPECT_EQ(d.cross_device_host_staged, 1u) << d.to_string();
  EXPECT_EQ(d.cross_device_host_staged_bytes, values.size() * sizeof(float)) << d.to_string();
  EXPECT_NE(d.to_string().find("cross_device_host_staged=1 (262144 B)"), std::string::npos)
      << d.to_string();
  EXPECT_EQ(on_second.to_vector<float>(), values);
}

TEST_F(MultiDevice, OnlyDeviceToDeviceMovesCountAsCrossDevice) {
  const std::vector<float> values = ramp(4096, 0.25f);
  LedgerScope scope;
  const Tensor on_first = transfer(from_vector(values), first());  // cpu -> device: an upload
  const Tensor there = transfer(on_first, second());
  const Tensor back = transfer(transfer(there, first()), cpu());  // device -> cpu: a download
  const LedgerCounts d = scope.delta();
  EXPECT_EQ(d.cross_device_host_staged, 2u) << d.to_string();
  EXPECT_EQ(d.cross_device_host_staged_bytes, 2 * values.size() * sizeof(float)) << d.to_string();
  EXPECT_EQ(d.uploads, 3u) << d.to_string();
  EXPECT_EQ(d.downloads, 3u) << d.to_string();
  EXPECT_EQ(back.to_vector<float>(), values);
  // A transfer to where the tensor already is moves nothing.
  LedgerScope same;
  (void)transfer(there, second());
  EXPECT_EQ(same.delta().cross_device_host_staged, 0u);
}

TEST_F(MultiDevice, TheCpuIsAThirdPlaceOnTheWay) {
  const std::vector<float> values = ramp(1000, 1.5f);
  const Tensor there = transfer(transfer(from_vector(values), first()), second());
  const Tensor back = transfer(sort(there, 0), cpu());
  std::vector<float> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(&back.backend(), &cpu());
  EXPECT_EQ(back.to_vector<float>(), sorted);
}

TEST_F(MultiDevice, EachDeviceHasItsOwnMemory) {
  first().synchronize();
  second().synchronize();
  const std::uint64_t before = second().memory_stats().in_use;
  const Tensor big = full({1 << 20}, 1.0f, DType::f32, &first());
  first().synchronize();
  EXPECT_GE(first().memory_stats().in_use, big.nbytes());
  EXPECT_EQ(second().memory_stats().in_use, before);
}

TEST_F(MultiDevice, TwoThreadsEachOnItsDevice) {
  const std::vector<float> a = ramp(1 << 15, 0.125f);
  const float expected =
      std::accumulate(a.begin(), a.end(), 0.0f, [](float s, float x) { return s + x * x; });
  std::vector<float> got(2, 0.0f);
  std::vector<std::thread> threads;
  for (int i = 0; i < 2; ++i) {
    threads.emplace_back([&, i] {
      Backend& dev = i == 0 ? first() : second();
      const Tensor x = from_vector(a, &dev);
      float total = 0;
      for (int round = 0; round < 20; ++round) {
        total = sum(multiply(x, x)).to_vector<float>()[0];
      }
      got[static_cast<std::size_t>(i)] = total;
    });
  }
  for (std::thread& t : threads) t.join();
  // Each near the host's sum (the devices, maybe of two models, may reduce in other orders).
  EXPECT_NEAR(got[0], expected, 1e-3 * expected);
  EXPECT_NEAR(got[1], expected, 1e-3 * expected);
}

}  // namespace
}  // namespace vkt::testing
