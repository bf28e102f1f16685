// The cpu's fused groups take their block values from a per-thread arena (src/cpu/
// block_arena.h): buffers are reused block after block on one thread, and the shared host
// pool is asked a bounded number of times per call, not once per op per block.
#include "cpu/block_arena.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/host_parallel.h"
#include "core/host_storage.h"
#include "cpu/kernels.h"
#include "vkt/compile.h"
#include "vkt/host_pool.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using cpu_kernels::BlockArena;
using cpu_kernels::make_tensor;

bool from_host_pool(const Tensor& t) {
  return dynamic_cast<const HostStorage*>(t.storage().get()) != nullptr;
}

TEST(BlockArena, ReleasedBuffersAreReusedLiveOnesAreNot) {
  EXPECT_EQ(BlockArena::current(), nullptr);
  const BlockArena arena;
  EXPECT_EQ(BlockArena::current(), &arena);
  const void* first = nullptr;
  {
    const Tensor a = make_tensor(DType::f32, {32768});
    EXPECT_FALSE(from_host_pool(a));
    first = a.storage()->host_data();
  }
  const Tensor b = make_tensor(DType::f32, {1000});  // fits the released buffer
  EXPECT_EQ(b.storage()->host_data(), first);
  const Tensor c = make_tensor(DType::f32, {32768});  // b holds it: a second buffer
  EXPECT_NE(c.storage()->host_data(), first);
  std::vector<float> ones(32768, 1.0f);
  std::copy(ones.begin(), ones.end(), cpu_kernels::mutable_data<float>(c));
  EXPECT_EQ(c.to_vector<float>(), ones);
}

TEST(BlockArena, ScopesNestAndEndOnTheirThread) {
  {
    const BlockArena outer;
    {
      const BlockArena inner;
      EXPECT_EQ(BlockArena::current(), &inner);
    }
    EXPECT_EQ(BlockArena::current(), &outer);
  }
  EXPECT_EQ(BlockArena::current(), nullptr);
  EXPECT_TRUE(from_host_pool(make_tensor(DType::f32, {32768})));  // no arena: the pool
}

TEST(BlockArena, PlacementGoesToTheFirstRequestOfItsSizeOnly) {
  std::vector<float> dst(1000);
  const BlockArena arena;
  BlockArena& a = *BlockArena::current();
  {
    const BlockArena::Placement placed(a, dst.data(), dst.size() * sizeof(float));
    const Tensor other = make_tensor(DType::f32, {999});  // another size: a buffer
    EXPECT_NE(other.storage()->host_data(), dst.data());
    const Tensor first = make_tensor(DType::f32, {1000});
    EXPECT_EQ(first.storage()->host_data(), dst.data());
    const Tensor second = make_tensor(DType::f32, {1000});  // taken once
    EXPECT_NE(second.storage()->host_data(), dst.data());
  }
  const Tensor after = make_tensor(DType::f32, {1000});  // the placement ended with its scope
  EXPECT_NE(after.storage()->host_data(), dst.data());
}

std::uint64_t pool_requests() {
  const HostPoolStats s = host_pool_stats();
  return s.reuses + s.allocations;
}

TEST(BlockArena, AThreadKeepsItsRecentBuffersForItsNextArena) {
  const void* kept = nullptr;
  {
    const BlockArena arena;
    kept = make_tensor(DType::f32, {32768}).storage()->host_data();
  }
  {
    const BlockArena next;  // the next call's blocks on this thread: the same, cached buffer
    const std::uint64_t before = pool_requests();
    EXPECT_EQ(make_tensor(DType::f32, {32768}).storage()->host_data(), kept);
    EXPECT_EQ(pool_requests(), before);
  }
  {
    const BlockArena arena;
    const Tensor big = make_tensor(DType::f32, {std::int64_t{1} << 19});  // 2 MiB
  }
  const BlockArena next;  // past what a thread keeps: it went back to the host pool
  const std::uint64_t before = pool_requests();
  const Tensor big = make_tensor(DType::f32, {std::int64_t{1} << 19});
  EXPECT_EQ(pool_requests(), before + 1);
}

Tensor chain8(const Tensor& x) {
  Tensor y = x;
  for (int j = 0; j < 8; ++j) y = j % 2 ? add(y, 0.5) : multiply(y, 1.0001);
  return y;
}

TEST(CompileBlockArena, HostPoolIsAskedPerThreadNotPerBlock) {
  // 64 blocks of 8 ops over every thread: the old loop asked the pool 512 times a call.
  const std::int64_t n = std::int64_t{1} << 21;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 1000) * 0.01f;
  const Tensor x = from_vector(v, {n}, &cpu());
  host::set_min_bytes_per_thread(1);
  auto f = compile(chain8);
  const Tensor first = f(x);  // traces and compiles
  const HostPoolStats before = host_pool_stats();
  const Tensor y = f(x);
  const HostPoolStats after = host_pool_stats();
  host::set_min_bytes_per_thread(0);
  const auto asked = (after.reuses - before.reuses) + (after.allocations - before.allocations);
  // Per thread at most one buffer per value of the group (leaf, scalars, 8 ops), plus the
  // output.
  const auto bound = static_cast<std::uint64_t>(host::max_threads()) * 17 + 1;
  EXPECT_LE(asked, std::min<std::uint64_t>(bound, 64 * 8 - 1));
  EXPECT_EQ(y.to_bytes(), chain8(x).to_bytes());
}

// Row groups too (cpu/compile/compiled_rows.cpp): before the arena 16 threads ran compiled softmax
// slower than eager (on the H200 host).
TEST(CompileBlockArena, RowGroupAsksTheHostPoolPerThreadNotPerBlock) {
  const std::int64_t rows = 512, len = 4096;  // 64 blocks of 8 rows, 5 values each
  std::vector<float> v(static_cast<std::size_t>(rows * len));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 997) * 0.01f;
  const Tensor x = from_vector(v, {rows, len}, &cpu());
  auto softmax = [](const Tensor& t) {
    const Tensor e = exp(subtract(t, reduce_max(t, {1}, true)));
    return divide(e, sum(e, {1}, true));
  };
  host::set_min_bytes_per_thread(1);
  auto f = compile(softmax);
  const Tensor first = f(x);
  const HostPoolStats before = host_pool_stats();
  const Tensor y = f(x);
  const HostPoolStats after = host_pool_stats();
  host::set_min_bytes_per_thread(0);
  const auto asked = (after.reuses - before.reuses) + (after.allocations - before.allocations);
  const auto bound = static_cast<std::uint64_t>(host::max_threads()) * 6 + 1;
  EXPECT_LE(asked, std::min<std::uint64_t>(bound, 64 * 5 - 1));
  EXPECT_EQ(y.to_bytes(), softmax(x).to_bytes());
}

}  // namespace
}  // namespace vkt
