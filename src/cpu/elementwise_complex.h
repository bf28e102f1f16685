// Complex elementwise math for c64/c128 (std::complex<float>/<double>), with NumPy's
// semantics where NumPy defines the op and Nx's where only Nx does (cbrt, sigmoid). The
// transcendental functions are the C library's (std::exp(complex) is glibc's cexp, as in
// NumPy); multiply, divide and pow are NumPy's own formulas, so special values (inf and
// NaN parts) come out as in NumPy. Each `*_op` picks the lambda for an op and hands it to
// `go`, as the real kernels do.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>

#include "vkt/op.h"

namespace vkt::cpu_kernels {

// The plain product, as NumPy and XLA: C99 Annex G's recovery of infinities from NaN
// results (GCC's __mulsc3) would make (inf + 0i) * 1 = inf + 0i where NumPy gives inf + NaNi,
// and its branch keeps the loop from vectorising.
template <class R>
std::complex<R> complex_multiply(std::complex<R> a, std::complex<R> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// Smith's algorithm (NumPy's complex divide): scaled by the larger part of the divisor so
// no intermediate overflows; division by zero gives the parts divided by 0 (inf or NaN).
template <class R>
std::complex<R> complex_divide(std::complex<R> a, std::complex<R> b) {
  const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  const R abs_br = std::fabs(br), abs_bi = std::fabs(bi);
  if (abs_br >= abs_bi) {
    if (abs_br == 0 && abs_bi == 0) return {ar / abs_br, ai / abs_bi};
    const R rat = bi / br, scl = R(1) / (br + bi * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  const R rat = br / bi, scl = R(1) / (bi + br * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}

// NumPy's pow: z^0 = 1 (NaN and inf included); 0^w = 0 for real w > 0 and NaN otherwise;
// integer exponents below 100 in magnitude by repeated multiplication (exact where the
// products are, and inf handled as in multiply); the rest exp(w log z) (glibc's cpow).
template <class R>
std::complex<R> complex_pow(std::complex<R> a, std::complex<R> b) {
  const R br = b.real(), bi = b.imag();
  if (br == 0 && bi == 0) return {R(1), R(0)};
  if (a.real() == 0 && a.imag() == 0) {
    if (br > 0 && bi == 0) return {R(0), R(0)};
    const R nan = std::numeric_limits<R>::quiet_NaN();
    return {nan, nan};
  }
  if (bi == 0 && br > R(-100) && br < R(100) && br == std::trunc(br)) {
    auto n = static_cast<std::int64_t>(br);
    if (n == 1) return a;
    if (n == 2) return complex_multiply(a, a);
    if (n == 3) return complex_multiply(a, complex_multiply(a, a));
    std::complex<R> result(R(1), R(0)), power = a;
    for (std::int64_t m = n < 0 ? -n : n;;) {
      if (m & 1) result = complex_multiply(result, power);
      m >>= 1;
      if (m == 0) break;
      power = complex_multiply(power, power);
    }
    return n < 0 ? complex_divide(std::complex<R>(R(1), R(0)), result) : result;
  }
  return std::pow(a, b);
}

// exp(z) - 1 without the cancellation near 0: Re = expm1(x) cos y - 2 sin^2(y/2) (NumPy's).
template <class R>
std::complex<R> complex_expm1(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  const R half = std::sin(y / 2);
  return {std::expm1(x) * std::cos(y) - 2 * half * half, std::exp(x) * std::sin(y)};
}

// log(1 + z), accurate near 0 where NumPy's log(hypot(1 + x, y)) is not: there
// log|1 + z| = log1p(2x + x^2 + y^2) / 2. Elsewhere (inf and NaN parts too) NumPy's formula.
template <class R>
std::complex<R> complex_log1p(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  const R angle = std::atan2(y, x + R(1));
  if (std::fabs(x) < R(0.5) && std::fabs(y) < R(0.5)) {
    return {std::log1p(x * (R(2) + x) + y * y) / R(2), angle};
  }
  return {std::log(std::hypot(x + R(1), y)), angle};
}

// z / |z| (0 for 0), NumPy 2's sign: an infinite part gives its unit direction, both parts
// infinite or any NaN give NaN.
template <class R>
std::complex<R> complex_sign(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  const R magnitude = std::hypot(x, y);
  const R nan = std::numeric_limits<R>::quiet_NaN();
  if (std::isnan(magnitude)) return {nan, nan};
  if (std::isinf(magnitude)) {
    if (std::isinf(x))
      return std::isinf(y) ? std::complex<R>(nan, nan)
                           : std::complex<R>(x > 0 ? R(1) : R(-1), R(0));
    return {R(0), y > 0 ? R(1) : R(-1)};
  }
  if (magnitude == 0) return {R(0), R(0)};
  return {x / magnitude, y / magnitude};
}

template <class R>
bool complex_nonzero(std::complex<R> z) {
  return z.real() != 0 || z.imag() != 0;
}

// Ops with a complex result: the float functions, negate, sign, conjugate.
template <class R, class Go>
bool complex_unary_op(Op op, Go go) {
  using Z = std::complex<R>;
  const Z one(R(1), R(0));
  switch (op) {
    case Op::exp:
      return go([](Z z) { return std::exp(z); });
    case Op::expm1:
      return go([](Z z) { return complex_expm1(z); });
    case Op::log:
      return go([](Z z) { return std::log(z); });
    case Op::log1p:
      return go([](Z z) { return complex_log1p(z); });
    case Op::sigmoid:
      return go([one](Z z) { return complex_divide(one, one + std::exp(-z)); });
    case Op::cos:
      return go([](Z z) { return std::cos(z); });
    case Op::sin:
      return go([](Z z) { return std::sin(z); });
    case Op::tan:
      return go([](Z z) { return std::tan(z); });
    case Op::cosh:
      return go([](Z z) { return std::cosh(z); });
    case Op::sinh:
      return go([](Z z) { return std::sinh(z); });
    case Op::tanh:
      return go([](Z z) { return std::tanh(z); });
    case Op::acos:
      return go([](Z z) { return std::acos(z); });
    case Op::asin:
      return go([](Z z) { return std::asin(z); });
    case Op::atan:
      return go([](Z z) { return std::atan(z); });
    case Op::acosh:
      return go([](Z z) { return std::acosh(z); });
    case Op::asinh:
      return go([](Z z) { return std::asinh(z); });
    case Op::atanh:
      return go([](Z z) { return std::atanh(z); });
    case Op::sqrt:
      return go([](Z z) { return std::sqrt(z); });
    case Op::rsqrt:
      return go([one](Z z) { return complex_divide(one, std::sqrt(z)); });
    case Op::cbrt:  // the principal cube root, as Nx: exp(log(z) / 3)
      return go([](Z z) { return std::exp(std::log(z) / R(3)); });
    case Op::negate:
      return go([](Z z) { return Z(-z.real(), -z.imag()); });
    case Op::sign:
      return go([](Z z) { return complex_sign(z); });
    case Op::conjugate:
      return go([](Z z) { return Z(z.real(), -z.imag()); });
    default:
      return false;
  }
}

// Ops that give the real type of the parts: abs (hypot), real, imag, phase (atan2(im, re)).
template <class R, class Go>
bool complex_to_real_op(Op op, Go go) {
  using Z = std::complex<R>;
  switch (op) {
    case Op::abs:  // an infinite part gives inf even beside a signalling NaN (glibc's hypot
                   // gives NaN there; the quiet-NaN rule of C99 Annex G and the device: inf)
      return go([](Z z) {
        if (std::isinf(z.real()) || std::isinf(z.imag())) return std::numeric_limits<R>::infinity();
        return std::hypot(z.real(), z.imag());
      });
    case Op::real:
      return go([](Z z) { return z.real(); });
    case Op::imag:
      return go([](Z z) { return z.imag(); });
    case Op::phase:
      return go([](Z z) { return std::atan2(z.imag(), z.real()); });
    default:
      return false;
  }
}

// Predicates (u8 out): NaN or infinite when either part is; logical_not of a zero.
template <class R, class Go>
bool complex_predicate_op(Op op, Go go) {
  using Z = std::complex<R>;
  using B = std::uint8_t;
  switch (op) {
    case Op::is_nan:
      return go([](Z z) { return static_cast<B>(std::isnan(z.real()) || std::isnan(z.imag())); });
    case Op::is_infinity:
      return go([](Z z) { return static_cast<B>(std::isinf(z.real()) || std::isinf(z.imag())); });
    case Op::logical_not:
      return go([](Z z) { return static_cast<B>(!complex_nonzero(z)); });
    default:
      return false;
  }
}

// Binary ops with a complex result.
template <class R, class Go>
bool complex_arithmetic_op(Op op, Go go) {
  using Z = std::complex<R>;
  switch (op) {
    case Op::add:
      return go([](Z a, Z b) { return Z(a.real() + b.real(), a.imag() + b.imag()); });
    case Op::subtract:
      return go([](Z a, Z b) { return Z(a.real() - b.real(), a.imag() - b.imag()); });
    case Op::multiply:
      return go([](Z a, Z b) { return complex_multiply(a, b); });
    case Op::divide:
      return go([](Z a, Z b) { return complex_divide(a, b); });
    case Op::pow:
      return go([](Z a, Z b) { return complex_pow(a, b); });
    default:
      return false;
  }
}

// Comparisons of both parts (IEEE: NaN equals nothing) and logical ops (nonzero is true).
template <class R, class Go>
bool complex_predicate_binary_op(Op op, Go go) {
  using Z = std::complex<R>;
  using B = std::uint8_t;
  switch (op) {
    case Op::equal:
      return go([](Z a, Z b) {
        return static_cast<B>(int{a.real() == b.real()} & int{a.imag() == b.imag()});
      });
    case Op::not_equal:
      return go([](Z a, Z b) {
        return static_cast<B>(int{a.real() != b.real()} | int{a.imag() != b.imag()});
      });
    case Op::logical_and:
      return go([](Z a, Z b) {
        return static_cast<B>(int{complex_nonzero(a)} & int{complex_nonzero(b)});
      });
    case Op::logical_or:
      return go([](Z a, Z b) {
        return static_cast<B>(int{complex_nonzero(a)} | int{complex_nonzero(b)});
      });
    case Op::logical_xor:
      return go([](Z a, Z b) { return static_cast<B>(complex_nonzero(a) ^ complex_nonzero(b)); });
    default:
      return false;
  }
}

}  // namespace vkt::cpu_kernels
