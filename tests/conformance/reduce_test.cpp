// Native reductions and arg-reductions against the cpu backend: every op x dtype x axis
// pattern (all, last, first, middle, non-adjacent sets) on ranks 0..5, keep_axes, empty
// inputs, lengths that split across workgroups, NaN and ties; then the fallback path.
//
// Tolerance: integers, all/any, max/min and arg indices must match exactly (the same
// kernels and passes, so an element dropped or read twice fails there). Float sums and
// products reduce in chunks and trees on the device and blockwise with double totals on
// the cpu, so they compare with the output dtype's default tolerance plus, relative,
// 8 * eps * sqrt(length) (eps of the accumulator: f32, or f64), and for sums, absolute,
// 8 * eps * sqrt(length) * 4 * sqrt(length): rounding errors grow like sqrt(length) and
// the partial sums of values in [-4, 4] like 4 * sqrt(length).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "common/settings.h"
#include "conformance/fixture.h"
#include "support/compare.h"
#include "vkt/backend/op_call.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

const DType kDTypes[] = {DType::u8,  DType::s8,  DType::u16,  DType::s32, DType::u32, DType::s64,
                         DType::u64, DType::f16, DType::bf16, DType::f32, DType::f64};

enum class Values { mixed, near_one, small_ints };

// Deterministic values of dtype d: `mixed` spans signs (for sums and truth tests, with
// zeros), `near_one` keeps long float products finite, `small_ints` makes ties.
Tensor make_input(DType d, const Shape& s, Values kind, std::uint32_t seed = 1) {
  const std::int64_t n = numel(s);
  std::vector<double> v(static_cast<std::size_t>(n));
  std::uint32_t x = seed * 2654435761u + 12345u;
  for (std::int64_t i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    const double u = static_cast<double>(x >> 8) / static_cast<double>(1u << 24);  // [0,1)
    double val = 0;
    switch (kind) {
      case Values::mixed:
        val =
            is_float(d) ? (u * 2 - 1) * 4 : std::floor(u * 200) - (is_signed_integer(d) ? 100 : 0);
        if ((x >> 4) % 5 == 0) val = 0;
        break;
      case Values::near_one:
        val =
            is_float(d) ? 1 + (u - 0.5) * 0.02 : std::floor(u * 7) - (is_signed_integer(d) ? 3 : 0);
        break;
      case Values::small_ints:
        val = std::floor(u * 5) - (is_signed_integer(d) || is_float(d) ? 2 : 0);
        break;
    }
    v[static_cast<std::size_t>(i)] = val;
  }
  return as_type(from_vector(v, s), d);
}

bool device_has(DType d) {
  const vk::DeviceCaps& caps = dynamic_cast<vk::VulkanBackend&>(vulkan()).context().caps();
  if (d == DType::f64) return caps.float64 && caps.int64;
  if (itemsize(d) == 8) return caps.int64;
  return true;
}

double eps_of(DType d) {
  return d == DType::f64 ? 2.2e-16 : 1.2e-7;
}

using ReduceFn = std::function<Tensor(const Tensor&, const Axes&, bool)>;
struct NamedOp {
  const char* name;
  ReduceFn fn;
  Values values;
};

const std::vector<NamedOp>& reduce_ops() {
  static const std::vector<NamedOp> ops = {
      {"sum", [](const Tensor& t, const Axes& a, bool k) { return sum(t, a, k); }, Values::mixed},
      {"product", [](const Tensor& t, const Axes& a, bool k) { return product(t, a, k); },
       Values::near_one},
      {"reduce_max", [](const Tensor& t, const Axes& a, bool k) { return reduce_max(t, a, k); },
       Values::mixed},
      {"reduce_min", [](const Tensor& t, const Axes& a, bool k) { return reduce_min(t, a, k); },
       Values::mixed},
      {"all", [](const Tensor& t, const Axes& a, bool k) { return all(t, a, k); }, Values::mixed},
      {"any", [](const Tensor& t, const Axes& a, bool k) { return any(t, a, k); }, Values::mixed},
  };
  return ops;
}

class NativeReduce : public VulkanTest {
 protected:
  // The op on the device (asserting it ran natively) and on the cpu, compared.
  void check(const NamedOp& op, const Tensor& host, const Axes& axes, bool keep,
             const std::string& what) {
    const Tensor dev = transfer(host, gpu());
    LedgerScope scope;
    const Tensor g = op.fn(dev, axes, keep);
    EXPECT_EQ(scope.delta().fallbacks, 0u) << what << ": " << scope.delta().to_string();
    EXPECT_EQ(&g.backend(), &gpu()) << what;
    const Tensor c = op.fn(host, axes, keep);
    Tolerance tol{0, 0};
    const std::string name = op.name;
    if (is_float(c.dtype()) && (name == "sum" || name == "product")) {
      const std::int64_t len = c.size() == 0 ? 0 : host.size() / c.size();
      const double root = std::sqrt(static_cast<double>(len));
      tol = default_tolerance(c.dtype());
      tol.rtol += 8 * eps_of(c.dtype()) * root;
      if (name == "sum") tol.atol += 8 * eps_of(c.dtype()) * root * 4 * root;
    }
    EXPECT_TRUE(tensors_close(g, c, tol)) << what;
  }

  void check_arg(bool is_max, const Tensor& host, std::optional<std::int64_t> axis, bool keep,
                 TieBreak tie, const std::string& what) {
    const Tensor dev = transfer(host, gpu());
    auto f = [&](const Tensor& t) {
      return is_max ? argmax(t, axis, keep, tie) : argmin(t, axis, keep, tie);
    };
    LedgerScope scope;
    const Tensor g = f(dev);
    EXPECT_EQ(scope.delta().fallbacks, 0u) << what << ": " << scope.delta().to_string();
    EXPECT_EQ(&g.backend(), &gpu()) << what;
    EXPECT_TRUE(tensors_close(g, f(host), Tolerance{0, 0})) << what;
  }
};

struct Case {
  Shape shape;
  Axes axes;
};

// All axes ({}), last, first, middle, non-adjacent sets, size-1 and size-0 axes.
const std::vector<Case> kCases = {
    {{}, {}},
    {{0}, {}},
    {{7}, {}},
    {{7}, {0}},
    {{3, 5}, {}},
    {{3, 5}, {1}},
    {{3, 5}, {0}},
    {{2, 0, 3}, {1}},
    {{2, 0, 3}, {0}},
    {{4, 3, 5}, {1}},
    {{4, 3, 5}, {0, 2}},
    {{4, 3, 5}, {1, 2}},
    {{1, 3, 1}, {0, 2}},
    {{2, 3, 1, 4, 5}, {0, 2, 4}},
    {{2, 3, 1, 4, 5}, {1, 3}},
    {{2, 3, 1, 4, 5}, {3, 4}},
    {{2, 3, 1, 4, 5}, {}},
    {{67, 130}, {1}},
    {{130, 67}, {0}},
};

std::string describe(const char* op, DType d, const Case& c, bool keep) {
  std::string s =
      std::string(op) + " " + std::string(dtype_name(d)) + " " + shape_str(c.shape) + " axes {";
  for (std::int64_t a : c.axes) s += std::to_string(a) + ",";
  return s + "}" + (keep ? " keep" : "");
}

TEST_F(NativeReduce, EveryOpDtypeAndAxisPattern) {
  for (DType d : kDTypes) {
    if (!device_has(d)) continue;
    for (const NamedOp& op : reduce_ops()) {
      for (const Case& c : kCases) {
        const Tensor h = make_input(d, c.shape, op.values);
        check(op, h, c.axes, false, describe(op.name, d, c, false));
      }
      const Case k{{2, 3, 4}, {0, 2}};
      check(op, make_input(d, k.shape, op.values), k.axes, true, describe(op.name, d, k, true));
    }
  }
}

TEST_F(NativeReduce, LongReductionsSplitAcrossWorkgroups) {
  // Rows split across workgroups, columns split across invocations (two or three passes),
  // and several passes for non-adjacent axes.
  const std::vector<Case> cases = {
      {{3, 20001}, {1}}, {{20001, 3}, {0}}, {{2, 9000, 2}, {1}}, {{5, 300, 7, 40}, {1, 3}}};
  for (DType d :
       {DType::u8, DType::s32, DType::s64, DType::f16, DType::bf16, DType::f32, DType::f64}) {
    if (!device_has(d)) continue;
    for (const NamedOp& op : reduce_ops()) {
      for (const Case& c : cases) {
        check(op, make_input(d, c.shape, op.values), c.axes, false, describe(op.name, d, c, false));
      }
    }
  }
}

// The workgroup tree without subgroup shuffles (the default where the device offers them):
// rows of every lane count, split rows, and arg ties, against the cpu.
TEST_F(NativeReduce, SharedMemoryTreeWithoutSubgroups) {
  const bool saved = vk::testing::subgroup_reductions();
  vk::testing::set_subgroup_reductions(false);
  const std::vector<Case> cases = {
      {{5, 40}, {1}}, {{3, 20001}, {1}}, {{7, 300}, {1}}, {{4097}, {}}};
  for (DType d : {DType::s32, DType::f32}) {
    for (const NamedOp& op : reduce_ops()) {
      for (const Case& c : cases) {
        check(op, make_input(d, c.shape, op.values), c.axes, false, describe(op.name, d, c, false));
      }
    }
    for (const Case& c : cases) {
      const Tensor h = make_input(d, c.shape, Values::small_ints);
      const std::optional<std::int64_t> axis =
          c.axes.empty() ? std::nullopt : std::optional<std::int64_t>(c.axes[0]);
      check_arg(true, h, axis, false, TieBreak::low, "argmax " + shape_str(c.shape));
      check_arg(false, h, axis, false, TieBreak::high, "argmin high " + shape_str(c.shape));
    }
  }
  vk::testing::set_subgroup_reductions(saved);
}

TEST_F(NativeReduce, MillionElementReductions) {
  const std::vector<Case> cases = {{{1 << 20}, {}}, {{1000, 1001}, {0}}, {{1000, 1001}, {1}}};
  for (DType d : {DType::s32, DType::f16, DType::f32}) {
    for (const NamedOp& op : reduce_ops()) {
      if (std::string(op.name) == "all" || std::string(op.name) == "reduce_min") continue;
      for (const Case& c : cases) {
        check(op, make_input(d, c.shape, op.values), c.axes, false, describe(op.name, d, c, false));
      }
    }
  }
}

Tensor with_nans(DType d, const Shape& s, const std::vector<std::int64_t>& at) {
  const Tensor h = as_type(make_input(DType::f64, s, Values::small_ints), DType::f64);
  std::vector<double> v(static_cast<std::size_t>(h.size()));
  std::memcpy(v.data(), h.to_bytes().data(), v.size() * sizeof(double));
  for (std::int64_t i : at) v[static_cast<std::size_t>(i)] = std::nan("");
  return as_type(from_vector(v, s), d);
}

TEST_F(NativeReduce, NanPropagatesAndInfinities) {
  const double inf = std::numeric_limits<double>::infinity();
  for (DType d : {DType::f16, DType::bf16, DType::f32, DType::f64}) {
    if (!device_has(d)) continue;
    for (const NamedOp& op : reduce_ops()) {
      const Tensor h = with_nans(d, {4, 5000}, {7, 5003, 9999, 12000, 12001});
      check(op, h, {}, false, std::string(op.name) + " nan all");
      check(op, h, {1}, false, std::string(op.name) + " nan rows");
      check(op, h, {0}, false, std::string(op.name) + " nan cols");
      const Tensor infs = as_type(from_vector(std::vector<double>{inf, -inf, 1, inf, 2, -inf}), d);
      check(op, infs, {}, false, std::string(op.name) + " inf");
    }
  }
}

TEST_F(NativeReduce, ArgEveryDtypeAxisAndTieRule) {
  const std::vector<Shape> shapes = {{}, {1}, {7}, {3, 5}, {4, 3, 5}, {2, 3, 1, 4, 5}};
  for (DType d : kDTypes) {
    if (!device_has(d)) continue;
    for (const Shape& s : shapes) {
      const Tensor h = make_input(d, s, Values::small_ints);
      for (bool is_max : {true, false}) {
        for (TieBreak tie : {TieBreak::low, TieBreak::high}) {
          const std::string what = std::string(is_max ? "argmax " : "argmin ") +
                                   std::string(dtype_name(d)) + " " + shape_str(s) +
                                   (tie == TieBreak::high ? " high" : " low");
          check_arg(is_max, h, std::nullopt, false, tie, what + " flat");
          for (std::int64_t a = 0; a < static_cast<std::int64_t>(s.size()); ++a) {
            check_arg(is_max, h, a, a == 1, tie, what + " axis " + std::to_string(a));
          }
        }
      }
    }
  }
}

TEST_F(NativeReduce, ArgLongTiesAndNans) {
  for (DType d : {DType::u8, DType::s32, DType::f16, DType::f32, DType::f64}) {
    if (!device_has(d)) continue;
    for (const Case& c : {Case{{100000}, {}}, Case{{3, 20001}, {1}}, Case{{20001, 3}, {0}},
                          Case{{300, 301}, {0}}, Case{{300, 301}, {1}}, Case{{2, 9000, 2}, {1}}}) {
      const Tensor h = make_input(d, c.shape, Values::small_ints);
      for (bool is_max : {true, false}) {
        for (TieBreak tie : {TieBreak::low, TieBreak::high}) {
          const std::optional<std::int64_t> axis =
              c.axes.empty() ? std::nullopt : std::optional<std::int64_t>(c.axes[0]);
          check_arg(is_max, h, axis, false, tie,
                    describe(is_max ? "argmax" : "argmin", d, c, false));
        }
      }
    }
    if (!is_float(d)) continue;
    const Tensor h = with_nans(d, {3, 20001}, {5, 15000, 20001 + 9, 20001 + 19999, 40010});
    for (bool is_max : {true, false}) {
      for (TieBreak tie : {TieBreak::low, TieBreak::high}) {
        check_arg(is_max, h, std::nullopt, false, tie, "nan flat");
        check_arg(is_max, h, 1, false, tie, "nan rows");
        check_arg(is_max, h, 0, false, tie, "nan cols");
      }
    }
  }
}

// The f32 rows passes read vec4s (Overrides::reduce_vec4, forced here: the rule on GPUs;
// lavapipe's is the element path; sums and the other value reductions take vec4s past kMaxFusedRow
// only): lengths around the vec4 and the 4 x 256 unrolled step, rows of 4k and of 4k + 1 elements,
// rows split across workgroups (Overrides::reduce_groups varied, so splits and their tails move),
// every reduce op and argmax/argmin with ties, NaNs at vec4 lanes, in the tail and repeated, and -0
// against +0.
TEST_F(NativeReduce, F32RowsOddLengthsAndSplits) {
  const std::vector<Case> cases = {
      {{1}, {}},
      {{3}, {}},
      {{4}, {}},
      {{5}, {}},
      {{1023}, {}},
      {{1025}, {}},
      {{4 * 256 * 9 + 1}, {}},
      {{7, 1024}, {1}},
      {{7, 1023}, {1}},
      {{5, 4}, {1}},
      {{3, 20004}, {1}},
      {{3, 20001}, {1}},
      {{2, 40963}, {}},
      {{8195}, {}},
      {{5, 8192}, {1}},
  };
  const OverrideScope vec4("reduce_vec4=1");   // lavapipe's rule is scalar
  for (const char* groups : {"", "1", "3"}) {  // "": 1024
    const OverrideScope split(std::string("reduce_groups=") + groups);
    for (const Case& c : cases) {
      for (const NamedOp& op : reduce_ops()) {
        check(op, make_input(DType::f32, c.shape, op.values), c.axes, false,
              describe(op.name, DType::f32, c, false) + " groups " + groups);
      }
      const std::int64_t n = numel(c.shape), last = c.shape.back();
      const Tensor nans =
          with_nans(DType::f32, c.shape, {n / 2, n - 1, std::max<std::int64_t>(0, n - 3)});
      const Tensor lane_nans =
          with_nans(DType::f32, c.shape, {0, std::min<std::int64_t>(4, n - 1)});
      for (const Tensor& h :
           {make_input(DType::f32, c.shape, Values::small_ints), nans, lane_nans}) {
        for (const char* locate : {"1", "0"}) {  // split rows: by value then place, or scanned
          const OverrideScope by_value(std::string("arg_locate=") + locate);
          for (bool is_max : {true, false}) {
            for (TieBreak tie : {TieBreak::low, TieBreak::high}) {
              const std::optional<std::int64_t> axis =
                  c.axes.empty() ? std::nullopt : std::optional<std::int64_t>(c.axes[0]);
              check_arg(is_max, h, axis, false, tie,
                        describe(is_max ? "argmax" : "argmin", DType::f32, c, false) + " last " +
                            std::to_string(last) + " groups " + groups + " locate " + locate);
            }
          }
        }
      }
    }
  }
  const Tensor zeros = from_vector(std::vector<float>{-0.0f, 0.0f, -0.0f, 0.0f, 0.0f, -0.0f});
  for (bool is_max : {true, false}) {
    for (TieBreak tie : {TieBreak::low, TieBreak::high}) {
      check_arg(is_max, zeros, std::nullopt, false, tie, "signed zeros");
    }
  }
  // A view at an element offset (not on a vec4) reduced: the device reads its own copy.
  const Tensor h = make_input(DType::f32, {4099}, Values::small_ints);
  const Tensor view = slice(transfer(h, gpu()), {1}, {4097});
  EXPECT_TRUE(tensors_close(sum(view), sum(slice(h, {1}, {4097})), Tolerance{1e-5, 1e-3}));
  EXPECT_TRUE(tensors_close(argmax(view), argmax(slice(h, {1}, {4097})), Tolerance{0, 0}));
}

// The vec4 arg scan on integer keys (shaders/reduce_main.glsl, arg_key) over special values,
// long enough for several unrolled steps per invocation, flat and as rows: signed zeros spread
// over many quads, subnormals next to zero (compared on their bits), +inf with -inf, all -inf,
// a maximum repeated at different lanes, subnormals among normals, NaNs.
TEST_F(NativeReduce, F32ArgScanSpecialValues) {
  const std::int64_t n = 4 * 256 * 4 * 4 + 16;  // rows of n / 2: two unrolled steps each
  const float inf = std::numeric_limits<float>::infinity();
  const float tiny = std::numeric_limits<float>::denorm_min() * 3;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<std::vector<float>> inputs(7, std::vector<float>(static_cast<std::size_t>(n)));
  for (std::int64_t i = 0; i < n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    inputs[0][u] = (i * 7919) % 5 < 2 ? -0.0f : 0.0f;
    inputs[1][u] = i == 5001 || i == 9002 ? tiny : i == 3003 || i == 7777 ? -tiny : 0.0f;
    inputs[2][u] = i % 97 == 13 ? inf : i % 89 == 7 ? -inf : static_cast<float>(i % 11);
    inputs[3][u] = -inf;
    inputs[4][u] = i % 1031 == 6 || i % 1031 == 9 ? 5.0f : i % 1031 == 3 ? -5.0f : 1.0f;
    inputs[5][u] = i == 4000 || i == 12000 ? tiny : i == 4500 ? -tiny : -1.0f;
    inputs[6][u] = i == 6000 || i == 13001 ? nan : static_cast<float>((i * 31) % 13);
  }
  const OverrideScope vec4("reduce_vec4=1");  // lavapipe's rule is scalar
  for (const char* groups : {"", "1"}) {      // "1": the flat scan in one workgroup
    const OverrideScope split(std::string("reduce_groups=") + groups);
    // Split rows by value then place (reduce_locate.comp) on GPUs; lavapipe's rule scans.
    const OverrideScope by_value("arg_locate=1");
    for (const std::vector<float>& v : inputs) {
      const Tensor flat = from_vector(v);
      const Tensor rows = reshape(flat, {2, n / 2});
      for (bool is_max : {true, false}) {
        for (TieBreak tie : {TieBreak::low, TieBreak::high}) {
          const std::string what = std::string(is_max ? "argmax" : "argmin") + " groups \"" +
                                   groups + "\" input " + std::to_string(&v - inputs.data()) +
                                   (tie == TieBreak::high ? " high" : " low");
          check_arg(is_max, flat, std::nullopt, false, tie, what + " flat");
          check_arg(is_max, rows, 1, false, tie, what + " rows");
        }
      }
    }
  }
}

// Split f32 rows by value, then place (Overrides::arg_locate, shaders/reduce_locate.comp):
// three splits of a flat line (and of one ending mid-quad), two of each of two rows, locate
// spans shorter than a split; the extreme repeated across splits (the first or last split's
// copy wins), -0 in one split against +0 in a later one, subnormals against zeros in
// different splits (bits, not a flushed compare), NaNs in two splits, every element equal,
// the extreme in the last split's partial quad.
TEST_F(NativeReduce, F32ArgByValueThenPlaceAcrossSplits) {
  const std::int64_t n = 3 * 20000 + 8;  // rows of n / 2, a multiple of 4 (vec4 rows)
  const float tiny = std::numeric_limits<float>::denorm_min() * 5;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto line = [&](float fill, std::vector<std::pair<std::int64_t, float>> at) {
    std::vector<float> v(static_cast<std::size_t>(n), fill);
    for (const auto& [i, x] : at) v[static_cast<std::size_t>(i)] = x;
    return v;
  };
  const std::vector<std::vector<float>> inputs = {
      line(1.0f, {{45001, 9.0f}, {19999, 9.0f}, {30000, -9.0f}, {3, -9.0f}}),
      line(-2.0f, {{40002, 0.0f}, {17, -0.0f}, {59000, -0.0f}}),
      line(0.0f, {{25000, tiny}, {50000, -tiny}, {41000, tiny}}),
      line(3.0f, {{44444, nan}, {21000, -nan}, {5, 8.0f}}),
      line(7.0f, {}),
      line(-1.0f, {{n - 1, 4.0f}, {n - 2, -4.0f}, {n - 5, 4.0f}}),
  };
  const OverrideScope forced("reduce_vec4=1,reduce_groups=3,arg_locate=1");
  const std::uint64_t runs_before = vk::testing::arg_locate_runs();
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const Tensor flat = from_vector(inputs[k]);
    const Tensor rows = reshape(flat, {2, n / 2});
    // A line ending mid-quad: the last split's tail read element by element.
    const Tensor odd = from_vector(std::vector<float>(inputs[k].begin(), inputs[k].end() - 3));
    for (bool is_max : {true, false}) {
      for (TieBreak tie : {TieBreak::low, TieBreak::high}) {
        const std::string what = std::string(is_max ? "argmax" : "argmin") + " input " +
                                 std::to_string(k) + (tie == TieBreak::high ? " high" : " low");
        check_arg(is_max, flat, std::nullopt, false, tie, what + " flat");
        check_arg(is_max, odd, std::nullopt, false, tie, what + " odd");
        check_arg(is_max, rows, 1, false, tie, what + " rows");
      }
    }
  }
  EXPECT_EQ(vk::testing::arg_locate_runs() - runs_before, inputs.size() * 12);  // none scanned
}

// Columns passes over f32 with inner a multiple of 4 read four columns per vec4 (forced
// here), each column in the element path's order: the same bytes as the element path,
// and the cpu's values; split columns, second passes of arg partials, NaNs and ties.
TEST_F(NativeReduce, F32ColumnsVec4EqualTheElementPath) {
  const std::vector<Case> cases = {{{5001, 4}, {0}},     {{7, 8}, {0}},
                                   {{3, 1000, 12}, {1}}, {{2, 3000, 8}, {1}},
                                   {{100, 1004}, {0}},   {{5, 3, 7, 40}, {0, 2}}};
  for (const Case& c : cases) {
    const std::optional<std::int64_t> axis =
        c.axes.size() == 1 ? std::optional<std::int64_t>(c.axes[0]) : std::nullopt;
    const Tensor nans = with_nans(DType::f32, c.shape, {1, 5, 6, numel(c.shape) - 1});
    for (const NamedOp& op : reduce_ops()) {
      // One rule of each kind (the others share their code paths): fewer pipelines.
      const std::string name = op.name;
      if (name == "product" || name == "reduce_min" || name == "any") continue;
      const Tensor h = make_input(DType::f32, c.shape, op.values);
      for (const Tensor& in : {h, nans}) {
        const Tensor dev = transfer(in, gpu());
        Tensor scalar_path, vec4_path;
        {
          const OverrideScope scalar("reduce_vec4=0");
          scalar_path = op.fn(dev, c.axes, false);
        }
        {
          const OverrideScope vec4("reduce_vec4=1");
          vec4_path = op.fn(dev, c.axes, false);
          check(op, in, c.axes, false, describe(op.name, DType::f32, c, false));
        }
        EXPECT_EQ(vec4_path.to_bytes(), scalar_path.to_bytes())
            << describe(op.name, DType::f32, c, false);
      }
    }
    if (!axis) continue;
    const OverrideScope vec4("reduce_vec4=1");
    for (const Tensor& h : {make_input(DType::f32, c.shape, Values::small_ints), nans}) {
      check_arg(true, h, axis, false, TieBreak::low, describe("argmax", DType::f32, c, false));
      check_arg(false, h, axis, false, TieBreak::high, describe("argmin", DType::f32, c, false));
    }
  }
}

// The ops named, of reduce_ops().
std::vector<NamedOp> some_ops(std::initializer_list<std::string_view> names) {
  std::vector<NamedOp> ops;
  for (const NamedOp& op : reduce_ops()) {
    if (std::find(names.begin(), names.end(), op.name) != names.end()) ops.push_back(op);
  }
  return ops;
}

// Flat f32 lengths that do not split, that split into few partials (a second pass in
// columns mode), and 2^24 + 5 (1024 partials: a rows-mode second pass); empty tensors.
TEST_F(NativeReduce, SplitSizesAndEmptyTensors) {
  for (std::int64_t n : {1, 3, 4096, 8193, 100000, (1 << 24) + 5}) {
    const Case c{{n}, {}};
    const bool any_too = n < (1 << 20);  // lavapipe's time: two rules suffice past that
    for (const NamedOp& op : some_ops({"sum", "reduce_max", any_too ? "any" : ""})) {
      check(op, make_input(DType::f32, c.shape, op.values), c.axes, false,
            describe(op.name, DType::f32, c, false));
    }
    check_arg(true, make_input(DType::f32, c.shape, Values::small_ints), std::nullopt, false,
              TieBreak::low, describe("argmax", DType::f32, c, false));
  }
  for (const Shape& s : {Shape{0}, Shape{3, 0}, Shape{0, 5}}) {
    const Case c{s, {static_cast<std::int64_t>(s.size()) - 1}};
    for (const NamedOp& op : some_ops({"sum", "product", "reduce_max", "all"})) {
      check(op, make_input(DType::f32, s, op.values), c.axes, false,
            describe(op.name, DType::f32, c, false));
    }
  }
}

// Second passes of several workgroups: rows mode (12 rows of 74 partials, 8 rows a
// workgroup) and columns mode past 256 outputs (300 rows of 4 partials), with 32-bit and
// 64-bit accumulators and arg indices.
TEST_F(NativeReduce, SecondPassesOfSeveralWorkgroups) {
  for (const Case& c : {Case{{12, 300000}, {1}}, Case{{300, 20000}, {1}}}) {
    for (DType d : {DType::s32, DType::f32, DType::f64}) {
      if (!device_has(d)) continue;
      for (const NamedOp& op : some_ops({"sum", "reduce_min", "all"})) {
        check(op, make_input(d, c.shape, op.values), c.axes, false, describe(op.name, d, c, false));
      }
      check_arg(false, make_input(d, c.shape, Values::small_ints), 1, false, TieBreak::low,
                describe("argmin", d, c, false));
    }
  }
}

// Split reductions of one tensor and of each other's results recorded in one batch: each
// pass's partials are its own, so results are those of separate calls and of the cpu.
TEST_F(NativeReduce, BatchedSplitReductionsShareNothing) {
  const Tensor h = make_input(DType::f32, {4, 70000}, Values::small_ints);
  const Tensor dev = transfer(h, gpu());
  const Tensor a = sum(dev), b = reduce_max(dev), c = argmax(dev, 1), d = sum(dev, {1});
  const Tensor e = sum(sum(dev, {1}));
  EXPECT_EQ(a.to_bytes(), sum(dev).to_bytes());
  EXPECT_EQ(a.to_bytes(), sum(h).to_bytes());  // small integers: exact in any order
  EXPECT_EQ(b.to_bytes(), reduce_max(h).to_bytes());
  EXPECT_EQ(c.to_bytes(), argmax(h, 1).to_bytes());
  EXPECT_EQ(e.to_bytes(), sum(d).to_bytes());
}

// One device tensor read by several reductions in a row, and a reduction of a reduction:
// no hazards (the validation layer checks the barriers), results as on the cpu.
TEST_F(NativeReduce, ChainedReductionsOfOneTensor) {
  const Tensor h = make_input(DType::f32, {40, 3000}, Values::small_ints);
  const Tensor dev = transfer(h, gpu());
  LedgerScope scope;
  const Tensor rows = sum(dev, {1});
  const Tensor cols = reduce_max(dev, {0});
  const Tensor arg = argmax(dev, 1);
  const Tensor total = sum(rows);
  const Tensor arg_of_cols = argmin(cols, std::nullopt, false, TieBreak::high);
  EXPECT_EQ(scope.delta().fallbacks, 0u) << scope.delta().to_string();
  EXPECT_TRUE(tensors_close(rows, sum(h, {1}), Tolerance{0, 0}));
  EXPECT_TRUE(tensors_close(cols, reduce_max(h, {0}), Tolerance{0, 0}));
  EXPECT_TRUE(tensors_close(arg, argmax(h, 1), Tolerance{0, 0}));
  EXPECT_TRUE(tensors_close(total, sum(sum(h, {1})), Tolerance{0, 0}));
  EXPECT_TRUE(tensors_close(arg_of_cols,
                            argmin(reduce_max(h, {0}), std::nullopt, false, TieBreak::high),
                            Tolerance{0, 0}));
}

TEST_F(NativeReduce, FallbackWhenNativeIsOff) {
  const std::vector<Op> ops = {Op::sum, Op::product, Op::reduce_max, Op::reduce_min,
                               Op::all, Op::any,     Op::argmax,     Op::argmin};
  for (Op op : ops) vk::testing::set_native_disabled(op, true);
  for (DType d : {DType::s32, DType::f32}) {
    const Tensor h = make_input(d, {4, 3, 5}, Values::small_ints);
    const Tensor dev = transfer(h, gpu());
    for (const NamedOp& op : reduce_ops()) {
      LedgerScope scope;
      const Tensor g = op.fn(dev, {0, 2}, false);
      EXPECT_GT(scope.delta().fallbacks, 0u) << op.name;
      EXPECT_TRUE(tensors_close(g, op.fn(h, {0, 2}, false), Tolerance{1e-6, 1e-6})) << op.name;
    }
    LedgerScope scope;
    const Tensor g = argmax(dev, 1, false, TieBreak::high);
    EXPECT_GT(scope.delta().fallbacks, 0u);
    EXPECT_TRUE(tensors_close(g, argmax(h, 1, false, TieBreak::high), Tolerance{0, 0}));
  }
  for (Op op : ops) vk::testing::set_native_disabled(op, false);
}

}  // namespace
}  // namespace vkt::testing
