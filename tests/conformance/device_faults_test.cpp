// Device faults (issue 10, item 5). Allocation past the pool cap or maxMemoryAllocationSize
// is an OutOfMemory naming the op, the bytes and the heap, and later ops work. A lost device
// (injected: the next submit or wait returns VK_ERROR_DEVICE_LOST) makes every later op and
// read on that device a DeviceLost, without a hang or a crash; the cpu and other devices go
// on. The loss is injected into a second backend of the default device, so this process's
// default backend, which the rest of the suite uses, is never lost.
#include <functional>
#include <string>

#include "conformance/fixture.h"
#include "vulkan/runtime/check.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

template <class E>
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("another exception: ") + e.what();
  }
  return "no error";
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

void expect_usable(Backend& b) {
  EXPECT_EQ(add(full({3}, 1.0f, DType::f32, &b), 1.0f).to_vector<float>(),
            (std::vector<float>{2, 2, 2}))
      << b.name();
}

class DeviceFaults : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    cap_ = vk::testing::pool_cap();
    limits_ = vk::testing::device_limits();
  }
  void TearDown() override {
    vk::testing::set_pool_cap(cap_);
    vk::testing::set_allocation_limit(limits_.max_allocation);
    VulkanTest::TearDown();
  }
  std::uint64_t cap_ = 0;
  vk::DeviceLimits limits_;
};

TEST_F(DeviceFaults, PastThePoolCapIsOutOfMemoryNamingOpBytesAndHeap) {
  const std::int64_t n = 16 << 20;  // 64 MiB of f32: a dedicated allocation
  vk::testing::trim_pool();
  vk::testing::set_pool_cap(vk::testing::pool_bytes() + (1 << 20));
  const std::string op = error_of<OutOfMemory>([&] { (void)full({n}, 1.0f, DType::f32, &gpu()); });
  EXPECT_TRUE(starts_with(op, "[full] output f32 {16777216} on vulkan:")) << op;
  EXPECT_NE(op.find("(67108864 bytes)"), std::string::npos) << op;
  EXPECT_NE(op.find("pool cap"), std::string::npos) << op;
  EXPECT_NE(op.find("heap "), std::string::npos) << op;
  const std::vector<float> host(static_cast<std::size_t>(n), 2.0f);
  const std::string upload = error_of<OutOfMemory>([&] { (void)from_vector(host, &gpu()); });
  EXPECT_TRUE(starts_with(upload, "[from_bytes] f32 {16777216} (67108864 bytes)")) << upload;
  EXPECT_NE(upload.find("heap "), std::string::npos) << upload;
  vk::testing::set_pool_cap(cap_);
  EXPECT_EQ(from_vector(host, &gpu()).to_vector<float>()[static_cast<std::size_t>(n - 1)], 2.0f);
  expect_usable(gpu());
}

TEST_F(DeviceFaults, ACapBelowTheBlockSizeStreamsFourTimesItThrough) {
  // A small worker's cap (VKT_VK_POOL_CAP_MB=4): blocks shrink to a quarter of it, so chunks
  // four times the cap in all pass through one at a time; one tensor past it is refused.
  std::unique_ptr<Backend> dev = vk::testing::separate_backend();
  const std::uint64_t cap = 4 << 20;
  vk::testing::set_pool_cap(*dev, cap);
  const std::int64_t chunk = 1 << 16;  // 256 KiB of f32: 64 chunks are 16 MiB
  double total = 0;
  for (int i = 0; i < 64; ++i) {
    const Tensor x = iota({chunk}, DType::f32, std::nullopt, dev.get());
    total += sum(multiply(add(x, static_cast<float>(i)), 0.5f)).to_vector<float>()[0];
  }
  const double per_chunk = static_cast<double>(chunk) * (chunk - 1) / 2;
  EXPECT_NEAR(total, 0.5 * (64 * per_chunk + static_cast<double>(chunk) * 63 * 64 / 2),
              1e-5 * total);
  EXPECT_LE(dev->memory_stats().peak_reserved, cap);
  const std::string e =
      error_of<OutOfMemory>([&] { (void)full({1 << 21}, 1.0f, DType::f32, dev.get()); });
  EXPECT_TRUE(starts_with(e, "[full] output f32 {2097152} on vulkan:")) << e;
  EXPECT_NE(e.find("pool cap of 4 MiB"), std::string::npos) << e;
  expect_usable(*dev);
}

TEST_F(DeviceFaults, PastMaxAllocationSizeIsOutOfMemoryNamingOpBytesAndHeap) {
  vk::testing::set_allocation_limit(1 << 20);
  const std::string e =
      error_of<OutOfMemory>([&] { (void)iota({1 << 19}, DType::f32, std::nullopt, &gpu()); });
  EXPECT_TRUE(starts_with(e, "[iota] output f32 {524288} on vulkan:")) << e;
  EXPECT_NE(e.find("(2097152 bytes)"), std::string::npos) << e;
  EXPECT_NE(e.find("maxMemoryAllocationSize (1048576 bytes) on heap "), std::string::npos) << e;
  vk::testing::set_allocation_limit(limits_.max_allocation);
  EXPECT_EQ(iota({1 << 19}, DType::f32, std::nullopt, &gpu()).to_vector<float>().back(), 524287.0f);
  expect_usable(gpu());
}

TEST_F(DeviceFaults, TheDriversDeviceLostIsTypedDeviceLost) {
  // The injected loss and a real driver's result take this one mapping.
  const std::string e =
      error_of<DeviceLost>([] { vk::check(VK_ERROR_DEVICE_LOST, "vkQueueSubmit"); });
  EXPECT_TRUE(starts_with(e, "[vulkan] vkQueueSubmit failed: VK_ERROR_DEVICE_LOST")) << e;
}

TEST_F(DeviceFaults, AfterALossEveryOpAndReadOnTheDeviceIsDeviceLost) {
  std::unique_ptr<Backend> dev = vk::testing::separate_backend();
  {
    const Tensor held = iota({1000}, DType::f32, std::nullopt, dev.get());
    const Tensor pending = exp(held);  // recorded, not yet submitted
    const Tensor on_cpu = iota({1000}, DType::f32);
    vk::testing::inject_device_lost(*dev);
    // The read submits the pending batch, and the "driver" answers VK_ERROR_DEVICE_LOST.
    const std::string first = error_of<DeviceLost>([&] { (void)pending.to_vector<float>(); });
    EXPECT_TRUE(starts_with(first, "[read_into] f32 {1000} from vulkan:")) << first;
    EXPECT_NE(first.find("VK_ERROR_DEVICE_LOST"), std::string::npos) << first;
    EXPECT_TRUE(vk::testing::device_lost(*dev));
    // Remembered: no call reaches the device again, each names what was asked.
    const std::pair<std::string, std::function<void()>> later[] = {
        {"[read_into]", [&] { (void)held.to_vector<float>(); }},
        {"[read_into]", [&] { (void)held.to_cpu(); }},
        {"[exp]", [&] { (void)exp(held); }},
        {"[add]", [&] { (void)add(held, on_cpu); }},
        {"[sum]", [&] { (void)sum(held); }},
        {"[concatenate]",
         [&] {
           (void)concatenate({held, held});
         }},
        {"[full]", [&] { (void)full({3}, 1, DType::f32, dev.get()); }},
        {"[from_bytes]",
         [&] {
           (void)from_vector(std::vector<float>{1, 2}, dev.get());
         }},
        {"[transfer]", [&] { (void)transfer(on_cpu, *dev); }},
        {"[copy]", [&] { (void)copy(held, *dev); }},
        {"[vulkan]", [&] { dev->synchronize(); }},
    };
    for (const auto& [prefix, f] : later) {
      const std::string e = error_of<DeviceLost>(f);
      EXPECT_TRUE(starts_with(e, prefix)) << prefix << ": " << e;
      EXPECT_NE(e.find("lost"), std::string::npos) << e;
    }
    // The cpu and the default device are untouched.
    EXPECT_EQ(exp(on_cpu).to_vector<float>()[0], 1.0f);
    expect_usable(cpu());
    expect_usable(gpu());
  }  // tensors held on the lost device are released here, then the device: no hang
  dev.reset();
  expect_usable(gpu());
}

TEST_F(DeviceFaults, ALossReportedByAWaitIsDeviceLost) {
  vk::Context ctx(vk::default_device_index());
  vk::Recorder recorder(ctx);
  (void)recorder.begin_command({});
  recorder.end_command();
  const std::uint64_t value = recorder.submit();
  recorder.inject_device_lost();
  const std::string e = error_of<DeviceLost>([&] { recorder.wait(value); });
  EXPECT_NE(e.find("VK_ERROR_DEVICE_LOST"), std::string::npos) << e;
  recorder.abandon();
  EXPECT_THROW((void)recorder.submit(), DeviceLost);
  EXPECT_THROW((void)recorder.begin_command({}), DeviceLost);
}

}  // namespace
}  // namespace vkt::testing
