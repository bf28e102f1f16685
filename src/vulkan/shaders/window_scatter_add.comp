#version 450
// window_scatter_max / min, second pass (src/vulkan/ops/window_scatter.cpp): one invocation per
// output element starts from init_value and adds the source value of every window that
// chose it, in window order: the cpu's sums in the cpu's order, without atomics. Floats
// add in f32, integers wrap. 32-bit dtypes (f32, s32, u32).
#include "common.glsl"

layout(constant_id = 1) const uint DTYPE = 10;

layout(binding = 0) readonly buffer Chosen { uint v[]; } chosen;
layout(binding = 1) readonly buffer Source { uint v[]; } source;
layout(binding = 2) writeonly buffer Dst { uint v[]; } dst;

// Per axis (outermost first): windows, input dim, window, stride, padding low, dilation.
#define MAX_AXES 5
layout(push_constant) uniform Push { uint rank; uint init_bits; uint a[6 * MAX_AXES]; } p;

uint add(uint a, uint b) {
  if (DTYPE == DT_F32) return floatBitsToUint(uintBitsToFloat(a) + uintBitsToFloat(b));
  return a + b;
}

void main() {
  const uint o = global_index();
  uint outputs = 1u;
  for (uint ax = 0u; ax < p.rank; ++ax) outputs *= p.a[6u * ax + 1u];
  if (o >= outputs) return;
  // Per axis: the position in the padded input and the windows [first, last] that span it
  // (those whose dilation also lands on it are checked below); idx is the odometer.
  uint shifted[MAX_AXES], first[MAX_AXES], last[MAX_AXES], idx[MAX_AXES], w_stride[MAX_AXES];
  uint rest = o, stride_acc = 1u;
  bool none = false;
  for (int ax = int(p.rank) - 1; ax >= 0; --ax) {
    const uint nw = p.a[6 * ax], dim = p.a[6 * ax + 1], win = p.a[6 * ax + 2];
    const uint stride = p.a[6 * ax + 3], pad = p.a[6 * ax + 4], dil = p.a[6 * ax + 5];
    shifted[ax] = rest % dim + pad;
    rest /= dim;
    const uint span = (win - 1u) * dil;
    const uint low = shifted[ax] > span ? shifted[ax] - span : 0u;
    first[ax] = (low + stride - 1u) / stride;
    last[ax] = nw == 0u ? 0u : min(shifted[ax] / stride, nw - 1u);
    if (nw == 0u || first[ax] > last[ax]) none = true;
    idx[ax] = first[ax];
    w_stride[ax] = stride_acc;
    stride_acc *= nw;
  }
  uint acc = p.init_bits;
  while (!none) {
    bool lands = true;
    uint w = 0u;
    for (uint ax = 0u; ax < p.rank; ++ax) {
      const uint into = shifted[ax] - idx[ax] * p.a[6u * ax + 3u];
      lands = lands && into % p.a[6u * ax + 5u] == 0u;
      w += idx[ax] * w_stride[ax];
    }
    if (lands && chosen.v[w] == o) acc = add(acc, source.v[w]);
    int ax = int(p.rank) - 1;
    for (; ax >= 0; --ax) {
      if (++idx[ax] <= last[ax]) break;
      idx[ax] = first[ax];
    }
    if (ax < 0) break;
  }
  dst.v[o] = acc;
}
