// Cache-blocked transpose: when the output's innermost axis is not the input's, copy in
// square tiles of the two axes (output-inner p, input-inner q) so that both the reads and the
// writes of a tile stay in L1; tiles over all outer axes run in parallel.
#pragma once

#include <algorithm>
#include <cstdint>

#include "cpu/strided.h"

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace vkt::cpu_kernels {

// A full 8x8 micro tile of 4-byte words as four SSE2 4x4 transposes (the scalar loop
// moves one word per load); false where it does not apply and the caller loops.
// Element (i, j) is src[i + j * sp] and goes to dst[i * dq + j].
template <class W>
bool transpose_micro_simd(W* dst, const W* src, std::int64_t i0, std::int64_t j0, std::int64_t ni,
                          std::int64_t nj, std::int64_t sp, std::int64_t dq) {
#if defined(__SSE2__)
  if constexpr (sizeof(W) == 4) {
    if (ni != 8 || nj != 8) return false;
    for (std::int64_t bi = 0; bi < 8; bi += 4) {
      for (std::int64_t bj = 0; bj < 8; bj += 4) {
        const W* s = src + (j0 + bj) * sp + i0 + bi;
        __m128 r0 = _mm_loadu_ps(reinterpret_cast<const float*>(s));
        __m128 r1 = _mm_loadu_ps(reinterpret_cast<const float*>(s + sp));
        __m128 r2 = _mm_loadu_ps(reinterpret_cast<const float*>(s + 2 * sp));
        __m128 r3 = _mm_loadu_ps(reinterpret_cast<const float*>(s + 3 * sp));
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        W* d = dst + (i0 + bi) * dq + j0 + bj;
        _mm_storeu_ps(reinterpret_cast<float*>(d), r0);
        _mm_storeu_ps(reinterpret_cast<float*>(d + dq), r1);
        _mm_storeu_ps(reinterpret_cast<float*>(d + 2 * dq), r2);
        _mm_storeu_ps(reinterpret_cast<float*>(d + 3 * dq), r3);
      }
    }
    return true;
  }
#endif
  (void)dst, (void)src, (void)i0, (void)j0, (void)ni, (void)nj, (void)sp, (void)dq;
  return false;
}

template <class W>
void transpose_words(W* dst, const W* src, StridedCopy plan) {
  plan.coalesce();
  const std::size_t r = plan.shape.size();
  std::size_t q = r;  // the axis the source walks contiguously
  for (std::size_t a = 0; a + 1 < r; ++a) {
    if (plan.src_strides[a] == 1) q = a;
  }
  if (r < 2 || q == r || plan.src_strides[r - 1] == 1) {
    copy_strided(dst, src, std::move(plan));
    return;
  }
  const std::size_t p = r - 1;
  constexpr std::int64_t tile = 64, kMicro = 8;
  const std::int64_t np = plan.shape[p], nq = plan.shape[q];
  const std::int64_t sp = plan.src_strides[p], dq = plan.dst_strides[q];
  const std::int64_t tp = (np + tile - 1) / tile, tq = (nq + tile - 1) / tile;
  // Outer axes: all but p and q.
  std::vector<std::int64_t> outer_shape, outer_dst, outer_src;
  for (std::size_t a = 0; a < r; ++a) {
    if (a == p || a == q) continue;
    outer_shape.push_back(plan.shape[a]);
    outer_dst.push_back(plan.dst_strides[a]);
    outer_src.push_back(plan.src_strides[a]);
  }
  const std::int64_t units = numel(outer_shape) * tq * tp;
  // A tile moves tile * tile words in and out.
  parallel_for(units, stream_grain(2 * tile * tile * static_cast<std::int64_t>(sizeof(W))),
               [&](std::int64_t b, std::int64_t e) {
                 for (std::int64_t u = b; u < e; ++u) {
                   std::int64_t rem = u / (tq * tp), doff = 0, soff = 0;
                   for (std::size_t k = outer_shape.size(); k-- > 0;) {
                     const std::int64_t i = rem % outer_shape[k];
                     rem /= outer_shape[k];
                     doff += i * outer_dst[k];
                     soff += i * outer_src[k];
                   }
                   const std::int64_t t = u % (tq * tp);
                   const std::int64_t i0 = (t / tp) * tile, j0 = (t % tp) * tile;
                   const std::int64_t i1 = std::min(nq, i0 + tile), j1 = std::min(np, j0 + tile);
                   W* d = dst + doff;
                   const W* s = src + soff;
                   // 8x8 micro tiles: 8 source lines at a power-of-two stride still fit
                   // one set of an 8-way L1.
                   for (std::int64_t ii = i0; ii < i1; ii += kMicro) {
                     const std::int64_t ie = std::min(i1, ii + kMicro);
                     for (std::int64_t jj = j0; jj < j1; jj += kMicro) {
                       const std::int64_t je = std::min(j1, jj + kMicro);
                       if (transpose_micro_simd(d, s, ii, jj, ie - ii, je - jj, sp, dq)) {
                         continue;
                       }
                       for (std::int64_t i = ii; i < ie; ++i) {
                         W* drow = d + i * dq;
                         const W* scol = s + i;
                         for (std::int64_t j = jj; j < je; ++j) drow[j] = scol[j * sp];
                       }
                     }
                   }
                 }
               });
}

}  // namespace vkt::cpu_kernels
