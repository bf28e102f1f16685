// vkt::deallocate on the cpu: host memory really freed, shared tensors deallocated too, every
// later use a Deallocated naming the op, and the release deferred past uses in progress.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "core/dispatch.h"
#include "support/expect_deallocated.h"
#include "vkt/backend/op_call.h"
#include "vkt/compile.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::expect_deallocated;

TEST(Deallocate, GivesHostMemoryBackAndMarksEveryTensorSharingIt) {
  host_pool_trim();
  const Tensor t = full({1 << 18}, 1.0f, DType::f32, &cpu());  // 1 MiB: a pooled size class
  const Tensor alias = t;
  const Tensor view = reshape(t, {512, 512});  // aliases t's storage
  const Tensor separate = copy(t, cpu());      // storage of its own
  const std::size_t cached = host_pool_stats().cached_bytes;
  EXPECT_FALSE(is_deallocated(t));
  EXPECT_TRUE(deallocate(t));
  // The buffer went back to the host pool now, with t, alias and view still alive.
  EXPECT_GE(host_pool_stats().cached_bytes, cached + t.nbytes());
  EXPECT_TRUE(is_deallocated(t));
  EXPECT_TRUE(is_deallocated(alias));
  EXPECT_TRUE(is_deallocated(view));
  EXPECT_FALSE(is_deallocated(separate));
  EXPECT_EQ(separate.to_vector<float>()[0], 1.0f);
  EXPECT_FALSE(is_deallocated(Tensor()));
}

TEST(Deallocate, TwiceAnswersFalseAndAnEmptyTensorIsAnError) {
  const Tensor t = iota({4}, DType::s32, std::nullopt, &cpu());
  const Tensor alias = t;
  EXPECT_TRUE(deallocate(t));
  EXPECT_FALSE(deallocate(t));
  EXPECT_FALSE(deallocate(alias));  // the same storage: already freed
  try {
    deallocate(Tensor());
    ADD_FAILURE() << "no throw";
  } catch (const Deallocated&) {
    ADD_FAILURE() << "an empty tensor is not a deallocated one";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("[deallocate]", 0), 0u) << e.what();
  }
}

TEST(Deallocate, EveryLaterUseThrowsNamingTheOp) {
  const Tensor t = iota({2, 3}, DType::f32, std::nullopt, &cpu());
  const Tensor one = full({1}, 2.0f, DType::f32, &cpu());
  const Tensor other = iota({2, 3}, DType::f32, std::nullopt, &cpu());
  deallocate(t);
  deallocate(one);
  expect_deallocated("add", [&] { add(t, other); });
  expect_deallocated("add", [&] { add(other, t); });
  expect_deallocated("add", [&] { add(t, 1.0f); });
  expect_deallocated("exp", [&] { exp(t); });
  expect_deallocated("sum", [&] { sum(t); });
  expect_deallocated("dot", [&] { dot(t, transpose(other)); });
  expect_deallocated("reshape", [&] { reshape(t, {3, 2}); });
  expect_deallocated("to_vector", [&] { t.to_vector<float>(); });
  expect_deallocated("item", [&] { one.item<float>(); });
  expect_deallocated("to_bytes", [&] { t.to_bytes(); });
  expect_deallocated("to_bytes", [&] { t.to_bytes(2); });
  expect_deallocated("read_into", [&] {
    std::vector<std::byte> out(t.nbytes());
    t.read_into(out);
  });
  expect_deallocated("to_cpu", [&] { t.to_cpu(); });
  expect_deallocated("transfer", [&] { transfer(t, cpu()); });
  expect_deallocated("copy", [&] { copy(t, cpu()); });
  expect_deallocated("host_span", [&] { t.host_span<float>(); });
  expect_deallocated("to_pointer", [&] { to_pointer(t); });
  expect_deallocated("inspect", [&] { inspect(t); });
  // The process goes on: other tensors on the same backend still work.
  EXPECT_EQ(add(other, 1.0f).to_vector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(Deallocate, DispatchRejectsItNamingTheInput) {
  // The one check on the op path, reached here without an op's front door.
  const Tensor a = iota({3}, DType::f32, std::nullopt, &cpu());
  const Tensor b = iota({3}, DType::f32, std::nullopt, &cpu());
  deallocate(b);
  try {
    detail::dispatch({Op::add, {a, b}, NoParams{}, DType::f32, {3}});
    ADD_FAILURE() << "no throw";
  } catch (const Deallocated& e) {
    EXPECT_EQ(std::string(e.what()).rfind("[add] input 1 (f32 {3}) was deallocated", 0), 0u)
        << e.what();
  }
}

TEST(Deallocate, FromPointerDropsOnlyOurReference) {
  std::vector<float> memory = {1, 2, 3, 4};
  int released = 0;
  {
    const Tensor t = from_pointer(memory.data(), DType::f32, {4}, [&](const void*) { ++released; });
    EXPECT_TRUE(deallocate(t));
    EXPECT_EQ(released, 1);      // the hook ran now, not at the tensor's end
    EXPECT_EQ(memory[3], 4.0f);  // the caller's memory is the caller's
  }
  EXPECT_EQ(released, 1);  // and only once
}

TEST(Deallocate, WaitsForAUseInProgress) {
  std::vector<float> memory = {1, 2, 3, 4};
  int released = 0;
  const Tensor t = from_pointer(memory.data(), DType::f32, {4}, [&](const void*) { ++released; });
  StorageUse reading(t.storage());  // as an op in another thread, or a NumPy view
  ASSERT_TRUE(static_cast<bool>(reading));
  EXPECT_TRUE(deallocate(t));
  EXPECT_TRUE(is_deallocated(t));
  EXPECT_EQ(released, 0);                                    // the reader still has the bytes
  EXPECT_FALSE(static_cast<bool>(StorageUse(t.storage())));  // no new use begins
  reading.reset();
  EXPECT_EQ(released, 1);
}

TEST(Deallocate, ReadersOnOtherThreadsNeverSeeFreedBytes) {
  // The release hook overwrites the memory, as a reuse of freed memory would: a sum that
  // read it after the release would not be n.
  const std::int64_t n = 1 << 22;
  std::vector<float> memory(static_cast<std::size_t>(n), 1.0f);
  std::atomic<int> released{0};
  const Tensor t = from_pointer(memory.data(), DType::f32, {n}, [&](const void* p) {
    std::fill_n(static_cast<float*>(const_cast<void*>(p)), n, 0.0f);
    released.fetch_add(1);
  });
  std::atomic<int> sums{0}, refused{0}, wrong{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&] {
      for (;;) {
        try {
          const float s = sum(t).item<float>();
          (s == static_cast<float>(n) ? sums : wrong).fetch_add(1);
        } catch (const Deallocated&) {
          refused.fetch_add(1);
          return;
        }
      }
    });
  }
  while (sums.load() < 3) std::this_thread::yield();
  EXPECT_TRUE(deallocate(t));
  for (std::thread& th : readers) th.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(refused.load(), 3);
  EXPECT_EQ(released.load(), 1);
}

TEST(Deallocate, CompiledFunctionRefusesADeallocatedArgument) {
  auto f = compile([](const Tensor& x) { return add(exp(x), 1.0f); });
  const Tensor x = iota({8}, DType::f32, std::nullopt, &cpu());
  const Tensor y = iota({8}, DType::f32, std::nullopt, &cpu());
  EXPECT_EQ(f(x).to_vector<float>(), add(exp(x), 1.0f).to_vector<float>());
  deallocate(y);
  expect_deallocated("compile", [&] { f(y); });
  EXPECT_EQ(f(x).shape(), (Shape{8}));  // the plan still runs for live arguments
  // A symbolic tensor has no storage of its own to free.
  auto g = compile([](const Tensor& v) {
    deallocate(v);
    return v;
  });
  EXPECT_THROW(g(x), Unsupported);
}

}  // namespace
}  // namespace vkt
