// f64 exp and log written out (GLSL.std.450 has no f64 transcendentals) and the functions
// built on them. Both are within a few ulp: exp by a Cody-Waite reduction (ln2 split in fdlibm's
// hi/lo parts) and a degree-13 Taylor polynomial on |r| <= ln2/2;
// log by m in [sqrt(1/2), sqrt(2)) and the atanh series of s = (m-1)/(m+1), |s| <= 0.172.
const double D_LN2_HI = 6.93147180369123816490e-01LF;  // 32 significant bits: n * hi exact
const double D_LN2_LO = 1.90821492927058770002e-10LF;
const double D_LN2 = 6.93147180559945309417e-01LF;

double d_inf() { return double(EW_INF); }
double d_nan() { return double(EW_NAN); }

double exp_f64(double x) {
  if (isnan(x)) return x;
  if (x > 709.782712893384LF) return d_inf();
  if (x < -745.1332191019412LF) return 0.0LF;
  const double n = round(x * 1.44269504088896338700LF);
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
  if (x == 0.0LF) return -d_inf();
  if (isinf(x)) return x;
  int e;
  double m = frexp(x, e);  // [0.5, 1)
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
double sinh_f64(double x) {
  const double ax = abs(x);
  double r;
  if (ax > 709.0LF) {
    const double t = exp_f64(0.5LF * ax);
    r = (0.5LF * t) * t;
  } else {
    const double em1 = expm1_f64(ax);
    r = 0.5LF * (em1 + em1 / (em1 + 1.0LF));
  }
  return copy_sign_f64(r, x);
}
double cosh_f64(double x) {
  const double ax = abs(x);
  if (ax > 709.0LF) {
    const double t = exp_f64(0.5LF * ax);
    return (0.5LF * t) * t;
  }
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
  if (x > 1.0e300LF) return log_f64(x) + D_LN2;
  const double t = x - 1.0LF;
  return log1p_f64(t + sqrt(2.0LF * t + t * t));
}
double asinh_f64(double x) {
  if (isnan(x) || isinf(x)) return x;
  const double ax = abs(x);
  double r;
  if (ax > 1.0e150LF) {
    r = log_f64(ax) + D_LN2;
  } else {
    const double a2 = ax * ax;
    r = log1p_f64(ax + a2 / (1.0LF + sqrt(1.0LF + a2)));
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
  if (x == 0.0LF || isnan(x) || isinf(x)) return x;
  const double ax = abs(x);
  int e;
  const double m = frexp(ax, e);  // ax = m 2^e, m in [0.5, 1)
  const int e3 = e >= 0 ? e / 3 : -((-e + 2) / 3);
  const double scaled = ldexp(m, e - 3 * e3);  // [0.5, 4)
  double y = double(exp2(log2(float(scaled)) / 3.0));
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
