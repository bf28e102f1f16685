#include "vkt/dtype.h"

#include <string>

#include "vkt/error.h"

namespace vkt {

std::string_view dtype_name(DType d) {
  switch (d) {
    case DType::u8:
      return "u8";
    case DType::u16:
      return "u16";
    case DType::u32:
      return "u32";
    case DType::u64:
      return "u64";
    case DType::s8:
      return "s8";
    case DType::s16:
      return "s16";
    case DType::s32:
      return "s32";
    case DType::s64:
      return "s64";
    case DType::f16:
      return "f16";
    case DType::bf16:
      return "bf16";
    case DType::f32:
      return "f32";
    case DType::f64:
      return "f64";
    case DType::c64:
      return "c64";
    case DType::c128:
      return "c128";
    case DType::s2:
      return "s2";
    case DType::s4:
      return "s4";
    case DType::u2:
      return "u2";
    case DType::u4:
      return "u4";
    case DType::f8:
      return "f8";
    case DType::f8_e4m3fn:
      return "f8_e4m3fn";
  }
  return "?";
}

DType dtype_from_name(std::string_view name) {
  for (DType d : kAllDTypes) {
    if (dtype_name(d) == name) return d;
  }
  throw TypeError("[dtype] unknown dtype name '" + std::string(name) + "'");
}

std::size_t itemsize(DType d) {
  return is_narrow(d) ? 1 : static_cast<std::size_t>(bit_width(d) / 8);
}

bool is_narrow(DType d) {
  return d >= DType::s2;
}

DType wide_type(DType d) {
  switch (d) {
    case DType::s2:
    case DType::s4:
      return DType::s8;
    case DType::u2:
    case DType::u4:
      return DType::u8;
    case DType::f8:
    case DType::f8_e4m3fn:
      return DType::f32;
    default:
      return d;
  }
}

std::size_t binary_nbytes(DType d, std::int64_t n) {
  const auto bits = static_cast<std::size_t>(n) * static_cast<std::size_t>(bit_width(d));
  return (bits + 7) / 8;
}

int bit_width(DType d) {
  switch (d) {
    case DType::u8:
    case DType::s8:
      return 8;
    case DType::u16:
    case DType::s16:
    case DType::f16:
    case DType::bf16:
      return 16;
    case DType::u32:
    case DType::s32:
    case DType::f32:
      return 32;
    case DType::u64:
    case DType::s64:
    case DType::f64:
    case DType::c64:
      return 64;
    case DType::c128:
      return 128;
    case DType::s2:
    case DType::u2:
      return 2;
    case DType::s4:
    case DType::u4:
      return 4;
    case DType::f8:
    case DType::f8_e4m3fn:
      return 8;
  }
  return 0;
}

bool is_float(DType d) {
  return d == DType::f16 || d == DType::bf16 || d == DType::f32 || d == DType::f64 ||
         d == DType::f8 || d == DType::f8_e4m3fn;
}
bool is_signed_integer(DType d) {
  return d == DType::s8 || d == DType::s16 || d == DType::s32 || d == DType::s64 ||
         d == DType::s2 || d == DType::s4;
}
bool is_unsigned_integer(DType d) {
  return d == DType::u8 || d == DType::u16 || d == DType::u32 || d == DType::u64 ||
         d == DType::u2 || d == DType::u4;
}
bool is_complex(DType d) {
  return d == DType::c64 || d == DType::c128;
}
bool is_integer(DType d) {
  return is_signed_integer(d) || is_unsigned_integer(d);
}

namespace {
DType signed_of_width(int bits) {
  switch (bits) {
    case 2:
      return DType::s2;
    case 4:
      return DType::s4;
    case 8:
      return DType::s8;
    case 16:
      return DType::s16;
    case 32:
      return DType::s32;
    default:
      return DType::s64;
  }
}
}  // namespace

DType promote(DType a, DType b) {
  if (a == b) return a;
  if (is_complex(a) || is_complex(b)) {
    const bool wide = a == DType::c128 || b == DType::c128 || a == DType::f64 || b == DType::f64;
    return wide ? DType::c128 : DType::c64;
  }
  const bool fa = is_float(a), fb = is_float(b);
  if (fa && fb) {
    if ((a == DType::bf16 && b == DType::f16) || (a == DType::f16 && b == DType::bf16)) {
      return DType::f32;
    }
    // Of two 8-bit formats neither holds the other; f16 holds both exactly (Nx's merge
    // would keep whichever came first).
    if (bit_width(a) == 8 && bit_width(b) == 8) return DType::f16;
    return bit_width(a) >= bit_width(b) ? a : b;
  }
  if (fa) return a;
  if (fb) return b;
  const bool sa = is_signed_integer(a), sb = is_signed_integer(b);
  if (sa == sb) return bit_width(a) >= bit_width(b) ? a : b;
  const int signed_bits = sa ? bit_width(a) : bit_width(b);
  const int unsigned_bits = sa ? bit_width(b) : bit_width(a);
  // A signed type holding every value of the unsigned one needs one more bit.
  return signed_of_width(std::max(signed_bits, std::min(unsigned_bits * 2, 64)));
}

DType to_float_type(DType d) {
  return is_float(d) || is_complex(d) ? d : DType::f32;
}

DType to_real_type(DType d) {
  if (d == DType::c64) return DType::f32;
  if (d == DType::c128) return DType::f64;
  return is_float(d) ? d : DType::f32;
}

DType to_complex_type(DType d) {
  return d == DType::c128 || d == DType::f64 ? DType::c128 : DType::c64;
}

namespace detail {
void complex_reached_real_kernel(DType d) {
  throw Unsupported("[dtype] a real-only kernel was handed " + std::string(dtype_name(d)) +
                    " (the op's dtype checks should have refused it)");
}
void narrow_reached_value_kernel(DType d) {
  throw Unsupported("[dtype] a value kernel was handed " + std::string(dtype_name(d)) +
                    " (the core computes narrow dtypes in their wide type)");
}
void throw_not_complex(DType d) {
  throw TypeError("[dtype] expected c64 or c128, got " + std::string(dtype_name(d)));
}
}  // namespace detail

// ---- half-precision conversion (bit exact, round to nearest even) ----
float f16_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  std::uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400u) == 0);
      bits = sign | (static_cast<std::uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3ffu) << 13);
    }
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

std::uint16_t float_to_f16_bits(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or nan (keep nan quiet)
    return static_cast<std::uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
  }
  if (abs >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // overflow
  if (abs < 0x38800000u) {  // result is subnormal or zero
    if (abs < 0x33000000u) return static_cast<std::uint16_t>(sign);
    const std::uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    const int shift = 113 - static_cast<int>(abs >> 23) + 13;
    std::uint32_t h = mant >> shift;
    const std::uint32_t rem = mant & ((1u << shift) - 1);
    const std::uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1u))) ++h;
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = ((abs >> 13) - (112u << 10));
  const std::uint32_t rem = abs & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return static_cast<std::uint16_t>(sign | h);
}

std::uint16_t float_to_bf16_bits(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);
  const std::uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>((x + rounding) >> 16);
}

}  // namespace vkt
