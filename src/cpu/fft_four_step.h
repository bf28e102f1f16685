// One long FFT line on every thread by the four-step (Bailey) decomposition, for lines whose
// working set is past L2 (a direct transform's passes then each stream the line from memory,
// on one thread). n = n1 * n2, x[j1 + n1 j2]:
//   n1 transforms of n2 points over j2 (strided columns, gathered several at a time),
//   times the twiddle exp(-+2 pi i j1 k2 / n), then n2 transforms of n1 points over j1,
//   each written to X[k2 + n2 k1] (the transpose to natural order).
#pragma once

#include <complex>
#include <cstdint>
#include <memory>

namespace vkt::cpu_kernels {

// The L2 cache size the host reports (sysconf), 256 KiB (the smallest x86 L2) where it does not.
std::int64_t l2_cache_bytes();

// kissfft factors a length into 4, 2, 3, 5 and then other primes, whose butterfly writes the
// plan's mutable scratch buffer: plans of such lengths are copied per thread.
bool kissfft_plan_shareable(std::int64_t n);

// n1 of the split n = n1 * n2 (the largest divisor of n up to sqrt(n)); 1 when n is prime.
std::int64_t four_step_split(std::int64_t n);

// Whether a line of n points of `point_bytes` each goes by the four-step: a direct
// transform's input, output and scratch (3 n point_bytes) exceed the L2 cache the host
// reports, n >= 256, and n splits into two factors of at least 16.
// Overrides::cpu_fft_four_step forces it: off, or a number of bytes that replaces L2 in the
// rule (to find the crossover, and in tests); read at every call.
bool four_step_pays(std::int64_t n, std::int64_t point_bytes);
// Whether `lines` lines of n points, each inside L2, are better split over `threads`.
bool four_step_spreads(std::int64_t n, std::int64_t lines, std::int64_t threads);

// R: float (c64) or double (c128); twiddles are computed in double either way.
template <class R>
class FourStepFft {
 public:
  using C = std::complex<R>;
  // `scale` multiplies every output (the inverse's 1 / n where the caller wants it here).
  FourStepFft(std::int64_t n, bool inverse, double scale);
  ~FourStepFft();
  FourStepFft(const FourStepFft&) = delete;
  FourStepFft& operator=(const FourStepFft&) = delete;

  // in and out: n points each, not overlapping. Every pass runs on every thread (on the
  // calling thread alone inside a parallel region, as a nested transform does).
  void transform(const C* in, C* out) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

extern template class FourStepFft<float>;
extern template class FourStepFft<double>;

}  // namespace vkt::cpu_kernels
