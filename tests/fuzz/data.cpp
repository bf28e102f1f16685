#include "fuzz/data.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "fuzz/rng.h"

namespace vkt::fuzz {
namespace {

// Bit patterns: +0 -0, smallest and largest subnormal, another subnormal, smallest normal,
// +-largest finite, +-inf, quiet NaN, a negative NaN with a payload, a signalling NaN, 1.
const std::vector<std::uint64_t> kF32 = {0x0,        0x80000000, 0x1,        0x807fffff, 0x12345,
                                         0x800000,   0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
                                         0x7fc00000, 0xffc00123, 0x7fa00000, 0x3f800000};
const std::vector<std::uint64_t> kF64 = {0x0,
                                         0x8000000000000000,
                                         0x1,
                                         0x800fffffffffffff,
                                         0x123456789,
                                         0x10000000000000,
                                         0x7fefffffffffffff,
                                         0xffefffffffffffff,
                                         0x7ff0000000000000,
                                         0xfff0000000000000,
                                         0x7ff8000000000000,
                                         0xfff8000000000123,
                                         0x7ff4000000000000,
                                         0x3ff0000000000000};
const std::vector<std::uint64_t> kF16 = {0x0,    0x8000, 0x1,    0x83ff, 0x123,  0x400,  0x7bff,
                                         0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x7d00, 0x3c00};
const std::vector<std::uint64_t> kBF16 = {0x0,    0x8000, 0x1,    0x807f, 0x12,   0x80,   0x7f7f,
                                          0xff7f, 0x7f80, 0xff80, 0x7fc0, 0xffc1, 0x7fa0, 0x3f80};

const std::vector<std::uint64_t>& specials(DType d) {
  switch (d) {
    case DType::f64:
      return kF64;
    case DType::f16:
      return kF16;
    case DType::bf16:
      return kBF16;
    default:
      return kF32;
  }
}

// An ordinary value: small integers, numbers near 1, and magnitudes across the range.
double ordinary(Rng& rng, DType d) {
  const double r = rng.unit();
  if (r < 0.4) return static_cast<double>(rng.range(-8, 8));
  if (r < 0.7) return 8 * rng.unit() - 4;
  const double decades = d == DType::f64 ? 310 : 45;
  const double sign = rng.chance(0.5) ? -1 : 1;
  return sign * std::pow(10.0, (2 * rng.unit() - 1) * decades);
}

}  // namespace

std::vector<std::byte> make_values(DType d, std::int64_t n, std::uint64_t seed,
                                   double special_rate) {
  // A complex element is two parts of its real type, real first: each part drawn alone.
  if (is_complex(d)) return make_values(to_real_type(d), 2 * n, seed, special_rate);
  Rng rng(seed);
  if (is_narrow(d)) {  // Nx's binary, every bit pattern valid: each code (NaN, inf) drawn alike
    std::vector<std::byte> out(binary_nbytes(d, n));
    for (std::byte& b : out) b = static_cast<std::byte>(rng.next() & 0xff);
    return out;
  }
  const std::size_t w = itemsize(d);
  std::vector<std::byte> out(static_cast<std::size_t>(n) * w);
  visit_dtype(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
      T v{};
      if constexpr (is_float_v<T>) {
        if (rng.chance(special_rate)) {
          const std::uint64_t bits = rng.pick(specials(d));
          std::memcpy(static_cast<void*>(&v), &bits, w);  // little-endian: the low bytes
        } else {
          v = convert<T>(ordinary(rng, d));
        }
      } else {
        const double r = rng.unit();
        if (r < 0.15) {
          const std::vector<T> extremes = {std::numeric_limits<T>::min(),
                                           std::numeric_limits<T>::max(),
                                           static_cast<T>(std::numeric_limits<T>::min() + 1),
                                           static_cast<T>(std::numeric_limits<T>::max() - 1)};
          v = rng.pick(extremes);
        } else if (r < 0.25) {
          v = static_cast<T>(rng.next());
        } else {
          v = convert<T>(static_cast<std::int64_t>(rng.range(-20, 20)));
        }
      }
      std::memcpy(out.data() + i * w, &v, w);
    }
  });
  return out;
}

std::vector<std::byte> make_indices(DType d, std::int64_t n, std::uint64_t seed, std::int64_t lo,
                                    std::int64_t hi) {
  Rng rng(seed);
  const std::size_t w = itemsize(d);
  std::vector<std::byte> out(static_cast<std::size_t>(n) * w);
  visit_dtype(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
      const T v = convert<T>(static_cast<double>(rng.range(lo, hi)));
      std::memcpy(out.data() + i * w, &v, w);
    }
  });
  return out;
}

std::vector<std::byte> make_triangle(DType d, const Shape& shape, bool lower, std::uint64_t seed) {
  Rng rng(seed);
  const std::size_t w = itemsize(d);
  const std::int64_t count = numel(shape);
  const std::int64_t n = shape.empty() ? 1 : shape.back();
  std::vector<std::byte> out(static_cast<std::size_t>(count) * w);
  visit_dtype(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      for (std::int64_t e = 0; e < count; ++e) {
        const std::int64_t i = e / n % n, j = e % n;
        double v = std::numeric_limits<double>::quiet_NaN();  // the half that is never read
        if (i == j) {
          v = 2 + rng.unit();
        } else if (lower ? j < i : j > i) {
          // Never zero: a zero times an infinity another order made would hide a difference.
          v = (rng.chance(0.5) ? -1 : 1) * (0.25 + 0.75 * rng.unit()) / static_cast<double>(n);
        }
        const T t = convert<T>(v);
        std::memcpy(out.data() + static_cast<std::size_t>(e) * w, &t, w);
      }
    }
  });
  return out;
}

}  // namespace vkt::fuzz
