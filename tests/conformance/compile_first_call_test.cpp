// A compiled function's first call: the ledger's breakdown (pipelines created, shaderc and
// pipeline time), pipelines prepared before the run needs them, and Pipelines shared by
// threads creating the same pipeline at once.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <thread>

#include "conformance/fixture.h"
#include "support/compile_programs.h"
#include "vkt/compile.h"
#include "vulkan/compile/compiled_rows_variant.h"
#include "vulkan/compile/kernel_cache.h"
#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

// Tiers off: the ledger's counts here are one thread's (a later tier compiles on another).
class VulkanCompileFirstCall : public VulkanUntieredTest {};

std::vector<float> sawtooth(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i % 613) / 61.0f - 5.0f;
  return v;
}

// A tensor of this dtype and shape on b with no data: what prepare() looks at.
Tensor stand_in(Backend& b, DType d, const Shape& shape) {
  return Tensor(d, shape,
                std::make_shared<Storage>(b, static_cast<std::size_t>(numel(shape)) * itemsize(d)));
}

// Shapes no other test uses, so this process has not made their kernels yet.
TEST_F(VulkanCompileFirstCall, FirstCallCreatesPipelinesAndCountsTheirTimeSecondCallNone) {
  const Tensor x = from_vector(sawtooth(37 * 1021), {37, 1021}, &gpu());
  auto f = compile(softmax_rows);
  LedgerScope first;
  const Tensor out = f(x);
  const LedgerCounts d = first.delta();
  EXPECT_EQ(d.traces, 1u);
  EXPECT_GT(d.pipelines_created, 0u);
  EXPECT_GT(d.pipeline_create_us, 0u);
  EXPECT_EQ(d.kernel_compiles + d.kernel_cache_hits + d.kernel_disk_hits, 1u);  // one row group
  if (d.kernel_compiles > 0) {
    EXPECT_GT(d.kernel_compile_us, 0u);
  }
  EXPECT_GT(d.precompile_us, 0u);
  EXPECT_EQ(out.to_bytes(), softmax_rows(x).to_bytes());

  LedgerScope second;
  const Tensor again = f(x);
  const LedgerCounts d2 = second.delta();
  EXPECT_EQ(d2.plan_reuses, 1u);
  EXPECT_EQ(d2.pipelines_created, 0u);
  EXPECT_EQ(d2.pipeline_create_us, 0u);
  EXPECT_EQ(d2.kernel_compiles, 0u);
  EXPECT_EQ(d2.kernel_compile_us, 0u);
  EXPECT_EQ(d2.trace_us + d2.plan_us + d2.codegen_us + d2.precompile_us, 0u);
  EXPECT_EQ(again.to_bytes(), out.to_bytes());
}

// prepare() creates every pipeline the run then uses: the run creates none.
TEST_F(VulkanCompileFirstCall, PreparedCallsCreateNoPipelinesWhenRun) {
  const Tensor a = from_vector(sawtooth(29 * 1030), {29, 1030}, &gpu());
  const Tensor w = from_vector(sawtooth(1030 * 45), {1030, 45}, &gpu());
  const Tensor col = from_vector(sawtooth(29 * 7), {29, 7, 1}, &gpu());
  const std::vector<OpCall> calls = {
      {Op::dot,
       {stand_in(gpu(), DType::f32, {29, 1030}), stand_in(gpu(), DType::f32, {1030, 45})},
       DotParams{{1}, {}, {0}, {}},
       DType::f32,
       {29, 45}},
      {Op::sum,
       {stand_in(gpu(), DType::f32, {29, 1030})},
       ReduceParams{{1}, false},
       DType::f32,
       Shape{29}},
      {Op::argmax,
       {stand_in(gpu(), DType::f32, {29, 7, 1})},
       ArgReduceParams{1, false, false},
       DType::s64,
       Shape{29, 1}},
      {Op::atan2,
       {stand_in(gpu(), DType::f32, {29, 1030}), stand_in(gpu(), DType::f32, {29, 1030})},
       NoParams{},
       DType::f32,
       {29, 1030}},
      {Op::erf_inv, {stand_in(gpu(), DType::f32, {29, 1030})}, NoParams{}, DType::f32, {29, 1030}},
  };
  for (const OpCall& c : calls) ASSERT_TRUE(gpu().supports(c)) << op_name(c.op);
  for (const OpCall& c : calls) gpu().prepare(c);
  LedgerScope run;
  // argmax's s64 indices: the prepared call's type (s32 would add a conversion's pipeline).
  const Tensor results[] = {dot(a, w), sum(a, {1}),
                            argmax(col, 1, false, TieBreak::low, DType::s64), atan2(a, a),
                            erf_inv(a)};
  for (const Tensor& r : results) (void)r.to_bytes();
  EXPECT_EQ(run.delta().pipelines_created, 0u);
  EXPECT_EQ(run.delta().fallbacks, 0u);
}

// Many threads wanting one new pipeline: it is created once and all get the same handle.
TEST_F(VulkanCompileFirstCall, ConcurrentRequestsCreateOnePipeline) {
  auto& b = static_cast<vk::VulkanBackend&>(gpu());
  const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
  const std::string source =
      "#version 450\n#include \"common.glsl\"\nlayout(binding = 0) buffer B { uint v[]; } b;\n"
      "void main() { b.v[global_index()] = " +
      std::to_string(static_cast<std::uint32_t>(stamp)) + "u; }\n";
  const vk::KernelBinary bin = vk::kernel_binary(b.context(), source);
  constexpr int kThreads = 8;
  std::vector<VkPipeline> got(kThreads, VK_NULL_HANDLE);
  std::atomic<int> ready{0};
  LedgerScope scope;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&b, &bin, &got, &ready, t] {
      ++ready;
      while (ready.load() < kThreads) std::this_thread::yield();
      got[static_cast<std::size_t>(t)] =
          b.pipelines().get_generated(bin.key, bin.words, 1).pipeline;
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(scope.delta().pipelines_created, 1u);
  for (VkPipeline p : got) {
    EXPECT_NE(p, VK_NULL_HANDLE);
    EXPECT_EQ(p, got[0]);
  }
}

// Tiers on: the first call runs the split kernel, a later call the full one once another
// thread has made it; every call gives eager's bits.
// The first tier split in two and in four parts (first=2|4), with rolled loops, and created
// without the driver's optimizations (first_opt=none).
TEST_F(VulkanCompileFirstCall, TieredKernelTakesTheFullKernelLaterWithTheSameBits) {
  vk::testing::set_compile_tiers(true);
  const Tensor x = from_vector(sawtooth(29 * 4096), {29, 4096}, &gpu());
  const std::vector<std::byte> want = softmax_rows(x).to_bytes();
  for (const char* first : {"first=2", "first=4", "first_loop=rolled", "first_opt=none"}) {
    vk::testing::set_row_variant(vk::parse_row_variant(first));
    auto f = compile(softmax_rows);
    const std::uint64_t before = vk::testing::row_kernel_promotions();
    EXPECT_EQ(f(x).to_bytes(), want) << first;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (vk::testing::row_kernel_promotions() == before &&
           std::chrono::steady_clock::now() < deadline) {
      EXPECT_EQ(f(x).to_bytes(), want) << first;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_EQ(vk::testing::row_kernel_promotions(), before + 1) << first;
    EXPECT_EQ(f(x).to_bytes(), want) << first;
  }
  vk::testing::set_row_variant(std::nullopt);
}

// first_rare=flag (the default): the first tier's rare paths only set a flag, and a call that
// met one runs the full kernel over its outputs (also with the first tier unoptimized by the
// driver, first_opt=none). A row whose exp underflows (x - max below -87) and a row holding a
// NaN are met in the first call, which then gives eager's bits. With
// first_rare=once the first tier is exact by itself (the underflow row) and nothing is run
// again; its NaN rows are not checked here: lavapipe's compiler returns them as NaNs of the
// other sign (a NaN's sign is left to the compiler: docs/compile.md, the flagged tier).
TEST_F(VulkanCompileFirstCall, FlaggedFirstTierRunsTheFullKernelWhereARarePathIsMet) {
  vk::testing::set_compile_tiers(true);
  std::vector<float> v = sawtooth(8 * 4096);
  const Tensor plain = from_vector(v, {8, 4096}, &gpu());
  v[3 * 4096 + 7] = 200.0f;
  const Tensor underflow = from_vector(v, {8, 4096}, &gpu());
  v[5 * 4096 + 11] = std::numeric_limits<float>::quiet_NaN();
  const Tensor with_nan = from_vector(v, {8, 4096}, &gpu());
  const std::vector<std::byte> want_plain = softmax_rows(plain).to_bytes();
  const std::vector<std::byte> want_underflow = softmax_rows(underflow).to_bytes();
  const std::vector<std::byte> want_nan = softmax_rows(with_nan).to_bytes();
  for (const char* setting :
       {"first_rare=flag", "first_rare=flag,first_opt=none", "first_rare=once"}) {
    const bool flag = vk::parse_row_variant(setting).first_rare_flag;
    vk::testing::set_row_variant(vk::parse_row_variant(setting));
    SCOPED_TRACE(setting);
    const auto rare_first = [&](const Tensor& x, const std::vector<std::byte>& want) {
      auto f = compile(softmax_rows);  // a new kernel: the first call is on its first tier
      const std::uint64_t before = vk::testing::row_kernel_rare_reruns();
      EXPECT_EQ(f(x).to_bytes(), want);
      EXPECT_EQ(vk::testing::row_kernel_rare_reruns(), before + (flag ? 1 : 0));
      EXPECT_EQ(f(plain).to_bytes(), want_plain);
      EXPECT_EQ(f(x).to_bytes(), want);
    };
    rare_first(underflow, want_underflow);
    if (flag) rare_first(with_nan, want_nan);
    auto f = compile(softmax_rows);  // plain rows first: the flag stays 0
    const std::uint64_t before = vk::testing::row_kernel_rare_reruns();
    EXPECT_EQ(f(plain).to_bytes(), want_plain);
    EXPECT_EQ(vk::testing::row_kernel_rare_reruns(), before);
  }
  vk::testing::set_row_variant(std::nullopt);
}

// A flagged first tier reads its flag back, so a call on it waits for its run: only the
// first call takes it. Until the full kernel arrives (held here) later calls run the ops
// unfused, with no wait and no transfer; then the full kernel, one dispatch. Eager's bits
// throughout.
TEST_F(VulkanCompileFirstCall, CallsBeforeTheFullKernelRunUnfusedWithoutWaiting) {
  vk::testing::set_compile_tiers(true);
  vk::testing::set_row_variant(vk::parse_row_variant("first_rare=flag"));
  vk::testing::hold_later_tiers(true);
  const Tensor x = from_vector(sawtooth(11 * 4096), {11, 4096}, &gpu());
  const std::vector<std::byte> want = softmax_rows(x).to_bytes();
  auto f = compile(softmax_rows);
  EXPECT_EQ(f(x).to_bytes(), want);
  const std::uint64_t promoted = vk::testing::row_kernel_promotions();
  for (int call = 0; call < 3; ++call) {
    const std::uint64_t unfused = vk::testing::row_kernel_unfused_runs();
    LedgerScope scope;
    const Tensor out = f(x);
    const LedgerCounts d = scope.delta();
    EXPECT_EQ(d.waits, 0u) << call;
    EXPECT_EQ(d.uploads + d.downloads, 0u) << call;
    EXPECT_GT(d.dispatches, 1u) << call;  // eager's softmax: reductions and elementwise ops
    EXPECT_EQ(vk::testing::row_kernel_unfused_runs(), unfused + 1) << call;
    EXPECT_EQ(out.to_bytes(), want) << call;
  }
  EXPECT_EQ(vk::testing::row_kernel_promotions(), promoted);
  vk::testing::hold_later_tiers(false);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (vk::testing::row_kernel_promotions() == promoted &&
         std::chrono::steady_clock::now() < deadline) {
    EXPECT_EQ(f(x).to_bytes(), want);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(vk::testing::row_kernel_promotions(), promoted + 1);
  LedgerScope scope;
  const Tensor out = f(x);
  EXPECT_EQ(scope.delta().dispatches, 1u);
  EXPECT_EQ(scope.delta().waits, 0u);
  EXPECT_EQ(out.to_bytes(), want);
  vk::testing::set_row_variant(std::nullopt);
}

}  // namespace
}  // namespace vkt::testing
