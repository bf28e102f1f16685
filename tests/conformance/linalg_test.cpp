// dot and matmul on the device against the cpu backend (OpenBLAS): shapes 1x1x1, empty M/N/K,
// odd and many-tile sizes, batches, transposed and batch-in-the-middle layouts, rank-1 and
// rank-0 operands, matmul; every float dtype the device has. Floats are compared with a
// tolerance that grows with K and with sum |a||b| (summation orders differ); poisoned
// outputs (VKT_POISON=1) read as NaN where an element was not written.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/settings.h"
#include "conformance/fixture.h"
#include "support/compare.h"
#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

// One dot call: operand shapes and Nx.dot/6 axes.
struct DotCase {
  std::string name;
  Shape a, b;
  Axes contract_a, batch_a, contract_b, batch_b;
  int dispatches = -1;  // when >= 0, the device dispatches the call must take
};

const std::vector<DotCase>& dot_cases() {
  static const std::vector<DotCase> cases = {
      {"1x1x1", {1, 1}, {1, 1}, {1}, {}, {0}, {}, 1},
      {"M=0", {0, 5}, {5, 3}, {1}, {}, {0}, {}, 0},
      {"N=0", {4, 5}, {5, 0}, {1}, {}, {0}, {}},
      {"K=0 gives zeros", {4, 0}, {0, 3}, {1}, {}, {0}, {}, 1},
      {"K=0 batched", {2, 3, 0}, {2, 0, 5}, {2}, {0}, {1}, {0}},
      {"33x65x17", {33, 17}, {17, 65}, {1}, {}, {0}, {}},
      {"257x129x300", {257, 300}, {300, 129}, {1}, {}, {0}, {}, 1},
      {"3 batches", {3, 33, 17}, {3, 17, 20}, {2}, {0}, {1}, {0}},
      {"a transposed (contract a's axis 0)", {17, 33}, {17, 65}, {0}, {}, {0}, {}},
      {"b transposed (contract b's axis 1)", {33, 17}, {65, 17}, {1}, {}, {1}, {}},
      {"both transposed", {300, 70}, {130, 300}, {0}, {}, {1}, {}},
      {"batched, both transposed", {3, 19, 40}, {3, 50, 19}, {1}, {0}, {2}, {0}},
      {"batch axis in the middle", {40, 3, 19}, {19, 3, 50}, {2}, {1}, {0}, {1}},
      {"batch axis last", {40, 19, 3}, {19, 50, 3}, {1}, {2}, {0}, {2}},
      {"two contracting axes", {2, 3, 4, 5}, {4, 5, 6}, {2, 3}, {}, {0, 1}, {}},
      {"two batch axes", {2, 3, 9, 7}, {2, 3, 7, 11}, {3}, {0, 1}, {2}, {0, 1}},
      {"rank 6 output", {2, 3, 1, 4, 2, 5}, {2, 5, 3}, {5}, {0}, {1}, {0}},
      {"unit axes between", {5, 1, 7}, {7, 1, 6}, {2}, {}, {0}, {}},
      {"matrix-vector", {300, 70}, {70}, {1}, {}, {0}, {}},
      {"vector-matrix", {70}, {70, 300}, {0}, {}, {0}, {}},
      // Long K with few output tiles: K split into chunks, partials added by a second pass.
      {"vector dot", {5000}, {5000}, {0}, {}, {0}, {}, 2},
      // Free axes on both sides of K (no batch axes): the outer part becomes the batch.
      {"b free axes around K (dot/2, rank-3 b)", {7, 50}, {2, 50, 60}, {1}, {}, {1}, {}, 1},
      {"vector @ stacked matrices", {50}, {2, 50, 60}, {0}, {}, {1}, {}, 1},
      {"b free axes around K, split K", {3000}, {3, 3000, 5}, {0}, {}, {1}, {}, 2},
      {"a free axes around K", {4, 30, 2, 9}, {30, 11}, {1}, {}, {0}, {}, 1},
      {"split K, batched", {2, 5, 3000}, {2, 3000, 7}, {2}, {0}, {1}, {0}, 2},
      {"split K, transposed", {3001, 20}, {9, 3001}, {0}, {}, {1}, {}, 2},
      {"outer product", {37}, {41}, {}, {}, {}, {}},
      {"scalar times matrix", {}, {5, 7}, {}, {}, {}, {}},
      {"many tiles, 2 batches, thin", {2, 1000, 40}, {2, 40, 3}, {2}, {0}, {1}, {0}},
  };
  return cases;
}

// 256 tiles of 128 x 128 select the large-tile configuration (edges in M, N and K). Slow on
// lavapipe (barriers with 64 live accumulators), so run for f32 and f64 only.
const std::vector<DotCase>& large_tile_cases() {
  static const std::vector<DotCase> cases = {
      {"128-tiles, 64 batches", {64, 130, 3}, {64, 3, 129}, {2}, {0}, {1}, {0}},
      {"128-tiles, 64 batches, transposed", {64, 9, 130}, {64, 129, 9}, {1}, {0}, {2}, {0}},
  };
  return cases;
}

// Cases whose axis groups interleave: no single stride describes K (or N).
const std::vector<DotCase>& fallback_cases() {
  static const std::vector<DotCase> cases = {
      {"contracting axes 0 and 2", {4, 3, 5}, {4, 5, 6}, {0, 2}, {}, {0, 1}, {}},
      {"contracting axes reversed", {3, 4}, {4, 3}, {1, 0}, {}, {0, 1}, {}},
      // Free axes on both sides of K in both operands, or beside batch axes.
      {"a and b free axes around K", {2, 3, 4}, {5, 3, 6}, {1}, {}, {1}, {}},
      {"b free axes around K, batched", {2, 3, 4}, {2, 5, 4, 6}, {2}, {0}, {2}, {0}},
  };
  return cases;
}

std::vector<DType> integer_dtypes() {
  std::vector<DType> out;
  auto& vb = static_cast<vk::VulkanBackend&>(vulkan());
  for (DType d : kRealDTypes) {
    if (is_integer(d) && vb.dtype_supported(d)) out.push_back(d);
  }
  return out;
}

std::vector<DType> float_dtypes() {
  std::vector<DType> out = {DType::f32, DType::f16, DType::bf16};
  auto& vb = static_cast<vk::VulkanBackend&>(vulkan());
  if (vb.dtype_supported(DType::f64)) out.push_back(DType::f64);
  return out;
}

// Deterministic values in [-1, 1) (a little generator so the cases need no randomness).
std::vector<double> values(std::int64_t n, std::uint32_t seed) {
  std::vector<double> v(static_cast<std::size_t>(n));
  std::uint32_t s = seed * 2654435761u + 12345u;
  for (double& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<double>(s >> 8) / static_cast<double>(1u << 23) - 1.0;
  }
  return v;
}

// Floats in [-1, 1); integers with random bits over the dtype's whole range (products and
// sums wrap).
Tensor make(const Shape& shape, DType d, std::uint32_t seed) {
  const std::vector<double> v = values(numel(shape), seed);
  if (is_integer(d)) {
    std::vector<std::int64_t> bits(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      bits[i] = static_cast<std::int64_t>(v[i] * 9.2e18) ^ static_cast<std::int64_t>(i * 40503);
    }
    return as_type(from_vector(bits, shape), d);
  }
  return as_type(from_vector(v, shape), d);
}

// |t| in f64 (exact for every float dtype).
Tensor magnitudes(const Tensor& t) {
  std::vector<double> v = as_doubles(t);
  for (double& x : v) x = std::fabs(x);
  return from_vector(v, t.shape());
}

// How far apart the device and cpu results may be: a relative part growing with sqrt(K)
// (both sum in different orders) plus an absolute part relative to sum_k |a||b| (where
// cancellation leaves a small result).
struct DotTolerance {
  double rtol, atol;
};
DotTolerance tolerance_for(DType d, std::int64_t k) {
  const double root = std::sqrt(static_cast<double>(std::max<std::int64_t>(k, 1)));
  switch (d) {
    case DType::f64:
      return {1e-13 * root, 1e-15 * root};
    case DType::f16:
      return {2e-3, 1e-5 * root};  // one f16 rounding of an f32 sum
    case DType::bf16:
      return {1.6e-2, 1e-5 * root};
    default:
      return {1e-5 * root, 1e-6 * root};
  }
}

::testing::AssertionResult dot_close(const Tensor& got, const Tensor& want, const Tensor& mag,
                                     DotTolerance tol) {
  if (got.dtype() != want.dtype() || got.shape() != want.shape()) {
    return ::testing::AssertionFailure()
           << "got " << dtype_name(got.dtype()) << shape_str(got.shape()) << ", want "
           << dtype_name(want.dtype()) << shape_str(want.shape());
  }
  const std::vector<double> g = as_doubles(got), w = as_doubles(want), m = as_doubles(mag);
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double bound = tol.rtol * std::fabs(w[i]) + tol.atol * m[i];
    if (!(std::fabs(g[i] - w[i]) <= bound)) {
      return ::testing::AssertionFailure()
             << "element " << i << ": " << g[i] << " vs cpu " << w[i] << " (bound " << bound << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

class Linalg : public VulkanTest {
 protected:
  // Runs `c` on the device and the cpu; `fallbacks` is how many the ledger must show.
  void check(const DotCase& c, DType d, std::uint64_t fallbacks) {
    const std::string what = c.name + " " + std::string(dtype_name(d));
    const Tensor a = make(c.a, d, 1), b = make(c.b, d, 2);
    const Tensor want = dot(a, c.contract_a, c.batch_a, b, c.contract_b, c.batch_b);
    const bool exact = is_integer(d);
    const Tensor mag =
        exact ? want
              : dot(magnitudes(a), c.contract_a, c.batch_a, magnitudes(b), c.contract_b, c.batch_b);
    const Tensor ga = transfer(a, gpu()), gb = transfer(b, gpu());
    LedgerScope scope;
    const Tensor got = dot(ga, c.contract_a, c.batch_a, gb, c.contract_b, c.batch_b);
    EXPECT_EQ(scope.delta().fallbacks, fallbacks) << what << ": " << scope.delta().to_string();
    if (fallbacks == 0) {
      EXPECT_EQ(&got.backend(), &gpu()) << what;
      if (c.dispatches >= 0) {
        EXPECT_EQ(scope.delta().dispatches, static_cast<std::uint64_t>(c.dispatches)) << what;
      }
    }
    std::int64_t k = 1;
    for (std::int64_t ax : c.contract_a) k *= c.a[static_cast<std::size_t>(ax)];
    if (exact) {
      EXPECT_TRUE(tensors_close(got, want, Tolerance{0, 0})) << what;
    } else {
      EXPECT_TRUE(dot_close(got, want, mag, tolerance_for(d, k))) << what;
    }
  }
};

TEST_F(Linalg, DotEveryFloatDtypeAndShape) {
  for (DType d : float_dtypes()) {
    for (const DotCase& c : dot_cases()) check(c, d, 0);
  }
}

TEST_F(Linalg, DotWithLargeTiles) {
  for (DType d : float_dtypes()) {
    // f64 (K stepped by 8) with the transposed case only: K = 9 spans two steps.
    if (d == DType::f32) check(large_tile_cases().front(), d, 0);
    if (d == DType::f32 || d == DType::f64) check(large_tile_cases().back(), d, 0);
  }
}

TEST_F(Linalg, InterleavedAxesFallBack) {
  for (DType d : float_dtypes()) {
    for (const DotCase& c : fallback_cases()) check(c, d, 1);
  }
}

// Integers wrap exactly as on the cpu (any summation order gives the same bits), so a
// subset of the shapes covers the square, thin and large tiles, transposed loads and the
// split-K pass for every dtype.
TEST_F(Linalg, IntegerDotsAreNativeAndExact) {
  const std::vector<std::string> names = {
      "1x1x1",
      "K=0 gives zeros",
      "33x65x17",
      "both transposed",
      "matrix-vector",
      "vector dot",
      "split K, transposed",
      "outer product",
      "b free axes around K, split K",
  };
  for (DType d : integer_dtypes()) {
    for (const DotCase& c : dot_cases()) {
      if (std::find(names.begin(), names.end(), c.name) != names.end()) check(c, d, 0);
    }
  }
  const auto ints = integer_dtypes();
  if (std::find(ints.begin(), ints.end(), DType::s64) != ints.end()) {
    check(large_tile_cases().front(), DType::s64, 0);
  }
}

TEST_F(Linalg, MatmulIsNative) {
  struct MatmulCase {
    Shape a, b;
  };
  const std::vector<MatmulCase> cases = {{{2, 3, 40, 50}, {2, 3, 50, 60}},
                                         {{1, 40, 50}, {1, 50, 60}},
                                         {{3, 40, 50}, {50, 60}},
                                         {{40, 50}, {50}},
                                         {{50}, {2, 50, 60}},
                                         {{7}, {7}}};
  for (DType d : float_dtypes()) {
    for (const MatmulCase& c : cases) {
      const std::string what =
          shape_str(c.a) + " @ " + shape_str(c.b) + " " + std::string(dtype_name(d));
      const Tensor a = make(c.a, d, 3), b = make(c.b, d, 4);
      const Tensor want = matmul(a, b);
      const Tensor mag = matmul(magnitudes(a), magnitudes(b));
      LedgerScope scope;
      const Tensor got = matmul(transfer(a, gpu()), transfer(b, gpu()));
      EXPECT_EQ(scope.delta().fallbacks, 0u) << what;
      EXPECT_EQ(&got.backend(), &gpu()) << what;
      EXPECT_TRUE(dot_close(got, want, mag, tolerance_for(d, c.a.back()))) << what;
    }
  }
}

TEST_F(Linalg, ValuesAreExactWhereRoundingCannotDiffer) {
  // Small integers in floats: every partial sum is exact, so any order gives the cpu's bits.
  for (DType d : float_dtypes()) {
    const Tensor a = as_type(iota({37, 35}, DType::s32), d);
    const Tensor b = as_type(iota({35, 9}, DType::s32), d);
    const Tensor sa = as_type(iota({67, 35}, DType::s32, 1), d);
    const Tensor sb = as_type(iota({35, 9}, DType::s32, 0), d);
    EXPECT_TRUE(
        tensors_close(dot(transfer(sa, gpu()), transfer(sb, gpu())), dot(sa, sb), Tolerance{0, 0}))
        << dtype_name(d);
    if (d == DType::f32 || d == DType::f64) {  // sums stay below 2^24
      EXPECT_TRUE(
          tensors_close(dot(transfer(a, gpu()), transfer(b, gpu())), dot(a, b), Tolerance{0, 0}))
          << dtype_name(d);
    }
  }
}

TEST_F(Linalg, NanAndInfinityPropagate) {
  for (DType d : float_dtypes()) {
    std::vector<double> av(6 * 4, 1.0), bv(4 * 5, 0.5);
    av[1] = std::nan("");                                 // row 0 of the result: all NaN
    av[4 * 2] = std::numeric_limits<double>::infinity();  // row 2: +inf
    const Tensor a = as_type(from_vector(av, {6, 4}), d);
    const Tensor b = as_type(from_vector(bv, {4, 5}), d);
    EXPECT_TRUE(tensors_close(dot(transfer(a, gpu()), transfer(b, gpu())), dot(a, b)))
        << dtype_name(d);
  }
}

TEST_F(Linalg, GridSmallerThanTheWorkLoopsInsideTheKernel) {
  auto& vb = static_cast<vk::VulkanBackend&>(vulkan());
  vb.synchronize();
  const auto saved = vb.context().limits().max_group_count;
  vb.mutable_limits().max_group_count = {2, 2, 2};
  for (const DotCase& c :
       {DotCase{"5 batches, 3x5 tiles", {5, 130, 20}, {5, 20, 300}, {2}, {0}, {1}, {0}},
        DotCase{"thin", {1000, 20}, {20}, {1}, {}, {0}, {}},
        DotCase{"split K", {3, 4, 2000}, {3, 2000, 5}, {2}, {0}, {1}, {0}},
        DotCase{"b free axes around K", {7, 50}, {5, 50, 60}, {1}, {}, {1}, {}}}) {
    check(c, DType::f32, 0);
  }
  vb.synchronize();
  vb.mutable_limits().max_group_count = saved;
}

TEST_F(Linalg, NativeOffFallsBackWithTheSameResults) {
  vk::testing::set_native_disabled(Op::dot, true);
  for (const DotCase& c : dot_cases()) check(c, DType::f32, 1);
  vk::testing::set_native_disabled(Op::dot, false);
}

// Edges of every kernel: sizes off the tile, 1 and 0, transposed operands, batch, split K,
// and shapes whose strides allow wide global reads (multiples of 8).
const std::vector<DotCase>& kernel_cases() {
  static const std::vector<DotCase> cases = [] {
    std::vector<DotCase> out;
    const std::vector<std::string> names = {"1x1x1",
                                            "M=0",
                                            "N=0",
                                            "K=0 gives zeros",
                                            "33x65x17",
                                            "3 batches",
                                            "a transposed (contract a's axis 0)",
                                            "b transposed (contract b's axis 1)",
                                            "batched, both transposed",
                                            "batch axis in the middle",
                                            "matrix-vector",
                                            "vector dot",
                                            "split K, transposed",
                                            "b free axes around K (dot/2, rank-3 b)"};
    for (const DotCase& c : dot_cases()) {
      if (std::find(names.begin(), names.end(), c.name) != names.end()) out.push_back(c);
    }
    out.push_back({"wide reads 64x72x48", {64, 48}, {48, 72}, {1}, {}, {0}, {}});
    out.push_back({"wide reads, both transposed", {40, 96}, {136, 40}, {0}, {}, {1}, {}});
    out.push_back(
        {"wide reads, batched, split K", {2, 16, 2048}, {2, 2048, 24}, {2}, {0}, {1}, {0}});
    out.push_back({"wide reads, one edge tile", {130, 64}, {64, 136}, {1}, {}, {0}, {}});
    return out;
  }();
  return cases;
}

struct KernelSetting {
  std::string name;
  std::string overrides;      // OverrideScope's "name=value,..."
  std::vector<DType> dtypes;  // empty: every float dtype the device has
};

// Each kernel, reg tile and read width forced through the overrides a tuning run uses;
// dtypes spread over the settings to keep the lavapipe run short.
TEST_F(Linalg, EveryKernelVariantMatchesTheCpu) {
  const std::vector<KernelSetting> settings = {
      {"tiled", "dot_kernel=tiled", {DType::f32, DType::f64}},
      {"reg 64x64x16", "dot_kernel=reg,dot_tile=64x64x16", {}},
      {"reg 64x64x8 scalar reads",
       "dot_kernel=reg,dot_tile=64x64x8,dot_vec=0",
       {DType::f32, DType::f16}},
      {"reg 128x64x8", "dot_kernel=reg,dot_tile=128x64x8", {DType::bf16}},
      {"reg 128x128x8", "dot_kernel=reg,dot_tile=128x128x8", {DType::f32}},
  };
  for (const KernelSetting& s : settings) {
    const OverrideScope force(s.overrides);
    SCOPED_TRACE(s.name);
    for (DType d : s.dtypes.empty() ? float_dtypes() : s.dtypes) {
      // f64 steps K by 8 (two steps of 64 x 64 x 16 in f64 pass lavapipe's 32 KiB).
      std::string f64_tile;
      if (const auto& tile = overrides()->dot_tile; d == DType::f64 && tile) {
        f64_tile = "dot_tile=" + tile->substr(0, tile->rfind('x')) + "x8";
      }
      const OverrideScope f64(f64_tile);
      for (const DotCase& c : kernel_cases()) check(c, d, 0);
      const vk::DotKernel want = s.name == "tiled" ? vk::DotKernel::tiled : vk::DotKernel::reg;
      if (d != DType::f16 && d != DType::bf16) {  // these may take cooperative matrices
        EXPECT_EQ(vk::testing::last_dot_kernel(), want) << dtype_name(d);
      }
    }
  }
  // Integers keep the tiled kernel whatever is asked for.
  const OverrideScope force("dot_kernel=reg");
  for (DType d : {DType::s32, DType::u8}) {
    check(kernel_cases().at(4), d, 0);
    EXPECT_EQ(vk::testing::last_dot_kernel(), vk::DotKernel::tiled);
  }
}

// A bad tile is an error at the call, naming the override and the value (a bad kernel name
// is refused by the override parser: tests/unit/settings_test.cpp).
TEST_F(Linalg, KernelOverridesWithBadValuesAreErrors) {
  const Tensor a = transfer(make({8, 8}, DType::f32, 1), gpu());
  EXPECT_THROW(OverrideScope("dot_kernel=fastest"), Error);
  {
    const OverrideScope force("dot_kernel=reg,dot_tile=96x64x16");
    try {
      (void)dot(a, a);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("dot_tile='96x64x16'"), std::string::npos) << e.what();
    }
  }
  gpu().synchronize();
}

// The cooperative-matrix paths this device has: f16 on NV matrices (the module as built),
// f16 and bf16 on KHR ones (the module rewritten, coopmat_khr_spirv.h), each forced.
struct CoopmatPath {
  DType dtype;
  std::string api;  // the coopmat_api override
};
std::vector<CoopmatPath> coopmat_paths(const vk::VulkanBackend& vb) {
  std::vector<CoopmatPath> out;
  if (vb.context().caps().coopmat_nv) out.push_back({DType::f16, "nv"});
  if (vb.context().caps().coopmat_khr) out.push_back({DType::f16, "khr"});
  if (vb.context().caps().coopmat_bf16) out.push_back({DType::bf16, "auto"});
  return out;
}

// Each path where the device has it (the H200; not lavapipe), and the plain path on the
// same device with coopmat=0.
TEST_F(Linalg, CooperativeMatrixMatchesTheCpu) {
  auto& vb = static_cast<vk::VulkanBackend&>(vulkan());
  if (coopmat_paths(vb).empty()) {
    GTEST_SKIP() << gpu().name() << " has no cooperative matrices with 16x16x16 f16 or bf16";
  }
  for (const CoopmatPath& p : coopmat_paths(vb)) {
    for (const std::string mode : {"1", "0"}) {
      const OverrideScope force("coopmat=" + mode + ",coopmat_api=" + p.api);
      SCOPED_TRACE("coopmat=" + mode + " " + std::string(dtype_name(p.dtype)) + " on " + p.api);
      for (const DotCase& c : kernel_cases()) {
        check(c, p.dtype, 0);
        if (c.a[0] == 0 || c.b.back() == 0) continue;  // empty: no kernel ran
        if (mode == "1") {
          EXPECT_EQ(vk::testing::last_dot_kernel(), vk::DotKernel::coopmat) << c.name;
        } else {
          EXPECT_NE(vk::testing::last_dot_kernel(), vk::DotKernel::coopmat) << c.name;
        }
      }
      check({"coopmat 128-tiles, 4 batches", {4, 200, 72}, {4, 72, 264}, {2}, {0}, {1}, {0}},
            p.dtype, 0);
    }
  }
}

// Asking for an extension the device lacks is an error naming it, not another path.
TEST_F(Linalg, CooperativeMatrixApiTheDeviceLacksIsAnError) {
  auto& vb = static_cast<vk::VulkanBackend&>(vulkan());
  const Tensor a = transfer(make({64, 64}, DType::f16, 1), gpu());
  for (const auto& [api, has] : {std::pair{"nv", vb.context().caps().coopmat_nv},
                                 std::pair{"khr", vb.context().caps().coopmat_khr}}) {
    if (has || !(vb.context().caps().coopmat_nv || vb.context().caps().coopmat_khr)) continue;
    const OverrideScope force(std::string("coopmat=1,coopmat_api=") + api);
    EXPECT_THROW((void)dot(a, a), Error) << api;
  }
  EXPECT_THROW(OverrideScope("coopmat_api=fastest"), Error);
  gpu().synchronize();
}

// Edges of the cooperative-matrix kernel: M, N and K of 1, 15, 17, 129 and 257 (fragment and
// tile edges), batches, each operand transposed, and sizes that take 8-wide reads and direct
// fragment stores (multiples of 8), split K among them.
const std::vector<DotCase>& coopmat_cases() {
  static const std::vector<DotCase> cases = {
      {"1x1x1", {1, 1}, {1, 1}, {1}, {}, {0}, {}},
      {"15x17x129", {15, 129}, {129, 17}, {1}, {}, {0}, {}},
      {"257x129x17", {257, 17}, {17, 129}, {1}, {}, {0}, {}},
      {"129x257x15, a transposed", {15, 129}, {15, 257}, {0}, {}, {0}, {}},
      {"17x257x129, b transposed", {17, 129}, {257, 129}, {1}, {}, {1}, {}},
      {"129x15x257, both transposed", {257, 129}, {15, 257}, {0}, {}, {1}, {}},
      {"3 batches of 129x17x15", {3, 129, 15}, {3, 15, 17}, {2}, {0}, {1}, {0}},
      {"aligned 264x136x256", {264, 256}, {256, 136}, {1}, {}, {0}, {}},
      {"aligned, 2 batches, both transposed", {2, 72, 136}, {2, 264, 72}, {1}, {0}, {2}, {0}},
      {"aligned, split K", {32, 4096}, {4096, 40}, {1}, {}, {0}, {}},
      // Tiles up to 256 x 256 wholly inside C (hoisted reads), a last K step cut short.
      {"aligned 272x264x104", {272, 104}, {104, 264}, {1}, {}, {0}, {}},
      {"aligned 264x272x96, both transposed", {96, 264}, {272, 96}, {0}, {}, {1}, {}},
      {"split K, odd", {17, 3001}, {3001, 15}, {1}, {}, {0}, {}},
  };
  return cases;
}

// Every tile the H200 sweeps compare (coopmat_tile), the one-stage loop, and scalar reads
// with staged stores (dot_vec=0), on the coopmat_cases with coopmat forced. One
// test per setting, so that a device run can pick tiles by --gtest_filter (each setting
// creates its own pipelines: all of them took minutes on the H200). A tile past the
// device's shared memory is reported and skipped.
// Each entry is OverrideScope's "name=value,..." (coopmat=1 is added).
const std::vector<std::string>& coopmat_tile_settings() {
  static const std::vector<std::string> settings = {
      "",
      "dot_vec=0",
      "coopmat_tile=128x128x32:64x32",
      "coopmat_tile=128x128x32:64x64:1",
      "coopmat_tile=128x128x64:64x64",
      "coopmat_tile=128x256x32:64x64",
      "coopmat_tile=256x128x32:64x64",
      "coopmat_tile=64x64x16:32x32",
      "coopmat_tile=64x128x32:32x64",
      "coopmat_tile=128x64x32:64x32:1",
      "coopmat_tile=128x192x32:64x48",
      "coopmat_tile=192x128x32:96x64",
      "coopmat_tile=64x256x32:64x64",
      "coopmat_tile=128x128x32:32x64,dot_vec=0",
  };
  return settings;
}

// "default", else the settings without "coopmat_tile=" (a tile as it is, another setting as
// name_value), every character but letters and digits as '_': "128x192x32_64x48",
// "dot_vec_0".
std::string tile_setting_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  if (name.empty()) return "default";
  const std::string tile_key = "coopmat_tile=";
  if (const std::size_t at = name.find(tile_key); at != std::string::npos) {
    name.erase(at, tile_key.size());
  }
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

class CoopmatTiles : public Linalg, public ::testing::WithParamInterface<std::string> {};

TEST_P(CoopmatTiles, MatchTheCpu) {
  auto& vb = static_cast<vk::VulkanBackend&>(vulkan());
  if (coopmat_paths(vb).empty()) {
    GTEST_SKIP() << gpu().name() << " has no cooperative matrices with 16x16x16 f16 or bf16";
  }
  const std::uint64_t shared = vb.context().properties().limits.maxComputeSharedMemorySize;
  const OverrideScope force(GetParam().empty() ? "coopmat=1" : GetParam() + ",coopmat=1");
  try {
    (void)vk::choose_dot_kernel(vk::DotShape{1, 64, 64, 64, 0, 64, 1, 0, 64, 1}, DType::f16,
                                vk::DotDevice{shared, true});
  } catch (const Error& e) {
    GTEST_SKIP() << "the tile does not fit this device: " << e.what();
  }
  for (const CoopmatPath& p : coopmat_paths(vb)) {
    const OverrideScope api("coopmat_api=" + p.api);
    for (const DotCase& c : coopmat_cases()) {
      check(c, p.dtype, 0);
      EXPECT_EQ(vk::testing::last_dot_kernel(), vk::DotKernel::coopmat)
          << c.name << " " << dtype_name(p.dtype) << " on " << p.api;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Linalg, CoopmatTiles, ::testing::ValuesIn(coopmat_tile_settings()),
                         tile_setting_name);

// The pool's block size (block_mb) moves operands between shared blocks and their own
// allocations; results do not depend on it.
TEST_F(Linalg, PoolBlockSizeDoesNotChangeResults) {
  for (const char* mb : {"1", "128"}) {
    const OverrideScope force(std::string("block_mb=") + mb);
    check({"300x300x300", {300, 300}, {300, 300}, {1}, {}, {0}, {}}, DType::f32, 0);
  }
}

TEST_F(Linalg, ThroughputOf512CubedF32IsReported) {
  const std::int64_t n = 512;
  const Tensor a = transfer(make({n, n}, DType::f32, 5), gpu());
  const Tensor b = transfer(make({n, n}, DType::f32, 6), gpu());
  gpu().synchronize();
  (void)dot(a, b);  // pipeline creation and warm-up
  gpu().synchronize();
  const int reps = 1;
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  for (int i = 0; i < reps; ++i) (void)dot(a, b);
  gpu().synchronize();
  const double s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / reps;
  // Process cpu time too: on lavapipe the "device" is this machine's cores, shared with
  // whatever else runs, so wall time alone says little.
  const double cpu_s = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC / reps;
  const double flop = 2.0 * n * n * n;
  std::printf(
      "[linalg] %s: dot f32 512x512x512 %.3f ms, %.2f GFLOP/s (%.2f GFLOP per cpu-second)\n",
      gpu().name().c_str(), s * 1e3, flop / s * 1e-9, flop / cpu_s * 1e-9);
  SUCCEED();
}

}  // namespace
}  // namespace vkt::testing
