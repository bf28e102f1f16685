// The cpu backend from 8 threads at once (include/vkt/backend.h, "Threads"): each thread
// runs its own random programs (tests/fuzz) and must get the bits of a single-threaded run.
// The unit suite also runs under ThreadSanitizer (scripts/test.sh), which checks the
// cpu backend's OpenMP loops, the host pool and the ledger under this load.
#include "fuzz/threads.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "core/host_parallel.h"
#include "unit/fake_backend.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

TEST(Threads, EightThreadsOnTheCpuGiveTheSingleThreadedBits) {
  EXPECT_EQ(fuzz::threads_agree(cpu(), 8, 12, 2024), "");
  // Again with every loop split across OpenMP threads (the programs' tensors are small):
  // each calling thread runs its own parallel regions.
  host::set_min_bytes_per_thread(1);
  EXPECT_EQ(fuzz::threads_agree(cpu(), 8, 6, 2025), "");
  host::set_min_bytes_per_thread(0);
}

// A BackendScope is per thread: while one thread is in a scope, another's default backend
// is unchanged.
TEST(Threads, BackendScopeIsPerThread) {
  testing::FakeBackend fake("fake");
  std::atomic<bool> scoped{false}, checked{false};
  Backend* inside = nullptr;
  Backend* seen = nullptr;
  std::thread a([&] {
    BackendScope scope(fake);
    inside = &default_backend();
    scoped = true;
    while (!checked) std::this_thread::yield();
  });
  while (!scoped) std::this_thread::yield();
  std::thread b([&] { seen = &default_backend(); });
  b.join();
  checked = true;
  a.join();
  EXPECT_EQ(inside, &fake);
  EXPECT_EQ(seen, &default_backend());
  EXPECT_NE(seen, &fake);
}

// Ledger counts are process-wide: a region's delta includes other threads' work.
TEST(Threads, LedgerCountsEveryThread) {
  LedgerScope scope;
  std::thread t([] { ledger::record_upload(7); });
  t.join();
  EXPECT_EQ(scope.delta().upload_bytes, 7u);
}

}  // namespace
}  // namespace vkt
