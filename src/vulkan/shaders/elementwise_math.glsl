// f32 (and a little f64) math for the elementwise shaders, written out instead of taken from
// GLSL.std.450: Vulkan allows its exp/log/sin/atan several to thousands of ulp, while these
// follow the cpu kernels (exp_f32/log_f32 are ports of src/cpu/elementwise_math.h) or
// Cephes' single-precision algorithms. `precise` keeps compilers from contracting or
// reassociating the steps whose rounding the algorithms rely on.
#define EW_INF uintBitsToFloat(0x7f800000u)
#define EW_NAN uintBitsToFloat(0x7fc00000u)
const float EW_PI = 3.14159265358979323846;
const float EW_PI_2 = 1.57079632679489661923;
const float EW_PI_4 = 0.785398163397448309616;

bool sign_bit(float x) { return (floatBitsToUint(x) & 0x80000000u) != 0u; }
float copy_sign(float magnitude, float s) {
  return uintBitsToFloat((floatBitsToUint(magnitude) & 0x7fffffffu) |
                         (floatBitsToUint(s) & 0x80000000u));
}

// |bits| of a finite nonzero float as m 2^e, m in [1, 2), read from the bits: a subnormal is
// normalised without float arithmetic (which a flushing device would turn into 0).
float mantissa_of(uint a, out int e) {
  const int biased = int(a >> 23);
  if (biased != 0) {
    e = biased - 127;
    return uintBitsToFloat(0x3f800000u | (a & 0x7fffffu));
  }
  const int k = 23 - findMSB(a);
  e = -126 - k;
  return uintBitsToFloat(0x3f800000u | ((a << k) & 0x7fffffu));
}
// q 2^n for a finite normal q, on the bits: overflow gives inf, a subnormal result is rounded
// to nearest even from q's 24-bit mantissa (no float multiply to flush it).
float ldexp_bits(float q, int n) {
  const uint u = floatBitsToUint(q);
  const uint sign = u & 0x80000000u;
  const int e = int((u >> 23) & 0xffu) + n;
  if (e >= 255) return uintBitsToFloat(sign | 0x7f800000u);
  if (e >= 1) return uintBitsToFloat(sign | (uint(e) << 23) | (u & 0x7fffffu));
  const int sh = 1 - e;
  if (sh > 25) return uintBitsToFloat(sign);
  const uint m = (u & 0x7fffffu) | 0x800000u;
  uint kept = m >> sh;
  const uint rem = m & ((1u << sh) - 1u), half_ = 1u << (sh - 1);
  if (rem > half_ || (rem == half_ && (kept & 1u) != 0u)) ++kept;  // a carry makes it normal
  return uintBitsToFloat(sign | kept);
}

// a / b within 1 ulp for normal operands. NVIDIA lowers `/` to a * rcp(b), which is 2 ulp off:
// one fma refinement step of the quotient fixes it. r is 1 / b (the row kernels compute it
// once per row: compiled_rows_math.glsl).
float div_normal_r(float a, float b, float r) {
  precise float q = a * r;
  // Zero, infinite and NaN quotients are already exact (IEEE's special cases).
  if (q != 0.0 && !isinf(q) && !isnan(q)) {
    precise float residual = fma(-q, b, a);
    q = fma(residual, r, q);
  }
  return q;
}
float div_normal(float a, float b) {
  precise float r = 1.0 / b;
  return div_normal_r(a, b, r);
}
// a / b within 1 ulp on any driver, and the same answer where the device flushes subnormals.
// rcp(b) of a subnormal b overflows (0 / 1e-40 gave NaN) and of |b| >= 2^126 is subnormal
// (1e10 / 3e38 gave 0 where it flushes); a flushing device reads subnormal operands as 0,
// flushes a subnormal quotient and a subnormal residual (losing the refinement). So
// div_normal only sees operands where every step is normal: |b| in [2^-126, 2^126), |a| >=
// 2^-101 and the quotient's exponent within +-100 (or a zero, infinite or NaN a). Otherwise
// the mantissas (from the bits) are divided and the quotient scaled by 2^(ea - eb) on the bits.
float div_f32(float a, float b) {
  const uint ua = floatBitsToUint(a), ub = floatBitsToUint(b);
  const uint aa = ua & 0x7fffffffu, ab = ub & 0x7fffffffu;
  const int ea = int(aa >> 23), eb = int(ab >> 23), d = ea - eb;
  const bool a_special = aa == 0u || aa >= 0x7f800000u;
  const bool b_special = ab == 0u || ab >= 0x7f800000u;
  const bool fast = eb >= 1 && eb <= 252 && (a_special || (ea >= 26 && d >= -100 && d <= 100));
  if (fast) return div_normal(a, b);
  if (a_special || b_special) {
    // A zero, infinite or NaN operand decides alone: a finite other one lends only its sign.
    return div_normal(a_special ? a : copy_sign(1.0, a), b_special ? b : copy_sign(1.0, b));
  }
  int ma_e, mb_e;
  const float q = div_normal(mantissa_of(aa, ma_e), mantissa_of(ab, mb_e));  // in (1/2, 2)
  return ldexp_bits(uintBitsToFloat(floatBitsToUint(q) | ((ua ^ ub) & 0x80000000u)), ma_e - mb_e);
}

// Cody-Waite reduction x = n ln2 + r and Cephes' degree-7 polynomial: exp(x) = er 2^n with
// er in [0.7, 1.42] (|x| < 2^21). Every step is normal, whatever the result.
float exp_reduced(float x, out int n) {
  const float shifter = 12582912.0;
  precise float t = x * 1.44269504088896341 + shifter;
  precise float nf = t - shifter;
  n = int(floatBitsToUint(t) - 0x4b400000u);
  precise float r = (x - nf * 0.693359375) - nf * -2.12194440e-4;
  precise float r2 = r * r;
  precise float q = 1.9875691500e-4;
  q = q * r + 1.3981999507e-3;
  q = q * r + 8.3334519073e-3;
  q = q * r + 4.1665795894e-2;
  q = q * r + 1.6666665459e-1;
  q = q * r + 5.0000001201e-1;
  precise float er = q * r2 + r + 1.0;
  return er;
}
// exp_reduced scaled by 2^n in two halves so subnormal results round once. <= 2 ulp;
// inf -> inf, -inf -> 0, NaN -> NaN.
float exp_f32(float x) {
  int ni;
  const float er = exp_reduced(x, ni);
  const int n1 = ni >> 1;
  const uint n2 = uint(ni) - uint(n1);
  const float s1 = uintBitsToFloat((uint(n1) + 127u) << 23);
  const float s2 = uintBitsToFloat((n2 + 127u) << 23);
  precise float result = er * s1 * s2;
  if (isnan(x)) return x;
  if (x > 89.0) return EW_INF;
  if (x < -104.0) return 0.0;
  return result;
}

// x = m 2^e, m in [sqrt(1/2), sqrt(2)), Cephes' degree-9 polynomial in m - 1. <= 2 ulp.
float log_f32(float x) {
  if (isnan(x)) return x;
  if (!f32_nonzero(x)) return -EW_INF;
  if (sign_bit(x)) return EW_NAN;
  if (isinf(x)) return x;
  // m 2^e from the bits: a subnormal x is normalised without a (flushable) multiply.
  int e;
  precise float m = mantissa_of(floatBitsToUint(x), e);
  if (m > 1.41421356237309505) {
    e += 1;
    m = m * 0.5;
  }
  m = m - 1.0;
  const float fe = float(e);
  precise float z = m * m;
  precise float y = 7.0376836292e-2;
  y = y * m - 1.1514610310e-1;
  y = y * m + 1.1676998740e-1;
  y = y * m - 1.2420140846e-1;
  y = y * m + 1.4249322787e-1;
  y = y * m - 1.6668057665e-1;
  y = y * m + 2.0000714765e-1;
  y = y * m - 2.4999993993e-1;
  y = y * m + 3.3333331174e-1;
  y = y * m * z;
  y += -2.12194440e-4 * fe;
  y += -0.5 * z;
  precise float result = m + y + 0.693359375 * fe;
  return result;
}

// exp(x) - 1 and log(1 + x) by Kahan's corrections: exact near 0, a few ulp elsewhere.
float expm1_f32(float x) {
  const float u = exp_f32(x);
  if (u == 1.0 || isnan(x)) return x;
  if (abs(x) > 0.5) return u - 1.0;  // no cancellation left to correct
  precise float um1 = u - 1.0;
  if (um1 == -1.0) return -1.0;
  if (isinf(u)) return u;
  precise float result = um1 * (x / log_f32(u));
  return result;
}
float log1p_f32(float x) {
  precise float u = 1.0 + x;
  if (u == 1.0 || isnan(x)) return x;
  if (isinf(u)) return log_f32(u);
  precise float result = log_f32(u) * div_f32(x, u - 1.0);  // the ratio is ~1
  return result;
}

// C fmod (sign of the dividend), exact and bit-identical to the cpu: an integer long division
// of the mantissas over the exponent difference, on the bits, so no float arithmetic can
// flush a subnormal operand or round a huge quotient (fmod's remainder is always exact).
// The remainder (m_x 2^d) mod m_y is reduced 8 bits of d at a time: r < 2^24, r << 8 < 2^32.
uint fmod_mantissa(uint a, out int e) {  // a = |bits| finite nonzero: a = m 2^(e - 150)
  e = int(a >> 23);
  if (e != 0) return (a & 0x7fffffu) | 0x800000u;
  const int k = 23 - findMSB(a);  // subnormal: normalise from the bits
  e = 1 - k;
  return a << k;
}
float fmod_f32(float x, float y) {
  const uint ux = floatBitsToUint(x), ax = ux & 0x7fffffffu;
  const uint ay = floatBitsToUint(y) & 0x7fffffffu;
  if (ax >= 0x7f800000u || ay > 0x7f800000u || ay == 0u) return EW_NAN;
  if (ax < ay) return x;  // includes y = inf
  const uint sign = ux & 0x80000000u;
  if (ax == ay) return uintBitsToFloat(sign);
  int ex, ey;
  const uint mx = fmod_mantissa(ax, ex);
  const uint my = fmod_mantissa(ay, ey);
  uint r = mx % my;
  for (int d = ex - ey; d > 0 && r != 0u; d -= 8) {
    const int s = min(d, 8);
    r = (r << s) % my;
  }
  if (r == 0u) return uintBitsToFloat(sign);
  const int k = 23 - findMSB(r);
  const int e = ey - k;  // r << k in [2^23, 2^24): value (r << k) 2^(e - 150)
  const uint bits = e >= 1 ? (uint(e) << 23) | ((r << k) & 0x7fffffu) : (r << k) >> (1 - e);
  return uintBitsToFloat(sign | bits);
}
#ifdef VKT_F64
// The same long division for f64 (the f64 variant always has 64-bit integers): m < 2^53,
// reduced 11 bits at a time so r << 11 < 2^64.
uint64_t fmod_mantissa64(uint64_t a, out int e) {
  e = int(a >> 52);
  if (e != 0) return (a & 0xfffffffffffffUL) | 0x10000000000000UL;
  const uvec2 w = unpackUint2x32(a);
  const int msb = w.y != 0u ? 32 + findMSB(w.y) : findMSB(w.x);
  const int k = 52 - msb;
  e = 1 - k;
  return a << k;
}
double fmod_f64(double x, double y) {
  const uint64_t ux = packUint2x32(unpackDouble2x32(x));
  const uint64_t ax = ux & 0x7fffffffffffffffUL;
  const uint64_t ay = packUint2x32(unpackDouble2x32(y)) & 0x7fffffffffffffffUL;
  const uint64_t exp_mask = 0x7ff0000000000000UL;
  if (ax >= exp_mask || ay > exp_mask || ay == 0UL) return double(EW_NAN);
  if (ax < ay) return x;
  const uint64_t sign = ux & 0x8000000000000000UL;
  if (ax == ay) return packDouble2x32(unpackUint2x32(sign));
  int ex, ey;
  const uint64_t mx = fmod_mantissa64(ax, ex);
  const uint64_t my = fmod_mantissa64(ay, ey);
  uint64_t r = mx % my;
  for (int d = ex - ey; d > 0 && r != 0UL; d -= 11) {
    const int s = min(d, 11);
    r = (r << s) % my;
  }
  if (r == 0UL) return packDouble2x32(unpackUint2x32(sign));
  const uvec2 w = unpackUint2x32(r);
  const int k = 52 - (w.y != 0u ? 32 + findMSB(w.y) : findMSB(w.x));
  const int e = ey - k;
  const uint64_t m = r << k;
  const uint64_t bits = e >= 1 ? (uint64_t(e) << 52) | (m & 0xfffffffffffffUL) : m >> (1 - e);
  return packDouble2x32(unpackUint2x32(sign | bits));
}
#endif

// Veltkamp split and Dekker's exact product error: a * b = p + two_prod_error(a, b, p).
float two_prod_error(float a, float b, float p) {
  precise float ca = 4097.0 * a;
  precise float ah = ca - (ca - a);
  precise float al = a - ah;
  precise float cb = 4097.0 * b;
  precise float bh = cb - (cb - b);
  precise float bl = b - bh;
  precise float err = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  return err;
}

// ln(ax) for finite ax > 0 as hi + lo (~2^-40 relative): ax = m 2^e, m in [sqrt(1/2),
// sqrt(2)), ln m = 2 atanh(s) with s = f / (2 + f), f = m - 1, s carried in two floats.
// ax is given by its bits (finite, nonzero, sign cleared): a float abs of a subnormal x would
// already be 0 where the device flushes (pow(1e-40, 0.5) gave 2^-75, the root of 2^-150).
void log_parts(uint ax, out float hi, out float lo) {
  int e;
  float m = mantissa_of(ax, e);  // [1, 2); frexp misreads subnormals
  if (m > 1.41421356237309505) {
    m *= 0.5;
    e += 1;
  }
  precise float f = m - 1.0;  // exact
  precise float dh = 2.0 + f;
  precise float dl = (2.0 - dh) + f;  // 2 + f = dh + dl exactly
  precise float sh = f / dh;
  precise float p = sh * dh;
  precise float r = ((f - p) - two_prod_error(sh, dh, p)) - sh * dl;
  precise float sl = r / dh;
  precise float z = sh * sh;
  precise float tail =
      2.0 * sh * z *
      (0.333333333333 + z * (0.2 + z * (0.142857142857 + z * (0.111111111111 +
                                                            z * (0.0909090909091 + z * 0.0769230769231)))));
  const float fe = float(e);
  precise float a = fe * 0.693359375;  // exact: 9 significant bits times |e| <= 150
  precise float b = 2.0 * sh;
  precise float sum = a + b;
  precise float bv = sum - a;
  precise float err = (a - (sum - bv)) + (b - bv);  // two_sum
  hi = sum;
  lo = err + (2.0 * sl + tail + fe * -2.12194440e-4);
}

// pow with C's special cases; exp(y ln|x|) with ln|x| and the product carried in two floats
// so large results keep their digits (a few ulp). Every test of x and y is on the bits, ln|x|
// reads a subnormal x from the bits, and the result is scaled by 2^n on the bits, so a device
// that flushes subnormals gives the same answer (subnormal operands and results included).
float pow_f32(float x, float y) {
  const uint ux = floatBitsToUint(x), uy = floatBitsToUint(y);
  const uint ax = ux & 0x7fffffffu, ay = uy & 0x7fffffffu;
  const bool x_neg = (ux & 0x80000000u) != 0u, y_neg = (uy & 0x80000000u) != 0u;
  if (ay == 0u || ux == 0x3f800000u) return 1.0;
  if (uy == 0x3f800000u) return x;  // exact; exp(log x) could round FLT_MAX up to inf
  if (ax > 0x7f800000u || ay > 0x7f800000u) return EW_NAN;
  if (ay == 0x7f800000u) {
    if (ax == 0x3f800000u) return 1.0;
    return (ax > 0x3f800000u) == !y_neg ? EW_INF : 0.0;
  }
  // A subnormal y is no integer (a flushed floor(y) == y would say it is).
  const bool y_sub = ay < 0x00800000u;
  const bool y_int = !y_sub && floor(y) == y;
  const bool y_odd = y_int && ay < 0x4b800000u && fract(abs(y) * 0.5) != 0.0;  // |y| < 2^24
  const bool negate = x_neg && y_odd;
  float r;
  const bool x_zero = ax == 0u;
  if (x_zero || ax == 0x7f800000u) {
    r = x_zero == y_neg ? EW_INF : 0.0;
  } else if (x_neg && !y_int) {
    return EW_NAN;
  } else if (y_sub) {
    r = 1.0;  // exp(y ln|x|) with |y ln|x|| < 2^-119
  } else {
    float lhi, llo;
    log_parts(ax, lhi, llo);
    precise float phi = y * lhi;
    if (abs(phi) > 300.0) {
      r = exp_f32(phi);  // far out of range: inf or 0 (and the split below would overflow)
    } else {
      // lhi == 0 (x == +-1) would split a possibly huge y: skip it.
      precise float plo = (lhi == 0.0 ? 0.0 : two_prod_error(y, lhi, phi)) + y * llo;
      precise float s = phi + plo;
      precise float c = (phi - s) + plo;
      int n;
      const float er = exp_reduced(s, n);
      precise float rm = er + er * c;  // normal: the scaling is left to the bits
      r = ldexp_bits(rm, n);
    }
  }
  return negate ? uintBitsToFloat(floatBitsToUint(r) ^ 0x80000000u) : r;
}

// Cephes atanf: reduce to |x| <= tan(pi/8), then a degree-9 odd polynomial. ~1 ulp.
float atan_f32(float x) {
  // |x| < 2^-12: atan(x) rounds to x. Returned as is, so a subnormal x survives a flush.
  if ((floatBitsToUint(x) & 0x7fffffffu) < 0x39800000u || isnan(x)) return x;
  float ax = abs(x), y0 = 0.0;
  if (ax > 2.414213562373095) {
    y0 = EW_PI_2;
    ax = -1.0 / ax;
  } else if (ax > 0.4142135623730950) {
    y0 = EW_PI_4;
    ax = (ax - 1.0) / (ax + 1.0);
  }
  precise float z = ax * ax;
  precise float y =
      (((8.05374449538e-2 * z - 1.38776856032e-1) * z + 1.99777106478e-1) * z -
       3.33329491539e-1) * z * ax + ax;
  precise float result = y0 + y;
  return copy_sign(result, x);
}

// atan2 with C's special cases for zeros and infinities.
float atan2_f32(float y, float x) {
  if (isnan(x) || isnan(y)) return EW_NAN;
  // Zero and sign tests on the bits: a subnormal operand is not 0 where arithmetic flushes.
  const bool x_zero = !f32_nonzero(x);
  if (!f32_nonzero(y)) return !sign_bit(x) ? y : copy_sign(EW_PI, y);
  if (isinf(x)) {
    if (isinf(y)) return copy_sign(x > 0.0 ? EW_PI_4 : 3.0 * EW_PI_4, y);
    return x > 0.0 ? copy_sign(0.0, y) : copy_sign(EW_PI, y);
  }
  if (x_zero || isinf(y)) return copy_sign(EW_PI_2, y);
  // |y / x| on the bits: a float abs would flush a subnormal quotient.
  const float t = atan_f32(uintBitsToFloat(floatBitsToUint(div_f32(y, x)) & 0x7fffffffu));
  // y / x may underflow or overflow; atan_f32 handles 0 and inf.
  const float r = !sign_bit(x) ? t : EW_PI - t;
  return copy_sign(r, y);
}

// Bits of 2/pi (fdlibm's table), 32 per word, most significant first.
const uint TWO_OVER_PI[12] = uint[](0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u, 0xF534DDC0u,
                                    0xDB629599u, 0x3C439041u, 0xFE5163ABu, 0xDEBBC561u,
                                    0xB7246E3Au, 0x424DD2E0u, 0x06492EEAu, 0x09D1921Cu);

// The 32 bits of the 160-bit q (q[0] most significant) from bit `pos` (0 = lsb of q[4]).
uint bits_at(uint q[5], int pos) {
  const int word = pos >> 5, off = pos & 31;
  const uint lo = q[4 - word];
  const uint hi = word < 4 ? q[3 - word] : 0u;
  return off == 0 ? lo : (lo >> off) | (hi << (32 - off));
}

// Payne-Hanek reduction for large finite ax: ax = (quadrant + f) pi/2 with |f| <= 1/2,
// from the 24-bit mantissa times 128 bits of 2/pi (integer arithmetic, ~90 bits kept).
float reduce_large(float ax, out uint quadrant) {
  const uint xb = floatBitsToUint(ax);
  const uint m = (xb & 0x7fffffu) | 0x800000u;
  const int j = int(xb >> 23) - 150;  // ax = m 2^j
  // Words before k0 only contribute multiples of 4 (whole turns).
  const int k0 = max(0, (j - 2) >> 5);
  uint q[5];
  uint carry = 0u;
  for (int t = 3; t >= 0; --t) {
    uint hi, lo;
    umulExtended(m, TWO_OVER_PI[k0 + t], hi, lo);
    const uint sum = lo + carry;
    q[t + 1] = sum;
    carry = hi + (sum < lo ? 1u : 0u);
  }
  q[0] = carry;
  const int z = 128 + 32 * k0 - j;  // bit of q with weight 2^0
  const uint top = bits_at(q, z - 30);  // weights 2^1 .. 2^-30
  uint lo = bits_at(q, z - 62);         // weights 2^-31 .. 2^-62
  quadrant = top >> 30;
  uint hi = top & 0x3fffffffu;
  float sign = 1.0;
  if (hi >= 0x20000000u) {  // fraction >= 1/2: take the next quadrant, negative remainder
    quadrant += 1u;
    lo = ~lo + 1u;
    hi = ((~hi) & 0x3fffffffu) + (lo == 0u ? 1u : 0u);
    sign = -1.0;
  }
  const float f = float(hi) * 9.31322574615478515625e-10 + float(lo) * 2.16840434497100886801e-19;
  return sign * f * EW_PI_2;
}

// sin and cos: reduce to r in [-pi/4, pi/4] and a quadrant (Cephes' three-part Cody-Waite
// below 4096, Payne-Hanek above), then Cephes' sinf/cosf polynomials.
void sincos_f32(float x, out float s, out float c) {
  if (isinf(x) || isnan(x)) {
    s = EW_NAN;
    c = EW_NAN;
    return;
  }
  const float ax = abs(x);
  uint quadrant;
  precise float r;
  if (ax < 4096.0) {
    uint j = uint(1.27323954473516 * ax);
    j += j & 1u;  // even octant: r = ax - j pi/4 in [-pi/4, pi/4]
    const float yj = float(j);
    quadrant = j >> 1;
    r = ((ax - yj * 0.78515625) - yj * 2.4187564849853515625e-4) - yj * 3.77489497744594108e-8;
  } else {
    r = reduce_large(ax, quadrant);
  }
  precise float z = r * r;
  precise float ps = ((-1.9515295891e-4 * z + 8.3321608736e-3) * z - 1.6666654611e-1) * z * r + r;
  precise float pc = ((2.443315711809948e-5 * z - 1.388731625493765e-3) * z +
                      4.166664568298827e-2) * z * z - 0.5 * z + 1.0;
  quadrant &= 3u;
  const float sv = quadrant == 0u ? ps : quadrant == 1u ? pc : quadrant == 2u ? -ps : -pc;
  c = quadrant == 0u ? pc : quadrant == 1u ? -ps : quadrant == 2u ? -pc : ps;
  s = sign_bit(x) ? -sv : sv;
}

// 2/sqrt(pi) x (1 - z/3 + z^2/10 - ...), z = x^2, for |x| < 0.5: the Maclaurin series's
// first ten coefficients ((-1)^k / (k! (2k+1))) by Horner. Straight-line multiply-adds, where
// a loop of running terms made 18 divides that the driver unrolled into every erf, erfc
// and erf_inv module; the Horner form also rounds less than running terms.
float erf_series(float x) {
  precise float z = x * x;
  precise float p = -1.4503852223150468e-07;
  p = p * z + 1.4589169000933706e-06;
  p = p * z - 1.3227513227513228e-05;
  p = p * z + 1.0683760683760684e-04;
  p = p * z - 7.5757575757575758e-04;
  p = p * z + 4.6296296296296296e-03;
  p = p * z - 2.3809523809523808e-02;
  p = p * z + 0.1;
  p = p * z - 0.33333333333333333;
  p = p * z + 1.0;
  precise float r = 1.12837916709551257 * (x * p);
  return r;
}
// erfc for x >= 0 (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7), with
// exp(-x^2) split so the rounding of x^2 does not cost digits for large x.
float erfc_positive(float x) {
  precise float t = 1.0 / (1.0 + 0.5 * x);
  precise float poly =
      -1.26551223 +
      t * (1.00002368 +
           t * (0.37409196 +
                t * (0.09678418 +
                     t * (-0.18628806 +
                          t * (0.27886807 +
                               t * (-1.13520398 +
                                    t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  precise float x2 = x * x;
  precise float x2_err = two_prod_error(x, x, x2);
  // Two exps: rounding poly - x2 (up to ~100) would cost ~1e-6 relative.
  precise float result = (t * exp_f32(poly)) * exp_f32(-x2) * (1.0 - x2_err);
  return result;
}
float erf_f32(float x) {
  if (isnan(x)) return x;
  const float ax = abs(x);
  if (ax < 0.5) return erf_series(x);
  if (ax > 10.0) return copy_sign(1.0, x);
  return copy_sign(1.0 - erfc_positive(ax), x);
}
// One call of erfc_positive for both signs: each call is the whole fit and two exps again
// in the module the driver compiles.
float erfc_f32(float x) {
  if (isnan(x)) return x;
  if (abs(x) < 0.5) return 1.0 - erf_series(x);
  if (x > 11.0) return 0.0;
  if (x < -10.0) return 2.0;
  const float c = erfc_positive(abs(x));
  return x > 0.0 ? c : 2.0 - c;
}

// Giles' single-precision erfinv ("Approximating the erfinv function", 2011), the cpu's
// starting point, plus one Newton step on erf (through erfc near +-1).
float erf_inv_f32(float x) {
  if (isnan(x) || x < -1.0 || x > 1.0) return EW_NAN;
  if (x == 1.0) return EW_INF;
  if (x == -1.0) return -EW_INF;
  // Zero and subnormal x (which a flushing device compares equal to 0): erf_inv(x) is
  // x sqrt(pi)/2 to f32 precision, rounded on the mantissa bits (a float multiply of a
  // subnormal flushes: the H200 returned x itself, run10).
  const uint bits = floatBitsToUint(x);
  if ((bits & 0x7f800000u) == 0u) {
    const uint m = uint(round(float(bits & 0x7fffffu) * 0.886226925452758));
    return uintBitsToFloat((bits & 0x80000000u) | m);
  }
  const float ax = abs(x);
  // Precise steps, so a fused kernel rounds as the eager shader does (on the H100 fused
  // erf_inv was 1 ulp off eager's: compile_math_test).
  precise float w = -log_f32((1.0 - ax) * (1.0 + ax));
  precise float q;
  if (w < 5.0) {
    w -= 2.5;
    q = 2.81022636e-08;
    q = 3.43273939e-07 + q * w;
    q = -3.5233877e-06 + q * w;
    q = -4.39150654e-06 + q * w;
    q = 0.00021858087 + q * w;
    q = -0.00125372503 + q * w;
    q = -0.00417768164 + q * w;
    q = 0.246640727 + q * w;
    q = 1.50140941 + q * w;
  } else {
    w = sqrt(w) - 3.0;
    q = -0.000200214257;
    q = 0.000100950558 + q * w;
    q = 0.00134934322 + q * w;
    q = -0.00367342844 + q * w;
    q = 0.00573950773 + q * w;
    q = -0.0076224613 + q * w;
    q = 0.00943887047 + q * w;
    q = 1.00167406 + q * w;
    q = 2.83297682 + q * w;
  }
  precise float y = q * ax;
  precise float slope = 1.12837916709551257 * exp_f32(-y * y);
  if (slope > 0.0) {
    // erf(y) - ax, through erfc where 1 - ax is exact and erf has no digits left. y > 0:
    // erf_f32 and erfc_f32 written out, sharing one series and one erfc_positive.
    precise float residual;
    if (y < 0.5) {
      const float s = erf_series(y);
      residual = ax > 0.5 ? (1.0 - ax) - (1.0 - s) : s - ax;
    } else {
      const float c = y > 11.0 ? 0.0 : erfc_positive(y);
      residual = ax > 0.5 ? (1.0 - ax) - c : (y > 10.0 ? 1.0 : 1.0 - c) - ax;
    }
    y -= residual / slope;
  }
  return copy_sign(y, x);
}

// Half away from zero: x - trunc(x) is exact.
float round_away_f32(float x) {
  const float t = trunc(x);
  return abs(x - t) >= 0.5 ? t + copy_sign(1.0, x) : t;
}
