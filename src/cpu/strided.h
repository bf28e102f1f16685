// Strided element copies shared by the movement and indexing kernels. Elements are moved
// as raw words of their item size (1, 2, 4 or 8 bytes): movement never does arithmetic.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "cpu/kernels.h"

namespace vkt::cpu_kernels {

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
    default:
      return f(std::type_identity<std::uint64_t>{});
  }
}

using host::copy_bytes;
using host::parallel_memcpy;

// A copy of `shape` elements: dst[sum i*dst_strides] = src[sum i*src_strides] (in elements,
// strides may be 0 or negative on the source).
struct StridedCopy {
  Shape shape;
  std::vector<std::int64_t> dst_strides, src_strides;

  // Drops size-1 axes and merges neighbours that are contiguous in both (fewer, longer loops).
  void coalesce() {
    Shape s;
    std::vector<std::int64_t> d, r;
    for (std::size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] == 1) continue;
      if (!s.empty() && d.back() == dst_strides[i] * shape[i] &&
          r.back() == src_strides[i] * shape[i]) {
        s.back() *= shape[i];
        d.back() = dst_strides[i];
        r.back() = src_strides[i];
        continue;
      }
      s.push_back(shape[i]);
      d.push_back(dst_strides[i]);
      r.push_back(src_strides[i]);
    }
    shape = std::move(s);
    dst_strides = std::move(d);
    src_strides = std::move(r);
  }
};

// Runs a StridedCopy in parallel over its rows (all axes but the last).
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
  // A row moves inner words in and out.
  parallel_for(rows, stream_grain(2 * inner * static_cast<std::int64_t>(sizeof(W))),
               [&](std::int64_t b, std::int64_t e) {
                 // Odometer over the outer axes, started at row b.
                 std::vector<std::int64_t> idx(r - 1, 0);
                 std::int64_t doff = 0, soff = 0, rem = b;
                 for (std::size_t k = r - 1; k-- > 0;) {
                   idx[k] = rem % plan.shape[k];
                   rem /= plan.shape[k];
                   doff += idx[k] * plan.dst_strides[k];
                   soff += idx[k] * plan.src_strides[k];
                 }
                 for (std::int64_t row = b; row < e; ++row) {
                   W* d = dst + doff;
                   const W* s = src + soff;
                   if (ds == 1 && ss == 1) {
                     copy_bytes(d, s, inner * static_cast<std::int64_t>(sizeof(W)));
                   } else if (ds == 1 && ss == 0) {
                     std::fill(d, d + inner, *s);
                   } else if (ds == 1 && ss == -1) {
                     for (std::int64_t j = 0; j < inner; ++j) d[j] = s[-j];
                   } else {
                     for (std::int64_t j = 0; j < inner; ++j) d[j * ds] = s[j * ss];
                   }
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
