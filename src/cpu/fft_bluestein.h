// Bluestein's algorithm for lengths with a large prime factor, on power-of-two transforms
// (Radix4Fft, or the four-step split where the padded length is past its bound).
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <memory>
#include <numbers>
#include <vector>

#include "cpu/fft_four_step.h"
#include "cpu/fft_plans.h"
#include "cpu/fft_radix4.h"

namespace vkt::cpu_kernels {

// Lengths with a prime factor above this go through Bluestein's algorithm (three power-of-two
// transforms of at least 2n - 1 points): kissfft's generic butterfly costs n * p there, so a
// large prime length would cost n^2.
inline constexpr std::int64_t kBluesteinPrime = 256;

inline std::int64_t largest_prime_factor(std::int64_t n) {
  std::int64_t largest = 1;
  for (std::int64_t p = 2; p * p <= n; ++p) {
    while (n % p == 0) {
      largest = p;
      n /= p;
    }
  }
  return std::max(largest, n);
}

// A power-of-two transform for Bluestein: Radix4Fft, or the four-step past its bound.
template <class R>
class PowerOfTwoFft {
 public:
  using C = std::complex<R>;
  PowerOfTwoFft(std::int64_t m, bool inverse) {
    if (four_step_pays(m, sizeof(C))) {
      split_ = std::make_unique<const FourStepFft<R>>(m, inverse, 1.0);
    } else {
      radix4_ = fft_plan<Radix4Fft<R>>(m, inverse);
    }
  }
  // `work`: m points, for Radix4Fft.
  void transform(const C* in, C* out, C* work) const {
    if (split_) {
      split_->transform(in, out);
    } else {
      radix4_->transform(in, out, work);
    }
  }

 private:
  std::shared_ptr<const Radix4Fft<R>> radix4_;  // shareable across threads
  std::unique_ptr<const FourStepFft<R>> split_;
};

// Bluestein: X_k = w_k * sum_j (x_j w_j) conj(w_(k-j)), w_k = exp(-+ i pi k^2 / n), the
// sum a circular convolution of m >= 2n - 1 points done by power-of-two transforms.
template <class R>
class Bluestein {
 public:
  using C = std::complex<R>;
  Bluestein(std::int64_t n, bool inverse) : n_(n) {
    while (m_ < 2 * n - 1) m_ *= 2;
    fwd_ = std::make_unique<const PowerOfTwoFft<R>>(m_, false);
    inv_ = std::make_unique<const PowerOfTwoFft<R>>(m_, true);
    chirp_.resize(static_cast<std::size_t>(n));
    // k^2 mod 2n by (k + 1)^2 = k^2 + 2k + 1, exact for any n.
    std::int64_t square = 0;
    const double sign = inverse ? 1.0 : -1.0;
    for (std::int64_t k = 0; k < n; ++k) {
      const double angle = std::numbers::pi * static_cast<double>(square) / static_cast<double>(n);
      chirp_[static_cast<std::size_t>(k)] =
          C(static_cast<R>(std::cos(angle)), static_cast<R>(sign * std::sin(angle)));
      square = (square + 2 * k + 1) % (2 * n);
    }
    std::vector<C> b(static_cast<std::size_t>(m_), C(0));
    b[0] = std::conj(chirp_[0]);
    for (std::int64_t k = 1; k < n; ++k) {
      b[static_cast<std::size_t>(k)] = b[static_cast<std::size_t>(m_ - k)] =
          std::conj(chirp_[static_cast<std::size_t>(k)]);
    }
    kernel_.resize(static_cast<std::size_t>(m_));
    std::vector<C> work(static_cast<std::size_t>(m_));
    fwd_->transform(b.data(), kernel_.data(), work.data());
    for (C& v : kernel_) v /= static_cast<R>(m_);  // the inverse transform's 1/m
  }
  std::int64_t scratch_size() const { return m_; }
  // `a`, `fa` and `work`: scratch_size() points each.
  void transform(const C* in, C* out, C* a, C* fa, C* work) const {
    for (std::int64_t k = 0; k < n_; ++k) a[k] = in[k] * chirp_[static_cast<std::size_t>(k)];
    std::fill(a + n_, a + m_, C(0));
    fwd_->transform(a, fa, work);
    for (std::int64_t k = 0; k < m_; ++k) fa[k] *= kernel_[static_cast<std::size_t>(k)];
    inv_->transform(fa, a, work);
    for (std::int64_t k = 0; k < n_; ++k) out[k] = a[k] * chirp_[static_cast<std::size_t>(k)];
  }

 private:
  std::int64_t n_, m_ = 1;
  std::unique_ptr<const PowerOfTwoFft<R>> fwd_, inv_;
  std::vector<C> chirp_, kernel_;
};

}  // namespace vkt::cpu_kernels
