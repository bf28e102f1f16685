// Strided element copies shared by the movement and indexing kernels. Elements are moved
// as raw words of their item size (1, 2, 4, 8 or 16 bytes): movement never does arithmetic.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/collapse_axes.h"
#include "cpu/kernels.h"

namespace vkt::cpu_kernels {

// A 16-byte element (c128) moved as one word: two 64-bit halves, no arithmetic.
struct Word128 {
  std::uint64_t lo, hi;
};

// The unsigned word of the same size as an element of `dtype`; calls f(type_identity<W>).
template <class F>
decltype(auto) visit_width(DType dtype, F&& f) {
  switch (itemsize(dtype)) {
    case 1:
      return f(std::type_identity<std::uint8_t>{});
    case 2:
      return f(std::type_identity<std::uint16_t>{});
    case 4:
      return f(std::type_identity<std::uint32_t>{});
    case 8:
      return f(std::type_identity<std::uint64_t>{});
    default:
      return f(std::type_identity<Word128>{});
  }
}

using host::copy_bytes;
using host::parallel_memcpy;

// A copy of `shape` elements: dst[sum i*dst_strides] = src[sum i*src_strides] (in elements,
// strides may be 0 or negative on the source).
struct StridedCopy {
  Shape shape;
  std::vector<std::int64_t> dst_strides, src_strides;

  // Fewer, longer loops (common::collapse_axes).
  void coalesce() { common::collapse_axes(shape, dst_strides, src_strides); }
};

// Copies words [j0, j1) of one row (inner strides ds, ss).
template <class W>
inline void copy_row(W* d, const W* s, std::int64_t ds, std::int64_t ss, std::int64_t j0,
                     std::int64_t j1) {
  const std::int64_t len = j1 - j0;
  d += j0 * ds;
  s += j0 * ss;
  if (ds == 1 && ss == 1) {
    // Short rows (a pad of {n/8, 8}): a loop the compiler vectorises beats a memcpy call.
    if (len * static_cast<std::int64_t>(sizeof(W)) >= 512) {
      copy_bytes(d, s, len * static_cast<std::int64_t>(sizeof(W)));
    } else {
      for (std::int64_t j = 0; j < len; ++j) d[j] = s[j];
    }
  } else if (ds == 1 && ss == 0) {
    std::fill(d, d + len, *s);
  } else if (ds == 1 && ss == -1) {
    for (std::int64_t j = 0; j < len; ++j) d[j] = s[-j];
  } else {
    for (std::int64_t j = 0; j < len; ++j) d[j * ds] = s[j * ss];
  }
}

// Runs a StridedCopy in parallel over its rows (all axes but the last); rows too few for
// the threads (a broadcast of a scalar is one row) are split into pieces as well.
template <class W>
void copy_strided(W* dst, const W* src, StridedCopy plan) {
  plan.coalesce();
  if (numel(plan.shape) == 0) return;
  if (plan.shape.empty()) {
    *dst = *src;
    return;
  }
  const std::size_t r = plan.shape.size();
  const std::int64_t inner = plan.shape[r - 1];
  const std::int64_t ds = plan.dst_strides[r - 1], ss = plan.src_strides[r - 1];
  const std::int64_t rows = numel(plan.shape) / inner;
  // Each word is read and written once.
  const std::int64_t grain_words = stream_grain(2 * static_cast<std::int64_t>(sizeof(W)));
  const std::int64_t pieces = std::clamp<std::int64_t>(
      (max_threads() + rows - 1) / rows, 1, std::max<std::int64_t>(1, inner / grain_words));
  const std::int64_t piece_len = (inner + pieces - 1) / pieces;
  if (r == 2 && pieces == 1) {
    // Rows of a matrix (pad, slice, take of {n/8, 8}): no odometer; the inner loop is
    // specialised by stride pattern once per range, not per short row.
    const std::int64_t d0 = plan.dst_strides[0], s0 = plan.src_strides[0];
    parallel_for(rows, std::max<std::int64_t>(1, grain_words / inner),
                 [&](std::int64_t b, std::int64_t e) {
                   if (ds == 1 && ss == 1 && inner * static_cast<std::int64_t>(sizeof(W)) < 512) {
                     for (std::int64_t row = b; row < e; ++row) {
                       W* __restrict d = dst + row * d0;
                       const W* __restrict sr = src + row * s0;
                       for (std::int64_t j = 0; j < inner; ++j) d[j] = sr[j];
                     }
                     return;
                   }
                   for (std::int64_t row = b; row < e; ++row) {
                     copy_row(dst + row * d0, src + row * s0, ds, ss, 0, inner);
                   }
                 });
    return;
  }
  const std::int64_t units = rows * pieces;
  parallel_for(units, std::max<std::int64_t>(1, grain_words / std::min(inner, piece_len)),
               [&](std::int64_t b, std::int64_t e) {
                 // Odometer over the outer axes, started at the row of unit b.
                 std::vector<std::int64_t> idx(r - 1, 0);
                 std::int64_t doff = 0, soff = 0, rem = b / pieces;
                 for (std::size_t k = r - 1; k-- > 0;) {
                   idx[k] = rem % plan.shape[k];
                   rem /= plan.shape[k];
                   doff += idx[k] * plan.dst_strides[k];
                   soff += idx[k] * plan.src_strides[k];
                 }
                 std::int64_t piece = b % pieces;  // then counted, not divided, per unit
                 for (std::int64_t u = b; u < e; ++u) {
                   const std::int64_t j0 = piece * piece_len;
                   copy_row(dst + doff, src + soff, ds, ss, j0, std::min(inner, j0 + piece_len));
                   if (++piece < pieces) continue;
                   piece = 0;
                   for (std::size_t k = r - 1; k-- > 0;) {
                     doff += plan.dst_strides[k];
                     soff += plan.src_strides[k];
                     if (++idx[k] < plan.shape[k]) break;
                     doff -= plan.dst_strides[k] * plan.shape[k];
                     soff -= plan.src_strides[k] * plan.shape[k];
                     idx[k] = 0;
                   }
                 }
               });
}

}  // namespace vkt::cpu_kernels
