// Elementwise loops compiled for wider vector units than the x86-64 baseline (SSE2) the
// library is built for, chosen at run time by what the cpu supports. Used for the float
// functions, which are compute bound: a 1M f32 exp on one Zen 5 core takes 997 us with
// SSE2, 456 with AVX2, 235 with AVX-512 (bench_results/lavapipe/dev-runs).
// The wide loops fuse multiply-adds (elementwise_unary.cpp builds with -ffp-contract=fast;
// SSE2 has no FMA, so the baseline is unchanged): with AVX-512, a 1M exp on one Zen 5 core
// 235 -> 157 us, tanh 387 -> 278 (dev-runs/vm_cpu-fma-*). AVX2 and AVX-512 give the same bits,
// and the baseline may differ from them by up to two ulps, each within its function's stated
// bound (tests/unit/host_threading_test.cpp checks both).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "common/settings.h"
#include "cpu/elementwise_loops.h"

namespace vkt::cpu_kernels {

enum class VectorIsa { baseline, avx2, avx512 };

// At most this ISA is used (tests compare each ISA's bits with the baseline's).
inline std::atomic<VectorIsa> vector_isa_limit{VectorIsa::avx512};

#if defined(__x86_64__) && defined(__GNUC__)
// The widest ISA the cpu and the OS support.
inline VectorIsa supported_vector_isa() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")) {
    return VectorIsa::avx512;
  }
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? VectorIsa::avx2
                                                                         : VectorIsa::baseline;
}
#endif

// VKT_CPU_ISA=sse2|avx2|avx512 caps the ISA (say, where AVX-512 lowers the clock).
inline VectorIsa isa_from_environment() {
  constexpr VectorIsa kByCap[] = {VectorIsa::baseline, VectorIsa::avx2, VectorIsa::avx512};
  return kByCap[static_cast<int>(settings().isa_cap)];
}

inline VectorIsa vector_isa() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const VectorIsa isa = std::min(supported_vector_isa(), isa_from_environment());
  return std::min(isa, vector_isa_limit.load(std::memory_order_relaxed));
#else
  return VectorIsa::baseline;
#endif
}

#if defined(__x86_64__) && defined(__GNUC__)
template <class In, class Out, class F>
__attribute__((target("avx2,fma"))) void map_range_avx2(const In* __restrict src,
                                                        Out* __restrict dst, std::int64_t len,
                                                        F f) {
  for (std::int64_t i = 0; i < len; ++i) dst[i] = store<Out>(f(load(src[i])));
}
template <class In, class Out, class F>
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,fma"))) void map_range_avx512(
    const In* __restrict src, Out* __restrict dst, std::int64_t len, F f) {
  for (std::int64_t i = 0; i < len; ++i) dst[i] = store<Out>(f(load(src[i])));
}
#endif

// map_unary with the loop body in the widest vector ISA the cpu has.
template <class In, class Out, class F>
void map_unary_wide(const In* in, Out* out, std::int64_t n, std::int64_t grain, F f) {
#if defined(__x86_64__) && defined(__GNUC__)
  const VectorIsa isa = vector_isa();
  if (isa != VectorIsa::baseline) {
    parallel_for(n, grain, [&](std::int64_t begin, std::int64_t end) {
      if (isa == VectorIsa::avx512) {
        map_range_avx512(in + begin, out + begin, end - begin, f);
      } else {
        map_range_avx2(in + begin, out + begin, end - begin, f);
      }
    });
    return;
  }
#endif
  map_unary(in, out, n, grain, f);
}

#if defined(__x86_64__) && defined(__GNUC__)
template <class T, class Out, class F>
__attribute__((target("avx2,fma"))) void binary_row_avx2(const T* a, std::int64_t sa, const T* b,
                                                         std::int64_t sb, Out* out,
                                                         std::int64_t len, F f) {
  binary_row(a, sa, b, sb, out, len, f);
}
template <class T, class Out, class F>
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,fma"))) void binary_row_avx512(
    const T* a, std::int64_t sa, const T* b, std::int64_t sb, Out* out, std::int64_t len, F f) {
  binary_row(a, sa, b, sb, out, len, f);
}
#endif

// map_binary with its rows in the widest vector ISA the cpu has. For ops that round once
// (float add, subtract, multiply, divide: elementwise_binary.cpp builds without contraction)
// the bits are the baseline's; divide is compute bound, where the width pays.
template <class T, class Out, class F>
void map_binary_wide(const T* a, const T* b, Out* out, const BroadcastPlan& plan, std::int64_t n,
                     std::int64_t grain, F f) {
#if defined(__x86_64__) && defined(__GNUC__)
  const VectorIsa isa = vector_isa();
  if (isa == VectorIsa::avx512) {
    map_binary_rows(a, b, out, plan, n, grain, f,
                    [](const T* pa, std::int64_t sa, const T* pb, std::int64_t sb, Out* po,
                       std::int64_t len, F g) { binary_row_avx512(pa, sa, pb, sb, po, len, g); });
    return;
  }
  if (isa == VectorIsa::avx2) {
    map_binary_rows(a, b, out, plan, n, grain, f,
                    [](const T* pa, std::int64_t sa, const T* pb, std::int64_t sb, Out* po,
                       std::int64_t len, F g) { binary_row_avx2(pa, sa, pb, sb, po, len, g); });
    return;
  }
#endif
  map_binary(a, b, out, plan, n, grain, f);
}

}  // namespace vkt::cpu_kernels
