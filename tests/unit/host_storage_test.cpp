// Host buffers are recycled (large ones: a fresh mapping costs a page fault per page; small
// ones per thread: an aligned malloc costs as much as a small op) and never handed out while
// in use.
#include "core/host_storage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include "vkt/vkt.h"

namespace vkt {
namespace {

TEST(HostStorage, LargeBuffersAreReusedBySizeClass) {
  const void* first = nullptr;
  {
    HostStorage a(cpu(), 3 << 20);
    first = a.host_data();
  }
  HostStorage b(cpu(), (3 << 20) - 100);  // same size class
  EXPECT_EQ(b.host_data(), first);
  HostStorage c(cpu(), 3 << 20);  // b still holds the cached one
  EXPECT_NE(c.host_data(), b.host_data());
  EXPECT_GE(c.nbytes(), std::size_t{3} << 20);
}

TEST(HostStorage, RecycledBuffersCarryNoStaleMeaning) {
  // A recycled buffer is fully rewritten by the op that receives it.
  for (int i = 0; i < 3; ++i) {
    const Tensor t = full({1 << 20}, i, DType::s32);
    const auto v = t.to_vector<std::int32_t>();
    EXPECT_EQ(v.front(), i);
    EXPECT_EQ(v.back(), i);
  }
}

TEST(HostStorage, SmallBuffersAreRecycledOnTheirThreadAligned) {
  const void* first = nullptr;
  { first = HostStorage(cpu(), 4000).host_data(); }
  const HostStorage again(cpu(), 4000);
  EXPECT_EQ(again.host_data(), first);
  std::vector<std::unique_ptr<HostStorage>> live;
  std::set<const void*> seen{again.host_data()};
  for (int k = 0; k < 40; ++k) {
    live.push_back(std::make_unique<HostStorage>(cpu(), 4000));
    EXPECT_TRUE(seen.insert(live.back()->host_data()).second);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(live.back()->host_data()) % 64, 0u);
  }
}

TEST(HostStorage, PoisonFillsRecycledSmallBuffers) {
  const bool saved = host_pool_stats().poison;
  set_host_pool_poison(true);
  void* first = nullptr;
  {
    HostStorage a(cpu(), 1000);
    std::memset(a.data(), 0x11, 1000);
    first = a.data();
  }
  HostStorage b(cpu(), 1000);
  ASSERT_EQ(b.data(), first);
  const auto* bytes = static_cast<const unsigned char*>(b.host_data());
  EXPECT_TRUE(std::all_of(bytes, bytes + 1000, [](unsigned char c) { return c == 0xFF; }));
  set_host_pool_poison(saved);
}

TEST(HostStorage, SmallBuffersOutliveTheThreadThatMadeThem) {
  std::unique_ptr<HostStorage> kept;
  std::thread worker([&] {
    for (int k = 0; k < 4; ++k) HostStorage scratch(cpu(), 512);  // fills its cache
    kept = std::make_unique<HostStorage>(cpu(), 512);
    std::memset(kept->data(), 0x22, 512);
  });
  worker.join();  // its cache is gone; what it handed out lives on, and is freed here
  EXPECT_EQ(static_cast<const unsigned char*>(kept->host_data())[511], 0x22);
  kept.reset();
}

TEST(HostPool, LiveBuffersAreNeverShared) {
  std::vector<std::unique_ptr<HostStorage>> live;
  std::set<const void*> seen;
  for (int k = 0; k < 16; ++k) {
    live.push_back(std::make_unique<HostStorage>(cpu(), std::size_t{1} << 20));
    EXPECT_TRUE(seen.insert(live.back()->host_data()).second);
  }
  live.clear();  // all cached now; taking them again still gives distinct ones
  seen.clear();
  for (int k = 0; k < 16; ++k) {
    live.push_back(std::make_unique<HostStorage>(cpu(), std::size_t{1} << 20));
    EXPECT_TRUE(seen.insert(live.back()->host_data()).second);
  }
}

TEST(HostPool, ReuseIsCountedAndTrimEmptiesIt) {
  host_pool_trim();
  const HostPoolStats before = host_pool_stats();
  EXPECT_EQ(before.cached_bytes, 0u);
  { HostStorage a(cpu(), 300000); }
  EXPECT_GE(host_pool_stats().cached_bytes, 300000u);
  { HostStorage b(cpu(), 299000); }  // the same size class
  const HostPoolStats after = host_pool_stats();
  EXPECT_EQ(after.reuses, before.reuses + 1);
  EXPECT_EQ(after.allocations, before.allocations + 1);
  host_pool_trim();
  EXPECT_EQ(host_pool_stats().cached_bytes, 0u);
}

TEST(HostPool, CapBoundsWhatIsKept) {
  const std::size_t saved = host_pool_stats().cap_bytes;
  set_host_pool_cap(std::size_t{3} << 20);
  { HostStorage a(cpu(), std::size_t{2} << 20), b(cpu(), std::size_t{2} << 20); }
  EXPECT_LE(host_pool_stats().cached_bytes, std::size_t{3} << 20);
  EXPECT_GT(host_pool_stats().cached_bytes, 0u);  // the newer one stays
  set_host_pool_cap(0);
  EXPECT_EQ(host_pool_stats().cached_bytes, 0u);
  { HostStorage c(cpu(), std::size_t{2} << 20); }
  EXPECT_EQ(host_pool_stats().cached_bytes, 0u);  // nothing kept at cap 0
  set_host_pool_cap(saved);
}

TEST(HostPool, PoisonFillsReusedBuffers) {
  const bool saved = host_pool_stats().poison;
  set_host_pool_poison(true);
  const std::size_t n = std::size_t{1} << 18;
  void* first = nullptr;
  {
    HostStorage a(cpu(), n);
    std::memset(a.data(), 0x11, n);
    first = a.data();
  }
  HostStorage b(cpu(), n);
  ASSERT_EQ(b.data(), first);  // the same buffer back, so the fill is what we see
  const auto* bytes = static_cast<const unsigned char*>(b.host_data());
  EXPECT_TRUE(std::all_of(bytes, bytes + n, [](unsigned char c) { return c == 0xFF; }));
  set_host_pool_poison(saved);
}

TEST(HostPool, SteadyStateOpsReuseInsteadOfAllocating) {
  const Tensor x = iota({1 << 20}, DType::f32);
  (void)add(x, 1.0f);  // warm: the output class is in the pool from here on
  const HostPoolStats before = host_pool_stats();
  for (int k = 0; k < 10; ++k) (void)add(x, 1.0f);
  const HostPoolStats after = host_pool_stats();
  EXPECT_EQ(after.allocations, before.allocations);
  EXPECT_EQ(after.reuses, before.reuses + 10);
}

}  // namespace
}  // namespace vkt
