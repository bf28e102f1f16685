// vkt::deallocate on Vulkan: the range goes back to the pool, later uses throw Deallocated
// naming the op, work already recorded still reads the bytes, and threads may race it.
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "conformance/fixture.h"
#include "support/expect_deallocated.h"
#include "vkt/compile.h"

namespace vkt::testing {
namespace {

class DeallocateVulkan : public VulkanTest {};

std::vector<float> counting(std::int64_t n, float from) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = from + static_cast<float>(i % 1000);
  return v;
}

TEST_F(DeallocateVulkan, GivesTheRangeBackToThePool) {
  gpu().synchronize();
  const std::uint64_t before = gpu().memory_stats().in_use;
  const Tensor t = full({1 << 18}, 3.0f, DType::f32, &gpu());  // 1 MiB, a whole size class
  const Tensor alias = t;
  const Tensor view = reshape(t, {512, 512});
  gpu().synchronize();
  EXPECT_EQ(gpu().memory_stats().in_use, before + t.nbytes());
  EXPECT_TRUE(deallocate(t));
  EXPECT_FALSE(deallocate(view));
  gpu().synchronize();
  // Back while t, alias and view are still alive.
  EXPECT_EQ(gpu().memory_stats().in_use, before);
  EXPECT_TRUE(is_deallocated(alias));
  EXPECT_TRUE(is_deallocated(view));
}

TEST_F(DeallocateVulkan, EveryLaterUseThrowsAndTheDeviceGoesOn) {
  const Tensor t = from_vector(counting(6, 0), {2, 3}, &gpu());
  const Tensor other = from_vector(counting(6, 10), {2, 3}, &gpu());
  deallocate(t);
  expect_deallocated("add", [&] { add(t, other); });
  expect_deallocated("multiply", [&] { multiply(other, t); });
  expect_deallocated("sum", [&] { sum(t); });
  expect_deallocated("to_vector", [&] { t.to_vector<float>(); });
  expect_deallocated("to_bytes", [&] { t.to_bytes(); });
  expect_deallocated("to_cpu", [&] { t.to_cpu(); });
  expect_deallocated("transfer", [&] { transfer(t, cpu()); });
  expect_deallocated("copy", [&] { copy(t, gpu()); });
  expect_deallocated("read_into", [&] {
    std::vector<std::byte> out(t.nbytes());
    t.read_into(out);
  });
  EXPECT_EQ(add(other, 1.0f).to_vector<float>(), (std::vector<float>{11, 12, 13, 14, 15, 16}));
}

TEST_F(DeallocateVulkan, RightAfterAnOpThatReadsItBeforeSynchronize) {
  const std::int64_t n = 1 << 18;
  gpu().synchronize();
  const std::uint64_t before = gpu().memory_stats().in_use;
  const Tensor x = from_vector(counting(n, 1), &gpu());
  gpu().synchronize();
  const Tensor y = add(x, 0.5f);  // recorded, not yet run
  EXPECT_TRUE(deallocate(x));
  // A new tensor of the same size class: had x's range gone back to the pool at once, it
  // could be handed out here and written (a memcpy into mapped memory) before y reads x.
  const Tensor z = from_vector(counting(n, 5000), &gpu());
  if (!vk::testing::pool_queue_ordered()) {
    // Host-mapped memory: the pending batch holds x's range until it has run (and the
    // literal's small range too, so at least).
    EXPECT_GE(gpu().memory_stats().in_use, before + x.nbytes() + y.nbytes() + z.nbytes());
  }
  std::vector<float> expected = counting(n, 1);
  for (float& v : expected) v += 0.5f;
  EXPECT_EQ(y.to_vector<float>(), expected);
  EXPECT_EQ(z.to_vector<float>(), counting(n, 5000));
  gpu().synchronize();
  EXPECT_EQ(gpu().memory_stats().in_use, before + y.nbytes() + z.nbytes());
}

TEST_F(DeallocateVulkan, CompiledCallsRefuseADeallocatedArgumentOrCapture) {
  auto f = compile([](const Tensor& x) { return add(multiply(x, 2.0f), 1.0f); });
  const Tensor x = from_vector(counting(64, 0), &gpu());
  const Tensor keep = from_vector(counting(64, 0), &gpu());
  EXPECT_EQ(f(x).to_vector<float>()[3], 7.0f);
  deallocate(x);
  expect_deallocated("compile", [&] { f(x); });
  EXPECT_EQ(f(keep).to_vector<float>()[3], 7.0f);
  // A device tensor the function captures is kept by reference: deallocated after the
  // trace, a later call must refuse it, not read freed memory.
  const Tensor w = from_vector(counting(64, 100), &gpu());
  auto g = compile([&w](const Tensor& v) { return add(multiply(v, 2.0f), w); });
  EXPECT_EQ(g(keep).to_vector<float>()[3], 109.0f);
  deallocate(w);
  EXPECT_THROW(g(keep), Deallocated);
  EXPECT_EQ(f(keep).to_vector<float>()[3], 7.0f);
}

TEST_F(DeallocateVulkan, ThreadsRaceOpsAgainstADeallocate) {
  // Readers sum a shared tensor while the main thread deallocates it: each sum is right or
  // refused, and the range goes back once, when the last batch reading it is done.
  const std::int64_t n = 1 << 18;
  gpu().synchronize();
  const std::uint64_t before = gpu().memory_stats().in_use;
  const Tensor shared = full({n}, 1.0f, DType::f32, &gpu());
  std::atomic<int> sums{0}, wrong{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 4; ++r) {
    readers.emplace_back([&, r] {
      const Tensor own = full({64}, static_cast<float>(r), DType::f32, &gpu());
      for (;;) {
        try {
          const Tensor s = sum(shared);
          (s.item<float>() == static_cast<float>(n) ? sums : wrong).fetch_add(1);
        } catch (const Deallocated&) {
          // Its own tensors on the same device still work.
          if (sum(own).item<float>() != 64.0f * static_cast<float>(r)) wrong.fetch_add(1);
          return;
        }
      }
    });
  }
  while (sums.load() < 4) std::this_thread::yield();
  EXPECT_TRUE(deallocate(shared));
  for (std::thread& th : readers) th.join();
  EXPECT_EQ(wrong.load(), 0);
  gpu().synchronize();
  EXPECT_EQ(gpu().memory_stats().in_use, before);
}

}  // namespace
}  // namespace vkt::testing
