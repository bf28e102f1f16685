// A value in transit between dtypes, with vkt::convert's semantics (include/vkt/cast.h):
// float -> int saturates (NaN -> 0), int -> int wraps, anything -> float rounds to nearest.
#ifdef VKT_I64
#define IWIDE int64_t
#define UWIDE uint64_t
#else
#define IWIDE int
#define UWIDE uint
#endif
#ifdef VKT_F64
#define FWIDE double
#else
#define FWIDE float
#endif

struct Value {
  bool is_float;
  bool is_unsigned;  // for integers: how the bits in i are read
  FWIDE f;
  IWIDE i;
};

Value int_value(IWIDE bits, bool is_unsigned) { return Value(false, is_unsigned, FWIDE(0), bits); }
Value float_value(FWIDE f) { return Value(true, false, f, IWIDE(0)); }

bool is_unsigned_code(uint d) { return d <= DT_U64 || d == DT_U2 || d == DT_U4; }

// Float to integer dtype d: saturating, NaN -> 0. The upper bound 2^bits (or 2^(bits-1)) is
// exact in every float type, so "x >= bound" decides saturation without rounding trouble.
IWIDE saturate_to_int(FWIDE x, uint d) {
  if (isnan(x)) return IWIDE(0);
  const bool u = is_unsigned_code(d);
  const uint bits = (d == DT_U8 || d == DT_S8) ? 8u : (d == DT_U16 || d == DT_S16) ? 16u
                  : (d == DT_U32 || d == DT_S32) ? 32u : (d == DT_U2 || d == DT_S2) ? 2u
                  : (d == DT_U4 || d == DT_S4) ? 4u : 64u;
  const FWIDE bound = FWIDE(exp2(float(u ? bits : bits - 1u)));
  const FWIDE low = u ? FWIDE(0) : -bound;
  if (x <= low) {
#ifdef VKT_I64
    if (bits == 64u && !u) return IWIDE(0x8000000000000000ul);
#endif
    return u ? IWIDE(0) : IWIDE(-(int(1) << (bits - 1u)));
  }
  if (x >= bound) {
#ifdef VKT_I64
    if (bits == 64u) return u ? IWIDE(0xfffffffffffffffful) : IWIDE(0x7ffffffffffffffful);
#endif
    if (bits == 32u) return u ? IWIDE(0xffffffffu) : IWIDE(0x7fffffff);
    return IWIDE((1u << (u ? bits : bits - 1u)) - 1u);
  }
  return u ? IWIDE(UWIDE(x)) : IWIDE(x);
}

// Integer bits for dtype d (wrapping happens when the store truncates).
IWIDE to_int_bits(Value v, uint d) { return v.is_float ? saturate_to_int(v.f, d) : v.i; }

#ifdef VKT_F64
// f32 <-> f64 of values that are f32 subnormals, formed on the bits: a device that flushes
// f32 subnormals (the H200) flushes them in float(double) and double(float) too, where the
// cpu's conversions are exact (widening) or round once (narrowing).
// A NaN keeps its sign and payload, quieted, as the cpu's conversions keep them (NVIDIA's
// make every NaN one positive NaN, so -NaN reached an f8 as +NaN).
double f64_of_f32(float x) {
  const uint u = floatBitsToUint(x);
  const uint a = u & 0x7fffffffu;
  if (a > 0x7f800000u) {
    return packDouble2x32(
        uvec2((a & 7u) << 29, (u & 0x80000000u) | 0x7ff80000u | ((a & 0x7fffffu) >> 3)));
  }
  if (a == 0u || a >= 0x00800000u) return double(x);
  const double m = ldexp(double(a), -149);  // a * 2^-149, exact
  return (u & 0x80000000u) != 0u ? -m : m;
}
float f32_of_f64(double x) {
  const double a = abs(x);
  if (isnan(x)) {
    const uvec2 w = unpackDouble2x32(x);
    return uintBitsToFloat((w.y & 0x80000000u) | 0x7fc00000u | ((w.y & 0xfffffu) << 3) | (w.x >> 29));
  }
  if (!(a < 1.1754943508222875e-38LF) || a == 0.0LF) return float(x);  // normal or zero
  // Round to nearest even in units of 2^-149; 2^23 units is the smallest normal's encoding.
  // By truncation and the exact remainder, not roundEven: lavapipe (Mesa 22.3.6, LLVM 15) on
  // an AMD EPYC host rounded this tie toward zero (3 * 2^-150 gave 2^-149, not 2^-148).
  const double units = ldexp(a, 149);  // exact, below 2^23
  uint bits = uint(units);
  const double rest = units - double(bits);
  if (rest > 0.5LF || (rest == 0.5LF && (bits & 1u) != 0u)) bits += 1u;
  return uintBitsToFloat((x < 0.0LF ? 0x80000000u : 0u) | bits);
}
#endif
// An f16's value from its bits, a NaN with its sign and payload as the cpu's
// f16_bits_to_float keeps them (NVIDIA's unpackHalf2x16 makes every NaN one positive NaN).
float f32_of_f16_bits(uint h) {
  if ((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0u) {
    return uintBitsToFloat(((h & 0x8000u) << 16) | 0x7f800000u | ((h & 0x3ffu) << 13));
  }
  return unpackHalf2x16(h).x;
}

// A float made a Value's float exactly (f64_of_f32 where the Value holds doubles).
FWIDE widen(float x) {
#ifdef VKT_F64
  return f64_of_f32(x);
#else
  return x;
#endif
}
#ifdef VKT_F64
double widen(double x) { return x; }
#endif

// One rounding from the source to f32, as the cpu's static_cast<float>.
float to_f32(Value v) {
#ifdef VKT_F64
  if (v.is_float) return f32_of_f64(v.f);
#else
  if (v.is_float) return v.f;
#endif
  return v.is_unsigned ? float(UWIDE(v.i)) : float(v.i);
}
#ifdef VKT_F64
double to_f64(Value v) {
  if (v.is_float) return v.f;
  return v.is_unsigned ? double(UWIDE(v.i)) : double(v.i);
}
#endif

// A Value as the widest float of this variant, rounded once (the narrow floats' source).
FWIDE to_fwide(Value v) {
#ifdef VKT_F64
  return to_f64(v);
#else
  return to_f32(v);
#endif
}

#include "narrow_codes.glsl"

// Round-to-nearest-even f32 -> binary16 bits; the cpu's float_to_f16_bits, bit for bit.
uint f32_to_f16_bits(float f) {
  const uint x = floatBitsToUint(f);
  const uint sign = (x >> 16) & 0x8000u;
  const uint a = x & 0x7fffffffu;
  if (a >= 0x7f800000u) return sign | 0x7c00u | (a > 0x7f800000u ? 0x200u : 0u);
  if (a >= 0x477ff000u) return sign | 0x7c00u;
  if (a < 0x38800000u) {
    if (a < 0x33000000u) return sign;
    const uint mant = (a & 0x7fffffu) | 0x800000u;
    const uint shift = 113u - (a >> 23) + 13u;
    uint h = mant >> shift;
    const uint rem = mant & ((1u << shift) - 1u);
    const uint half_ = 1u << (shift - 1u);
    if (rem > half_ || (rem == half_ && (h & 1u) != 0u)) ++h;
    return sign | h;
  }
  uint h = (a >> 13) - (112u << 10);
  const uint rem = a & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u) != 0u)) ++h;
  return sign | h;
}

// Round-to-nearest-even f32 -> bfloat16 bits; the cpu's float_to_bf16_bits.
uint f32_to_bf16_bits(float f) {
  const uint x = floatBitsToUint(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return ((x >> 16) | 0x40u) & 0xffffu;
  return ((x + 0x7fffu + ((x >> 16) & 1u)) >> 16) & 0xffffu;
}
