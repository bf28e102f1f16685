// Native sort / argsort / top_k against the cpu backend, bit for bit: every dtype, lines of
// length 0, 1, odd and long (one tile and several), axes not last, both directions, data
// with NaN of both signs, ±0, ±inf, extremes and many duplicates (stability: argsort must
// equal the cpu's). Both device paths: the workgroup-local sort and the radix sort, forced
// on short lines through the test hook (vk::testing::set_sort_local_max). top_k's selection
// (sort_select.cpp) beside them: lines in one workgroup, several to a workgroup, and cut into
// tiles whose candidates a second dispatch selects from; its plan read from the backend's rule.
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "common/settings.h"
#include "conformance/bits_check.h"
#include "conformance/fixture.h"
#include "core/top_k.h"
#include "vulkan/ops/sort_select.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

const DType kSortDTypes[] = {DType::u8,  DType::u16,  DType::u32, DType::u64,
                             DType::s8,  DType::s16,  DType::s32, DType::s64,
                             DType::f16, DType::bf16, DType::f32, DType::f64};

// Few distinct values (long runs of equal keys) plus specials and the dtype's extremes.
Tensor sort_input(DType d, const Shape& s, std::uint32_t seed = 7) {
  const std::int64_t n = numel(s);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const double specials[] = {nan, -nan, -0.0, 0.0, inf, -inf, 1e300, -1e300};
  std::vector<double> v(static_cast<std::size_t>(n));
  std::uint32_t x = seed * 2654435761u + 12345u;
  for (std::int64_t i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    const double u = static_cast<double>(x >> 8) / static_cast<double>(1u << 24);
    double val = std::floor(u * 24) - 12;
    if (is_float(d)) val /= 4;
    if ((x >> 4) % 9 == 0) val = specials[(x >> 9) % 8];
    if (!is_float(d) && std::isnan(val)) val = 0;
    v[static_cast<std::size_t>(i)] = val;
  }
  return as_type(from_vector(v, s), d);
}

class NativeSort : public VulkanTest {
 protected:
  void TearDown() override {
    vk::testing::set_sort_local_max(saved_local_max_);
    vk::testing::set_top_k_select_disabled(false);
    VulkanTest::TearDown();
  }

  // sort and argsort along `axis` in both directions, native and equal to the cpu.
  void check_sorts(const Tensor& host, std::int64_t axis, const std::string& what) {
    const Tensor dev = transfer(host, gpu());
    for (Direction dir : {Direction::asc, Direction::desc}) {
      const std::string label = what + (dir == Direction::desc ? " desc" : " asc");
      LedgerScope scope;
      const Tensor s = sort(dev, axis, dir);
      // s64 indices, the kernels' own: the dispatch count below is the sort's alone.
      const Tensor a = argsort(dev, axis, dir, DType::s64);
      EXPECT_EQ(scope.delta().fallbacks, 0u) << label << ": " << scope.delta().to_string();
      EXPECT_EQ(&a.backend(), &gpu()) << label;
      // The path taken: one dispatch per op sorts locally, the radix sort takes dozens.
      if (host.size() > 0 && host.rank() > 0) {
        EXPECT_EQ(scope.delta().dispatches > 2, expect_radix_) << label;
      }
      EXPECT_TRUE(same_bits(s, sort(host, axis, dir))) << "sort " << label;
      EXPECT_TRUE(same_bits(a, argsort(host, axis, dir, DType::s64))) << "argsort " << label;
    }
  }

  void check_top_k(const Tensor& host, std::int64_t k, const std::string& what) {
    const Tensor dev = transfer(host, gpu());
    LedgerScope scope;
    const auto [values, indices] = top_k(dev, k);
    EXPECT_EQ(scope.delta().fallbacks, 0u) << what << ": " << scope.delta().to_string();
    EXPECT_EQ(&indices.backend(), &gpu()) << what;
    const auto [cpu_values, cpu_indices] = top_k(host, k);
    EXPECT_TRUE(same_bits(indices, cpu_indices)) << "top_k indices " << what;
    EXPECT_TRUE(same_bits(values, cpu_values)) << "top_k values " << what;
  }

  // The selection's plan for top_k(t, k) on the device (t's backend does not matter).
  static vk::SelectPlan select_plan(const Tensor& t, std::int64_t k) {
    Shape out_shape = t.shape();
    out_shape.back() = k;
    const OpCall call{Op::top_k, {t}, TopKParams{k}, DType::s64, out_shape};
    return vk::top_k_select_plan(static_cast<const vk::VulkanBackend&>(gpu()), call);
  }

  // top_k by selection: the plan's dispatches (one per level), then check_top_k.
  void check_select(const Tensor& host, std::int64_t k, const std::string& what) {
    const Tensor dev = transfer(host, gpu());
    const vk::SelectPlan plan = select_plan(dev, k);
    ASSERT_FALSE(plan.levels.empty()) << what;
    LedgerScope scope;
    (void)detail::top_k_indices(dev, k);
    const std::uint64_t expected = host.size() == 0 || k == 0 ? 0 : plan.levels.size();
    EXPECT_EQ(scope.delta().dispatches, expected) << what;
    check_top_k(host, k, what);
  }

  void force_radix() {
    vk::testing::set_sort_local_max(0);
    expect_radix_ = true;
  }

  // Lines of length 0, 1, odd, several per workgroup, axes not last.
  void every_axis(const std::vector<DType>& dtypes, const std::vector<Shape>& shapes) {
    for (DType d : dtypes) {
      for (const Shape& s : shapes) {
        const Tensor h = sort_input(d, s);
        const auto rank = static_cast<std::int64_t>(s.size());
        for (std::int64_t a = 0; a < std::max<std::int64_t>(rank, 1); ++a) {
          check_sorts(
              h, a, std::string(dtype_name(d)) + " " + shape_str(s) + " axis " + std::to_string(a));
        }
      }
    }
  }

  // The radix sort's cases with digits of `bits` (8 where the device allows) and `reorder`.
  void check_digit_config(const char* bits, const char* reorder);

 protected:
  std::uint64_t saved_local_max_ = vk::testing::sort_local_max();
  // A local max of 0 (set_sort_local_max) sends every line to the radix sort.
  bool expect_radix_ = saved_local_max_ == 0;
};

TEST_F(NativeSort, LocalPathEveryDtypeAndAxis) {
  every_axis(std::vector<DType>(std::begin(kSortDTypes), std::end(kSortDTypes)),
             {{}, {0}, {1}, {7}, {3, 5}, {2, 0, 3}, {4, 3, 5}, {3, 301}});
}

// Every key width and float kind (lavapipe runs each of the radix sort's dispatches slowly).
TEST_F(NativeSort, RadixPathEveryKeyKindAndAxis) {
  force_radix();
  every_axis({DType::u8, DType::s16, DType::f16, DType::bf16, DType::f32, DType::s64, DType::f64},
             {{}, {1}, {7}, {4, 3, 5}, {3, 301}});
}

// Lines longer than one workgroup holds, and than one radix tile (4096 items), along the
// last axis and along an outer one.
TEST_F(NativeSort, LongLines) {
  // Lines longer than one workgroup sorts in shared memory on the devices we run (lavapipe
  // 2048 keys, the H200 4096: a line of 2100 took the local path there).
  const std::vector<std::pair<Shape, std::int64_t>> cases = {
      {{2, 4500}, 1}, {{9000}, 0}, {{5000, 2}, 0}, {{3, 4500, 2}, 1}};
  expect_radix_ = true;
  for (DType d : {DType::u8, DType::s16, DType::f16, DType::f32, DType::s64, DType::f64}) {
    for (const auto& [s, axis] : cases) {
      check_sorts(
          sort_input(d, s, 11), axis,
          std::string(dtype_name(d)) + " " + shape_str(s) + " axis " + std::to_string(axis));
    }
  }
}

// Float bits: NaNs of both signs and payloads keep their input order, -0 and +0 too.
TEST_F(NativeSort, NaNPayloadsAndSignedZerosStayInInputOrder) {
  const std::vector<std::uint32_t> bits = {0x7fc00003u, 0x80000000u, 0xffc00001u, 0x00000000u,
                                           0x3f800000u, 0x7f800001u, 0x80000000u, 0xff800000u,
                                           0x00000001u, 0x80000001u, 0x7f800000u, 0x00000000u};
  const Tensor h =
      from_bytes(std::as_bytes(std::span<const std::uint32_t>(bits)), DType::f32, {12});
  check_sorts(h, 0, "f32 bits");
  force_radix();
  check_sorts(h, 0, "f32 bits, radix");
}

// The full sort's top_k output (k > 0 selects by default).
TEST_F(NativeSort, TopK) {
  vk::testing::set_top_k_select_disabled(true);
  for (bool radix : {false, true}) {
    if (radix) force_radix();
    for (DType d : {DType::u8, DType::s32, DType::bf16, DType::f32, DType::u64, DType::f64}) {
      const std::string what = std::string(dtype_name(d)) + (radix ? " radix" : " local");
      check_top_k(sort_input(d, {7}), 3, what + " {7} k 3");
      check_top_k(sort_input(d, {3, 10}), 0, what + " {3, 10} k 0");
      check_top_k(sort_input(d, {3, 10}), 10, what + " {3, 10} k 10");
      check_top_k(sort_input(d, {2, 3, 33}), 5, what + " {2, 3, 33} k 5");
    }
  }
  check_top_k(sort_input(DType::f32, {2, 5000}), 7, "f32 {2, 5000} k 7");
}

// Every dtype, with NaNs of both signs, ±0, ±inf and long runs of ties: lines of one
// workgroup and several to a workgroup, k of 0, 1, len and between.
TEST_F(NativeSort, TopKSelectEveryDtype) {
  for (DType d : kSortDTypes) {
    const std::string what(dtype_name(d));
    check_select(sort_input(d, {7}), 3, what + " {7} k 3");
    check_select(sort_input(d, {3, 10}), 10, what + " {3, 10} k 10");
    check_select(sort_input(d, {3, 10}), 0, what + " {3, 10} k 0");
    check_select(sort_input(d, {2, 3, 33}), 1, what + " {2, 3, 33} k 1");
    check_select(sort_input(d, {37, 5}), 5, what + " {37, 5} k 5");
    check_select(sort_input(d, {4, 700}, 3), 16, what + " {4, 700} k 16");
  }
  const std::vector<std::uint32_t> bits = {0x7fc00003u, 0x80000000u, 0xffc00001u, 0x00000000u,
                                           0x3f800000u, 0x7f800001u, 0x80000000u, 0xff800000u,
                                           0x00000001u, 0x80000001u, 0x7f800000u, 0x00000000u};
  const Tensor h =
      from_bytes(std::as_bytes(std::span<const std::uint32_t>(bits)), DType::f32, {12});
  for (std::int64_t k : {1, 5, 12}) check_select(h, k, "f32 bits k " + std::to_string(k));
}

// A line of `len` > cap whose every streamed chunk beats all items before it, in the order
// sort_select.comp visits them (its first and last cap / 2 items first, then the chunks of
// cap / 2 between them in bit-reversed order): the buffer is reduced at every chunk.
std::vector<double> worst_order(std::int64_t cap, std::int64_t len) {
  const std::int64_t chunk = cap / 2, middle = len - cap;
  const std::int64_t chunks = (middle + chunk - 1) / chunk;
  const std::int64_t round =
      static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(chunks)));
  std::vector<double> v(static_cast<std::size_t>(len), -1.0);  // the ends: worst
  std::int64_t rank = 0;
  for (std::int64_t i = 0; i < round; ++i) {
    std::int64_t c = 0;  // i bit-reversed over log2(round) bits
    for (std::int64_t b = 1, r = round / 2; b < round; b <<= 1, r >>= 1) c |= (i & b) ? r : 0;
    if (c >= chunks) continue;
    for (std::int64_t t = chunk + c * chunk; t < std::min(chunk + (c + 1) * chunk, len - chunk);
         ++t)
      v[static_cast<std::size_t>(t)] = static_cast<double>(rank * chunk + t % chunk);
    ++rank;
  }
  return v;
}

// Lines longer than a tile: each tile's k candidates, then a second dispatch; the last tile
// shorter than k; data in ascending and descending order (the first fill holds the answer),
// and in the worst order; 64-bit keys; the largest k that selects.
TEST_F(NativeSort, TopKSelectLongLines) {
  const vk::SelectPlan probe = select_plan(sort_input(DType::f32, {8}), 1);
  const auto tile = static_cast<std::int64_t>(probe.tile);
  const Shape three_tiles = {2 * tile + 3};
  EXPECT_GT(select_plan(sort_input(DType::f32, three_tiles), 5).levels.size(), 1u);
  for (DType d : {DType::u8, DType::f16, DType::f32, DType::s64, DType::f64}) {
    const std::string what = std::string(dtype_name(d)) + " " + shape_str(three_tiles);
    check_select(sort_input(d, three_tiles, 5), 5, what + " k 5");
  }
  // Lines of one tile, streamed after the first fill.
  std::vector<double> up(static_cast<std::size_t>(2 * (tile - 3)));
  std::iota(up.begin(), up.end(), -1000.0);
  std::vector<double> down(up.rbegin(), up.rend());
  const Shape two_lines = {2, tile - 3};
  const std::vector<double> worst = worst_order(static_cast<std::int64_t>(probe.cap), tile - 3);
  for (DType d : {DType::f32, DType::s64}) {
    const std::string what(dtype_name(d));
    check_select(as_type(from_vector(up, two_lines), d), 9, what + " ascending k 9");
    check_select(as_type(from_vector(down, two_lines), d), 9, what + " descending k 9");
    check_select(as_type(from_vector(worst, {tile - 3}), d), 9, what + " worst order k 9");
  }
  const std::int64_t k_max = static_cast<std::int64_t>(probe.cap / 16);
  check_select(sort_input(DType::f32, {2, tile + 1000}, 9), k_max, "f32 k max");
  const Tensor beyond = sort_input(DType::f32, {3, 300}, 9);
  EXPECT_TRUE(select_plan(beyond, k_max + 1).levels.empty());
  check_top_k(beyond, k_max + 1, "f32 {3, 300} k max + 1 (sorted)");
  check_select(sort_input(DType::f32, {1 << 20}, 13), 100, "f32 {2^20} k 100");
}

// The radix sort forced to digits of `bits` (8 where the device allows) and to `reorder`:
// every dtype, lines of length 0, 1 and odd along a middle axis, lines of several tiles,
// tiles whose items share one digit (copied without ranking) beside mixed ones.
void NativeSort::check_digit_config(const char* bits, const char* reorder) {
  // Low bytes below 100 come with byte 2 = 0, the others with 0x10: once the low bytes are
  // sorted, byte 2's pass sees tile 0 (items 0..4095) all 0, tile 1 mixed, tile 2 all 0x10.
  std::vector<double> skewed(9000);
  for (std::size_t i = 0; i < skewed.size(); ++i)
    skewed[i] = static_cast<double>(i < 6000 ? (i * 7) % 100 : 100 + (i * 7) % 100 + (1u << 20));
  force_radix();
  const OverrideScope force(std::string("sort_digit_bits=") + bits + ",sort_reorder=" + reorder);
  const std::string config = std::string(" bits ") + bits + " reorder " + reorder;
  const std::uint32_t width = bits[0] == '8' && vk::testing::sort_radix8_available() ? 8 : 4;
  for (DType d : kSortDTypes) {
    const std::string what = std::string(dtype_name(d)) + config;
    every_axis({d}, {{0}, {1}, {2, 0, 3}});
    check_sorts(sort_input(d, {2, 37, 3}), 1, what + " {2, 37, 3} axis 1");
    // Keys of 1, 2, 4, 8 bytes: the dispatches are keys, 5 per digit, the result.
    const std::uint32_t key_bits =
        d == DType::f16 || d == DType::bf16 ? 16 : static_cast<std::uint32_t>(itemsize(d) * 8);
    const Tensor dev = transfer(sort_input(d, {3, 5}), gpu());
    LedgerScope scope;
    (void)argsort(dev, 1, Direction::asc, DType::s64);
    EXPECT_EQ(scope.delta().dispatches, 2 + 5 * key_bits / width) << what;
  }
  for (DType d : {DType::f32, DType::s64}) {
    check_sorts(sort_input(d, {9000}, 5), 0, std::string(dtype_name(d)) + " {9000}" + config);
  }
  for (DType d : {DType::u32, DType::u64, DType::f64}) {
    check_sorts(as_type(from_vector(skewed, {9000}), d), 0,
                std::string(dtype_name(d)) + " skewed" + config);
  }
  check_top_k(sort_input(DType::f16, {3, 37}), 5, "f16 {3, 37} k 5" + config);
}

TEST_F(NativeSort, RadixDigitsOf4) {
  check_digit_config("4", "1");
}

// Ballot ranks, the tile staged in shared memory in sorted order before its stores.
TEST_F(NativeSort, RadixDigitsOf8) {
  // Devices like lavapipe (subgroups of 8, 32 KiB shared) and the H200 take 8-bit digits.
  const vk::DeviceCaps caps = vk::testing::device_caps();
  const VkSubgroupFeatureFlags need = VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT;
  if (caps.subgroup_compute && (caps.subgroup_ops & need) == need && caps.subgroup_size >= 8 &&
      caps.subgroup_size <= 128 && vk::testing::device_limits().max_shared_bytes >= 32768) {
    EXPECT_TRUE(vk::testing::sort_radix8_available());
  }
  check_digit_config("8", "1");
}

// Each item stored from its lane.
TEST_F(NativeSort, RadixDigitsOf8Unstaged) {
  check_digit_config("8", "0");
}

TEST_F(NativeSort, BadInputStillThrowsAndFallbackStaysOnCpu) {
  const Tensor dev = transfer(sort_input(DType::f32, {3, 4}), gpu());
  EXPECT_THROW(sort(dev, 2), AxisError);
  EXPECT_THROW(argsort(dev, -3), AxisError);
  EXPECT_THROW(top_k(dev, 5), ShapeError);
  vk::testing::set_native_disabled(Op::argsort, true);
  LedgerScope scope;
  const Tensor r = argsort(dev, 0);
  vk::testing::set_native_disabled(Op::argsort, false);
  EXPECT_EQ(scope.delta().fallbacks, 1u);
  EXPECT_EQ(&r.backend(), &cpu());
}

}  // namespace
}  // namespace vkt::testing
