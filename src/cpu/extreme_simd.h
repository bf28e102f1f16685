// Vectorised max/min and arg-max/min of one block of contiguous floats or doubles (SSE2,
// the x86-64 baseline), NaN-blind: per lane a running extreme (and its index), blended
// with compare masks; GCC does not vectorise the NaN-aware scalar forms. A block holding
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

// The register types and ops for one element type; lanes hold indices of the same width.
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
  static V gt(V a, V b) { return _mm_cmpgt_ps(a, b); }
  static V ge(V a, V b) { return _mm_cmpge_ps(a, b); }
  static V lt(V a, V b) { return _mm_cmplt_ps(a, b); }
  static V le(V a, V b) { return _mm_cmple_ps(a, b); }
  static __m128i first_positions(int base) {
    return _mm_setr_epi32(base, base + 1, base + 2, base + 3);
  }
  static __m128i add_index(__m128i a, std::int64_t n) {
    return _mm_add_epi32(a, _mm_set1_epi32(static_cast<std::int32_t>(n)));
  }
  static void store_index(std::int64_t* out, __m128i v) {
    alignas(16) std::int32_t tmp[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(tmp), v);
    for (int j = 0; j < 4; ++j) out[j] = tmp[j];
  }
  static void store(float* out, V v) { _mm_storeu_ps(out, v); }
  static __m128i mask(V m) { return _mm_castps_si128(m); }
  static V select(V m, V a, V b) { return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b)); }
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
  static V gt(V a, V b) { return _mm_cmpgt_pd(a, b); }
  static V ge(V a, V b) { return _mm_cmpge_pd(a, b); }
  static V lt(V a, V b) { return _mm_cmplt_pd(a, b); }
  static V le(V a, V b) { return _mm_cmple_pd(a, b); }
  static __m128i first_positions(int base) { return _mm_set_epi64x(base + 1, base); }
  static __m128i add_index(__m128i a, std::int64_t n) {
    return _mm_add_epi64(a, _mm_set1_epi64x(n));
  }
  static void store_index(std::int64_t* out, __m128i v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), v);
  }
  static void store(double* out, V v) { _mm_storeu_pd(out, v); }
  static __m128i mask(V m) { return _mm_castpd_si128(m); }
  static V select(V m, V a, V b) { return _mm_or_pd(_mm_and_pd(m, a), _mm_andnot_pd(m, b)); }
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
      best[k] = S::select(kMax ? S::gt(x, best[k]) : S::lt(x, best[k]), x, best[k]);
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
// `special` set when a NaN or infinity was met (x - x is then NaN; the caller rescans).
template <class C, bool kMax, bool kHigh>
std::int64_t simd_arg_extreme(const C* p, std::int64_t n, C& extreme, bool& special) {
  using S = Simd<C>;
  using V = typename S::V;
  constexpr int kVectors = 4, kLanes = kVectors * S::kWidth;
  const C start = kMax ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::infinity();
  V best[kVectors], probe[kVectors];
  __m128i index[kVectors], position[kVectors];
  for (int k = 0; k < kVectors; ++k) {
    best[k] = S::splat(start);
    probe[k] = S::zero();
    index[k] = S::first_positions(k * S::kWidth);
    position[k] = index[k];
  }
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < kVectors; ++k) {
      const V x = S::load(p + i + k * S::kWidth);
      // Strict for the first of equals, inclusive for the last; NaN never takes (no NaN here).
      const V take = kMax ? (kHigh ? S::ge(x, best[k]) : S::gt(x, best[k]))
                          : (kHigh ? S::le(x, best[k]) : S::lt(x, best[k]));
      const __m128i m = S::mask(take);
      best[k] = S::select(take, x, best[k]);
      index[k] = _mm_or_si128(_mm_and_si128(m, position[k]), _mm_andnot_si128(m, index[k]));
      probe[k] = S::add(probe[k], S::sub(x, x));
      position[k] = S::add_index(position[k], kLanes);
    }
  }
  C values[kLanes], probes[kLanes];
  std::int64_t indices[kLanes];
  for (int k = 0; k < kVectors; ++k) {
    S::store(values + k * S::kWidth, best[k]);
    S::store(probes + k * S::kWidth, probe[k]);
    S::store_index(indices + k * S::kWidth, index[k]);
  }
  // With no NaN or infinity every lane took its first element, so when the loop ran each
  // lane holds a real candidate; lanes combine by value, ties by the tie-break's index.
  C result = start, probe_sum = C(0);
  std::int64_t at = -1;
  for (int j = 0; j < kLanes; ++j) probe_sum += probes[j];
  for (int j = 0; i > 0 && j < kLanes; ++j) {
    const bool better = kMax ? values[j] > result : values[j] < result;
    const bool tie = values[j] == result && (kHigh ? indices[j] > at : indices[j] < at);
    if (at < 0 || better || tie) {
      result = values[j];
      at = indices[j];
    }
  }
  for (; i < n; ++i) {
    const C x = p[i];
    probe_sum += x - x;
    const bool take =
        at < 0 || (kMax ? (kHigh ? x >= result : x > result) : (kHigh ? x <= result : x < result));
    if (take) {
      result = x;
      at = i;
    }
  }
  special = probe_sum != probe_sum;
  extreme = result;
  return at;
}

#endif  // VKT_EXTREME_SIMD

}  // namespace vkt::cpu_kernels
