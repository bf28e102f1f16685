// The narrow dtypes' codes: values of s2/s4/u2/u4 and the two 8-bit float formats (OFP8's
// E5M2 as Nx's f8, E4M3FN with Nx's saturation), and Nx's packed binary of the sub-byte ones.
#include <cmath>
#include <cstring>
#include <string>

#include "core/narrow.h"
#include "vkt/error.h"

namespace vkt {
namespace {

struct Minifloat {
  int exponent_bits, mantissa_bits, bias;
  bool has_infinity;
  std::uint8_t max_finite, nan;  // codes without the sign bit
};

const Minifloat& minifloat(DType d) {
  static constexpr Minifloat e5m2{5, 2, 15, true, 0x7b, 0x7e};
  static constexpr Minifloat e4m3fn{4, 3, 7, false, 0x7e, 0x7f};
  if (d == DType::f8) return e5m2;
  if (d == DType::f8_e4m3fn) return e4m3fn;
  throw TypeError("[dtype] " + std::string(dtype_name(d)) + " is not an 8-bit float");
}

std::uint8_t encode_minifloat(const Minifloat& f, double v) {
  const std::uint8_t sign = std::signbit(v) ? 0x80 : 0x00;
  if (std::isnan(v)) return sign | f.nan;
  const std::uint8_t overflow = f.has_infinity ? std::uint8_t(f.max_finite + 1) : f.max_finite;
  const double a = std::fabs(v);
  if (std::isinf(a)) return sign | overflow;
  if (a == 0) return sign;
  int e = 0;
  std::frexp(a, &e);
  int exponent = e - 1;  // a = 1.m * 2^exponent
  const int min_exponent = 1 - f.bias;
  const double one = std::ldexp(1.0, f.mantissa_bits);
  if (exponent < min_exponent) {
    // Subnormal: a count of 2^(min_exponent - mantissa_bits); rounding up to `one` gives
    // the smallest normal's code.
    return sign |
           static_cast<std::uint8_t>(std::nearbyint(std::ldexp(a, f.mantissa_bits - min_exponent)));
  }
  const int max_biased = (1 << f.exponent_bits) - 1;
  if (exponent + f.bias > max_biased) return sign | overflow;
  double q = std::nearbyint(std::ldexp(a, f.mantissa_bits - exponent));  // in [one, 2 one]
  if (q == 2 * one) {
    q = one;
    ++exponent;
  }
  const int biased = exponent + f.bias;
  const int code = (biased << f.mantissa_bits) | static_cast<int>(q - one);
  if (biased > max_biased || code > f.max_finite) return sign | overflow;
  return sign | static_cast<std::uint8_t>(code);
}

double decode_minifloat(const Minifloat& f, std::uint8_t code) {
  const bool negative = (code & 0x80) != 0;
  const int mantissa_mask = (1 << f.mantissa_bits) - 1;
  const int max_biased = (1 << f.exponent_bits) - 1;
  const int biased = (code & 0x7f) >> f.mantissa_bits;
  const int mantissa = code & mantissa_mask;
  double a = 0;
  if (f.has_infinity && biased == max_biased) {
    a = mantissa == 0 ? HUGE_VAL : NAN;
  } else if ((code & 0x7f) > f.max_finite) {
    a = NAN;
  } else if (biased == 0) {
    a = std::ldexp(mantissa, 1 - f.bias - f.mantissa_bits);
  } else {
    a = std::ldexp(mantissa + (1 << f.mantissa_bits), biased - f.bias - f.mantissa_bits);
  }
  return negative ? -a : a;
}

std::uint8_t bit_mask(DType d) {
  return static_cast<std::uint8_t>((1u << bit_width(d)) - 1u);
}

}  // namespace

std::int64_t narrow_to_int(DType d, std::uint8_t code) {
  if (!is_narrow(d) || !is_integer(d)) {
    throw TypeError("[dtype] " + std::string(dtype_name(d)) + " is not a narrow integer");
  }
  const std::int64_t bits = code & bit_mask(d);
  if (is_unsigned_integer(d)) return bits;
  const std::int64_t half = std::int64_t{1} << (bit_width(d) - 1);
  return (bits ^ half) - half;
}

double narrow_to_double(DType d, std::uint8_t code) {
  if (is_integer(d)) return static_cast<double>(narrow_to_int(d, code));
  return decode_minifloat(minifloat(d), code);
}

std::uint8_t narrow_from_int(DType d, std::int64_t v) {
  if (is_float(d)) return encode_minifloat(minifloat(d), static_cast<double>(v));
  if (!is_narrow(d)) throw TypeError("[dtype] " + std::string(dtype_name(d)) + " is not narrow");
  return static_cast<std::uint8_t>(static_cast<std::uint64_t>(v) & bit_mask(d));
}

std::uint8_t narrow_from_double(DType d, double v) {
  if (is_float(d)) return encode_minifloat(minifloat(d), v);
  if (!is_narrow(d)) throw TypeError("[dtype] " + std::string(dtype_name(d)) + " is not narrow");
  if (std::isnan(v)) return 0;
  const double top = static_cast<double>(is_unsigned_integer(d) ? bit_mask(d) : bit_mask(d) >> 1);
  const double bottom = is_unsigned_integer(d) ? 0.0 : -top - 1;
  return narrow_from_int(d, static_cast<std::int64_t>(std::fmax(bottom, std::fmin(top, v))));
}

namespace detail {

void pack_narrow(DType d, std::span<const std::uint8_t> codes, std::span<std::byte> binary) {
  const int bits = bit_width(d);
  if (bits == 8) {
    if (!codes.empty()) std::memcpy(binary.data(), codes.data(), codes.size());
    return;
  }
  if (binary.empty()) return;  // no elements: memset may not take an empty span's null
  std::memset(binary.data(), 0, binary.size());
  const std::uint8_t mask = bit_mask(d);
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const std::size_t bit = i * static_cast<std::size_t>(bits);
    const int shift = 8 - bits - static_cast<int>(bit % 8);
    binary[bit / 8] |= static_cast<std::byte>((codes[i] & mask) << shift);
  }
}

void unpack_narrow(DType d, std::span<const std::byte> binary, std::span<std::uint8_t> codes) {
  const int bits = bit_width(d);
  if (bits == 8) {
    if (!codes.empty()) std::memcpy(codes.data(), binary.data(), codes.size());
    return;
  }
  const std::uint8_t mask = bit_mask(d);
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const std::size_t bit = i * static_cast<std::size_t>(bits);
    const int shift = 8 - bits - static_cast<int>(bit % 8);
    codes[i] = static_cast<std::uint8_t>((static_cast<unsigned>(binary[bit / 8]) >> shift) & mask);
  }
}

}  // namespace detail
}  // namespace vkt
