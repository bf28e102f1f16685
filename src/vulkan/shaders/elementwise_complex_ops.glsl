// Complex elementwise ops on (re, im) pairs, written once for c64 and c128: the includer
// defines CT (vec2 / dvec2), RT (float / double), CF(name) (the name with its suffix), and
// the real helpers RDIV (a correctly scaled division), R_NONZERO / R_EQUAL (on the bits),
// the real functions R_EXP, R_LOG, R_LOG1P, R_ATAN2, R_SINCOS, R_SQRT, R_TWO_PROD_ERR and the
// constants R_* (elementwise_complex.glsl), then includes this file. Semantics are the cpu
// kernels' (src/cpu/elementwise_complex.h): multiply and divide are NumPy's formulas; products are `precise` so no driver fuses them
// into an fma the cpu does not do.

bool CF(c_is_nan)(CT z) { return isnan(z.x) || isnan(z.y); }
bool CF(c_is_inf)(CT z) { return isinf(z.x) || isinf(z.y); }
bool CF(c_nonzero)(CT z) { return R_NONZERO(z.x) || R_NONZERO(z.y); }
RT CF(c_copysign)(RT m, RT s) { return (s < RT(0) || (s == RT(0) && RT(1) / s < RT(0))) ? -abs(m) : abs(m); }

// The plain product, as the cpu (NumPy's and XLA's formula: no C99 Annex G recovery of
// infinities, so (inf + 0i) * 1 = inf + NaNi there and here).
CT CF(c_mul)(CT a, CT b) {
  precise RT ac = a.x * b.x, bd = a.y * b.y, ad = a.x * b.y, bc = a.y * b.x;
  precise RT x = ac - bd, y = ad + bc;
  return CT(x, y);
}

// Smith's algorithm as NumPy (and the cpu): scaled by the divisor's larger part; a zero
// divisor gives the parts divided by +0 (inf or NaN).
CT CF(c_div)(CT a, CT b) {
  const RT br = b.x, bi = b.y;
  const RT abs_br = abs(br), abs_bi = abs(bi);
  if (abs_br >= abs_bi) {
    if (abs_br == RT(0) && abs_bi == RT(0)) return CT(RDIV(a.x, abs_br), RDIV(a.y, abs_bi));
    precise RT rat = RDIV(bi, br);
    precise RT scl = RDIV(RT(1), br + bi * rat);
    precise RT x = (a.x + a.y * rat) * scl, y = (a.y - a.x * rat) * scl;
    return CT(x, y);
  }
  precise RT rat = RDIV(br, bi);
  precise RT scl = RDIV(RT(1), bi + br * rat);
  precise RT x = (a.x * rat + a.y) * scl, y = (a.y * rat - a.x) * scl;
  return CT(x, y);
}

// |z| as hypot: the larger part times sqrt(1 + (smaller / larger)^2), so nothing overflows
// or underflows on the way; an infinite part gives inf even beside a NaN.
RT CF(c_abs)(CT z) {
  const RT a = abs(z.x), b = abs(z.y);
  if (isinf(a) || isinf(b)) return RT(1) / RT(0);
  if (isnan(a) || isnan(b)) return a + b;
  const RT hi = max(a, b), lo = min(a, b);
  if (hi == RT(0)) return RT(0);
  const RT r = RDIV(lo, hi);
  return hi * sqrt(RT(1) + r * r);
}

CT CF(c_binary)(uint op, CT a, CT b) {
  switch (op) {
    case OP_ADD: return a + b;
    case OP_SUBTRACT: return a - b;
    case OP_MULTIPLY: return CF(c_mul)(a, b);
    case OP_DIVIDE: return CF(c_div)(a, b);
    // No other op reaches a complex kernel (op_support.h). A default that divided put
    // c_div into every op's own module (compile_op_modules.cmake): max's was 147 KB, not 34.
    default: return CT(R_NAN, R_NAN);
  }
}

// equal / not_equal compare both parts (NaN unequal); logical ops read nonzero as either
// part nonzero.
bool CF(c_binary_predicate)(uint op, CT a, CT b) {
  switch (op) {
    case OP_EQUAL: return R_EQUAL(a.x, b.x) && R_EQUAL(a.y, b.y);
    case OP_NOT_EQUAL: return !(R_EQUAL(a.x, b.x) && R_EQUAL(a.y, b.y));
    case OP_LOGICAL_AND: return CF(c_nonzero)(a) && CF(c_nonzero)(b);
    case OP_LOGICAL_OR: return CF(c_nonzero)(a) || CF(c_nonzero)(b);
    default: return CF(c_nonzero)(a) != CF(c_nonzero)(b);  // logical_xor
  }
}

// exp(z) as glibc's cexp: exp(re) (cos im, sin im), exp(re) taken as exp(re / 2) twice where
// it alone would overflow; infinite and NaN parts as C99 Annex G.
CT CF(c_exp)(CT z) {
  const RT x = z.x, y = z.y;
  const bool y_finite = !isinf(y) && !isnan(y);
  if (!isinf(x) && !isnan(x)) {
    if (!y_finite) return CT(R_NAN, R_NAN);
    if (y == RT(0)) {  // the imaginary zero kept, even beside an overflowed real part
      const RT h = R_EXP(x * RT(0.5));
      return CT(x > R_EXP_MAX ? h * h : R_EXP(x), y);
    }
    RT s, c;
    R_SINCOS(y, s, c);
    if (x > R_EXP_MAX) {
      const RT h = R_EXP(x * RT(0.5));
      // precise: h * h first overflows where (h * s) * h does not (an H100 gave inf + i inf
      // for cexp's 6.3e205 imaginary part: fuzz seed 40, program 765752).
      precise RT re = (h * c) * h;
      precise RT im = (h * s) * h;
      return CT(re, im);
    }
    const RT e = R_EXP(x);
    return CT(e * c, e * s);
  }
  if (isinf(x)) {
    if (y_finite) {
      const RT v = x < RT(0) ? RT(0) : R_INF;
      if (y == RT(0)) return CT(v, y);
      RT s, c;
      R_SINCOS(y, s, c);
      return CT(CF(c_copysign)(v, c), CF(c_copysign)(v, s));
    }
    if (x > RT(0)) return CT(x, R_NAN);  // exp(inf + i inf or NaN): inf + i NaN
    return CT(RT(0), CF(c_copysign)(RT(0), y));
  }
  return CT(R_NAN, y == RT(0) ? y : R_NAN);
}

// log(z) as glibc's clog: ln|z| + i atan2(im, re), ln|z| as ln(hi) + log1p((lo/hi)^2) / 2,
// or, where |z|^2 is within [1/2, 2], log1p(|z|^2 - 1) / 2 with the squares' rounding errors
// kept (two-product), so z near the unit circle keeps its small real part.
CT CF(c_log)(CT z) {
  const RT x = z.x, y = z.y;
  if (isnan(x) || isnan(y)) return CT((isinf(x) || isinf(y)) ? R_INF : R_NAN, R_NAN);
  const RT ax = abs(x), ay = abs(y);
  if (ax == RT(0) && ay == RT(0)) {
    const bool negative = x < RT(0) || RT(1) / x < RT(0);
    return CT(-R_INF, CF(c_copysign)(negative ? RT(R_PI) : RT(0), y));
  }
  const RT im = R_ATAN2(y, x);
  if (isinf(ax) || isinf(ay)) return CT(R_INF, im);
  const RT hi = max(ax, ay), lo = min(ax, ay);
  if (hi < RT(2) && hi >= RT(0.5)) {
    precise RT p1 = hi * hi, p2 = lo * lo;
    if (p1 + p2 >= RT(0.5) && p1 + p2 <= RT(2)) {
      const RT e1 = R_TWO_PROD_ERR(hi, hi, p1), e2 = R_TWO_PROD_ERR(lo, lo, p2);
      precise RT m1 = ((p1 - RT(1)) + p2) + (e1 + e2);  // p1 - 1 is exact here
      return CT(RT(0.5) * R_LOG1P(m1), im);
    }
  }
  const RT r = RDIV(lo, hi);
  return CT(R_LOG(hi) + RT(0.5) * R_LOG1P(r * r), im);
}

// sqrt(z) as glibc's csqrt: the principal root by Kahan's formulas on an operand scaled by
// a power of 4 where the sums could overflow or the parts underflow.
CT CF(c_sqrt)(CT z) {
  const RT x = z.x, y = z.y;
  if (isinf(y)) return CT(R_INF, y);
  if (isinf(x)) {
    if (x < RT(0)) return CT(isnan(y) ? R_NAN : RT(0), CF(c_copysign)(R_INF, y));
    return CT(x, isnan(y) ? R_NAN : CF(c_copysign)(RT(0), y));
  }
  if (isnan(x) || isnan(y)) return CT(R_NAN, R_NAN);
  if (y == RT(0)) {
    if (x < RT(0)) return CT(RT(0), CF(c_copysign)(R_SQRT(-x), y));
    return CT(abs(R_SQRT(abs(x))), CF(c_copysign)(RT(0), y));
  }
  RT sx = x, sy = y, back = RT(1);
  const RT m = max(abs(x), abs(y));
  if (m > R_HUGE) {
    sx *= RT(0.25);
    sy *= RT(0.25);
    back = RT(2);
  } else if (m < R_TINY) {
    sx *= RT(R_UP);
    sy *= RT(R_UP);
    back = RT(R_UP_ROOT);
  }
  RT r, s;
  if (sx == RT(0)) {
    r = R_SQRT(RT(0.5) * abs(sy));
    s = r;
  } else {
    const RT d = CF(c_abs)(CT(sx, sy));
    if (sx > RT(0)) {
      r = R_SQRT(RT(0.5) * (d + sx));
      s = abs(RT(0.5) * RDIV(sy, r));
    } else {
      s = R_SQRT(RT(0.5) * (d - sx));
      r = abs(RT(0.5) * RDIV(sy, s));
    }
  }
  return CT(r * back, CF(c_copysign)(s * back, y));
}

// The complex-valued unary ops other than negate / conjugate (done on the words).
CT CF(c_unary)(uint op, CT z) {
  switch (op) {
    case OP_EXP: return CF(c_exp)(z);
    case OP_LOG: return CF(c_log)(z);
    default: return CF(c_sqrt)(z);  // sqrt
  }
}

// The u8-writing unary ops.
bool CF(c_predicate)(uint op, CT z) {
  switch (op) {
    case OP_IS_NAN: return CF(c_is_nan)(z);
    case OP_IS_INFINITY: return CF(c_is_inf)(z);
    default: return !CF(c_nonzero)(z);  // logical_not
  }
}
