// Element types, their C++ value types and Nx's promotion rules.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace vkt {

// c64 / c128: complex numbers of two f32 / two f64 (real part first), as Nx's {:c, 64/128}.
// The narrow dtypes (after c128, so earlier values keep their numbers): Nx's s2, s4, u2, u4,
// f8 (E5M2) and f8_e4m3fn. A tensor stores one per byte (as EXLA and NumPy's ml_dtypes do:
// an integer's two's-complement bits in the low bits, the rest zero; a float's code), and
// from_bytes/to_bytes use Nx's packed binary (binary_nbytes). Ops other than as_type, copy
// and those that only move words compute them in their wide type (narrow.h in the core).
enum class DType : std::uint8_t {
  u8,
  u16,
  u32,
  u64,
  s8,
  s16,
  s32,
  s64,
  f16,
  bf16,
  f32,
  f64,
  c64,
  c128,
  s2,
  s4,
  u2,
  u4,
  f8,
  f8_e4m3fn
};

inline constexpr DType kRealDTypes[] = {DType::u8,  DType::u16,  DType::u32, DType::u64,
                                        DType::s8,  DType::s16,  DType::s32, DType::s64,
                                        DType::f16, DType::bf16, DType::f32, DType::f64};
inline constexpr DType kComplexDTypes[] = {DType::c64, DType::c128};
// The dtypes with a C++ value type (visit_any_dtype): every dtype but the narrow ones.
inline constexpr DType kValueDTypes[] = {
    DType::u8,  DType::u16, DType::u32,  DType::u64, DType::s8,  DType::s16, DType::s32,
    DType::s64, DType::f16, DType::bf16, DType::f32, DType::f64, DType::c64, DType::c128};

inline constexpr DType kNarrowDTypes[] = {DType::s2, DType::s4, DType::u2,
                                          DType::u4, DType::f8, DType::f8_e4m3fn};
inline constexpr DType kAllDTypes[] = {
    DType::u8,  DType::u16, DType::u32,  DType::u64, DType::s8,  DType::s16,      DType::s32,
    DType::s64, DType::f16, DType::bf16, DType::f32, DType::f64, DType::c64,      DType::c128,
    DType::s2,  DType::s4,  DType::u2,   DType::u4,  DType::f8,  DType::f8_e4m3fn};

std::string_view dtype_name(DType d);
// Parses "f32", "s64", ... ; throws TypeError on an unknown name.
DType dtype_from_name(std::string_view name);
// Bytes per element in a tensor's storage (1 for every narrow dtype).
std::size_t itemsize(DType d);
// Real floating point (f8, f8_e4m3fn, f16, bf16, f32, f64); complex dtypes are neither
// float nor integer.
bool is_float(DType d);
bool is_complex(DType d);
bool is_integer(DType d);
bool is_signed_integer(DType d);
bool is_unsigned_integer(DType d);
// Nx's size in bits (2 for s2, 8 for f8...).
int bit_width(DType d);
// s2, s4, u2, u4, f8, f8_e4m3fn.
bool is_narrow(DType d);
// The dtype a narrow one computes in, holding each of its values exactly: s8 for s2/s4, u8
// for u2/u4, f32 for the f8s (f32's 24 bits make rounding its +, -, *, / and sqrt to 8 bits
// the same as rounding the exact result once); d itself for the others.
DType wide_type(DType d);
// Bytes of n elements in Nx's binary (from_bytes, to_bytes): s2/s4/u2/u4 packed, the first
// element in the high bits of the first byte, a last partial byte's low bits zero.
std::size_t binary_nbytes(DType d, std::int64_t n);

// A narrow dtype's values and codes (its storage byte), with as_type's semantics: to an
// integer narrow type a float saturates (NaN gives 0) and an integer wraps; to f8 a value
// rounds to nearest even once, overflow giving inf; to f8_e4m3fn, which has no infinity,
// overflow and +-inf saturate at +-448 (Nx's rule); NaN keeps its sign (0x7f / 0xff).
double narrow_to_double(DType d, std::uint8_t code);
std::int64_t narrow_to_int(DType d, std::uint8_t code);  // integer narrow dtypes only
std::uint8_t narrow_from_double(DType d, double v);
std::uint8_t narrow_from_int(DType d, std::int64_t v);

// Nx's type promotion: same kind keeps the wider; signed with unsigned gives a signed type
// wide enough for both (capped at s64); float beats integer; f16 with bf16 gives f32;
// complex beats everything, and a float with a complex gives a complex holding both (f64
// with c64 is c128).
DType promote(DType a, DType b);
// The type float functions (exp, divide...) compute in: integers in f32; floats and
// complex dtypes as they are (Nx's to_floating).
DType to_float_type(DType d);
// The real type of a dtype's components (Nx's to_real): c64 -> f32, c128 -> f64, floats
// unchanged, integers f32.
DType to_real_type(DType d);
// The smallest complex type holding d (Nx's to_complex): f64 -> c128, others -> c64.
DType to_complex_type(DType d);

// IEEE binary16, stored as bits; arithmetic happens in float.
struct f16 {
  std::uint16_t bits = 0;
  f16() = default;
  explicit f16(float v);
  operator float() const;
};

// bfloat16 (upper half of a binary32), round-to-nearest-even; arithmetic in float.
struct bf16 {
  std::uint16_t bits = 0;
  bf16() = default;
  explicit bf16(float v);
  operator float() const;
};

float f16_bits_to_float(std::uint16_t h);
std::uint16_t float_to_f16_bits(float f);
inline float bf16_bits_to_float(std::uint16_t h) {
  std::uint32_t u = static_cast<std::uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
std::uint16_t float_to_bf16_bits(float f);

inline f16::f16(float v) : bits(float_to_f16_bits(v)) {}
inline f16::operator float() const {
  return f16_bits_to_float(bits);
}
inline bf16::bf16(float v) : bits(float_to_bf16_bits(v)) {}
inline bf16::operator float() const {
  return bf16_bits_to_float(bits);
}

template <class T>
struct dtype_of;
template <>
struct dtype_of<std::uint8_t> {
  static constexpr DType value = DType::u8;
};
template <>
struct dtype_of<std::uint16_t> {
  static constexpr DType value = DType::u16;
};
template <>
struct dtype_of<std::uint32_t> {
  static constexpr DType value = DType::u32;
};
template <>
struct dtype_of<std::uint64_t> {
  static constexpr DType value = DType::u64;
};
template <>
struct dtype_of<std::int8_t> {
  static constexpr DType value = DType::s8;
};
template <>
struct dtype_of<std::int16_t> {
  static constexpr DType value = DType::s16;
};
template <>
struct dtype_of<std::int32_t> {
  static constexpr DType value = DType::s32;
};
template <>
struct dtype_of<std::int64_t> {
  static constexpr DType value = DType::s64;
};
template <>
struct dtype_of<f16> {
  static constexpr DType value = DType::f16;
};
template <>
struct dtype_of<bf16> {
  static constexpr DType value = DType::bf16;
};
template <>
struct dtype_of<float> {
  static constexpr DType value = DType::f32;
};
template <>
struct dtype_of<double> {
  static constexpr DType value = DType::f64;
};
template <>
struct dtype_of<std::complex<float>> {
  static constexpr DType value = DType::c64;
};
template <>
struct dtype_of<std::complex<double>> {
  static constexpr DType value = DType::c128;
};
template <class T>
inline constexpr DType dtype_of_v = dtype_of<T>::value;

template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, f16> || std::is_same_v<T, bf16>;
template <class T>
inline constexpr bool is_float_v = is_half_v<T> || std::is_floating_point_v<T>;
template <class T>
inline constexpr bool is_complex_v =
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

// The type arithmetic on T is carried out in: f16/bf16 compute in float.
template <class T>
using compute_t = std::conditional_t<is_half_v<T>, float, T>;

namespace detail {
[[noreturn]] void throw_not_complex(DType d);
// Thrown by visit_dtype on a complex dtype: the op table (dtypes column) keeps complex
// tensors away from real-only kernels, so reaching it is a bug in a family's checks.
[[noreturn]] void complex_reached_real_kernel(DType d);
// Thrown by visit_dtype on a narrow dtype: the core computes those in their wide type, so
// only conversions and word-moving kernels see them (by their codes).
[[noreturn]] void narrow_reached_value_kernel(DType d);
}  // namespace detail

// Calls f(std::type_identity<T>{}) with T the value type of d, a real dtype (complex dtypes
// go through visit_complex_dtype or visit_any_dtype).
template <class F>
decltype(auto) visit_dtype(DType d, F&& f) {
  switch (d) {
    case DType::u8:
      return f(std::type_identity<std::uint8_t>{});
    case DType::u16:
      return f(std::type_identity<std::uint16_t>{});
    case DType::u32:
      return f(std::type_identity<std::uint32_t>{});
    case DType::u64:
      return f(std::type_identity<std::uint64_t>{});
    case DType::s8:
      return f(std::type_identity<std::int8_t>{});
    case DType::s16:
      return f(std::type_identity<std::int16_t>{});
    case DType::s32:
      return f(std::type_identity<std::int32_t>{});
    case DType::s64:
      return f(std::type_identity<std::int64_t>{});
    case DType::f16:
      return f(std::type_identity<f16>{});
    case DType::bf16:
      return f(std::type_identity<bf16>{});
    case DType::f32:
      return f(std::type_identity<float>{});
    case DType::f64:
      return f(std::type_identity<double>{});
    case DType::c64:
    case DType::c128:
      detail::complex_reached_real_kernel(d);
    case DType::s2:
    case DType::s4:
    case DType::u2:
    case DType::u4:
    case DType::f8:
    case DType::f8_e4m3fn:
      detail::narrow_reached_value_kernel(d);
  }
  return f(std::type_identity<float>{});  // unreachable: every enumerator is handled
}

// Calls f(std::type_identity<std::complex<R>>{}) for c64 (R = float) and c128 (R = double).
template <class F>
decltype(auto) visit_complex_dtype(DType d, F&& f) {
  if (d == DType::c128) return f(std::type_identity<std::complex<double>>{});
  if (d != DType::c64) detail::throw_not_complex(d);
  return f(std::type_identity<std::complex<float>>{});
}

// visit_dtype over every dtype, complex included.
template <class F>
decltype(auto) visit_any_dtype(DType d, F&& f) {
  if (is_complex(d)) return visit_complex_dtype(d, std::forward<F>(f));
  return visit_dtype(d, std::forward<F>(f));
}

}  // namespace vkt
