#version 450
// window_scatter_max / min, first pass (src/vulkan/ops/window_scatter.cpp): one invocation per
// window chooses an input position as src/cpu/window_scatter.cpp does: the window's
// positions inside the input in row-major order, x taking the place of the choice when
// x >= best (x <= best), so ties go to the later position; a NaN never takes it and a NaN
// met first keeps it. Writes the flat input index, or ~0u for a window in padding only.
// 32-bit dtypes (f32, s32, u32), compared through order-preserving keys (exact whatever
// the float controls).
#include "common.glsl"

layout(constant_id = 1) const uint DTYPE = 10;
layout(constant_id = 2) const uint WANT_MAX = 1;

layout(binding = 0) readonly buffer Src { uint v[]; } src;
layout(binding = 1) writeonly buffer Chosen { uint v[]; } chosen;

// Per axis (outermost first): windows, input dim, window, stride, padding low, dilation.
#define MAX_AXES 5
layout(push_constant) uniform Push { uint rank; uint init_bits; uint a[6 * MAX_AXES]; } p;

bool is_nan(uint r) { return DTYPE == DT_F32 && (r & 0x7fffffffu) > 0x7f800000u; }

// Unsigned keys in the order of the values; +0 and -0 share one, as comparison treats them.
uint key(uint r) {
  if (DTYPE == DT_F32) {
    if ((r & 0x7fffffffu) == 0u) return 0x80000000u;
    return (r & 0x80000000u) != 0u ? ~r : r | 0x80000000u;
  }
  return DTYPE == DT_S32 ? r ^ 0x80000000u : r;
}

void main() {
  const uint w = global_index();
  uint windows = 1u;
  for (uint ax = 0u; ax < p.rank; ++ax) windows *= p.a[6u * ax];
  if (w >= windows) return;
  // Per axis: the window's first input position, the in-input range [lo, hi) of window
  // positions, the input stride, and the odometer k.
  int start[MAX_AXES];
  uint lo[MAX_AXES], hi[MAX_AXES], in_stride[MAX_AXES], k[MAX_AXES];
  uint rest = w, stride_acc = 1u;
  bool empty = false;
  for (int ax = int(p.rank) - 1; ax >= 0; --ax) {
    const uint nw = p.a[6 * ax], dim = p.a[6 * ax + 1], win = p.a[6 * ax + 2];
    const uint stride = p.a[6 * ax + 3], pad = p.a[6 * ax + 4], dil = p.a[6 * ax + 5];
    const uint idx = rest % nw;
    rest /= nw;
    start[ax] = int(idx * stride) - int(pad);
    lo[ax] = start[ax] < 0 ? (uint(-start[ax]) + dil - 1u) / dil : 0u;
    hi[ax] = start[ax] > int(dim) - 1 ? 0u : min(win, uint(int(dim) - 1 - start[ax]) / dil + 1u);
    if (lo[ax] >= hi[ax]) empty = true;
    k[ax] = lo[ax];
    in_stride[ax] = stride_acc;
    stride_acc *= dim;
  }
  if (empty) {
    chosen.v[w] = 0xffffffffu;
    return;
  }
  uint best_at = 0xffffffffu, best = 0u, best_key = 0u;
  while (true) {
    uint offset = 0u;
    for (uint ax = 0u; ax < p.rank; ++ax) {
      offset += uint(start[ax] + int(k[ax] * p.a[6u * ax + 5u])) * in_stride[ax];
    }
    const uint x = src.v[offset];
    bool take = best_at == 0xffffffffu;
    if (!take && !is_nan(x) && !is_nan(best)) {
      const uint kx = key(x);
      take = WANT_MAX != 0u ? kx >= best_key : kx <= best_key;
    }
    if (take) {
      best = x;
      best_key = key(x);
      best_at = offset;
    }
    int ax = int(p.rank) - 1;
    for (; ax >= 0; --ax) {
      if (++k[ax] < hi[ax]) break;
      k[ax] = lo[ax];
    }
    if (ax < 0) break;
  }
  chosen.v[w] = best_at;
}
