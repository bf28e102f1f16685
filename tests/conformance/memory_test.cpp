// The pool: freed ranges are reused without new vkAllocateMemory calls; trim returns
// unused blocks; both copy paths (transfer command, compute shader) give the same bytes.
#include "common/settings.h"
#include "conformance/fixture.h"
#include "core/dispatch.h"
#include "support/compare.h"
#include "vkt/backend/op_call.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

class Memory : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    path_ = vk::testing::copy_path();
    small_max_ = vk::testing::small_copy_max();
  }
  void TearDown() override {
    vk::testing::set_copy_path(path_);
    vk::testing::set_small_copy_max(small_max_);
    VulkanTest::TearDown();
  }
  vk::CopyPath path_ = vk::CopyPath::transfer_command;
  std::uint64_t small_max_ = 0;
};

TEST_F(Memory, FreedRangesAreReusedWithoutNewAllocations) {
  const std::vector<float> v(1000, 1.0f);
  { from_vector(v, &gpu()).to_vector<float>(); }  // warm: the size class has a block
  LedgerScope scope;
  for (int i = 0; i < 100; ++i) {
    const Tensor t = from_vector(v, &gpu());
    const Tensor u = as_type(t, DType::f64);
    EXPECT_EQ(u.to_vector<double>()[999], 1.0);
  }
  EXPECT_EQ(scope.delta().allocations, 0u) << scope.delta().to_string();
}

TEST_F(Memory, StatsCountLiveTensorsAndTheirPeak) {
  gpu().synchronize();
  gpu().reset_peak_memory();
  const Backend::MemoryStats before = gpu().memory_stats();
  EXPECT_EQ(before.peak_in_use, before.in_use);
  EXPECT_GE(before.reserved, before.in_use);
  const std::int64_t n = 3 << 20;  // 12 MiB of f32: a dedicated buffer on every device
  {
    const Tensor big = full({n}, 1.0f, DType::f32, &gpu());
    gpu().synchronize();
    const Backend::MemoryStats held = gpu().memory_stats();
    EXPECT_GE(held.in_use, before.in_use + big.nbytes());
    EXPECT_GE(held.reserved, held.in_use);
    EXPECT_GE(held.peak_in_use, held.in_use);
  }
  gpu().synchronize();
  const Backend::MemoryStats after = gpu().memory_stats();
  EXPECT_EQ(after.in_use, before.in_use);  // the tensor's range went back to the pool
  EXPECT_GE(after.peak_in_use, before.in_use + static_cast<std::uint64_t>(n) * 4);
  EXPECT_GE(after.peak_reserved, after.peak_in_use);
  gpu().reset_peak_memory();
  EXPECT_EQ(gpu().memory_stats().peak_in_use, after.in_use);
  EXPECT_EQ(cpu().memory_stats().peak_reserved, 0u);  // the cpu does not pool device memory
}

// Where only the queue touches the pool, a range goes back when its last tensor goes, not
// when the batches that used it complete: a chain of ops recorded into one batch holds
// about two tensors at a time, and each output reuses a range an earlier op in the same
// batch still reads (behind the recorder's barriers: validation checks them).
TEST_F(Memory, RangesReturnInQueueOrderWithinABatch) {
  if (!vk::testing::pool_queue_ordered()) GTEST_SKIP() << "host-mapped pool (VKT_VK_STAGING=1)";
  const std::int64_t n = 1 << 20;  // 4 MiB of f32: pooled
  const Tensor start = iota({n}, DType::f32, 0, &gpu());
  Tensor y = divide(start, static_cast<float>(n));
  gpu().synchronize();
  gpu().reset_peak_memory();
  const std::uint64_t before = gpu().memory_stats().in_use;
  const std::uint32_t flush = vk::testing::flush_ops();
  vk::testing::set_flush_ops(0);  // one batch, whatever the device's pieces
  for (int i = 0; i < 40; ++i) y = add(multiply(y, 0.5f), 0.25f);
  const std::uint64_t peak = gpu().memory_stats().peak_in_use;
  const std::vector<float> got = y.to_vector<float>();
  vk::testing::set_flush_ops(flush);
  EXPECT_LE(peak, before + 3 * static_cast<std::uint64_t>(n) * 4) << "40 ops held their outputs";
  // y -> y / 2 + 1/4 forty times: 0.5 + (y0 - 0.5) / 2^40, within f32 rounding of 0.5.
  EXPECT_NEAR(got[0], 0.5f, 1e-6f);
  EXPECT_NEAR(got[static_cast<std::size_t>(n - 1)], 0.5f, 1e-6f);
}

TEST_F(Memory, DedicatedBuffersAreReusedAndTrimmed) {
  const std::int64_t n = 5 << 20;  // 20 MiB of f32: past the block size class, dedicated
  { full({n}, 1.0f, DType::f32, &gpu()).to_vector<float>(); }  // warm
  LedgerScope scope;
  for (int i = 0; i < 5; ++i) {
    const Tensor t = full({n - i * 1000}, 2.0f, DType::f32, &gpu());  // sizes within a granule
    EXPECT_EQ(t.to_vector<float>().back(), 2.0f);
  }
  EXPECT_EQ(scope.delta().allocations, 0u) << scope.delta().to_string();
  gpu().synchronize();
  const std::uint64_t before_trim = vk::testing::pool_bytes();
  vk::testing::trim_pool();
  EXPECT_LT(vk::testing::pool_bytes(), before_trim);
}

TEST_F(Memory, TrimReturnsUnusedBlocks) {
  {
    const Tensor big = full({5 << 20}, 1, DType::f32, &gpu());
    gpu().synchronize();
  }
  vk::testing::trim_pool();
  const std::uint64_t after_trim = vk::testing::pool_bytes();
  const Tensor t = full({100}, 1, DType::u8, &gpu());
  EXPECT_GT(vk::testing::pool_bytes(), after_trim);  // a block again
  EXPECT_EQ(t.to_vector<std::uint8_t>()[99], 1);
}

// Outer concatenates through the copy path (forced: the one-pass gather would take them on a
// device whose copy path is the shader).
void check_copies() {
  const OverrideScope copies("one_pass_movement=0");
  for (DType d : kRealDTypes) {
    for (std::int64_t n : {1, 3, 5, 1001, 65536}) {
      const Tensor h = as_type(iota({n}, DType::s32), d);
      const Tensor g = transfer(h, vulkan());
      EXPECT_TRUE(tensors_close(copy(g, vulkan()), h, Tolerance{0, 0}))
          << dtype_name(d) << " n=" << n;
      const Shape out{3 * n};
      const Tensor c = detail::dispatch({Op::concatenate, {g, g, g}, AxisParams{0}, d, out});
      const auto hb = h.to_bytes();
      std::vector<std::byte> expected;
      for (int k = 0; k < 3; ++k) expected.insert(expected.end(), hb.begin(), hb.end());
      EXPECT_TRUE(c.to_bytes() == expected) << dtype_name(d) << " n=" << n;
    }
  }
}

TEST_F(Memory, ShaderCopyPathCopiesExactly) {
  vk::testing::set_copy_path(vk::CopyPath::compute_shader);
  LedgerScope scope;
  check_copies();
  EXPECT_GT(scope.delta().dispatches, 0u);  // the shader path was taken
}

// Where the shader is the copy path, copies up to the small bound take vkCmdCopyBuffer (no
// dispatch) and larger ones the shader; both exact.
TEST_F(Memory, SmallCopiesTakeTheTransferCommandBelowTheBound) {
  vk::testing::set_copy_path(vk::CopyPath::compute_shader);
  vk::testing::set_small_copy_max(4096);
  const OverrideScope copies("one_pass_movement=0");  // a copy per part
  for (std::int64_t n : {std::int64_t{256}, std::int64_t{4096}}) {
    const std::vector<Tensor> parts = {iota({n}, DType::f32, std::nullopt, &vulkan()),
                                       iota({n}, DType::f32, std::nullopt, &vulkan())};
    vulkan().synchronize();
    LedgerScope scope;
    const Tensor c = concatenate(parts, 0);
    vulkan().synchronize();
    // 1 KiB parts: two transfer commands; 16 KiB parts: two shader copies.
    EXPECT_EQ(scope.delta().dispatches, n * 4 <= 4096 ? 0u : 2u) << "n=" << n;
    const std::vector<float> got = c.to_vector<float>();
    for (std::int64_t i = 0; i < 2 * n; ++i) {
      ASSERT_EQ(got[static_cast<std::size_t>(i)], static_cast<float>(i % n)) << "n=" << n;
    }
  }
  check_copies();
}

TEST_F(Memory, TransferCopyPathCopiesExactly) {
  vk::testing::set_copy_path(vk::CopyPath::transfer_command);
  check_copies();
}

}  // namespace
}  // namespace vkt::testing
