#version 450
// window_sum / product / max / min (src/vulkan/ops/window.cpp): one invocation per output
// element walks its window in the cpu's order (src/cpu/window.cpp: row-major over the
// window positions inside the input; padding holds the identity, so it is skipped).
// Sums and products accumulate like src/cpu/reduce_ops.h: floats in f32 (f64 for f64),
// integers wrap (in 32 bits for dtypes up to 32 bits: the low bits of the cpu's u64 sum).
// max/min compare order-preserving integer keys (exact whatever the float controls), keep
// the chosen element's bits, and let the last NaN win as the cpu's step does.
#include "common.glsl"
#include "dtype_value.glsl"
#include "op_codes.glsl"
#define DST_BINDING 1
#include "dtype_store.glsl"

layout(constant_id = 1) const uint DTYPE = 10;
layout(constant_id = 2) const uint OP = 0;  // COMBINE_SUM, _PRODUCT, _MAX or _MIN

layout(binding = 0) readonly buffer SrcU8 { uint8_t v[]; } src_u8;
layout(binding = 0) readonly buffer SrcU16 { uint16_t v[]; } src_u16;
layout(binding = 0) readonly buffer SrcU32 { uint v[]; } src_u32;
#ifdef VKT_I64
layout(binding = 0) readonly buffer SrcU64 { uint64_t v[]; } src_u64;
#endif
#ifdef VKT_F64
layout(binding = 0) readonly buffer SrcF64 { double v[]; } src_f64;
#endif

// Per merged axis (at most 5, outermost first): out dim, in dim, window, stride, padding
// low, dilation (window.cpp merges axes the window leaves alone).
#define MAX_AXES 5
layout(push_constant) uniform Push { uint rank; uint a[6 * MAX_AXES]; } p;

const bool IS_FLOAT = DTYPE >= DT_F16;
const bool IS_WIDE = DTYPE == DT_U64 || DTYPE == DT_S64 || DTYPE == DT_F64;
const bool IS_SIGNED = DTYPE >= DT_S8 && DTYPE <= DT_S64;
const uint BITS = (DTYPE == DT_U8 || DTYPE == DT_S8) ? 8u
                : (DTYPE == DT_U16 || DTYPE == DT_S16 || DTYPE == DT_F16 || DTYPE == DT_BF16)
                    ? 16u : IS_WIDE ? 64u : 32u;

// The raw bits of element i (zero-extended) for dtypes up to 32 bits.
uint raw32(uint i) {
  if (BITS == 8u) return uint(src_u8.v[i]);
  if (BITS == 16u) return uint(src_u16.v[i]);
  return src_u32.v[i];
}

bool is_nan32(uint r) {
  if (DTYPE == DT_F32) return (r & 0x7fffffffu) > 0x7f800000u;
  if (DTYPE == DT_F16) return (r & 0x7fffu) > 0x7c00u;
  if (DTYPE == DT_BF16) return (r & 0x7fffu) > 0x7f80u;
  return false;
}

// Unsigned keys in the order max/min use: the values' order with -0 below +0 (float_bits.glsl).
uint key32(uint r) {
  const uint sign = 1u << (BITS - 1u);
  const uint ones = BITS == 32u ? ~0u : (1u << BITS) - 1u;
  if (IS_FLOAT) {
    return (r & sign) != 0u ? ~r & ones : r | sign;
  }
  return IS_SIGNED ? r ^ sign : r;
}

// The identity's bits: -inf / the lowest value for max, +inf / the highest for min.
uint identity32() {
  const bool low = OP == COMBINE_MAX;
  if (DTYPE == DT_F32) return low ? 0xff800000u : 0x7f800000u;
  if (DTYPE == DT_F16) return low ? 0xfc00u : 0x7c00u;
  if (DTYPE == DT_BF16) return low ? 0xff80u : 0x7f80u;
  const uint sign = 1u << (BITS - 1u);
  const uint ones = BITS == 32u ? ~0u : (1u << BITS) - 1u;
  if (IS_SIGNED) return low ? sign : sign - 1u;
  return low ? 0u : ones;
}

float f32_of(uint r) {
  if (DTYPE == DT_F16) return unpackHalf2x16(r).x;
  if (DTYPE == DT_BF16) return uintBitsToFloat(r << 16);
  return uintBitsToFloat(r);
}

#ifdef VKT_I64
bool is_nan64(uint64_t r) {
  return DTYPE == DT_F64 && (r & 0x7ffffffffffffffful) > 0x7ff0000000000000ul;
}
uint64_t key64(uint64_t r) {
  const uint64_t sign = 0x8000000000000000ul;
  if (DTYPE == DT_F64) {
    return (r & sign) != 0ul ? ~r : r | sign;
  }
  return IS_SIGNED ? r ^ sign : r;
}
uint64_t identity64() {
  const bool low = OP == COMBINE_MAX;
  if (DTYPE == DT_F64) return low ? 0xfff0000000000000ul : 0x7ff0000000000000ul;
  if (IS_SIGNED) return low ? 0x8000000000000000ul : 0x7ffffffffffffffful;
  return low ? 0ul : ~0ul;
}
#endif

// The window of output o: per axis the first in-input position k_lo, the count, and the
// input offset of the first visited element. Returns false for an empty window.
uint k_count[MAX_AXES];
uint step[MAX_AXES];
bool window_of(uint o, out uint base) {
  uint rest = o;
  uint in_stride = 1u;
  base = 0u;
  bool empty = false;
  for (int ax = int(p.rank) - 1; ax >= 0; --ax) {
    const uint out_dim = p.a[6 * ax], dim = p.a[6 * ax + 1], win = p.a[6 * ax + 2];
    const uint stride = p.a[6 * ax + 3], pad = p.a[6 * ax + 4], dil = p.a[6 * ax + 5];
    const uint idx = rest % out_dim;
    rest /= out_dim;
    // start = idx * stride - pad, in signed arithmetic (every term is below 2^31).
    const int start = int(idx * stride) - int(pad);
    const uint lo = start < 0 ? (uint(-start) + dil - 1u) / dil : 0u;
    const uint hi = start > int(dim) - 1 ? 0u : min(win, (uint(int(dim) - 1 - start)) / dil + 1u);
    if (lo >= hi) empty = true;
    k_count[ax] = lo < hi ? hi - lo : 0u;
    step[ax] = dil * in_stride;
    base += uint(start + int(lo * dil)) * in_stride;
    in_stride *= dim;
  }
  return !empty;
}

void main() {
  const uint o = global_index();
  uint outputs = 1u;
  for (uint ax = 0u; ax < p.rank; ++ax) outputs *= p.a[6u * ax];
  if (o >= outputs) return;
  uint base;
  const bool any = window_of(o, base);
  const int last = int(p.rank) - 1;
  // The odometer over the window axes (innermost fastest), positions inside the input.
  uint k[MAX_AXES];
  for (int ax = 0; ax < MAX_AXES; ++ax) k[ax] = 0u;
  const bool is_sum = OP == COMBINE_SUM, is_product = OP == COMBINE_PRODUCT;
  float facc = is_product ? 1.0 : 0.0;
#ifdef VKT_F64
  double dacc = is_product ? 1.0lf : 0.0lf;
#endif
  uint uacc = is_product ? 1u : 0u;
  uint best = identity32(), best_key = key32(best);
  bool have_nan = false;
#ifdef VKT_I64
  uint64_t uacc64 = is_product ? 1ul : 0ul;
  uint64_t best64 = identity64(), best_key64 = key64(best64);
#endif
  uint offset = base;
  while (any) {
    for (uint i = 0u; i < k_count[last]; ++i) {
      const uint e = offset + i * step[last];
      if (!IS_WIDE) {
        const uint r = raw32(e);
        if (is_sum || is_product) {
          if (IS_FLOAT) {
            facc = is_sum ? facc + f32_of(r) : facc * f32_of(r);
          } else {
            // Sign-extend signed narrow values: the low 32 bits of the cpu's u64 sum.
            uint x = r;
            if (IS_SIGNED && BITS < 32u) x = uint(bitfieldExtract(int(r), 0, int(BITS)));
            uacc = is_sum ? uacc + x : uacc * x;
          }
        } else if (is_nan32(r)) {
          best = r;
          have_nan = true;
        } else if (!have_nan) {
          const uint kx = key32(r);
          if (OP == COMBINE_MAX ? kx > best_key : kx < best_key) {
            best = r;
            best_key = kx;
          }
        }
      } else {
#ifdef VKT_F64
        if (DTYPE == DT_F64 && (is_sum || is_product)) {
          const double x = src_f64.v[e];
          dacc = is_sum ? dacc + x : dacc * x;
          continue;
        }
#endif
#ifdef VKT_I64
        const uint64_t r = src_u64.v[e];
        if (is_sum || is_product) {
          uacc64 = is_sum ? uacc64 + r : uacc64 * r;
        } else if (is_nan64(r)) {
          best64 = r;
          have_nan = true;
        } else if (!have_nan) {
          const uint64_t kx = key64(r);
          if (OP == COMBINE_MAX ? kx > best_key64 : kx < best_key64) {
            best64 = r;
            best_key64 = kx;
          }
        }
#endif
      }
    }
    // Advance the outer window axes.
    int ax = last - 1;
    for (; ax >= 0; --ax) {
      if (++k[ax] < k_count[ax]) {
        offset += step[ax];
        break;
      }
      offset -= (k[ax] - 1u) * step[ax];
      k[ax] = 0u;
    }
    if (ax < 0) break;
  }
  if (is_sum || is_product) {
    if (DTYPE == DT_F64) {
#ifdef VKT_F64
      store_value(DTYPE, o, float_value(dacc));
#endif
    } else if (IS_FLOAT) {
      store_value(DTYPE, o, float_value(widen(facc)));
    } else if (IS_WIDE) {
#ifdef VKT_I64
      store_value(DTYPE, o, int_value(IWIDE(uacc64), !IS_SIGNED));
#endif
    } else {
      store_value(DTYPE, o, int_value(IWIDE(uacc), true));
    }
    return;
  }
  // max/min: the element's bits; a half NaN as the cpu's round trip through f32 leaves it.
  if (BITS == 8u) {
    dst_u8.v[o] = uint8_t(best);
  } else if (BITS == 16u) {
    if (have_nan && DTYPE == DT_F16) best = (best & 0x8000u) | 0x7e00u;
    if (have_nan && DTYPE == DT_BF16) best |= 0x40u;
    dst_u16.v[o] = uint16_t(best);
  } else if (BITS == 32u) {
    dst_u32.v[o] = best;
  } else {
#ifdef VKT_I64
    dst_u64.v[o] = best64;
#endif
  }
}
