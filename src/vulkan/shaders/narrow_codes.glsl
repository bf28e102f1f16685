// The narrow dtypes' one-byte codes (vkt::narrow_to_* / narrow_from_* on the cpu): integers
// in the low bits, and the 8-bit floats E5M2 (DT_F8) and E4M3FN (saturating at +-448, Nx's
// rule), rounded once to nearest even from FWIDE. Needs FWIDE (dtype_value.glsl).
bool is_narrow_int_code(uint d) { return d == DT_S2 || d == DT_S4 || d == DT_U2 || d == DT_U4; }
uint narrow_mask(uint d) { return (d == DT_S2 || d == DT_U2) ? 3u : 15u; }

// A narrow integer's value from its code: signed ones sign-extend their top bit.
int narrow_int(uint code, uint d) {
  const int bits = int(code & narrow_mask(d));
  if (d == DT_U2 || d == DT_U4) return bits;
  const int top = d == DT_S2 ? 2 : 8;
  return (bits ^ top) - top;
}

bool fwide_sign(FWIDE x) {
#ifdef VKT_F64
  return (unpackDouble2x32(x).y & 0x80000000u) != 0u;
#else
  return (floatBitsToUint(x) & 0x80000000u) != 0u;
#endif
}

// Rounds q >= 0 to the nearest integer, ties to even, by truncation and the exact remainder
// (roundEven of a tie went the wrong way on lavapipe: see f32_of_f64).
FWIDE round_half_even(FWIDE q) {
  FWIDE t = floor(q);
  const FWIDE rest = q - t;
  if (rest > FWIDE(0.5) || (rest == FWIDE(0.5) && (uint(t) & 1u) != 0u)) t += FWIDE(1);
  return t;
}

uint f8_encode(FWIDE x, uint d) {
  const bool e4m3 = d == DT_F8_E4M3FN;
  const int mantissa_bits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  const int max_biased = e4m3 ? 15 : 31;
  const uint max_finite = e4m3 ? 0x7eu : 0x7bu;
  const uint overflow = e4m3 ? 0x7eu : 0x7cu;  // E4M3FN has no infinity: it saturates
  const uint sign = fwide_sign(x) ? 0x80u : 0u;
  if (isnan(x)) return sign | (e4m3 ? 0x7fu : 0x7eu);
  const FWIDE a = abs(x);
  if (isinf(a)) return sign | overflow;
  // At most half the smallest subnormal rounds to 0; tested first so that a flushed f32
  // subnormal, whatever frexp makes of it, gives the cpu's signed zero.
  if (a <= ldexp(FWIDE(1), -bias - mantissa_bits)) return sign;
  int e;
  frexp(a, e);
  int exponent = e - 1;
  const FWIDE one = FWIDE(1 << mantissa_bits);
  if (exponent < 1 - bias) {
    return sign | uint(round_half_even(ldexp(a, mantissa_bits - 1 + bias)));
  }
  if (exponent + bias > max_biased) return sign | overflow;
  FWIDE q = round_half_even(ldexp(a, mantissa_bits - exponent));
  if (q == FWIDE(2) * one) {
    q = one;
    exponent += 1;
  }
  const int biased = exponent + bias;
  const uint code = (uint(biased) << mantissa_bits) | uint(q - one);
  if (biased > max_biased || code > max_finite) return sign | overflow;
  return sign | code;
}

float f8_decode(uint code, uint d) {
  const bool e4m3 = d == DT_F8_E4M3FN;
  const int mantissa_bits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  const uint sign = (code & 0x80u) << 24;
  const uint magnitude = code & 0x7fu;
  const uint biased = magnitude >> mantissa_bits;
  const uint mantissa = code & ((1u << mantissa_bits) - 1u);
  if (!e4m3 && biased == 31u) return uintBitsToFloat(sign | (mantissa == 0u ? 0x7f800000u : 0x7fc00000u));
  if (e4m3 && magnitude == 0x7fu) return uintBitsToFloat(sign | 0x7fc00000u);
  const float a = biased == 0u
                      ? ldexp(float(mantissa), 1 - bias - mantissa_bits)
                      : ldexp(float(mantissa + (1u << mantissa_bits)), int(biased) - bias - mantissa_bits);
  return uintBitsToFloat(floatBitsToUint(a) | sign);
}
