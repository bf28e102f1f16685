// Native indexing ops (src/vulkan/ops/index.cpp) against the cpu, bit for bit, on the native path
// and the fallback path (movement_check.h): clamped and out-of-range indices, duplicates,
// non-trailing axes, broadcasting, every dtype where arithmetic or comparison is involved.
#include <cmath>
#include <iterator>
#include <span>

#include "common/settings.h"
#include "conformance/movement_check.h"

namespace vkt::testing {
namespace {

class VulkanIndex : public MovementCheck {};

// Indices in [lo, hi) stepping by 1 from `first`, with out-of-range ones mixed in.
std::vector<std::int64_t> index_values(std::int64_t count, std::int64_t dim, std::int64_t seed) {
  const std::int64_t wild[] = {
      -1, -7, dim, dim + 5, std::int64_t{1} << 40, -(std::int64_t{1} << 40)};
  std::vector<std::int64_t> v;
  for (std::int64_t i = 0; i < count; ++i) {
    v.push_back(i % 5 == 3 ? wild[(i + seed) % 6]
                           : (i * 7 + seed) % std::max<std::int64_t>(dim, 1));
  }
  return v;
}

// Every fourth element zero, every fourth only the sign bit (-0.0 for floats), else random.
Tensor pred_tensor(DType d, const Shape& shape) {
  const Tensor r = random_tensor(d, shape, 11);
  std::vector<std::byte> bytes = r.to_bytes();
  const std::size_t item = itemsize(d);
  for (std::size_t i = 0; i * item < bytes.size(); ++i) {
    if (i % 4 == 0 || i % 4 == 1)
      std::fill_n(bytes.begin() + static_cast<std::ptrdiff_t>(i * item), item, std::byte{0});
    if (i % 4 == 1) bytes[i * item + item - 1] = std::byte{0x80};
  }
  return from_bytes(bytes, d, shape);
}

TEST_F(VulkanIndex, Gather) {
  struct Case {
    Shape t, idx;
    Axes axes;
  };
  const std::vector<Case> cases = {
      {{70000}, {17500, 1}, {}},   {{5, 6}, {3, 2}, {}},     {{5, 6}, {4, 1}, {1}},
      {{2, 3, 4}, {2, 2, 1}, {0}}, {{2, 3, 4}, {5, 1}, {1}}, {{2, 3, 4}, {3, 2}, {2, 0}},
      {{4, 5}, {0, 1}, {}},        {{1}, {1}, {}},           {{2, 2, 2, 2, 2, 3}, {3, 2}, {1, 4}},
  };
  for (DType d : kWidthDTypes) {
    for (const Case& c : cases) {
      const Tensor idx = c.t.size() == 1 && c.t[0] == 70000
                             ? s64_indices(
                                   [] {
                                     std::vector<std::int64_t> v;
                                     for (std::int64_t i = 0; i < 70000; i += 4) v.push_back(i);
                                     return v;
                                   }(),
                                   c.idx)
                             : s64_indices(index_values(numel(c.idx), 5, 1), c.idx);
      check(describe("gather", d, c.t),
            [&](const auto& in) { return gather(in[0], in[1], c.axes); },
            {random_tensor(d, c.t, 21), idx});
    }
  }
}

// Every element width, c64 and c128 too (16-byte words).
const std::vector<DType> kMoveDTypes = {DType::u8,  DType::s16, DType::f16, DType::bf16,
                                        DType::f32, DType::s32, DType::f64, DType::s64,
                                        DType::c64, DType::c128};

// Gathers of single elements by one index each (index_gather.comp's MODE 3: quads of
// outputs, 16-byte index loads): output counts around the quad, the two-quad step and the
// grid step (tails of 0 to 3), clamped indices, indices of other integer dtypes (cast to s64
// by the core), size-1 axes, and operands that are slices of larger tensors.
TEST_F(VulkanIndex, GatherPointsOddSizesEveryWidth) {
  struct Case {
    Shape t, idx;
    Axes axes;
  };
  const std::vector<Case> cases = {
      {{37}, {1, 1}, {}},      {{37}, {2, 1}, {}},     {{37}, {3, 1}, {}},
      {{37}, {5, 1}, {}},      {{37}, {9, 1}, {}},     {{5000}, {1023, 1}, {}},
      {{5000}, {2051, 1}, {}}, {{1, 40}, {7, 1}, {1}}, {{40, 1}, {6, 1}, {0}},
  };
  for (DType d : kMoveDTypes) {
    for (const Case& c : cases) {
      const std::int64_t dim = c.axes.empty() ? c.t[0] : c.t[static_cast<std::size_t>(c.axes[0])];
      const Tensor idx = s64_indices(index_values(numel(c.idx), dim, 5), c.idx);
      check(describe("gather", d, c.idx),
            [&](const auto& in) { return gather(in[0], in[1], c.axes); },
            {random_tensor(d, c.t, 51), idx});
    }
  }
  for (DType id : {DType::u8, DType::s16, DType::s32, DType::u32}) {
    const Tensor idx = as_type(s64_indices(index_values(13, 300, 6), {13, 1}), id);
    check(describe("gather indices " + std::string(dtype_name(id)), DType::f32, {300}),
          [](const auto& in) { return gather(in[0], in[1]); },
          {random_tensor(DType::f32, {300}, 52), idx});
  }
  // Slices: the operand and the indices are parts of larger tensors.
  check(describe("gather of slices", DType::f16, {61}),
        [](const auto& in) {
          return gather(slice(in[0], {3}, {61}), slice(in[1], {1, 0}, {11, 1}));
        },
        {random_tensor(DType::f16, {70}, 53), s64_indices(index_values(14, 61, 7), {14, 1})});
}

TEST_F(VulkanIndex, Take) {
  struct Case {
    Shape t, idx;
    std::int64_t axis;
  };
  const std::vector<Case> cases = {
      {{8750, 8}, {4375}, 0}, {{5}, {9}, 0},    {{3, 4, 5}, {2, 2}, 1},
      {{3, 4, 5}, {6}, 2},    {{3, 4}, {0}, 1}, {{2, 1, 2, 1, 2, 3}, {4}, 3},
  };
  for (DType d : kWidthDTypes) {
    for (const Case& c : cases) {
      const Tensor idx =
          c.t[0] == 8750
              ? s64_indices(
                    [] {
                      std::vector<std::int64_t> v;
                      for (std::int64_t i = 0; i < 8750; i += 2) v.push_back(i);
                      return v;
                    }(),
                    c.idx)
              : s64_indices(index_values(numel(c.idx), c.t[static_cast<std::size_t>(c.axis)], 2),
                            c.idx);
      check(describe("take", d, c.t), [&](const auto& in) { return take(in[0], in[1], c.axis); },
            {random_tensor(d, c.t, 22), idx});
    }
  }
}

TEST_F(VulkanIndex, TakeAlongAxis) {
  struct Case {
    Shape t, idx;
    std::int64_t axis;
  };
  const std::vector<Case> cases = {
      {{3, 4}, {3, 6}, 1},         {{4, 3}, {2, 3}, 0}, {{2, 5, 3}, {2, 4, 3}, 1},
      {{700, 100}, {700, 100}, 1}, {{3, 4}, {3, 0}, 1},
  };
  for (DType d : kWidthDTypes) {
    for (const Case& c : cases) {
      const Tensor idx =
          s64_indices(index_values(numel(c.idx), c.t[static_cast<std::size_t>(c.axis)], 3), c.idx);
      check(describe("take_along_axis", d, c.t),
            [&](const auto& in) { return take_along_axis(in[0], in[1], c.axis); },
            {random_tensor(d, c.t, 23), idx});
    }
  }
}

TEST_F(VulkanIndex, Select) {
  struct Case {
    Shape pred, on_true, on_false;
  };
  const std::vector<Case> cases = {
      {{70001}, {70001}, {70001}},
      {{3, 1}, {3, 4}, {}},
      {{}, {2, 3}, {2, 3}},
      {{0}, {0}, {}},
      {{1, 2, 1, 3, 1, 5}, {2, 1, 3, 1, 5}, {5}},
      {{40001}, {}, {1, 1}},  // both branches one element: read at 0 (steps 0)
      {{1, 1}, {7, 3}, {}},   // one-element pred: one branch taken
  };
  for (DType pd :
       {DType::u8, DType::s16, DType::f16, DType::bf16, DType::f32, DType::s64, DType::f64}) {
    for (DType d : kWidthDTypes) {
      for (const Case& c : cases) {
        check(describe("select pred " + std::string(dtype_name(pd)), d, c.on_true),
              [&](const auto& in) { return select(in[0], in[1], in[2]); },
              {pred_tensor(pd, c.pred), random_tensor(d, c.on_true, 24),
               random_tensor(d, c.on_false, 25)});
      }
    }
  }
}

TEST_F(VulkanIndex, ClipEveryDtype) {
  struct Case {
    Shape t, lo, hi;
  };
  // clang-format off
  const std::vector<Case> cases = {
      {{70001}, {70001}, {70001}},
      {{3, 4}, {4}, {}},
      {{}, {}, {}},
      {{0, 2}, {2}, {}},
      {{70001}, {}, {1}},     // one-element bounds stay one element (read at 0)
      {{3, 4}, {1, 1}, {4}},  // one one-element bound beside a broadcast one
  };
  // clang-format on
  for (DType d : kRealDTypes) {
    for (const Case& c : cases) {
      check(describe("clip", d, c.t), [&](const auto& in) { return clip(in[0], in[1], in[2]); },
            {random_tensor(d, c.t, 26), random_tensor(d, c.lo, 27), random_tensor(d, c.hi, 28)});
    }
  }
}

// Scalar bounds reach the device as two one-element uploads, not two tensors of x's size.
TEST_F(VulkanIndex, ClipWithScalarBoundsMovesOnlyTheScalars) {
  const Tensor x = transfer(random_tensor(DType::f32, {100000}, 29), gpu());
  gpu().synchronize();
  LedgerScope scope;
  const Tensor r = clip(x, 0.25, 0.75);
  EXPECT_LE(scope.delta().upload_bytes, 8u);
  EXPECT_EQ(&r.backend(), &gpu());
  EXPECT_EQ(r.to_bytes(), clip(transfer(x, cpu()), 0.25, 0.75).to_bytes());  // NaNs too
}

TEST_F(VulkanIndex, ClipFloatSpecials) {
  const double inf = std::numeric_limits<double>::infinity(),
               nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> x = {nan, -nan, -0.0, 0.0, 1.5, -1.5, inf, -inf, 3.0, -3.0};
  const std::vector<double> lo = {0.0, -1.0, 0.0, -0.0, nan, -2.0, -inf, 1.0, 2.0, -2.0};
  const std::vector<double> hi = {1.0, 1.0, -0.0, 0.0, 1.0, nan, inf, 2.0, 2.5, -2.5};
  for (DType d : {DType::f16, DType::bf16, DType::f32, DType::f64}) {
    const auto make = [&](const std::vector<double>& v) { return as_type(from_vector(v), d); };
    check(describe("clip specials", d, {10}),
          [&](const auto& in) { return clip(in[0], in[1], in[2]); }, {make(x), make(lo), make(hi)});
  }
}

// 4-byte clips move 16-byte words: sizes around the vec4 and the grid step with full-size,
// one-element and mixed bounds (random bits: NaNs, infinities, subnormals, both zeros), and the
// float specials rotated through every lane of a vec4 and into the tail.
TEST_F(VulkanIndex, ClipVec4OddSizesAndEveryLane) {
  for (DType d : {DType::f32, DType::s32, DType::u32}) {
    for (std::int64_t n : {1, 3, 4, 5, 1023, 1025, 4 * 256 * 3 + 1, 4 * 256 * 8 + 6}) {
      const Shape s{n};
      check(describe("clip full bounds", d, s),
            [&](const auto& in) { return clip(in[0], in[1], in[2]); },
            {random_tensor(d, s, 31), random_tensor(d, s, 32), random_tensor(d, s, 33)});
      check(describe("clip one-element bounds", d, s),
            [&](const auto& in) { return clip(in[0], in[1], in[2]); },
            {random_tensor(d, s, 34), random_tensor(d, {1}, 35), random_tensor(d, {}, 36)});
      check(describe("clip mixed bounds", d, s),
            [&](const auto& in) { return clip(in[0], in[1], in[2]); },
            {random_tensor(d, s, 37), random_tensor(d, {}, 38), random_tensor(d, s, 39)});
    }
  }
  const double inf = std::numeric_limits<double>::infinity(),
               nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> x = {nan, -nan, -0.0, 0.0, 1.5, -1.5, inf, -inf, 3.0, -3.0, 1e-40};
  const std::vector<double> lo = {0.0, -1.0, 0.0, -0.0, nan, -2.0, -inf, 1.0, 2.0, -2.0, 0.0};
  const std::vector<double> hi = {1.0, 1.0, -0.0, 0.0, 1.0, nan, inf, 2.0, 2.5, -2.5, 1e-41};
  for (std::size_t shift = 0; shift < 4; ++shift) {
    std::vector<double> xs, ls, hs;
    for (std::size_t i = 0; i < 3 * x.size() + shift; ++i) {
      xs.push_back(x[i % x.size()]);
      ls.push_back(lo[(i + shift) % lo.size()]);
      hs.push_back(hi[(i + shift) % hi.size()]);
    }
    check(describe("clip specials by lane", DType::f32, {static_cast<std::int64_t>(xs.size())}),
          [&](const auto& in) { return clip(in[0], in[1], in[2]); },
          {as_type(from_vector(xs), DType::f32), as_type(from_vector(ls), DType::f32),
           as_type(from_vector(hs), DType::f32)});
  }
}

struct UpdateCase {
  Shape t, idx;
  Axes axes;
  std::vector<std::int64_t> values;
};

std::vector<UpdateCase> update_cases() {
  return {
      {{10}, {5, 1}, {}, {2, 5, 2, -1, 10}},
      {{70000}, {3, 1}, {}, {100, 35000, 69999}},
      {{4, 5}, {4, 1}, {}, {1, 3, 1, 1}},
      {{4, 5}, {3, 2}, {}, {0, 0, 3, 4, 0, 0}},
      {{3, 4, 5}, {4, 1}, {1}, {3, 0, 3, 9}},
      {{3, 4, 5}, {3, 2}, {2, 0}, {4, 2, 0, 0, 4, 2}},
      {{100, 700}, {5, 1}, {}, {7, 99, 7, 0, 7}},
      {{6}, {0, 1}, {}, {}},
      {{2, 3, 2, 3, 2, 3}, {2, 2}, {0, 5}, {1, 2, 1, 2}},
  };
}

Shape update_shape(const UpdateCase& c) {
  Shape s{c.idx[0]};
  const Axes axes = c.axes.empty() ? [&] { Axes a; for (std::int64_t i = 0; i < c.idx[1]; ++i) a.push_back(i); return a; }() : c.axes;
  for (std::size_t a = 0; a < c.t.size(); ++a) {
    if (std::find(axes.begin(), axes.end(), static_cast<std::int64_t>(a)) == axes.end())
      s.push_back(c.t[a]);
  }
  return s;
}

TEST_F(VulkanIndex, IndexedPutAndAddEveryDtype) {
  for (DType d : kRealDTypes) {
    for (const UpdateCase& c : update_cases()) {
      const Tensor t = random_tensor(d, c.t, 31), upd = random_tensor(d, update_shape(c), 32);
      const Tensor idx = s64_indices(c.values, c.idx);
      check(describe("indexed_put", d, c.t),
            [&](const auto& in) { return indexed_put(in[0], in[1], in[2], c.axes); },
            {t, idx, upd});
      check(
          describe("indexed_add", d, c.t),
          [&](const auto& in) { return indexed_add(in[0], in[1], in[2], c.axes); }, {t, idx, upd},
          /*any_nan=*/true);
    }
  }
}

// Every pair of special values (signed zeros, subnormals, the largest finite, infinities,
// NaNs, values whose sum rounds to even or overflows) through indexed_add's float adds.
TEST_F(VulkanIndex, IndexedAddFloatSpecialPairs) {
  const std::vector<std::uint32_t> f32 = {
      0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000,
      0x80800000, 0x00400000, 0x3f800000, 0xbf800000, 0x3f800001, 0xbf7fffff, 0x33800000,
      0x4b800000, 0x4b800001, 0x34000000, 0x7f7fffff, 0xff7fffff, 0x7f000000, 0x7f800000,
      0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x3effffff, 0x00ffffff, 0x80fffffe};
  const std::vector<std::uint16_t> f16 = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400,
                                          0x0200, 0x3c00, 0xbc00, 0x3c01, 0xbbff, 0x7bff, 0xfbff,
                                          0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x1400, 0x6800};
  const auto pairs = [](const auto& v, DType d) {
    using W = typename std::decay_t<decltype(v)>::value_type;
    std::vector<W> a, b;
    for (W x : v) {
      for (W y : v) {
        a.push_back(x);
        b.push_back(y);
      }
    }
    const auto n = static_cast<std::int64_t>(a.size());
    return std::pair{from_bytes(std::as_bytes(std::span(a)), d, {1, n}),
                     from_bytes(std::as_bytes(std::span(b)), d, {1, n})};
  };
  const std::vector<std::uint64_t> f64 = {
      0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x8000000000000001,
      0x000fffffffffffff, 0x800fffffffffffff, 0x0010000000000000, 0x8010000000000000,
      0x0008000000000000, 0x3ff0000000000000, 0xbff0000000000000, 0x3ff0000000000001,
      0xbfefffffffffffff, 0x3ca0000000000000, 0x4340000000000000, 0x4340000000000001,
      0x7fefffffffffffff, 0xffefffffffffffff, 0x7fe0000000000000, 0x7ff0000000000000,
      0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000000001, 0x7ff0000000000001,
      0x3fdfffffffffffff, 0x001fffffffffffff, 0x801ffffffffffffe, 0x3fb999999999999a};
  std::vector<std::uint16_t> bf16;
  for (std::uint32_t x : f32) bf16.push_back(static_cast<std::uint16_t>(x >> 16));
  const Tensor idx = s64_indices({0}, {1, 1});
  for (const auto& [t, u] : {pairs(f32, DType::f32), pairs(f16, DType::f16),
                             pairs(bf16, DType::bf16), pairs(f64, DType::f64)}) {
    // Which NaN an add of two NaNs returns is left open by IEEE and differs between the
    // cpu's optimised and sanitizer builds: NaNs match NaNs here, everything else bitwise.
    check(
        describe("indexed_add specials", t.dtype(), t.shape()),
        [&](const auto& in) { return indexed_add(in[0], in[1], in[2]); }, {t, idx, u},
        /*any_nan=*/true);
  }
}

// Sums of nearby values: cancellation (normalising shifts), carries and ties to even, across
// the exponent range, subnormal results included.
TEST_F(VulkanIndex, IndexedAddRoundingAndCancellation) {
  const std::int64_t n = 20000;
  std::vector<double> t, u;
  for (std::int64_t i = 0; i < n; ++i) {
    const double x =
        std::ldexp(1.0 + std::sin(static_cast<double>(i)) * 0.75, static_cast<int>(i % 200) - 100);
    const double tiny = std::ldexp(1.0, -1060 + static_cast<int>(i % 40));
    t.push_back(i % 7 == 0 ? tiny : x);
    u.push_back(i % 3 == 0 ? -x * (1.0 + std::ldexp(1.0, -static_cast<int>(i % 60)))
                           : x * std::ldexp(1.0, -static_cast<int>(i % 30)));
  }
  const Tensor idx = s64_indices({0, 0, 1}, {3, 1});
  for (DType d : {DType::f64, DType::f32, DType::bf16, DType::f16}) {
    const Tensor tt = as_type(from_vector(t, {1, n}), d);
    const Tensor uu = as_type(from_vector(u, {1, n}), d);
    check(describe("indexed_add sums", d, {1, n}),
          [&](const auto& in) { return indexed_add(in[0], in[1], in[2]); },
          {concatenate({tt, tt}, 0), idx, concatenate({uu, uu, tt}, 0)});
  }
}

// indexed_put under both paths (forced: Overrides::fused_put; fused: one pass copying t's
// 16-byte words with the rows put in, for at most 8 rows each one run of t; copy: a copy,
// then index_update.comp): every width, sizes with tails of every length, rows that straddle
// words, duplicates (the last wins), out-of-range rows (skipped), rows at both ends, two
// leading indexed axes, size-1 axes, and 8 and 9 rows (9 takes the copy path either way).
TEST_F(VulkanIndex, IndexedPutFusedAndCopyPathsEveryWidth) {
  const std::vector<UpdateCase> cases = {
      {{1}, {1, 1}, {}, {0}},
      {{3}, {2, 1}, {}, {2, 0}},
      {{17}, {4, 1}, {}, {16, 0, 16, 17}},
      {{1023}, {3, 1}, {}, {0, 511, 1022}},
      {{4099}, {8, 1}, {}, {4098, 1, 4097, -1, 3, 4098, 2, 4096}},
      {{4099}, {9, 1}, {}, {4098, 1, 4097, -1, 3, 4098, 2, 4096, 0}},
      {{9, 3}, {4, 1}, {}, {8, 0, 4, 8}},
      {{7, 5}, {3, 1}, {}, {6, 2, 9}},
      {{5, 3, 3}, {3, 2}, {}, {4, 2, 0, 0, 4, 3}},
      {{4, 1, 5}, {2, 1}, {1}, {0, 0}},
      {{2, 33}, {2, 1}, {}, {1, 1}},
  };
  for (const char* path : {"fused", "copy"}) {
    const OverrideScope force(std::string("fused_put=") + (path[0] == 'f' ? "1" : "0"));
    for (DType d : kMoveDTypes) {
      for (const UpdateCase& c : cases) {
        const Tensor t = random_tensor(d, c.t, 54), upd = random_tensor(d, update_shape(c), 55);
        check(describe(std::string("indexed_put ") + path, d, c.t),
              [&](const auto& in) { return indexed_put(in[0], in[1], in[2], c.axes); },
              {t, s64_indices(c.values, c.idx), upd});
      }
    }
  }
}

// Indices held on the cpu (the consumer bench's indexed_put): the core uploads them; the op
// stays native.
TEST_F(VulkanIndex, IndexedPutWithHostIndices) {
  const Tensor t = copy(random_tensor(DType::f32, {70000}, 41), gpu());
  const Tensor upd = copy(random_tensor(DType::f32, {3}, 42), gpu());
  const Tensor idx = s64_indices({5, 500, 69999}, {3, 1});
  LedgerScope scope;
  const Tensor g = indexed_put(t, idx, upd);
  EXPECT_EQ(scope.delta().fallbacks, 0u);
  EXPECT_EQ(&g.backend(), &gpu());
  expect_same(g, indexed_put(copy(t, cpu()), idx, copy(upd, cpu())));
}

// Many rows into a narrow target: the cpu's loop is faster than one invocation per element
// walking every row, so this falls back, with the same result.
TEST_F(VulkanIndex, ManyRowsNarrowUpdateFallsBack) {
  std::vector<std::int64_t> v(5000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::int64_t>(i % 7);
  const Tensor t = random_tensor(DType::s32, {7}, 43), upd = random_tensor(DType::s32, {5000}, 44);
  const Tensor idx = s64_indices(v, {5000, 1});
  LedgerScope scope;
  const Tensor g = indexed_add(copy(t, gpu()), copy(idx, gpu()), copy(upd, gpu()));
  EXPECT_EQ(scope.delta().fallbacks, 1u);
  expect_same(g, indexed_add(t, idx, upd));
}

}  // namespace
}  // namespace vkt::testing
