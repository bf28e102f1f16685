// f64 exp and log written out (GLSL.std.450 has no f64 transcendentals) and the functions
// built on them. Both are within a few ulp: exp by a Cody-Waite reduction (ln2 split in fdlibm's
// hi/lo parts) and a degree-13 Taylor polynomial on |r| <= ln2/2;
// log by m in [sqrt(1/2), sqrt(2)) and the atanh series of s = (m-1)/(m+1), |s| <= 0.172.
const double D_LN2_HI = 6.93147180369123816490e-01LF;  // 32 significant bits: n * hi exact
const double D_LN2_LO = 1.90821492927058770002e-10LF;
const double D_LN2 = 6.93147180559945309417e-01LF;

double d_inf() { return double(EW_INF); }
double d_nan() { return double(EW_NAN); }

// frexp of a finite nonzero x ([0.5, 1) and e) from the bits: a driver's frexp may misread
// subnormals (lavapipe's gave log(4.9e-324) = -709).
double frexp_f64(double x, out int e) {
  const uint64_t u = f64_bits(x);
  const int biased = int((u >> 52) & 0x7ffUL);
  uint64_t m = u & 0xfffffffffffffUL;
  if (biased != 0) {
    e = biased - 1022;
  } else {
    const uvec2 w = unpackUint2x32(m);
    const int k = 52 - (w.y != 0u ? 32 + findMSB(w.y) : findMSB(w.x));
    m = (m << k) & 0xfffffffffffffUL;
    e = -1021 - k;
  }
  return packDouble2x32(unpackUint2x32((u & 0x8000000000000000UL) | 0x3fe0000000000000UL | m));
}

// floor, ceil and round (half away from zero) from trunc_f64: exact, the sign of zero kept,
// and decided on the bits (a subnormal x gives -1 or 1 where the device flushes it).
double floor_f64(double x) {
  const bool down = (f64_bits(x) >> 63) != 0UL && f64_has_fraction(x);
  return down ? trunc_f64(x) - 1.0LF : trunc_f64(x);
}
double ceil_f64(double x) {
  const bool up = (f64_bits(x) >> 63) == 0UL && f64_has_fraction(x);
  return up ? trunc_f64(x) + 1.0LF : trunc_f64(x);
}
double round_away_f64(double x) {
  const double t = trunc_f64(x);
  return abs(x - t) >= 0.5LF ? t + (x < 0.0LF ? -1.0LF : 1.0LF) : t;
}

double exp_f64(double x) {
  if (isnan(x)) return x;
  if (x > 709.782712893384LF) return d_inf();
  if (x < -745.1332191019412LF) return 0.0LF;
  const double n = round_away_f64(x * 1.44269504088896338700LF);
  precise double r = (x - n * D_LN2_HI) - n * D_LN2_LO;
  precise double q = 1.0LF / 6227020800.0LF;  // 1/13!
  q = q * r + 1.0LF / 479001600.0LF;
  q = q * r + 1.0LF / 39916800.0LF;
  q = q * r + 1.0LF / 3628800.0LF;
  q = q * r + 1.0LF / 362880.0LF;
  q = q * r + 1.0LF / 40320.0LF;
  q = q * r + 1.0LF / 5040.0LF;
  q = q * r + 1.0LF / 720.0LF;
  q = q * r + 1.0LF / 120.0LF;
  q = q * r + 1.0LF / 24.0LF;
  q = q * r + 1.0LF / 6.0LF;
  q = q * r + 0.5LF;
  precise double er = (q * r) * r + r + 1.0LF;
  // 2^n in two steps so a subnormal result is rounded once, at the end.
  const int ni = int(n);
  const int n1 = ni / 2;
  return ldexp(ldexp(er, n1), ni - n1);
}

double log_f64(double x) {
  if (isnan(x)) return x;
  if (x < 0.0LF) return d_nan();
  if (!f64_nonzero(x)) return -d_inf();
  if (isinf(x)) return x;
  int e;
  double m = frexp_f64(x, e);  // [0.5, 1)
  if (m < 0.70710678118654752440LF) {
    m *= 2.0LF;
    e -= 1;
  }
  precise double f = m - 1.0LF;  // exact
  precise double s = f / (2.0LF + f);
  precise double z = s * s;
  precise double t = 1.0LF / 23.0LF;
  for (int k = 10; k >= 0; --k) t = t * z + 1.0LF / double(2 * k + 1);
  const double fe = double(e);
  precise double lm = 2.0LF * s * t;
  precise double result = fe * D_LN2_HI + (lm + fe * D_LN2_LO);
  return result;
}

double expm1_f64(double x) {
  const double u = exp_f64(x);
  if (u == 1.0LF || isnan(x)) return x;
  if (abs(x) > 0.5LF) return u - 1.0LF;
  precise double um1 = u - 1.0LF;
  precise double result = um1 * (x / log_f64(u));
  return result;
}
double log1p_f64(double x) {
  precise double u = 1.0LF + x;
  if (u == 1.0LF || isnan(x)) return x;
  if (isinf(u) || x > 0.5LF || x < -0.5LF) return log_f64(u);
  precise double result = log_f64(u) * (x / (u - 1.0LF));
  return result;
}
double copy_sign_f64(double magnitude, double s) {
  const bool negative = s < 0.0LF || (s == 0.0LF && sign_bit(float(s)));
  return negative ? -abs(magnitude) : abs(magnitude);
}
// Past 709 exp(x) overflows while sinh/cosh fit (up to 710.5): exp(x/2) times half of itself,
// the order held by `precise` (t * t first would overflow).
double half_exp_squared_f64(double ax) {
  const double t = exp_f64(0.5LF * ax);
  precise double h = 0.5LF * t;
  precise double r = h * t;
  return r;
}
double sinh_f64(double x) {
  const double ax = abs(x);
  double r;
  if (ax > 709.0LF) {
    r = half_exp_squared_f64(ax);
  } else {
    const double em1 = expm1_f64(ax);
    r = 0.5LF * (em1 + em1 / (em1 + 1.0LF));
  }
  return copy_sign_f64(r, x);
}
double cosh_f64(double x) {
  const double ax = abs(x);
  if (ax > 709.0LF) return half_exp_squared_f64(ax);
  const double e = exp_f64(ax);
  return 0.5LF * (e + 1.0LF / e);
}
double tanh_f64(double x) {
  const double ax = abs(x);
  if (ax > 22.0LF) return copy_sign_f64(1.0LF, x);  // tanh(22) rounds to 1 in f64
  const double em1 = expm1_f64(2.0LF * ax);
  return copy_sign_f64(em1 / (em1 + 2.0LF), x);
}
double acosh_f64(double x) {
  if (!(x >= 1.0LF)) return d_nan();
  // Past 1e150, t * t overflows; acosh(x) = log(2x) there to the last bit.
  if (x > 1.0e150LF) return log_f64(x) + D_LN2;
  precise double t = x - 1.0LF;
  precise double u = t + sqrt(2.0LF * t + t * t);
  return log1p_f64(u);
}
double asinh_f64(double x) {
  if (isnan(x) || isinf(x)) return x;
  const double ax = abs(x);
  double r;
  if (ax > 1.0e150LF) {
    r = log_f64(ax) + D_LN2;
  } else {
    precise double a2 = ax * ax;
    precise double u = ax + a2 / (1.0LF + sqrt(1.0LF + a2));
    r = log1p_f64(u);
  }
  return copy_sign_f64(r, x);
}
double atanh_f64(double x) {
  const double ax = abs(x);
  if (!(ax <= 1.0LF)) return d_nan();
  return copy_sign_f64(0.5LF * log1p_f64(2.0LF * ax / (1.0LF - ax)), x);
}
// cbrt: an f32 estimate (or 2^(e/3) scaling outside f32's range) and Newton steps in f64.
double cbrt_f64(double x) {
  if (!f64_nonzero(x) || isnan(x) || isinf(x)) return x;
  const double ax = abs(x);
  int e;
  const double m = frexp_f64(ax, e);  // ax = m 2^e, m in [0.5, 1)
  const int e3 = e >= 0 ? e / 3 : -((-e + 2) / 3);
  const double scaled = ldexp(m, e - 3 * e3);  // [0.5, 4)
  precise double y = double(exp2(log2(float(scaled)) / 3.0));
  for (int k = 0; k < 3; ++k) y = y - (y - scaled / (y * y)) / 3.0LF;
  return copy_sign_f64(ldexp(y, e3), x);
}

// atan: 1/x above 1, (x-1)/(x+1) above tan(pi/8), one argument halving
// (atan t = 2 atan(t / (1 + sqrt(1 + t^2)))) to |t| < 0.2, then the Taylor series (12 terms
// reach 2^-60).
double atan_f64(double x) {
  if (isnan(x)) return x;
  double ax = abs(x);
  const bool invert = ax > 1.0LF;
  if (invert) ax = 1.0LF / ax;  // inf -> 0
  double base = 0.0LF;
  precise double t = ax;
  if (ax > 0.41421356237309504880LF) {
    base = 0.78539816339744830962LF;
    t = (ax - 1.0LF) / (ax + 1.0LF);
  }
  precise double h = t / (1.0LF + sqrt(1.0LF + t * t));
  precise double z = h * h;
  precise double q = -1.0LF / 25.0LF;
  for (int k = 11; k >= 0; --k) q = q * z + ((k & 1) == 0 ? 1.0LF : -1.0LF) / double(2 * k + 1);
  precise double r = base + 2.0LF * (h * q);
  if (invert) r = 1.57079632679489661923LF - r;
  return copy_sign_f64(r, x);
}
double asin_f64(double x) {
  if (!(abs(x) <= 1.0LF)) return d_nan();
  return atan_f64(x / sqrt((1.0LF - x) * (1.0LF + x)));
}
double acos_f64(double x) {
  if (!(abs(x) <= 1.0LF)) return d_nan();
  return 2.0LF * atan_f64(sqrt((1.0LF - x) / (1.0LF + x)));
}
// atan2 with C's special cases for zeros and infinities.
double atan2_f64(double y, double x) {
  const double pi = 3.14159265358979323846LF, pi_2 = 1.57079632679489661923LF;
  if (isnan(x) || isnan(y)) return d_nan();
  const bool x_negative = x < 0.0LF || (x == 0.0LF && sign_bit(float(x)));
  if (y == 0.0LF) return x_negative ? copy_sign_f64(pi, y) : y;
  if (isinf(x)) {
    if (isinf(y)) return copy_sign_f64(x > 0.0LF ? 0.5LF * pi_2 : 1.5LF * pi_2, y);
    return x > 0.0LF ? copy_sign_f64(0.0LF, y) : copy_sign_f64(pi, y);
  }
  if (x == 0.0LF || isinf(y)) return copy_sign_f64(pi_2, y);
  const double t = atan_f64(abs(y / x));
  return copy_sign_f64(x > 0.0LF ? t : pi - t, y);
}

// Bits of 2/pi, 32 per word, most significant first (1280 bits: enough for any f64).
const uint TWO_OVER_PI_WIDE[40] = uint[](
    0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u, 0xF534DDC0u, 0xDB629599u, 0x3C439041u, 0xFE5163ABu,
    0xDEBBC561u, 0xB7246E3Au, 0x424DD2E0u, 0x06492EEAu, 0x09D1921Cu, 0xFE1DEB1Cu, 0xB129A73Eu,
    0xE88235F5u, 0x2EBB4484u, 0xE99C7026u, 0xB45F7E41u, 0x3991D639u, 0x835339F4u, 0x9C845F8Bu,
    0xBDF9283Bu, 0x1FF897FFu, 0xDE05980Fu, 0xEF2F118Bu, 0x5A0A6D1Fu, 0x6D367ECFu, 0x27CB09B7u,
    0x4F463F66u, 0x9E5FEA2Du, 0x7527BAC7u, 0xEBE5F17Bu, 0x3D0739F7u, 0x8A5292EAu, 0x6BFB5FB1u,
    0x1F8D5D08u, 0x56033046u, 0xFC7B6BABu, 0xF0CFBC20u, 0x9AF4361Du);

// The 32 bits of the 288-bit little-endian acc from bit `pos`.
uint wide_bits_at(uint acc[9], int pos) {
  const int word = pos >> 5, off = pos & 31;
  const uint lo = acc[word];
  const uint hi = word + 1 < 9 ? acc[word + 1] : 0u;
  return off == 0 ? lo : (lo >> off) | (hi << (32 - off));
}

// Payne-Hanek for large finite ax: the 53-bit mantissa times 224 bits of 2/pi in 32-bit
// limbs, 126 fraction bits kept: enough for the f64 argument closest to a multiple of
// pi/2 (6381956970095103 2^797, remainder ~2^-61). Returns r with
// ax = quadrant pi/2 + r, |r| <= pi/4.
double reduce_large_f64(double ax, out uint quadrant) {
  const uvec2 w = unpackDouble2x32(ax);  // (low, high)
  const uint ml = w.x, mh = (w.y & 0xfffffu) | 0x100000u;
  const int j = int((w.y >> 20) & 0x7ffu) - 1075;  // ax = m 2^j
  const int k0 = max(0, (j - 2) >> 5);  // earlier words only add whole turns
  uint acc[9] = uint[](0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
  for (int a = 0; a < 2; ++a) {
    const uint ma = a == 0 ? ml : mh;
    uint64_t carry = 0ul;
    for (int t = 0; t < 7; ++t) {
      const uint64_t prod =
          uint64_t(ma) * uint64_t(TWO_OVER_PI_WIDE[k0 + 6 - t]) + uint64_t(acc[a + t]) + carry;
      acc[a + t] = uint(prod);
      carry = prod >> 32;
    }
    for (int idx = a + 7; idx < 9; ++idx) {
      const uint64_t s = uint64_t(acc[idx]) + carry;
      acc[idx] = uint(s);
      carry = s >> 32;
    }
  }
  const int z = 32 * (k0 + 7) - j;  // bit of acc with weight 2^0
  const uint top = wide_bits_at(acc, z - 30);
  uint f1 = wide_bits_at(acc, z - 62), f2 = wide_bits_at(acc, z - 94),
       f3 = wide_bits_at(acc, z - 126);
  quadrant = top >> 30;
  uint hi = top & 0x3fffffffu;
  double sign = 1.0LF;
  if (hi >= 0x20000000u) {  // fraction >= 1/2: next quadrant, negative remainder
    quadrant += 1u;
    f3 = ~f3 + 1u;
    f2 = ~f2 + (f3 == 0u ? 1u : 0u);
    f1 = ~f1 + ((f3 == 0u && f2 == 0u) ? 1u : 0u);
    hi = ((~hi) & 0x3fffffffu) + ((f3 == 0u && f2 == 0u && f1 == 0u) ? 1u : 0u);
    sign = -1.0LF;
  }
  // Smallest parts first: a remainder near 0 (hi, f1 zero) keeps every bit.
  const double tail = double(f2) * 5.42101086242752217003726e-20LF +
                      double(f3) * 1.26217744835361888865876e-29LF;
  const double f = ((double(hi) + double(f1) * 2.3283064365386962890625e-10LF) + tail) *
                   9.31322574615478515625e-10LF;
  precise double r = f * 1.57079632679489655800LF + f * 6.12323399573676603587e-17LF;
  return sign * r;
}

// sin and cos: three-part Cody-Waite by pi/2 (fdlibm's 33-bit splits) below 2^20,
// Payne-Hanek above, then Taylor polynomials on |r| <= pi/4.
void sincos_f64(double x, out double s, out double c) {
  if (isinf(x) || isnan(x)) {
    s = d_nan();
    c = d_nan();
    return;
  }
  const double ax = abs(x);
  uint quadrant;
  precise double r;
  if (ax < 1048576.0LF) {
    const double n = round_away_f64(ax * 0.63661977236758134308LF);
    quadrant = uint(n);
    r = ((ax - n * 1.57079632673412561417LF) - n * 6.07710050630396597660e-11LF) -
        n * 2.02226624879595063154e-21LF;
  } else {
    r = reduce_large_f64(ax, quadrant);
  }
  precise double z = r * r;
  // Taylor coefficients (-1)^k / (2k+1)! and (-1)^k / (2k)!, highest first.
  precise double ps = -3.868170170630684e-23LF;
  ps = ps * z + 1.9572941063391263e-20LF;
  ps = ps * z + -8.22063524662433e-18LF;
  ps = ps * z + 2.8114572543455206e-15LF;
  ps = ps * z + -7.647163731819816e-13LF;
  ps = ps * z + 1.6059043836821613e-10LF;
  ps = ps * z + -2.505210838544172e-08LF;
  ps = ps * z + 2.7557319223985893e-06LF;
  ps = ps * z + -0.0001984126984126984LF;
  ps = ps * z + 0.008333333333333333LF;
  ps = ps * z + -0.16666666666666666LF;
  precise double pc = 1.6117375710961184e-24LF;
  pc = pc * z + -8.896791392450574e-22LF;
  pc = pc * z + 4.110317623312165e-19LF;
  pc = pc * z + -1.5619206968586225e-16LF;
  pc = pc * z + 4.779477332387385e-14LF;
  pc = pc * z + -1.1470745597729725e-11LF;
  pc = pc * z + 2.08767569878681e-09LF;
  pc = pc * z + -2.755731922398589e-07LF;
  pc = pc * z + 2.48015873015873e-05LF;
  pc = pc * z + -0.001388888888888889LF;
  pc = pc * z + 0.041666666666666664LF;
  // ps = -1/3! + z/5! - ..., pc = 1/4! - z/6! + ...
  precise double sv0 = r + r * z * ps;
  precise double cv0 = (1.0LF - 0.5LF * z) + z * z * pc;
  quadrant &= 3u;
  const double sv = quadrant == 0u ? sv0 : quadrant == 1u ? cv0 : quadrant == 2u ? -sv0 : -cv0;
  c = quadrant == 0u ? cv0 : quadrant == 1u ? -sv0 : quadrant == 2u ? -cv0 : sv0;
  s = x < 0.0LF ? -sv : sv;
}
