// One shared Vulkan backend used from 8 threads at once (include/vkt/backend.h, "Threads"):
// each thread runs its own random programs (tests/fuzz), reading every result as it goes,
// and must get the bits of a single-threaded run on the same device. Then threads on the
// cpu and on the device at once, each replaying its programs twice, which must agree.
#include "fuzz/threads.h"

#include <thread>

#include "conformance/fixture.h"

namespace vkt::testing {
namespace {

class Threads : public VulkanTest {};

TEST_F(Threads, EightThreadsShareOneVulkanBackend) {
  EXPECT_EQ(fuzz::threads_agree(gpu(), 8, 12, 77), "");
}

TEST_F(Threads, EightThreadsMixTheCpuAndTheDevice) {
  // Even threads make their leaves (so run their ops) on the cpu, odd ones on the device.
  std::vector<std::string> failures(8);
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t) {
    pool.emplace_back([&, t] {
      failures[static_cast<std::size_t>(t)] = fuzz::threads_agree(
          t % 2 == 0 ? cpu() : gpu(), 1, 6, 500 + static_cast<std::uint64_t>(t));
    });
  }
  for (std::thread& th : pool) th.join();
  for (const std::string& f : failures) EXPECT_EQ(f, "");
}

}  // namespace
}  // namespace vkt::testing
