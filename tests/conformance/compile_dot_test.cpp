// vkt::compile on Vulkan: a dot's elementwise epilogue fused into the dot's kernel (eager's
// kernel and tile, the epilogue applied to C in registers before the store). C's values are
// eager's, so results equal eager Vulkan bit for bit.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "conformance/fixture.h"
#include "support/dot_corpus.h"
#include "support/dot_programs.h"
#include "vkt/compile.h"
#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

// Tiers off: each call runs the kernels counted here, not the quick first tier;
// VulkanCompileDotTiers below turns them on.
class VulkanCompileDot : public VulkanUntieredTest {};

Tensor on_gpu(const Shape& shape, float phase = 0.0f, DType d = DType::f32) {
  const Tensor t =
      from_vector(dot_values(static_cast<std::size_t>(numel(shape)), phase), shape, &vulkan());
  return d == DType::f32 ? t : as_type(t, d);
}

void expect_same(const Tensor& got, const Tensor& expected) {
  ASSERT_EQ(got.dtype(), expected.dtype());
  ASSERT_EQ(got.shape(), expected.shape());
  EXPECT_EQ(got.to_bytes(), expected.to_bytes());
}

// Calls f twice, each result against eager's; the dispatches of the second call (a cache hit).
template <class F, class... Args>
std::uint64_t cache_hit_dispatches(F& f, const Tensor& expected, const Args&... args) {
  expect_same(f(args...), expected);
  LedgerScope scope;
  expect_same(f(args...), expected);
  return scope.delta().dispatches;
}

TEST_F(VulkanCompileDot, MlpIsOneDispatchAndEqualsEager) {
  const Tensor x = on_gpu({64, 96}), w = on_gpu({96, 128}, 1.0f), bias = on_gpu({128}, 2.0f);
  auto f = compile(mlp_gelu);
  const Tensor expected = mlp_gelu(x, w, bias);
  EXPECT_EQ(cache_hit_dispatches(f, expected, x, w, bias), 1u) << f.describe();
  EXPECT_NE(f.describe().find("fused dot group"), std::string::npos) << f.describe();
}

// Bias along rows and along columns, scalars, relu as max, tanh, a conversion; M, N
// and K of 1, 3, 17, 64 and 129 (the tiled kernel for thin shapes, the register-blocked one
// for square tiles).
TEST_F(VulkanCompileDot, EpiloguesAndShapesEqualEager) {
  struct Case {
    std::int64_t m, n, k;
  };
  const std::vector<Case> cases = {{1, 1, 1},    {3, 17, 129}, {17, 3, 64},  {64, 64, 17},
                                   {129, 64, 3}, {1, 129, 17}, {129, 1, 64}, {129, 129, 129}};
  int turn = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k));
    const Tensor x = on_gpu({c.m, c.k}), w = on_gpu({c.k, c.n}, 0.5f);
    const Tensor row_bias = on_gpu({c.n}, 1.5f), col_bias = on_gpu({c.m, 1}, 2.5f);
    switch (turn++ % 4) {
      case 0: {
        auto prog = [](const Tensor& a, const Tensor& b, const Tensor& r) {
          return vkt::max(add(dot(a, b), r), 0.0f);
        };
        expect_same(compile(prog)(x, w, row_bias), prog(x, w, row_bias));
        break;
      }
      case 1: {
        auto prog = [](const Tensor& a, const Tensor& b, const Tensor& cb) {
          return tanh(subtract(dot(a, b), cb));
        };
        expect_same(compile(prog)(x, w, col_bias), prog(x, w, col_bias));
        break;
      }
      case 2: {
        auto prog = [](const Tensor& a, const Tensor& b) {
          return as_type(add(multiply(dot(a, b), 2.5f), 0.25f), DType::f16);
        };
        expect_same(compile(prog)(x, w), prog(x, w));
        break;
      }
      default: {
        auto prog = [](const Tensor& a, const Tensor& b, const Tensor& r, const Tensor& cb) {
          return multiply(add(dot(a, b), r), exp(cb));
        };
        expect_same(compile(prog)(x, w, row_bias, col_bias), prog(x, w, row_bias, col_bias));
        break;
      }
    }
  }
}

// Vector operands: a matrix-vector product ({M}) and an inner product (rank 0).
TEST_F(VulkanCompileDot, VectorOperandsEqualEager) {
  const Tensor a = on_gpu({17, 33}), v = on_gpu({33}, 0.3f), u = on_gpu({33}, 0.8f);
  const Tensor bias = on_gpu({17}, 1.3f);
  auto mv = [](const Tensor& m, const Tensor& x, const Tensor& r) {
    return tanh(add(dot(m, x), r));
  };
  expect_same(compile(mv)(a, v, bias), mv(a, v, bias));
  auto inner = [](const Tensor& x, const Tensor& y) { return exp(multiply(dot(x, y), 0.5f)); };
  expect_same(compile(inner)(v, u), inner(v, u));
}

TEST_F(VulkanCompileDot, BatchedDotWithBiasEqualsEager) {
  const Tensor a = on_gpu({3, 17, 33}), b = on_gpu({3, 33, 20}, 0.7f), bias = on_gpu({20}, 1.1f);
  auto prog = [](const Tensor& x, const Tensor& y, const Tensor& r) {
    return vkt::max(add(matmul(x, y), r), 0.0f);
  };
  auto f = compile(prog);
  const Tensor expected = prog(a, b, bias);
  EXPECT_EQ(cache_hit_dispatches(f, expected, a, b, bias), 1u) << f.describe();
}

TEST_F(VulkanCompileDot, DotReturnedTooIsWrittenByTheSameKernel) {
  const Tensor x = on_gpu({40, 50}), w = on_gpu({50, 60}, 0.3f), bias = on_gpu({60}, 0.9f);
  auto prog = [](const Tensor& a, const Tensor& b, const Tensor& r) {
    const Tensor c = dot(a, b);
    return std::make_pair(c, tanh(add(c, r)));
  };
  auto f = compile(prog);
  const auto [ec, ey] = prog(x, w, bias);
  const auto [c0, y0] = f(x, w, bias);
  expect_same(c0, ec);
  expect_same(y0, ey);
  LedgerScope scope;
  const auto [c, y] = f(x, w, bias);
  EXPECT_EQ(scope.delta().dispatches, 1u) << f.describe();
  expect_same(c, ec);
  expect_same(y, ey);
}

TEST_F(VulkanCompileDot, F64EqualsEager) {
  if (!static_cast<vk::VulkanBackend&>(gpu()).dtype_supported(DType::f64))
    GTEST_SKIP() << "no shaderFloat64";
  const Tensor x = on_gpu({33, 70}, 0.0f, DType::f64), w = on_gpu({70, 65}, 0.4f, DType::f64);
  const Tensor bias = on_gpu({65}, 1.2f, DType::f64);
  auto f = compile(mlp_gelu);
  expect_same(f(x, w, bias), mlp_gelu(x, w, bias));
}

// Eager splits K here (few output tiles, long K): its partial sums run as they are and the
// epilogue joins the pass that adds them.
TEST_F(VulkanCompileDot, SplitKAddsThePartialsWithTheEpilogue) {
  const Tensor x = on_gpu({16, 2048}), w = on_gpu({2048, 16}, 0.2f), bias = on_gpu({16}, 0.8f);
  auto f = compile(mlp_gelu);
  const Tensor expected = mlp_gelu(x, w, bias);
  EXPECT_EQ(cache_hit_dispatches(f, expected, x, w, bias), 2u) << f.describe();
}

// An f64 epilogue after an f32 dot: the dot shaders would accumulate in f64 under VKT_F64,
// so the group runs as the dot, then its epilogue's own group (two dispatches).
TEST_F(VulkanCompileDot, GroupItsBackendCannotFuseRunsTheDotThenTheEpilogue) {
  if (!static_cast<vk::VulkanBackend&>(gpu()).dtype_supported(DType::f64))
    GTEST_SKIP() << "no shaderFloat64";
  const Tensor x = on_gpu({20, 30}), w = on_gpu({30, 40}, 0.6f);
  const Tensor bias = on_gpu({40}, 0.1f, DType::f64);
  auto prog = [](const Tensor& a, const Tensor& b, const Tensor& r) {
    return multiply(add(as_type(dot(a, b), DType::f64), r), 3.0);
  };
  auto f = compile(prog);
  const Tensor expected = prog(x, w, bias);
  EXPECT_EQ(cache_hit_dispatches(f, expected, x, w, bias), 2u) << f.describe();
  EXPECT_NE(f.describe().find("fused dot group"), std::string::npos) << f.describe();
}

// K = 0 (the kernel writes zeros, then the epilogue) and M = 0 (nothing to run).
TEST_F(VulkanCompileDot, EmptyOperandsEqualEager) {
  auto prog = [](const Tensor& a, const Tensor& b, const Tensor& r) {
    return exp(add(dot(a, b), r));
  };
  const Tensor bias = on_gpu({5}, 0.3f);
  for (const Shape& xs : {Shape{4, 0}, Shape{0, 3}}) {
    const Tensor x = on_gpu(xs), w = on_gpu({xs[1], 5}, 0.9f);
    expect_same(compile(prog)(x, w, bias), prog(x, w, bias));
  }
}

TEST_F(VulkanCompileDot, DumpShowsTheDotGroupAndItsSource) {
  const Tensor x = on_gpu({9, 10}), w = on_gpu({10, 11}, 0.4f), bias = on_gpu({11}, 0.2f);
  set_compile_dump(true);
  ::testing::internal::CaptureStderr();
  const Tensor y = compile(mlp_gelu)(x, w, bias);
  const std::string dump = ::testing::internal::GetCapturedStderr();
  set_compile_dump(false);
  EXPECT_NE(dump.find("fused dot group"), std::string::npos) << dump;
  EXPECT_NE(dump.find("generated GLSL (dot group)"), std::string::npos) << dump;
  EXPECT_NE(dump.find("#define VKT_DOT_EPILOGUE"), std::string::npos) << dump;
  EXPECT_NE(dump.find("void dot_epilogue(uint at, ACC c)"), std::string::npos) << dump;
  expect_same(y, mlp_gelu(x, w, bias));
}

// C read by a reduction as well: the dot stays a dispatch of its own (today's plan).
TEST_F(VulkanCompileDot, DotReadOutsideTheEpilogueIsNotFused) {
  const Tensor x = on_gpu({20, 30}), w = on_gpu({30, 40}, 0.6f);
  auto prog = [](const Tensor& a, const Tensor& b) {
    const Tensor c = dot(a, b);
    return std::make_pair(exp(c), sum(c, {1}));
  };
  auto f = compile(prog);
  const auto [e0, s0] = prog(x, w);
  const auto [e1, s1] = f(x, w);
  expect_same(e1, e0);
  expect_same(s1, s0);
  EXPECT_EQ(f.describe().find("fused dot group"), std::string::npos) << f.describe();
}

// Thirty random dot programs (tests/support/dot_programs.h), compiled, against eager.
void expect_random_dot_programs_equal_eager(Backend& gpu) {
  std::uint32_t fused = 0;
  for (std::uint32_t seed = 1; seed <= 30; ++seed) {
    std::vector<Tensor> in;
    for (const Tensor& t : make_dot_corpus_inputs(seed)) in.push_back(transfer(t, gpu));
    if (!static_cast<vk::VulkanBackend&>(gpu).dtype_supported(in[0].dtype())) continue;
    const std::vector<Tensor> eager = dot_corpus_program(seed, in[0], in[1], in[2], in[3]);
    auto f = compile([seed](const Tensor& x, const Tensor& w, const Tensor& r, const Tensor& c) {
      return dot_corpus_program(seed, x, w, r, c);
    });
    const std::vector<Tensor> got = f(in[0], in[1], in[2], in[3]);
    fused += f.describe().find("fused dot group") != std::string::npos ? 1 : 0;
    ASSERT_EQ(got.size(), eager.size()) << "seed " << seed;
    for (std::size_t k = 0; k < got.size(); ++k) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " output " + std::to_string(k));
      expect_same(got[k], eager[k]);
    }
  }
  // Most programs take the dot group (the others read C outside the epilogue).
  EXPECT_GE(fused, 15u);
}

TEST_F(VulkanCompileDot, RandomDotProgramsEqualEager) {
  expect_random_dot_programs_equal_eager(gpu());
}

// Compile tiers on (a GPU's default): a small dot group's first calls run the quick kernel
// (linalg_dot_simple_main.glsl, one dispatch) while the tiled pipelines are made on another
// thread, held back here. Its C values are theirs: eager's bits before and after.
class VulkanCompileDotTiers : public VulkanCompileDot {
 protected:
  void SetUp() override {
    VulkanCompileDot::SetUp();
    vk::testing::set_compile_tiers(true);
    vk::testing::hold_later_tiers(true);
  }
  void TearDown() override {
    vk::testing::hold_later_tiers(false);
    VulkanCompileDot::TearDown();
  }
};

TEST_F(VulkanCompileDotTiers, QuickFirstTierThenTheFullKernelWithTheSameBits) {
  struct Case {
    Shape x, w;
    std::uint64_t full_dispatches;  // 2 where eager splits K
  };
  for (const Case& c : {Case{{16, 2048}, {2048, 16}, 2}, Case{{64, 96}, {96, 128}, 1},
                        Case{{3, 17}, {17, 129}, 1}}) {
    SCOPED_TRACE(shape_str(c.x) + " x " + shape_str(c.w));
    vk::testing::hold_later_tiers(true);
    const Tensor x = on_gpu(c.x), w = on_gpu(c.w, 0.2f), bias = on_gpu({c.w[1]}, 0.8f);
    auto f = compile(mlp_gelu);
    const Tensor expected = mlp_gelu(x, w, bias);
    const std::uint64_t promoted = vk::testing::dot_kernel_promotions();
    for (int call = 0; call < 3; ++call) {
      LedgerScope scope;
      expect_same(f(x, w, bias), expected);
      EXPECT_EQ(scope.delta().dispatches, 1u) << call;
    }
    EXPECT_EQ(vk::testing::dot_kernel_promotions(), promoted);
    vk::testing::hold_later_tiers(false);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (vk::testing::dot_kernel_promotions() == promoted &&
           std::chrono::steady_clock::now() < deadline) {
      expect_same(f(x, w, bias), expected);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_EQ(vk::testing::dot_kernel_promotions(), promoted + 1);
    EXPECT_EQ(cache_hit_dispatches(f, expected, x, w, bias), c.full_dispatches);
  }
}

// Every random program's fused group on its first tier: batches, transposed and strided
// operands, f16, bf16 and f64, empty and size-1 axes.
TEST_F(VulkanCompileDotTiers, RandomDotProgramsOnTheFirstTierEqualEager) {
  expect_random_dot_programs_equal_eager(gpu());
}

}  // namespace
}  // namespace vkt::testing
