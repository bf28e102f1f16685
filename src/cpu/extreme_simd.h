// Vectorised max/min and arg-max/min of one block of contiguous floats or doubles (SSE2,
// the x86-64 baseline), NaN-blind: per lane a running extreme (maxps/minps); GCC does not
// vectorise the NaN-aware scalar forms. A block holding
// NaN or an infinity is flagged (x - x is then NaN) and the caller rescans it exactly, as
// do other targets.
#pragma once

#include <cstdint>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#define VKT_EXTREME_SIMD 1
#endif

namespace vkt::cpu_kernels {

#ifdef VKT_EXTREME_SIMD

// The register types and ops for one element type.
template <class C>
struct Simd;

template <>
struct Simd<float> {
  using V = __m128;
  static constexpr int kWidth = 4;
  static V load(const float* p) { return _mm_loadu_ps(p); }
  static V splat(float x) { return _mm_set1_ps(x); }
  static V zero() { return _mm_setzero_ps(); }
  static V add(V a, V b) { return _mm_add_ps(a, b); }
  static V sub(V a, V b) { return _mm_sub_ps(a, b); }
  static V max(V a, V b) { return _mm_max_ps(a, b); }
  static V min(V a, V b) { return _mm_min_ps(a, b); }
  static void store(float* out, V v) { _mm_storeu_ps(out, v); }
  static int eq_mask(V a, V b) { return _mm_movemask_ps(_mm_cmpeq_ps(a, b)); }
};

template <>
struct Simd<double> {
  using V = __m128d;
  static constexpr int kWidth = 2;
  static V load(const double* p) { return _mm_loadu_pd(p); }
  static V splat(double x) { return _mm_set1_pd(x); }
  static V zero() { return _mm_setzero_pd(); }
  static V add(V a, V b) { return _mm_add_pd(a, b); }
  static V sub(V a, V b) { return _mm_sub_pd(a, b); }
  static V max(V a, V b) { return _mm_max_pd(a, b); }
  static V min(V a, V b) { return _mm_min_pd(a, b); }
  static void store(double* out, V v) { _mm_storeu_pd(out, v); }
  static int eq_mask(V a, V b) { return _mm_movemask_pd(_mm_cmpeq_pd(a, b)); }
};

// The max (kMax) or min of p[0, n). 16 lanes whatever the width, combined in lane order
// after the tail joins lane 0, as reduce.cpp's exact loop does: zero signs agree with it.
template <class C, bool kMax>
C simd_extreme(const C* p, std::int64_t n, bool& special) {
  using S = Simd<C>;
  using V = typename S::V;
  constexpr int kVectors = 16 / S::kWidth, kLanes = 16;
  const C start = kMax ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::infinity();
  V best[kVectors], probe[kVectors];
  for (int k = 0; k < kVectors; ++k) {
    best[k] = S::splat(start);
    probe[k] = S::zero();
  }
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < kVectors; ++k) {
      const V x = S::load(p + i + k * S::kWidth);
      // max(x, b) is x > b ? x : b, min(x, b) is x < b ? x : b: a tie or NaN keeps b.
      best[k] = kMax ? S::max(x, best[k]) : S::min(x, best[k]);
      probe[k] = S::add(probe[k], S::sub(x, x));
    }
  }
  C values[kLanes], probes[kLanes];
  for (int k = 0; k < kVectors; ++k) {
    S::store(values + k * S::kWidth, best[k]);
    S::store(probes + k * S::kWidth, probe[k]);
  }
  C probe_sum = C(0);
  for (; i < n; ++i) {
    const C x = p[i];
    probe_sum += x - x;
    values[0] = (kMax ? x > values[0] : x < values[0]) ? x : values[0];
  }
  C result = start;
  for (int j = 0; j < kLanes; ++j) {
    probe_sum += probes[j];
    result = (kMax ? values[j] > result : values[j] < result) ? values[j] : result;
  }
  special = probe_sum != probe_sum;
  return result;
}

// The extreme of p[0, n) and its index (first, or last with kHigh, among equals), with
// `special` set when a NaN or infinity was met (the caller rescans). Two passes, as NumPy
// does: the extreme by simd_extreme, then the first (last) element equal to it, 16 at a
// time. On a block in L1 that is ~2 vector ops an element against ~11 for a running
// index per lane (argmax along rows of {1024, 1024} on 2 Zen 5 cores: 113 -> 88 us, with
// maxps for the extreme; bench_results/lavapipe/dev-runs).
template <class C, bool kMax, bool kHigh>
std::int64_t simd_arg_extreme(const C* p, std::int64_t n, C& extreme, bool& special) {
  using S = Simd<C>;
  constexpr int kVectors = 16 / S::kWidth, kLanes = 16;
  const C m = simd_extreme<C, kMax>(p, n, special);
  if (special || n == 0) return 0;
  const typename S::V target = S::splat(m);
  // -0 == +0: the first (last) zero of either sign is the answer, as a running scan gives.
  auto block_mask = [&](std::int64_t i) {
    int mask = 0;
    for (int k = 0; k < kVectors; ++k) {
      mask |= S::eq_mask(S::load(p + i + k * S::kWidth), target) << (k * S::kWidth);
    }
    return mask;
  };
  std::int64_t at = -1;
  if constexpr (kHigh) {
    std::int64_t i = n;
    for (; i % kLanes != 0 && at < 0; --i) {
      if (p[i - 1] == m) at = i - 1;
    }
    for (; i >= kLanes && at < 0; i -= kLanes) {
      if (const int mask = block_mask(i - kLanes)) at = i - kLanes + 31 - __builtin_clz(mask);
    }
  } else {
    std::int64_t i = 0;
    for (; i + kLanes <= n && at < 0; i += kLanes) {
      if (const int mask = block_mask(i)) at = i + __builtin_ctz(mask);
    }
    for (; i < n && at < 0; ++i) {
      if (p[i] == m) at = i;
    }
  }
  extreme = p[at];
  return at;
}

#endif  // VKT_EXTREME_SIMD

}  // namespace vkt::cpu_kernels
