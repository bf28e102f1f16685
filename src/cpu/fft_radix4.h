// Power-of-two FFT lengths by the Stockham autosort algorithm, radix 4 (one radix-2 pass
// when log2 n is odd): every pass reads and writes whole arrays in order (no bit reversal,
// no recursion), and the twiddles come from one table of n points computed in double.
// kissfft's recursive passes index its twiddle table with growing strides and check each
// complex product for NaN; this runs the same lengths faster. Other lengths stay on kissfft.
#pragma once

#include <complex>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <vector>

namespace vkt::cpu_kernels {

// 16-byte vectors of interleaved (re, im) points (GCC and clang vector extensions; SSE2 on
// any x86-64): two c64 points or one c128 point per vector.
template <class R>
struct Vector16;
template <>
struct Vector16<float> {
  typedef float type __attribute__((vector_size(16)));
};
template <>
struct Vector16<double> {
  typedef double type __attribute__((vector_size(16)));
};

template <class R>
struct ComplexLanes {
  using V = typename Vector16<R>::type;
  using C = std::complex<R>;
  static constexpr std::int64_t kReals = 16 / sizeof(R), kPoints = kReals / 2;
  static V load(const C* p) {
    V v;
    std::memcpy(&v, static_cast<const void*>(p), sizeof(V));
    return v;
  }
  static void store(C* p, V v) { std::memcpy(static_cast<void*>(p), &v, sizeof(V)); }
  // (re, im) repeated over the vector.
  static V pair(R re, R im) {
    V v;
    for (std::int64_t i = 0; i < kReals; i += 2) {
      v[i] = re;
      v[i + 1] = im;
    }
    return v;
  }
  static V swap(V v) {
    if constexpr (kReals == 4) {
      return __builtin_shufflevector(v, v, 1, 0, 3, 2);
    } else {
      return __builtin_shufflevector(v, v, 1, 0);
    }
  }
  // w v with wr = (w.re, w.re), wi = (-w.im, w.im): (w.re v.re - w.im v.im, w.re v.im +
  // w.im v.re), the scalar mul's operations in its order.
  static V mul(V wr, V wi, V v) { return wr * v + wi * swap(v); }
};

template <class R>
class Radix4Fft {
 public:
  using C = std::complex<R>;
  using Lanes = ComplexLanes<R>;
  using V = typename Lanes::V;
  static bool handles(std::int64_t n) { return n >= 1 && (n & (n - 1)) == 0; }

  Radix4Fft(std::int64_t n, bool inverse) : n_(n), inverse_(inverse) {
    twiddles_.resize(static_cast<std::size_t>(n));
    const double sign = inverse ? 1.0 : -1.0;
    for (std::int64_t k = 0; k < n; ++k) {
      const double angle =
          sign * 2.0 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n);
      twiddles_[static_cast<std::size_t>(k)] =
          C(static_cast<R>(std::cos(angle)), static_cast<R>(std::sin(angle)));
    }
    for (std::int64_t m = n; m > 1; m /= (m % 4 == 0 ? 4 : 2)) ++passes_;
  }
  std::int64_t size() const { return n_; }

  // out = DFT(in); `work`: n points of scratch. in is not written; in, out, work distinct.
  void transform(const C* in, C* out, C* work) const {
    if (n_ == 1) {
      out[0] = in[0];
      return;
    }
    // Pass i writes `out` when passes - 1 - i is even, so the last one lands there.
    const C* src = in;
    std::int64_t pass = 0, s = 1;
    for (std::int64_t m = n_; m > 1; ++pass) {
      C* dst = (passes_ - 1 - pass) % 2 == 0 ? out : work;
      if (m % 4 == 0) {
        radix4_pass(m, s, src, dst);
        m /= 4;
        s *= 4;
      } else {
        radix2_pass(s, src, dst);  // m == 2: the last pass
        m = 1;
      }
      src = dst;
    }
  }

 private:
  // One pass of sub-length m at stride s (s m = n): y[q + s (4p + r)] from x[q + s (p + r m/4)].
  void radix4_pass(std::int64_t m, std::int64_t s, const C* x, C* y) const {
    const std::int64_t m1 = m / 4, m2 = m / 2, m3 = 3 * m1;
    const C* tw = twiddles_.data();
    for (std::int64_t p = 0; p < m1; ++p) {
      const C w1 = tw[p * s], w2 = tw[2 * p * s], w3 = tw[3 * p * s];
      const C* xa = x + s * p;
      C* yp = y + s * 4 * p;
      std::int64_t q = 0;
      if (s % Lanes::kPoints == 0) {
        // The same arithmetic, in the same order, on kPoints points per vector.
        const V w1r = Lanes::pair(w1.real(), w1.real()), w1i = Lanes::pair(-w1.imag(), w1.imag());
        const V w2r = Lanes::pair(w2.real(), w2.real()), w2i = Lanes::pair(-w2.imag(), w2.imag());
        const V w3r = Lanes::pair(w3.real(), w3.real()), w3i = Lanes::pair(-w3.imag(), w3.imag());
        const V j = inverse_ ? Lanes::pair(-1, 1) : Lanes::pair(1, -1);
        for (; q < s; q += Lanes::kPoints) {
          const V a = Lanes::load(xa + q), b = Lanes::load(xa + q + s * m1);
          const V c = Lanes::load(xa + q + s * m2), d = Lanes::load(xa + q + s * m3);
          const V apc = a + c, amc = a - c, bpd = b + d, jbmd = Lanes::swap(b - d) * j;
          Lanes::store(yp + q, apc + bpd);
          Lanes::store(yp + q + s, Lanes::mul(w1r, w1i, amc + jbmd));
          Lanes::store(yp + q + 2 * s, Lanes::mul(w2r, w2i, apc - bpd));
          Lanes::store(yp + q + 3 * s, Lanes::mul(w3r, w3i, amc - jbmd));
        }
      }
      for (; q < s; ++q) {
        const C a = xa[q], b = xa[q + s * m1], c = xa[q + s * m2], d = xa[q + s * m3];
        const C apc = a + c, amc = a - c, bpd = b + d, bmd = b - d;
        // -i (b - d) forward, +i (b - d) inverse.
        const C jbmd = inverse_ ? C(-bmd.imag(), bmd.real()) : C(bmd.imag(), -bmd.real());
        yp[q] = apc + bpd;
        yp[q + s] = mul(w1, amc + jbmd);
        yp[q + 2 * s] = mul(w2, apc - bpd);
        yp[q + 3 * s] = mul(w3, amc - jbmd);
      }
    }
  }
  void radix2_pass(std::int64_t s, const C* x, C* y) const {
    for (std::int64_t q = 0; q < s; ++q) {
      const C a = x[q], b = x[q + s];
      y[q] = a + b;
      y[q + s] = a - b;
    }
  }
  // Written out: no NaN-recovery branch, whatever the compiler flags.
  static C mul(const C& w, const C& v) {
    return C(w.real() * v.real() - w.imag() * v.imag(), w.real() * v.imag() + w.imag() * v.real());
  }

  std::int64_t n_;
  bool inverse_;
  std::int64_t passes_ = 0;
  std::vector<C> twiddles_;
};

}  // namespace vkt::cpu_kernels
