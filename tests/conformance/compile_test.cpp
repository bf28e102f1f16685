// vkt::compile on Vulkan: fused kernels generated, compiled with shaderc and cached, with
// results equal to eager Vulkan results (bit for bit, floats included: the generated code
// calls the built-in shaders' functions and rounds after each op as eager's stores do).
#include "vkt/compile.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <thread>

#include "common/settings.h"
#include "conformance/fixture.h"
#include "support/compile_corpus.h"
#include "vulkan/compile/kernel_cache.h"
#include "vulkan/runtime/backend.h"

namespace vkt::testing {
namespace {

class VulkanCompile : public VulkanTest {};

std::vector<float> ramp(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i % 977) / 97.0f - 3.0f;
  return v;
}

Tensor chain16(const Tensor& x, const Tensor& bias) {
  Tensor y = x;
  for (int k = 0; k < 16; ++k) {
    y = k % 4 == 3 ? tanh(add(y, bias)) : add(multiply(y, 0.75f), 0.125f);
  }
  return y;
}

TEST_F(VulkanCompile, ChainIsOneDispatchAndEqualsEager) {
  const Tensor x = from_vector(ramp(100000), {250, 400}, &gpu());
  const Tensor bias = from_vector(ramp(400), {400}, &gpu());
  auto f = compile(chain16);
  const Tensor expected = chain16(x, bias);
  const Tensor first = f(x, bias);
  EXPECT_EQ(&first.backend(), &gpu());
  EXPECT_EQ(first.to_bytes(), expected.to_bytes());
  LedgerScope scope;
  const Tensor again = f(x, bias);
  EXPECT_EQ(scope.delta().dispatches, 1u);
  EXPECT_EQ(scope.delta().uploads, 0u);
  EXPECT_EQ(scope.delta().plan_reuses, 1u);
  EXPECT_EQ(scope.delta().kernel_compiles, 0u);
  EXPECT_EQ(again.to_bytes(), expected.to_bytes());
}

// Four elements per 16-byte load and store (compiled.cpp, four_wide): 32-bit leaves of the
// group's size or of one element, three 32-bit outputs, sizes with tails of 0 to 3 elements.
TEST_F(VulkanCompile, FourWideKernelsEqualEagerWithTails) {
  auto prog = [](const Tensor& x, const Tensor& k, const Tensor& one) {
    const Tensor m = add(multiply(x, one), as_type(k, DType::f32));
    const Tensor mk = bitwise_xor(as_type(m, DType::s32), k);
    return std::make_tuple(m, mk, as_type(abs(mk), DType::u32));
  };
  for (std::size_t n : {4u, 5u, 6u, 7u, 64u, 1027u, 100003u}) {
    const Tensor x = from_vector(ramp(n), &gpu());
    const Tensor k = as_type(multiply(from_vector(ramp(n), &gpu()), 1000.0f), DType::s32);
    const Tensor one = from_vector(std::vector<float>{-0.375f}, {1}, &gpu());
    auto f = compile(prog);
    f(x, k, one);
    LedgerScope scope;
    auto [m, xk, u] = f(x, k, one);
    EXPECT_EQ(scope.delta().dispatches, 1u) << n;
    auto [em, exk, eu] = prog(x, k, one);
    EXPECT_EQ(m.to_bytes(), em.to_bytes()) << n;
    EXPECT_EQ(xk.to_bytes(), exk.to_bytes()) << n;
    EXPECT_EQ(u.to_bytes(), eu.to_bytes()) << n;
  }
}

TEST_F(VulkanCompile, SameSourceIsAMemoryCacheHit) {
  const Tensor x = from_vector(ramp(1000), &gpu());
  auto make = [] {
    return compile([](const Tensor& t) { return exp(negate(multiply(t, 3.0f))); });
  };
  auto f = make();
  f(x);
  LedgerScope scope;
  auto g = make();  // a new function, the same generated source
  EXPECT_EQ(g(x).to_bytes(), f(x).to_bytes());
  EXPECT_EQ(scope.delta().kernel_compiles, 0u);
  EXPECT_EQ(scope.delta().kernel_cache_hits, 1u);
}

TEST_F(VulkanCompile, DiskCacheHitsAndDamagedEntryIsRebuiltNotTrusted) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("vkt_kernel_cache_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const OverrideScope cache_dir("cache_dir=" + dir.string());
  const vk::Context& ctx = static_cast<vk::VulkanBackend&>(gpu()).context();
  const std::string source =
      "#version 450\n#include \"common.glsl\"\nlayout(binding = 0) buffer B { uint v[]; } b;\n"
      "void main() { b.v[global_index()] = 7u; }\n";
  auto counts = [&](auto&& body) {
    LedgerScope scope;
    body();
    return scope.delta();
  };
  vk::KernelBinary first;
  EXPECT_EQ(counts([&] { first = vk::kernel_binary(ctx, source); }).kernel_compiles, 1u);
  const std::filesystem::path entry = dir / (first.key + ".spv");
  ASSERT_TRUE(std::filesystem::exists(entry));
  EXPECT_EQ(counts([&] { vk::kernel_binary(ctx, source); }).kernel_cache_hits, 1u);
  vk::clear_kernel_memory_cache();
  EXPECT_EQ(counts([&] {
              EXPECT_EQ(vk::kernel_binary(ctx, source).words, first.words);
            }).kernel_disk_hits,
            1u);
  // One flipped byte in the words: the checksum catches it, the kernel is compiled again
  // and the entry rewritten.
  {
    std::fstream io(entry, std::ios::in | std::ios::out | std::ios::binary);
    io.seekg(48);
    const char c = static_cast<char>(io.get());
    io.seekp(48);
    io.put(static_cast<char>(c ^ 0x5a));
  }
  vk::clear_kernel_memory_cache();
  LedgerCounts d = counts([&] { EXPECT_EQ(vk::kernel_binary(ctx, source).words, first.words); });
  EXPECT_EQ(d.kernel_disk_hits, 0u);
  EXPECT_EQ(d.kernel_compiles, 1u);
  // A truncated entry likewise.
  std::filesystem::resize_file(entry, 30);
  vk::clear_kernel_memory_cache();
  d = counts([&] { EXPECT_EQ(vk::kernel_binary(ctx, source).words, first.words); });
  EXPECT_EQ(d.kernel_compiles, 1u);
  vk::clear_kernel_memory_cache();
  EXPECT_EQ(counts([&] { vk::kernel_binary(ctx, source); }).kernel_disk_hits, 1u);
  std::filesystem::remove_all(dir);
}

TEST_F(VulkanCompile, BroadcastConversionsAndLiteralsEqualEager) {
  const Tensor a = from_vector(ramp(6 * 5 * 7), {6, 5, 7}, &gpu());
  const Tensor col = as_type(from_vector(ramp(5), {5, 1}, &gpu()), DType::f16);
  const Tensor ints = as_type(from_vector(ramp(7), {7}, &gpu()), DType::s32);
  auto prog = [](const Tensor& x, const Tensor& c, const Tensor& i) {
    const Tensor m = multiply(add(x, c), as_type(bitwise_xor(i, 3), DType::f32));
    return std::make_tuple(as_type(m, DType::bf16), less(m, 0.5f), as_type(m, DType::s16));
  };
  auto f = compile(prog);
  auto [b1, l1, s1] = f(a, col, ints);
  auto [b2, l2, s2] = prog(a, col, ints);
  EXPECT_EQ(b1.to_bytes(), b2.to_bytes());
  EXPECT_EQ(l1.to_bytes(), l2.to_bytes());
  EXPECT_EQ(s1.to_bytes(), s2.to_bytes());
}

TEST_F(VulkanCompile, GroupWithAFallbackOpRunsUnfusedUnderTheFallbackRule) {
  // erf has no f64 kernel on the device: eager falls back per op (result on the cpu), and
  // so must the compiled plan; the policy "error" forbids it in both.
  std::vector<double> v(64);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 0.1 * static_cast<double>(i) - 3.0;
  const Tensor x = from_vector(v, &gpu());
  auto prog = [](const Tensor& t) { return add(erf(multiply(t, 2.0)), 1.0); };
  auto f = compile(prog);
  LedgerScope scope;
  const Tensor r = f(x);
  EXPECT_GT(scope.delta().fallbacks, 0u);
  const Tensor e = prog(x);
  EXPECT_EQ(&r.backend(), &e.backend());
  EXPECT_EQ(r.to_bytes(), e.to_bytes());
  set_fallback_policy(FallbackPolicy::error);
  EXPECT_THROW(f(x), FallbackForbidden);
  set_fallback_policy(FallbackPolicy::allow);
}

TEST_F(VulkanCompile, ThreadsShareOneCompiledFunction) {
  const Tensor x = from_vector(ramp(4096), &gpu());
  auto f = compile([](const Tensor& t) { return sigmoid(add(multiply(t, 1.5f), 0.25f)); });
  const std::vector<std::byte> expected = sigmoid(add(multiply(x, 1.5f), 0.25f)).to_bytes();
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) {
        if (f(x).to_bytes() != expected) ++mismatches;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(f.plans(), 1u);
}

TEST_F(VulkanCompile, ReturnedIntermediateIsWrittenByTheSameKernel) {
  const Tensor x = from_vector(ramp(3000), {30, 100}, &gpu());
  auto prog = [](const Tensor& t) {
    const Tensor a = tanh(multiply(t, 0.25f));
    return std::make_pair(a, multiply(a, as_type(a, DType::f16)));
  };
  auto f = compile(prog);
  f(x);
  LedgerScope scope;
  auto [a, b] = f(x);
  EXPECT_EQ(scope.delta().dispatches, 1u);
  auto [ea, eb] = prog(x);
  EXPECT_EQ(a.to_bytes(), ea.to_bytes());
  EXPECT_EQ(b.to_bytes(), eb.to_bytes());
}

// One value as both operands: a driver may fold x / x to 1 or x - x to 0, wrong for zeros,
// infinities and NaN (the H200 gave divide(x, x) = 1 for x = 0 in f64).
TEST_F(VulkanCompile, OneValueAsBothOperandsKeepsSpecialValues) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> v = {0.0, -0.0, inf, -inf, std::nan(""), 1.5, -3.0, 1e-310};
  for (DType d : {DType::f32, DType::f64}) {
    const Tensor x = transfer(as_type(from_vector(v, {8}, &cpu()), d), gpu());
    for (Op op : {Op::divide, Op::subtract, Op::multiply, Op::add, Op::remainder}) {
      auto prog = [op](const Tensor& t) { return add(binary(op, t, t), 0.0f); };
      // NaN's sign and payload are free (docs/compile.md); everything else is bit for bit.
      const std::vector<double> got = as_type(compile(prog)(x), DType::f64).to_vector<double>();
      const std::vector<double> want = as_type(prog(x), DType::f64).to_vector<double>();
      for (std::size_t i = 0; i < want.size(); ++i) {
        if (std::isnan(want[i])) {
          EXPECT_TRUE(std::isnan(got[i])) << op_name(op) << " " << dtype_name(d) << " at " << i;
        } else {
          EXPECT_EQ(std::bit_cast<std::uint64_t>(got[i]), std::bit_cast<std::uint64_t>(want[i]))
              << op_name(op) << " " << dtype_name(d) << " at " << i;
        }
      }
    }
  }
}

TEST_F(VulkanCompile, RandomProgramsEqualEager) {
  for (std::uint32_t seed = 1; seed <= 150; ++seed) {
    const CorpusCase c = make_corpus_case(seed);
    std::vector<Tensor> in;
    for (const Tensor& t : c.inputs) in.push_back(transfer(t, gpu()));
    const Tensor eager = corpus_program(seed, in);
    const auto prog = [seed](const auto&... t) { return corpus_program(seed, {t...}); };
    Tensor compiled;
    if (in.size() == 1) compiled = compile(prog)(in[0]);
    if (in.size() == 2) compiled = compile(prog)(in[0], in[1]);
    if (in.size() == 3) compiled = compile(prog)(in[0], in[1], in[2]);
    ASSERT_EQ(compiled.dtype(), eager.dtype()) << "seed " << seed;
    ASSERT_EQ(compiled.shape(), eager.shape()) << "seed " << seed;
    ASSERT_EQ(compiled.to_bytes(), eager.to_bytes()) << "seed " << seed;
  }
}

}  // namespace
}  // namespace vkt::testing
