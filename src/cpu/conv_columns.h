// conv's column matrix (im2col) on the cpu: for one image's channels, rows are (channel,
// kernel tap) and columns a range of output positions, so a GEMM of the kernel rows with
// it gives those positions' outputs. Filled one output row (last spatial axis) at a time:
// the taps that fall inside the input are one contiguous run of x, found arithmetically, so
// the common case (stride 1, no input dilation) is a copy between two zero fills.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace vkt::cpu_kernels {

// The sizes of one conv call, spatial axes in row-major order.
struct ConvGeometry {
  std::int64_t out_batch = 0, out_channels = 0, group_out = 0, group_in = 0, channels = 0;
  std::int64_t groups = 1, taps = 1, positions = 1, in_plane = 1;
  std::vector<std::int64_t> in_dims, out_dims, k_dims, strides, pad_lo, in_dil, k_dil;
  std::int64_t rows() const { return group_in * taps; }  // the GEMM's K
};

// The input index on axis a for output index o and kernel tap t, or -1 where the tap falls
// on padding or between dilated input elements.
inline std::int64_t conv_source_index(const ConvGeometry& g, std::size_t a, std::int64_t o,
                                      std::int64_t t) {
  const std::int64_t pos = o * g.strides[a] + t * g.k_dil[a] - g.pad_lo[a];
  if (pos < 0) return -1;
  std::int64_t i = pos;
  if (g.in_dil[a] != 1) {
    if (pos % g.in_dil[a] != 0) return -1;
    i = pos / g.in_dil[a];
  }
  return i < g.in_dims[a] ? i : -1;
}

// The offset in a channel of the input row that output index o and tap read on every axis
// but the last; false where one of those axes falls on padding or between dilated elements.
inline bool conv_outer_offset(const ConvGeometry& g, const std::int64_t* o, const std::int64_t* tap,
                              std::int64_t& offset) {
  const std::size_t last = g.in_dims.size() - 1;
  std::int64_t scale = g.in_dims[last];
  bool inside = true;
  offset = 0;
  for (std::size_t a = last; a-- > 0;) {
    const std::int64_t i = conv_source_index(g, a, o[a], tap[a]);
    inside = inside && i >= 0;
    offset += i * scale;
    scale *= g.in_dims[a];
  }
  return inside;
}

// Writes row `row` (channel row / taps, tap row % taps) of the column matrix for output
// positions [p0, p1) into dst[0, p1 - p0); `chan0` points at the group's first channel of
// the image; `scratch` holds 2 * spatial rank integers (kept by the caller: this runs per
// row and tile, too often for an allocation).
template <class F>
void conv_column_row(const ConvGeometry& g, const F* chan0, std::int64_t row, std::int64_t p0,
                     std::int64_t p1, F* dst, std::int64_t* scratch) {
  const std::size_t rank = g.in_dims.size(), last = rank - 1;
  std::int64_t* tap = scratch;
  std::int64_t* o = scratch + rank;
  std::int64_t rem = row % g.taps;
  for (std::size_t a = rank; a-- > 0;) {
    tap[a] = rem % g.k_dims[a];
    rem /= g.k_dims[a];
  }
  const F* chan = chan0 + (row / g.taps) * g.in_plane;
  const std::int64_t width = g.out_dims[last], in_width = g.in_dims[last];
  const std::int64_t stride = g.strides[last];
  // Last axis, no input dilation: x is inside for base + x * stride in [0, in_width).
  const std::int64_t base = tap[last] * g.k_dil[last] - g.pad_lo[last];
  std::int64_t x_lo = 0, x_hi = -1;  // inclusive range of inside x
  if (g.in_dil[last] == 1) {
    x_lo = base >= 0 ? 0 : (-base + stride - 1) / stride;
    x_hi = in_width - 1 - base >= 0 ? (in_width - 1 - base) / stride : -1;
  }
  std::int64_t p = p0;
  while (p < p1) {
    // The output row holding p and the source row of the outer axes (-1: padding).
    std::int64_t idx = p / width;
    const std::int64_t x0 = p % width, x1 = std::min(width, x0 + (p1 - p));
    for (std::size_t a = last; a-- > 0;) {
      o[a] = idx % g.out_dims[a];
      idx /= g.out_dims[a];
    }
    std::int64_t offset = 0;
    const bool inside = conv_outer_offset(g, o, tap, offset);
    F* out = dst + (p - p0);
    const std::int64_t n = x1 - x0;
    if (!inside) {
      std::fill(out, out + n, F(0));
    } else if (g.in_dil[last] == 1) {
      const F* src = chan + offset;
      const std::int64_t lo = std::clamp(x_lo, x0, x1);
      const std::int64_t hi = std::max(lo, std::clamp(x_hi + 1, x0, x1));
      std::fill(out, out + (lo - x0), F(0));
      if (stride == 1) {
        std::copy(src + (lo + base), src + (hi + base), out + (lo - x0));
      } else {
        for (std::int64_t x = lo; x < hi; ++x) out[x - x0] = src[x * stride + base];
      }
      std::fill(out + (hi - x0), out + n, F(0));
    } else {
      const F* src = chan + offset;
      for (std::int64_t x = x0; x < x1; ++x) {
        const std::int64_t i = conv_source_index(g, last, x, tap[last]);
        out[x - x0] = i < 0 ? F(0) : src[i];
      }
    }
    p += n;
  }
}

// Writes the column of output position `pos` along all of K: dst[row] for row in [0, rows())
// (channel row / taps, tap row % taps). For a kernel longer than the output (a kernel
// cotangent as a conv), where a row of the matrix above is a few positions and a column a
// long run of taps; the taps on the last axis read one run of x per channel and outer tap.
// `scratch` holds 2 * spatial rank integers.
template <class F>
void conv_column_along_k(const ConvGeometry& g, const F* chan0, std::int64_t pos, F* dst,
                         std::int64_t* scratch) {
  const std::size_t rank = g.in_dims.size(), last = rank - 1;
  std::int64_t* o = scratch;
  std::int64_t* tap = scratch + rank;
  std::int64_t rem = pos;
  for (std::size_t a = rank; a-- > 0;) {
    o[a] = rem % g.out_dims[a];
    rem /= g.out_dims[a];
  }
  const std::int64_t run = g.k_dims[last];
  const std::int64_t outer_taps = g.taps / std::max<std::int64_t>(run, 1);
  for (std::int64_t c = 0; c < g.group_in; ++c) {
    const F* chan = chan0 + c * g.in_plane;
    for (std::int64_t t = 0; t < outer_taps; ++t) {
      std::int64_t idx = t;
      for (std::size_t a = last; a-- > 0;) {
        tap[a] = idx % g.k_dims[a];
        idx /= g.k_dims[a];
      }
      std::int64_t offset = 0;
      const bool inside = conv_outer_offset(g, o, tap, offset);
      F* out = dst + (c * outer_taps + t) * run;
      if (!inside) {
        std::fill(out, out + run, F(0));
        continue;
      }
      const F* src = chan + offset;
      for (std::int64_t x = 0; x < run; ++x) {
        const std::int64_t i = conv_source_index(g, last, o[last], x);
        out[x] = i < 0 ? F(0) : src[i];
      }
    }
  }
}

}  // namespace vkt::cpu_kernels
