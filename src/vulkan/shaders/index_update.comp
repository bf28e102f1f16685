#version 450
// indexed_put / indexed_add (ADD false / true) on an output that already holds a copy of t.
// One invocation per element r of an update row; it applies rows 0..m-1 in order to its own
// output element of each row, so duplicate indices accumulate (add) or the last row wins
// (put) exactly as the cpu's serial loop, with no atomics. Distinct (row base, r) pairs
// address distinct elements: no two invocations touch one element. Rows with an
// out-of-range index are skipped. DTYPE (a vkt::DType code) picks add's arithmetic:
// integers wrap; c64 / c128 per part as f32 / f64; f64, f32, and f16/bf16 widened to f32 as the cpu does, add on their bits
// (soft_float.glsl), independent of the device's rounding and denormal modes and with no
// shaderFloat64.
#include "common.glsl"
#include "movement_word.glsl"
#include "dtype_value.glsl"
#include "soft_float.glsl"

layout(constant_id = 1) const bool ADD = false;
layout(constant_id = 2) const uint DTYPE = 10;

// Axes the rest element walks (a constant: the walk unrolls; the outermost needs no division).
layout(constant_id = 3) const uint REST_RANK = 0;

layout(binding = 0) buffer Out { WORD v[]; } dst;
layout(binding = 1) readonly buffer Indices { uint v[]; } indices;  // s64 as (lo, hi) pairs
layout(binding = 2) readonly buffer Updates { WORD v[]; } upd;

// rest: elements per update row; the rest element r walks t's axes not indexed (rest_dim,
// rest_stride); each of the k indices of a row addresses an indexed axis (ax_dim, ax_stride).
layout(push_constant) uniform Push {
  uint m, k, rest, unused;
  uint rest_dim[MAX_RANK];
  uint rest_stride[MAX_RANK];
  uint ax_dim[MAX_RANK];
  uint ax_stride[MAX_RANK];
} p;

// binary16 bits to binary32 bits, exactly (the cpu's f16_bits_to_float).
uint f16_to_f32_bits(uint h) {
  const uint sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  if (e == 0x1fu) return sign | 0x7f800000u | (mant << 13);
  if (e != 0u) return sign | ((e + 112u) << 23) | (mant << 13);
  if (mant == 0u) return sign;
  const uint top = uint(findMSB(mant));  // a subnormal mant * 2^-24 = 1.f * 2^(top - 24)
  return sign | ((top + 103u) << 23) | ((mant << (23u - top)) & 0x7fffffu);
}

// binary32 bits to bfloat16 bits, rounding to nearest even (the cpu's float_to_bf16_bits).
uint f32_bits_to_bf16(uint x) {
  if ((x & 0x7fffffffu) > 0x7f800000u) return ((x >> 16) | 0x40u) & 0xffffu;
  return ((x + 0x7fffu + ((x >> 16) & 1u)) >> 16) & 0xffffu;
}

void add_into(uint d, uint u) {
#if WIDTH == 16
  // c128: each part added as an f64 on its bits.
  const uvec4 a = dst.v[d], b = upd.v[u];
  dst.v[d] = uvec4(soft_f64_add(a.xy, b.xy), soft_f64_add(a.zw, b.zw));
#elif WIDTH == 8
  const uvec2 a = dst.v[d], b = upd.v[u];
  if (DTYPE == DT_C64) {  // each part added as an f32 on its bits
    dst.v[d] = uvec2(soft_f32_add(a.x, b.x), soft_f32_add(a.y, b.y));
    return;
  }
  if (DTYPE == DT_F64) {
    dst.v[d] = soft_f64_add(a, b);
    return;
  }
  uint carry;
  const uint lo = uaddCarry(a.x, b.x, carry);
  dst.v[d] = uvec2(lo, a.y + b.y + carry);
#elif WIDTH == 4
  if (DTYPE == DT_F32) {
    dst.v[d] = soft_f32_add(dst.v[d], upd.v[u]);
  } else {
    dst.v[d] = dst.v[d] + upd.v[u];
  }
#elif WIDTH == 2
  const uint a = uint(dst.v[d]), b = uint(upd.v[u]);
  if (DTYPE == DT_F16) {
    const uint sum = soft_f32_add(f16_to_f32_bits(a), f16_to_f32_bits(b));
    dst.v[d] = uint16_t(f32_to_f16_bits(uintBitsToFloat(sum)));
  } else if (DTYPE == DT_BF16) {
    dst.v[d] = uint16_t(f32_bits_to_bf16(soft_f32_add(a << 16, b << 16)));
  } else {
    dst.v[d] = uint16_t((a + b) & 0xffffu);
  }
#else
  dst.v[d] = uint8_t((uint(dst.v[d]) + uint(upd.v[u])) & 0xffu);
#endif
}

void main() {
  const uint r = global_index();
  if (r >= p.rest) return;
  uint off = 0u, rem = r;
  for (int a = int(REST_RANK) - 1; a > 0; --a) {
    const uint q = rem / p.rest_dim[a];
    off += (rem - q * p.rest_dim[a]) * p.rest_stride[a];
    rem = q;
  }
  if (REST_RANK > 0u) off += rem * p.rest_stride[0];
  for (uint i = 0u; i < p.m; ++i) {
    uint base = 0u;
    bool valid = true;
    for (uint j = 0u; j < p.k; ++j) {
      const uint w = 2u * (i * p.k + j);
      valid = valid && index_in_range(indices.v[w], indices.v[w + 1u], p.ax_dim[j]);
      base += indices.v[w] * p.ax_stride[j];
    }
    if (!valid) continue;
    if (ADD) {
      add_into(base + off, i * p.rest + r);
    } else {
      dst.v[base + off] = upd.v[i * p.rest + r];
    }
  }
}
