// Native elementwise unary and binary ops against the cpu backend: every op x every dtype
// the device supports x shape families (rank 0, 0-size, 1, odd, several workgroups,
// scalar operands, broadcasts up to rank 6). Integers must match bit for bit; floats
// within the default per-dtype tolerance unless an op below documents a wider one.
// The harness sets VKT_POISON=1, so an element a kernel forgot to write fails.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "common/settings.h"
#include "conformance/batch_submits.h"
#include "conformance/elementwise_op_lists.h"
#include "conformance/fixture.h"
#include "core/legacy_policy.h"
#include "support/compare.h"
#include "support/op_tolerance.h"
#include "vkt/backend/op_call.h"
#include "vkt/ledger.h"
#include "vulkan/ops/op_support.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

// The op table's rules (vkt/backend/op_info.h): integer-only ops; and the Vulkan table's
// (vulkan/ops/op_support.h): which f64 ops the device computes natively (the rest fall back
// by design).
bool integer_only(Op op) {
  return op_info(op).dtypes == OpDTypes::integer;
}
bool f64_native(Op op) {
  return vk::vulkan_native(op, DType::f64);
}

bool big_sample(Op op) {
  switch (op) {
    case Op::add:
    case Op::pow:
    case Op::right_shift:
    case Op::not_equal:
    case Op::exp:
    case Op::sin:
    case Op::negate:
    case Op::is_nan:
    case Op::logical_not:
      return true;
    default:
      return false;
  }
}

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

const std::vector<double> kEdges = {
    0,     -0.0,  1,    -1,    2,    -2,    0.5, -0.5,    1.5,  2.5,   -2.5,      3,
    -7,    7,     8,    15,    16,   31,    32,  63,      64,   100,   -100,      0.999,
    1e-3,  -1e-3, 1e-7, 30.5,  1e20, -1e20, 127, -128,    255,  65535, kNaN,      kInf,
    -kInf, 1e30,  0.25, -0.75, 88.5, -90,   1e5, -4096.5, 1e10, 3e38,  12345.678, -8191.9};

// Values that probe each op's edge cases (saturated to the dtype's extremes by as_type),
// then a deterministic pseudo-random run so large tensors are not periodic.
std::vector<double> values(std::int64_t n, std::uint32_t seed, bool unit_range) {
  std::vector<double> v(static_cast<std::size_t>(n));
  std::uint32_t state = seed * 2654435761u + 12345u;
  for (std::size_t i = 0; i < v.size(); ++i) {
    state = state * 1664525u + 1013904223u;
    const double r = static_cast<double>(state >> 8) / 16777216.0;  // [0, 1)
    if (unit_range) {
      v[i] = i < 8 ? std::vector<double>{0, -0.0, 0.5, -0.5, 0.999, -1, 1, 1e-4}[i] : 2 * r - 1;
    } else {
      v[i] = i < kEdges.size() ? kEdges[(i + seed) % kEdges.size()]
                               : (state & 1 ? std::round(40 * r - 20) : 24 * r - 12);
    }
  }
  return v;
}

Tensor make_input(DType d, const Shape& s, std::uint32_t seed, bool unit_range = false) {
  const Tensor f = from_vector(values(numel(s), seed, unit_range), s, &cpu());
  return as_type(f, d);
}

Tolerance tolerance_for(DType d) {
  return elementwise_tolerance(d);
}

class Elementwise : public VulkanTest {
 protected:
  // Runs `op` on the gpu (natively: no fallback) and on the cpu and compares.
  template <class F>
  void expect_native_close(F&& run, DType d, const std::string& what) {
    LedgerScope scope;
    const Tensor g = run(gpu());
    EXPECT_EQ(scope.delta().fallbacks, 0u) << what << ": " << scope.delta().to_string();
    EXPECT_EQ(&g.backend(), &gpu()) << what;
    const Tensor c = run(cpu());
    EXPECT_TRUE(tensors_close(g, c, tolerance_for(c.dtype() == DType::u8 ? d : c.dtype()))) << what;
  }
  bool device_has(DType d) const {
    return vk::testing::device_limits().max_storage_range > 0 && dtype_ok(d);
  }
  static bool dtype_ok(DType d) {
    // A tiny native probe: as_type is native for every dtype the device supports.
    LedgerScope scope;
    const Tensor t = as_type(transfer(full({1}, 1, DType::u8, &cpu()), vulkan()), d);
    return scope.delta().fallbacks == 0;
  }
};

std::string label(Op op, DType d, const Shape& a, const Shape& b) {
  return std::string(op_name(op)) + " " + std::string(dtype_name(d)) + " " + shape_str(a) + " " +
         shape_str(b);
}

const std::vector<std::pair<Shape, Shape>> kBinaryShapes = {{{}, {}},
                                                            {{0}, {0}},
                                                            {{1}, {1}},
                                                            {{7}, {7}},
                                                            {{4099}, {4099}},
                                                            {{1}, {33}},
                                                            {{33}, {}},
                                                            {{3, 1, 5}, {4, 1}},
                                                            {{2, 3, 4, 5}, {5}},
                                                            {{4, 1}, {1, 300}},
                                                            {{0, 3}, {3}},
                                                            {{1, 2, 1, 3, 1, 5}, {2, 1, 3, 1, 1}},
                                                            {{2, 3, 1}, {2, 3, 4}}};

// The binary sweeps run one test per dtype: each dtype's pipelines are its own, so a sharded
// run (scripts/run-gpu-suite.sh) spreads them over processes; as one test, the every-op
// sweep ran past the watchdog's 300 s on an H100 with every core busy.
class ElementwiseSweep : public Elementwise, public ::testing::WithParamInterface<DType> {
 protected:
  void SetUp() override {
    Elementwise::SetUp();
    if (!dtype_ok(GetParam())) GTEST_SKIP() << dtype_name(GetParam()) << ": not on this device";
  }
};

TEST_P(ElementwiseSweep, BinaryEveryOpAndShape) {
  const DType d = GetParam();
  for (Op op : kBinaryOps) {
    if (integer_only(op) && !is_integer(d)) continue;
    if (d == DType::f64 && !f64_native(op)) continue;
    auto shapes = kBinaryShapes;
    // Many workgroups (and a large grid-stride loop) for a sample of ops: the indexing is
    // the same for every op, and the harness runs under lavapipe + validation.
    if (big_sample(op)) shapes.push_back({{70001}, {70001}});
    for (const auto& [sa, sb] : shapes) {
      const Tensor a = make_input(d, sa, 1), b = make_input(d, sb, 2);
      expect_native_close([&](Backend& be) { return binary(op, transfer(a, be), transfer(b, be)); },
                          d, label(op, d, sa, sb));
    }
  }
}

TEST_F(Elementwise, UnaryEveryOpDtypeAndShape) {
  const std::vector<Shape> base = {{}, {0}, {1}, {7}, {4099}, {2, 0, 3}, {1, 2, 1, 3, 1, 5}};
  for (DType d : kRealDTypes) {
    if (!dtype_ok(d)) continue;
    for (Op op : kUnaryOps) {
      if (integer_only(op) && !is_integer(d)) continue;
      // Float functions of integers convert to f32 first: one integer dtype checks that.
      if (is_integer(d) && op_family(op) == OpFamily::unary && !integer_only(op) &&
          d != DType::s32) {
        const Tensor probe = make_input(d, {1}, 0);
        if (unary(op, probe).dtype() != d && unary(op, probe).dtype() != DType::u8) continue;
      }
      if (d == DType::f64 && !f64_native(op)) continue;
      std::vector<Shape> shapes = base;
      if (big_sample(op)) shapes.push_back({70001});
      for (const Shape& s : shapes) {
        const Tensor a = make_input(d, s, 3, op == Op::erf_inv);
        expect_native_close([&](Backend& be) { return unary(op, transfer(a, be)); }, d,
                            label(op, d, s, {}));
      }
    }
  }
}

// The per-op modules that specialised pipelines are made from (what a GPU runs; a CPU device
// such as lavapipe takes the family's module unless told): f32's fours and their partial last
// four, and the one-element operand modes, through each op's own module; f16 and s32 through
// its element path, contiguous and strided. The sweeps above check the family's modules.
TEST_F(Elementwise, SpecialisedModulesEqualTheCpu) {
  const OverrideScope specialised("specialise=1");
  const std::vector<Shape> unary_shapes = {{1}, {6}, {4099}};
  const std::vector<std::pair<Shape, Shape>> f32_pairs = {
      {{6}, {6}}, {{4099}, {4099}}, {{1}, {4099}}, {{4098}, {1}}, {{2, 3}, {3}}};
  const std::vector<std::pair<Shape, Shape>> other_pairs = {{{7}, {7}}, {{2, 3}, {3}}};
  for (DType d : {DType::f32, DType::f16, DType::s32}) {
    if (!dtype_ok(d)) continue;
    for (Op op : kUnaryOps) {
      if (integer_only(op) && !is_integer(d)) continue;
      if (is_integer(d) && !integer_only(op)) {  // float functions convert integers to f32
        const DType r = unary(op, make_input(d, {1}, 0)).dtype();
        if (r != d && r != DType::u8) continue;
      }
      for (const Shape& s : unary_shapes) {
        const Tensor a = make_input(d, s, 5, op == Op::erf_inv);
        expect_native_close([&](Backend& be) { return unary(op, transfer(a, be)); }, d,
                            label(op, d, s, {}));
      }
    }
    for (Op op : kBinaryOps) {
      if (integer_only(op) && !is_integer(d)) continue;
      for (const auto& [sa, sb] : d == DType::f32 ? f32_pairs : other_pairs) {
        const Tensor a = make_input(d, sa, 6), b = make_input(d, sb, 7);
        expect_native_close(
            [&](Backend& be) { return binary(op, transfer(a, be), transfer(b, be)); }, d,
            label(op, d, sa, sb));
      }
    }
  }
}

// Every pair of edge values (MIN / -1, shifts past the width, 0^-1, pow(-inf, odd),
// atan2(+-0, -0), fmod by inf...) through an {n, 1} x {1, n} broadcast.
TEST_P(ElementwiseSweep, BinaryEdgeValuePairs) {
  const DType d = GetParam();
  const std::int64_t n = static_cast<std::int64_t>(kEdges.size());
  const Tensor a = make_input(d, {n, 1}, 0), b = make_input(d, {1, n}, 0);
  for (Op op : kBinaryOps) {
    if (integer_only(op) && !is_integer(d)) continue;
    if (d == DType::f64 && !f64_native(op)) continue;
    expect_native_close([&](Backend& be) { return binary(op, transfer(a, be), transfer(b, be)); },
                        d, label(op, d, {n, 1}, {1, n}));
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDtype, ElementwiseSweep, ::testing::ValuesIn(kRealDTypes),
                         [](const ::testing::TestParamInfo<DType>& info) {
                           return std::string(dtype_name(info.param));
                         });

// supports() is exact: calls the shaders do not compute (which the core never makes) are
// refused rather than run wrong.
TEST_F(Elementwise, SupportsRefusesWhatTheShaderDoesNotCompute) {
  const Tensor f = transfer(make_input(DType::f32, {4}, 1), gpu());
  const Tensor i = transfer(make_input(DType::s32, {4}, 1), gpu());
  const Tensor h = transfer(make_input(DType::f16, {4}, 1), gpu());
  EXPECT_TRUE(gpu().supports({Op::add, {f, f}, NoParams{}, DType::f32, {4}}));
  EXPECT_TRUE(gpu().supports({Op::less, {i, i}, NoParams{}, DType::u8, {4}}));
  EXPECT_FALSE(gpu().supports({Op::bitwise_and, {f, f}, NoParams{}, DType::f32, {4}}));
  EXPECT_FALSE(gpu().supports({Op::divide, {i, i}, NoParams{}, DType::s32, {4}}));
  EXPECT_FALSE(gpu().supports({Op::add, {f, h}, NoParams{}, DType::f32, {4}}));
  EXPECT_FALSE(gpu().supports({Op::less, {i, i}, NoParams{}, DType::s32, {4}}));
  EXPECT_TRUE(gpu().supports({Op::exp, {f}, NoParams{}, DType::f32, {4}}));
  EXPECT_FALSE(gpu().supports({Op::exp, {i}, NoParams{}, DType::s32, {4}}));
  EXPECT_FALSE(gpu().supports({Op::population_count, {f}, NoParams{}, DType::f32, {4}}));
  EXPECT_FALSE(gpu().supports({Op::is_nan, {f}, NoParams{}, DType::f32, {4}}));
  EXPECT_TRUE(gpu().supports({Op::logical_not, {i}, NoParams{}, DType::u8, {4}}));
  EXPECT_FALSE(gpu().supports({Op::logical_not, {f}, NoParams{}, DType::f32, {4}}));
}

// f64 sin/cos/tan reduce huge arguments exactly (Payne-Hanek): 1e22, the largest double...
// The double closest to a multiple of pi/2, 6381956970095103 2^797, is checked against its
// exact values (from exact rational arithmetic with 1400 bits of pi): glibc, the cpu's
// reference, is ~1.7e-15 off there.
TEST_F(Elementwise, F64TrigOfHugeArguments) {
  if (!dtype_ok(DType::f64)) GTEST_SKIP() << "no f64 on this device";
  const std::vector<double> v = {
      1e22, -1e22,     1e300, 1.7976931348623157e308, std::ldexp(1.0, 1000),
      5e15, 1048576.5, 3e9,   -123456789.125,         0.5,
      -0.0};
  const Tensor a = from_vector(v, &cpu());
  for (Op op : {Op::sin, Op::cos, Op::tan}) {
    expect_native_close([&](Backend& be) { return unary(op, transfer(a, be)); }, DType::f64,
                        op_name(op).data());
  }
  const Tensor worst = transfer(
      from_vector(std::vector<double>{std::ldexp(6381956970095103.0, 797)}, &cpu()), gpu());
  const std::pair<Op, double> exact[] = {
      {Op::sin, 1.0}, {Op::cos, -4.687165924254628e-19}, {Op::tan, -2.133485385753704e18}};
  for (const auto& [op, value] : exact) {
    const double got = unary(op, worst).to_vector<double>()[0];
    EXPECT_NEAR(got, value, 1e-15 * std::fabs(value)) << op_name(op);
  }
}

// With the native path off the same calls fall back to the cpu (one fallback each) and
// still give the cpu's answer.
TEST_F(Elementwise, FallbackPathGivesTheSameResults) {
  set_legacy_policy({false, false});
  for (Op op : {Op::add, Op::pow, Op::less, Op::exp, Op::population_count}) {
    const DType d = integer_only(op) ? DType::s16 : DType::f32;
    const Tensor a = make_input(d, {3, 5}, 1), b = make_input(d, {5}, 2);
    const bool is_binary = op_family(op) == OpFamily::binary;
    LedgerScope scope;
    const Tensor g = is_binary ? binary(op, transfer(a, gpu()), transfer(b, gpu()))
                               : unary(op, transfer(a, gpu()));
    EXPECT_EQ(scope.delta().fallbacks, 1u) << op_name(op);
    const Tensor c = is_binary ? binary(op, a, b) : unary(op, a);
    EXPECT_TRUE(tensors_close(g, c)) << op_name(op);
  }
  set_legacy_policy({});
}

// f64 transcendentals are not computed at f32 precision: the table's no_f64 ops (erf,
// erfc, erf_inv, pow) fall back.
TEST_F(Elementwise, F64TranscendentalsFallBack) {
  if (!dtype_ok(DType::f64)) GTEST_SKIP() << "no f64 on this device";
  const Tensor a = transfer(make_input(DType::f64, {9}, 4), gpu());
  const Tensor a_cpu = transfer(a, cpu());
  int checked = 0;
  for (Op op : all_ops()) {
    if (vk::vulkan_rule(op).native != vk::Native::no_f64) continue;
    const bool is_binary = op_family(op) == OpFamily::binary;
    LedgerScope scope;
    const Tensor g = is_binary ? binary(op, a, a) : unary(op, a);
    EXPECT_EQ(scope.delta().fallbacks, 1u) << op_name(op);
    EXPECT_TRUE(tensors_close(g, is_binary ? binary(op, a_cpu, a_cpu) : unary(op, a_cpu)))
        << op_name(op);
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

// 100 chained binary ops on resident tensors then one read: one submit, no upload, no
// fallback — the recorder batches the dispatches.
TEST_F(Elementwise, ChainedOpsCostOneSubmit) {
  const Tensor a = transfer(make_input(DType::f32, {4097}, 5), gpu());
  const Tensor b = transfer(make_input(DType::f32, {4097}, 6), gpu());
  gpu().synchronize();
  LedgerScope scope;
  Tensor x = a;
  for (int i = 0; i < 100; ++i) {
    x = binary(i % 3 == 0 ? Op::add : (i % 3 == 1 ? Op::multiply : Op::min), x, b);
  }
  const std::vector<float> host = x.to_vector<float>();
  const LedgerCounts d = scope.delta();
  // One submit, or one per piece of flush_ops() ops.
  EXPECT_EQ(d.submits, expected_submits(100, poison_fills() ? 2 : 1)) << d.to_string();
  EXPECT_EQ(d.uploads, 0u) << d.to_string();
  EXPECT_EQ(d.fallbacks, 0u) << d.to_string();
  EXPECT_EQ(d.dispatches, 100u) << d.to_string();
  EXPECT_EQ(host.size(), 4097u);
}

}  // namespace
}  // namespace vkt::testing
