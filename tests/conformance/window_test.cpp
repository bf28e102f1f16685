// Native window_sum / product / max / min against the cpu backend: every dtype, ranks 0..6,
// strides, padding, dilations, empty results and all-padding windows, NaN / ±0 / ±inf.
//
// Tolerance: max, min and integer sums/products must give the cpu's bits. Float sums and
// products accumulate in the cpu's order, so they differ only where the device's float
// controls do (flushed subnormals): compared with the dtype's default tolerance.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "conformance/bits_check.h"
#include "conformance/fixture.h"
#include "support/compare.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

const DType kAllWindowDTypes[] = {DType::u8,  DType::u16,  DType::u32, DType::u64,
                                  DType::s8,  DType::s16,  DType::s32, DType::s64,
                                  DType::f16, DType::bf16, DType::f32, DType::f64};

bool device_has(DType d) {
  const vk::DeviceCaps& caps = dynamic_cast<vk::VulkanBackend&>(vulkan()).context().caps();
  if (d == DType::f64) return caps.float64 && caps.int64;
  if (itemsize(d) == 8) return caps.int64;
  return true;
}

// Deterministic values with repeats; floats also hold NaN, ±0 and ±inf every few elements
// (none for products, which would make most windows NaN); products stay near one.
Tensor window_input(DType d, const Shape& s, bool for_product, std::uint32_t seed = 5) {
  const std::int64_t n = numel(s);
  std::vector<double> v(static_cast<std::size_t>(n));
  std::uint32_t x = seed * 2654435761u + 99u;
  const double specials[] = {std::numeric_limits<double>::quiet_NaN(), -0.0, 0.0,
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity()};
  for (std::int64_t i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    const double u = static_cast<double>(x >> 8) / static_cast<double>(1u << 24);
    const bool sign = is_signed_integer(d) || is_float(d);
    double val =
        is_float(d) ? std::round((u * 2 - 1) * 64) / 8 : std::floor(u * 250) - (sign ? 125 : 0);
    if (for_product) val = is_float(d) ? 1 + (u - 0.5) * 0.02 : std::floor(u * 5) - (sign ? 2 : 0);
    if (is_float(d) && !for_product && (x >> 3) % 11 == 0) val = specials[(x >> 7) % 5];
    v[static_cast<std::size_t>(i)] = val;
  }
  return as_type(from_vector(v, s), d);
}

using WindowFn = Tensor (*)(const Tensor&, const Shape&, const WindowOptions&);
struct NamedWindow {
  const char* name;
  WindowFn fn;
  bool exact_for_floats, is_product;
};
const NamedWindow kWindows[] = {{"window_sum", &window_sum, false, false},
                                {"window_product", &window_product, false, true},
                                {"window_max", &window_max, true, false},
                                {"window_min", &window_min, true, false}};

struct WindowCase {
  Shape shape, window;
  WindowOptions opts;
};

class NativeWindow : public VulkanTest {
 protected:
  void check(const NamedWindow& op, const Tensor& host, const WindowCase& c,
             const std::string& what) {
    const Tensor dev = transfer(host, gpu());
    LedgerScope scope;
    const Tensor g = op.fn(dev, c.window, c.opts);
    EXPECT_EQ(scope.delta().fallbacks, 0u) << what << ": " << scope.delta().to_string();
    EXPECT_EQ(&g.backend(), &gpu()) << what;
    const Tensor e = op.fn(host, c.window, c.opts);
    if (is_float(e.dtype()) && !op.exact_for_floats) {
      EXPECT_TRUE(tensors_close(g, e)) << what;
    } else {
      EXPECT_TRUE(same_bits(g, e)) << what;
    }
  }
};

std::vector<WindowCase> window_cases() {
  using P = std::pair<std::int64_t, std::int64_t>;
  return {
      {{}, {}, {}},
      {{1}, {1}, {}},
      {{7}, {3}, {}},
      {{0}, {1}, {{1}, {P{1, 2}}, {}}},    // empty input: every window is padding
      {{5}, {7}, {}},                      // the window does not fit: empty result
      {{9}, {3}, {{2}, {P{2, 1}}, {2}}},   // stride, padding, dilation
      {{4, 6}, {2, 2}, {{2, 2}, {}, {}}},  // 2x2 stride-2 pooling
      {{5, 7}, {3, 2}, {{1, 3}, {P{1, 1}, P{0, 2}}, {2, 1}}},
      {{3, 4, 5}, {1, 3, 1}, {}},  // trivial outer and inner axes merge
      {{2, 3, 4, 5}, {2, 1, 2, 3}, {{1, 1, 2, 1}, {P{0, 0}, P{0, 0}, P{1, 0}, P{0, 3}}, {}}},
      {{2, 2, 3, 2, 3, 2}, {1, 1, 2, 1, 1, 2}, {}},          // rank 6, merged to fewer axes
      {{6, 3}, {2, 1}, {{3, 1}, {P{10, 10}, P{0, 0}}, {}}},  // windows wholly in padding
  };
}

TEST_F(NativeWindow, EveryOpDtypeAndGeometry) {
  for (DType d : kAllWindowDTypes) {
    if (!device_has(d)) continue;
    for (const NamedWindow& op : kWindows) {
      for (const WindowCase& c : window_cases()) {
        const Tensor h = window_input(d, c.shape, op.is_product);
        check(op, h, c,
              std::string(op.name) + " " + std::string(dtype_name(d)) + " " + shape_str(c.shape) +
                  " window " + shape_str(c.window));
      }
    }
  }
}

TEST_F(NativeWindow, LargerInputsAndIntegerWrap) {
  using P = std::pair<std::int64_t, std::int64_t>;
  const WindowCase pool{{64, 96}, {3, 3}, {{2, 2}, {P{1, 1}, P{1, 1}}, {}}};
  for (DType d : {DType::u8, DType::s16, DType::s32, DType::f16, DType::f32}) {
    for (const NamedWindow& op : kWindows) {
      check(op, window_input(d, pool.shape, op.is_product, 9), pool,
            std::string(op.name) + " pool " + std::string(dtype_name(d)));
    }
  }
  // u8 sums of 9 values up to 249 wrap modulo 256 as the cpu's.
  const Tensor big = as_type(full({16, 16}, 200.0, DType::f32), DType::u8);
  check(kWindows[0], big, pool, "window_sum u8 wrap");
}

// The last NaN of a window wins (its payload for f32; halves as the cpu's f32 round trip
// leaves them), and max(-0, +0) keeps the first zero.
TEST_F(NativeWindow, NaNPayloadsAndSignedZeros) {
  const std::vector<std::uint32_t> f32_bits = {0x7fc00001u, 0x3f800000u, 0xffc00002u, 0x80000000u,
                                               0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u};
  const Tensor f32 =
      from_bytes(std::as_bytes(std::span<const std::uint32_t>(f32_bits)), DType::f32, {8});
  const std::vector<std::uint16_t> half_bits = {0x7c01u, 0x3c00u, 0xfd02u, 0x8000u,
                                                0x0000u, 0x8000u, 0x0001u, 0x8001u};
  const WindowCase cases[] = {{{8}, {3}, {}}, {{8}, {2}, {{2}, {}, {}}}, {{8}, {8}, {}}};
  for (const NamedWindow& op : {kWindows[2], kWindows[3]}) {
    for (const WindowCase& c : cases) {
      check(op, f32, c, std::string(op.name) + " f32 bits");
      for (DType d : {DType::f16, DType::bf16}) {
        const Tensor h =
            from_bytes(std::as_bytes(std::span<const std::uint16_t>(half_bits)), d, {8});
        check(op, h, c, std::string(op.name) + " " + std::string(dtype_name(d)) + " bits");
      }
    }
  }
}

TEST_F(NativeWindow, BadInputStillThrowsAndFallbackStaysOnCpu) {
  const Tensor dev = transfer(window_input(DType::f32, {4, 4}, false), gpu());
  EXPECT_THROW(window_sum(dev, {2}, {}), ShapeError);
  EXPECT_THROW(window_max(dev, {2, 0}, {}), ShapeError);
  EXPECT_THROW(window_min(dev, {2, 2}, {{1, 1}, {{-1, 0}, {0, 0}}, {}}), ShapeError);
  vk::testing::set_native_disabled(Op::window_max, true);
  LedgerScope scope;
  const Tensor r = window_max(dev, {2, 2}, {});
  vk::testing::set_native_disabled(Op::window_max, false);
  EXPECT_EQ(scope.delta().fallbacks, 1u);
  EXPECT_EQ(&r.backend(), &cpu());
}

}  // namespace
}  // namespace vkt::testing
