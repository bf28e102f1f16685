// Native cumulative_sum / product / max / min against the cpu backend: every dtype, every
// axis of ranks 0..5, reverse, lengths cut into chunks (three-phase scans), NaN; then the
// fallback path.
//
// Tolerance: integers, max and min must match exactly. Float sums and products scan in
// chunks and tiles on the device and sequentially on the cpu, so they compare with the
// dtype's default tolerance plus, relative, 8 * eps * sqrt(length) (eps of f32, or f64) and
// for sums, absolute, 8 * eps * sqrt(length) * 4 * sqrt(length) (rounding errors grow like
// sqrt(length), running sums of values in [-4, 4] like 4 * sqrt(length)).
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include "conformance/fixture.h"
#include "support/compare.h"
#include "vkt/backend/op_call.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

const DType kScanDTypes[] = {DType::u8,  DType::s8,   DType::s32, DType::u64,
                             DType::f16, DType::bf16, DType::f32, DType::f64};

bool scan_device_has(DType d) {
  const vk::DeviceCaps& caps = dynamic_cast<vk::VulkanBackend&>(vulkan()).context().caps();
  if (d == DType::f64) return caps.float64 && caps.int64;
  if (itemsize(d) == 8) return caps.int64;
  return true;
}

// Deterministic values: spans signs for sums/max/min; near one for products (floats).
Tensor scan_input(DType d, const Shape& s, bool for_product, std::uint32_t seed = 3) {
  const std::int64_t n = numel(s);
  std::vector<double> v(static_cast<std::size_t>(n));
  std::uint32_t x = seed * 2654435761u + 777u;
  for (std::int64_t i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    const double u = static_cast<double>(x >> 8) / static_cast<double>(1u << 24);
    const bool sign = is_signed_integer(d) || is_float(d);
    double val = is_float(d) ? (u * 2 - 1) * 4 : std::floor(u * 200) - (sign ? 100 : 0);
    if (for_product) {
      val = is_float(d) ? 1 + (u - 0.5) * 0.02 : std::floor(u * 7) - (sign ? 3 : 0);
    }
    v[static_cast<std::size_t>(i)] = val;
  }
  return as_type(from_vector(v, s), d);
}

using ScanFn = Tensor (*)(const Tensor&, std::int64_t, bool);
struct NamedScan {
  const char* name;
  ScanFn fn;
  bool is_sum, is_product;
};

const NamedScan kScans[] = {
    {"cumulative_sum", &cumulative_sum, true, false},
    {"cumulative_product", &cumulative_product, false, true},
    {"cumulative_max", &cumulative_max, false, false},
    {"cumulative_min", &cumulative_min, false, false},
};

class NativeCumulative : public VulkanTest {
 protected:
  void check(const NamedScan& op, const Tensor& host, std::int64_t axis, bool reverse,
             const std::string& what) {
    const Tensor dev = transfer(host, gpu());
    LedgerScope scope;
    const Tensor g = op.fn(dev, axis, reverse);
    EXPECT_EQ(scope.delta().fallbacks, 0u) << what << ": " << scope.delta().to_string();
    EXPECT_EQ(&g.backend(), &gpu()) << what;
    const Tensor c = op.fn(host, axis, reverse);
    Tolerance tol{0, 0};
    if (is_float(c.dtype()) && (op.is_sum || op.is_product)) {
      const double len = host.rank() == 0 ? 1.0 : static_cast<double>(host.dim(axis));
      const double eps = c.dtype() == DType::f64 ? 2.2e-16 : 1.2e-7;
      tol = default_tolerance(c.dtype());
      tol.rtol += 8 * eps * std::sqrt(len);
      if (op.is_sum) tol.atol += 8 * eps * std::sqrt(len) * 4 * std::sqrt(len);
    }
    EXPECT_TRUE(tensors_close(g, c, tol)) << what;
  }
};

std::string scan_label(const NamedScan& op, DType d, const Shape& s, std::int64_t axis,
                       bool reverse) {
  return std::string(op.name) + " " + std::string(dtype_name(d)) + " " + shape_str(s) + " axis " +
         std::to_string(axis) + (reverse ? " reverse" : "");
}

TEST_F(NativeCumulative, EveryOpDtypeAxisAndDirection) {
  const std::vector<Shape> shapes = {
      {0}, {1}, {7}, {3, 5}, {2, 0, 3}, {4, 3, 5}, {2, 3, 1, 4, 5}, {3, 130}, {130, 3}, {9, 70}};
  for (DType d : kScanDTypes) {
    if (!scan_device_has(d)) continue;
    for (const NamedScan& op : kScans) {
      for (const Shape& s : shapes) {
        const Tensor h = scan_input(d, s, op.is_product);
        const std::int64_t rank = static_cast<std::int64_t>(s.size());
        for (std::int64_t a = 0; a < rank; ++a) {
          for (bool reverse : {false, true}) {
            check(op, h, a, reverse, scan_label(op, d, s, a, reverse));
          }
        }
      }
    }
  }
}

TEST_F(NativeCumulative, LongAxesScanInChunks) {
  const std::vector<std::pair<Shape, std::int64_t>> cases = {
      {{60000}, 0}, {{3, 20001}, 1}, {{20001, 3}, 0}, {{2, 9000, 2}, 1}};
  for (DType d : {DType::u8, DType::s64, DType::f16, DType::f32, DType::f64}) {
    if (!scan_device_has(d)) continue;
    for (const NamedScan& op : kScans) {
      for (const auto& [s, axis] : cases) {
        const Tensor h = scan_input(d, s, op.is_product);
        for (bool reverse : {false, true}) {
          check(op, h, axis, reverse, scan_label(op, d, s, axis, reverse));
        }
      }
    }
  }
}

TEST_F(NativeCumulative, NanPropagatesFromItsPosition) {
  for (DType d : {DType::f16, DType::bf16, DType::f32, DType::f64}) {
    if (!scan_device_has(d)) continue;
    for (const NamedScan& op : kScans) {
      const Tensor base = scan_input(DType::f64, {3, 20001}, op.is_product);
      std::vector<double> v(static_cast<std::size_t>(base.size()));
      std::memcpy(v.data(), base.to_bytes().data(), v.size() * sizeof(double));
      for (std::size_t i : {5u, 15000u, 20001u + 19999u, 40010u}) v[i] = std::nan("");
      const Tensor h = as_type(from_vector(v, {3, 20001}), d);
      for (std::int64_t axis : {0, 1}) {
        for (bool reverse : {false, true}) {
          check(op, h, axis, reverse, scan_label(op, d, {3, 20001}, axis, reverse) + " nan");
        }
      }
    }
  }
}

TEST_F(NativeCumulative, FallbackWhenNativeIsOff) {
  const Op ops[] = {Op::cumulative_sum, Op::cumulative_product, Op::cumulative_max,
                    Op::cumulative_min};
  for (Op op : ops) vk::testing::set_native_disabled(op, true);
  const Tensor h = scan_input(DType::s32, {4, 3, 5}, false);
  const Tensor dev = transfer(h, gpu());
  for (const NamedScan& op : kScans) {
    LedgerScope scope;
    const Tensor g = op.fn(dev, 1, true);
    EXPECT_GT(scope.delta().fallbacks, 0u) << op.name;
    EXPECT_TRUE(tensors_close(g, op.fn(h, 1, true), Tolerance{0, 0})) << op.name;
  }
  for (Op op : ops) vk::testing::set_native_disabled(op, false);
}

}  // namespace
}  // namespace vkt::testing
