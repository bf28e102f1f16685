#version 450
// Reductions and arg-reductions of a [outer, R, inner] view of a contiguous input
// (src/vulkan/reduce.cpp plans the views and passes). Two modes:
//   MODE_ROWS (inner == 1): workgroup (row, split) reduces R-range [split*chunk, +chunk) of
//     one row: threads stride the range (coalesced), then a shared-memory tree.
//   MODE_COLS: invocation (o, split, col) loops over its R-range of one column; adjacent
//     invocations read adjacent columns (coalesced).
// Either writes out[(o * splits + split) * inner + col]; with splits > 1 these are partials
// (in the accumulator's dtype) that a second dispatch reduces. The accumulator type ACC is
// a compile-time variant (ACC_F32, ACC_F64, ACC_U32, ACC_S32, ACC_U64, ACC_S64).
// Semantics match src/cpu/reduce_ops.h and argreduce.h: integer sums/products wrap, NaN
// propagates through sum/product/max/min, all/any test x != 0 (NaN is true), and for
// argmax/argmin NaN is the extreme with ties (and NaNs) resolved to the lowest index, or
// the highest with TIE_HIGH — the pairwise choice below is a total order, so the tree
// picks what the cpu's sequential scan picks.
#include "common.glsl"
#include "dtype_value.glsl"

#if defined(ACC_F32)
#define ACC float
#define ACC_IS_FLOAT
#elif defined(ACC_F64)
#define ACC double
#define ACC_IS_FLOAT
#elif defined(ACC_U32)
#define ACC uint
#elif defined(ACC_S32)
#define ACC int
#elif defined(ACC_U64)
#define ACC uint64_t
#elif defined(ACC_S64)
#define ACC int64_t
#endif

layout(constant_id = 1) const uint SRC_DTYPE = 10;
layout(constant_id = 2) const uint DST_DTYPE = 10;
layout(constant_id = 3) const uint OP = 0;
layout(constant_id = 4) const uint MODE = 0;
layout(constant_id = 5) const bool TIE_HIGH = false;
layout(constant_id = 6) const bool HAS_SRC_INDEX = false;  // arg: indices come from binding 1
layout(constant_id = 7) const bool WRITE_VALUES = true;    // arg: partial values to binding 2

const uint OP_SUM = 0, OP_PRODUCT = 1, OP_MAX = 2, OP_MIN = 3, OP_ALL = 4, OP_ANY = 5,
           OP_ARGMAX = 6, OP_ARGMIN = 7;
const uint MODE_ROWS = 0, MODE_COLS = 1;
const bool IS_ARG = OP == OP_ARGMAX || OP == OP_ARGMIN;
const uint NO_INDEX = 0xffffffffu;

layout(binding = 0) readonly buffer SrcU8 { uint8_t v[]; } src_u8;
layout(binding = 0) readonly buffer SrcS8 { int8_t v[]; } src_s8;
layout(binding = 0) readonly buffer SrcU16 { uint16_t v[]; } src_u16;
layout(binding = 0) readonly buffer SrcS16 { int16_t v[]; } src_s16;
layout(binding = 0) readonly buffer SrcU32 { uint v[]; } src_u32;
layout(binding = 0) readonly buffer SrcS32 { int v[]; } src_s32;
layout(binding = 0) readonly buffer SrcF32 { float v[]; } src_f32;
#ifdef VKT_I64
layout(binding = 0) readonly buffer SrcU64 { uint64_t v[]; } src_u64;
#endif
#ifdef VKT_F64
layout(binding = 0) readonly buffer SrcF64 { double v[]; } src_f64;
#endif
// Arg-reduction indices as s64 (low word, high word = 0): every index is below 2^31.
layout(binding = 1) readonly buffer SrcIndex { uint v[]; } src_index;
#define DST_BINDING 2
#include "dtype_store.glsl"
layout(binding = 3) writeonly buffer DstIndex { uint v[]; } dst_index;

layout(push_constant) uniform Push { uint outer, len, inner, chunk, splits; } p;

Value load_value(uint i) {
  const uint d = SRC_DTYPE;
  if (d == DT_U8) return int_value(IWIDE(uint(src_u8.v[i])), true);
  if (d == DT_S8) return int_value(IWIDE(int(src_s8.v[i])), false);
  if (d == DT_U16) return int_value(IWIDE(uint(src_u16.v[i])), true);
  if (d == DT_S16) return int_value(IWIDE(int(src_s16.v[i])), false);
  if (d == DT_U32) return int_value(IWIDE(src_u32.v[i]), true);
  if (d == DT_S32) return int_value(IWIDE(src_s32.v[i]), false);
  if (d == DT_F16) return float_value(FWIDE(unpackHalf2x16(uint(src_u16.v[i])).x));
  if (d == DT_BF16) return float_value(FWIDE(uintBitsToFloat(uint(src_u16.v[i]) << 16)));
#ifdef VKT_I64
  if (d == DT_U64) return int_value(IWIDE(src_u64.v[i]), true);
  if (d == DT_S64) return int_value(IWIDE(src_u64.v[i]), false);
#endif
#ifdef VKT_F64
  if (d == DT_F64) return float_value(src_f64.v[i]);
#endif
  return float_value(FWIDE(src_f32.v[i]));
}

// The element as an accumulator operand: a truth value (0/1) for all/any, else the value.
ACC load_acc(uint i) {
  const Value v = load_value(i);
  if (OP == OP_ALL || OP == OP_ANY) {
    const bool truth = v.is_float ? (isnan(v.f) || v.f != FWIDE(0)) : v.i != IWIDE(0);
    return ACC(truth ? 1 : 0);
  }
#ifdef ACC_IS_FLOAT
  return ACC(v.f);
#else
  return ACC(v.i);
#endif
}

bool acc_isnan(ACC x) {
#ifdef ACC_IS_FLOAT
  return isnan(x);
#else
  return false;
#endif
}

// The result of an empty reduction; for max/min the extremes of the source dtype (only an
// empty input is ever stored with it, and then SRC_DTYPE is the input's dtype).
ACC identity() {
  if (OP == OP_SUM || OP == OP_ANY) return ACC(0);
  if (OP == OP_PRODUCT || OP == OP_ALL) return ACC(1);
  const bool low = OP == OP_MAX || OP == OP_ARGMAX;
#if defined(ACC_F32)
  return uintBitsToFloat(low ? 0xff800000u : 0x7f800000u);
#elif defined(ACC_F64)
  return packDouble2x32(uvec2(0u, low ? 0xfff00000u : 0x7ff00000u));
#else
  const uint d = SRC_DTYPE;
  const uint bits = (d == DT_U8 || d == DT_S8) ? 8u : (d == DT_U16 || d == DT_S16) ? 16u
                  : (d == DT_U32 || d == DT_S32) ? 32u : 64u;
  const bool u = is_unsigned_code(d);
#if defined(ACC_U64) || defined(ACC_S64)
  const uint64_t ones = bits == 64u ? ~uint64_t(0) : (uint64_t(1) << bits) - 1ul;
  if (u) return ACC(low ? uint64_t(0) : ones);
  const uint64_t top = ones >> 1;  // the signed max
  return ACC(low ? ~top : top);
#else
  const uint ones = bits == 32u ? ~0u : (1u << bits) - 1u;
  if (u) return ACC(low ? 0u : ones);
  const uint top = ones >> 1;
  return ACC(low ? ~top : top);
#endif
#endif
}

// a then b combined; max/min keep the first NaN (NaN propagates).
ACC combine(ACC a, ACC b) {
  if (OP == OP_SUM) return a + b;
  if (OP == OP_PRODUCT) return a * b;
#ifndef ACC_IS_FLOAT
  if (OP == OP_ALL) return a & b;  // all/any always accumulate in ACC_U32
  if (OP == OP_ANY) return a | b;
#endif
  if (acc_isnan(a)) return a;
  if (acc_isnan(b)) return b;
  if (OP == OP_MAX) return b > a ? b : a;
  return b < a ? b : a;
}

// Does candidate (vb, ib) beat (va, ia)? NO_INDEX marks "nothing yet".
bool arg_beats(ACC vb, uint ib, ACC va, uint ia) {
  if (ib == NO_INDEX) return false;
  if (ia == NO_INDEX) return true;
  const bool a_nan = acc_isnan(va), b_nan = acc_isnan(vb);
  const bool index_wins = TIE_HIGH ? ib > ia : ib < ia;
  if (a_nan || b_nan) return a_nan && b_nan ? index_wins : b_nan;
  if (vb == va) return index_wins;
  return OP == OP_ARGMAX ? vb > va : vb < va;
}

void write_result(uint o, ACC v, uint index) {
  if (IS_ARG) {
    dst_index.v[2u * o] = index;
    dst_index.v[2u * o + 1u] = 0u;
    if (!WRITE_VALUES) return;
  }
#ifdef ACC_IS_FLOAT
  store_value(DST_DTYPE, o, float_value(FWIDE(v)));
#else
  store_value(DST_DTYPE, o, int_value(IWIDE(v), is_unsigned_code(DST_DTYPE)));
#endif
}

uint index_of(uint element, uint r) { return HAS_SRC_INDEX ? src_index.v[2u * element] : r; }

shared ACC shared_value[gl_WorkGroupSize.x];
shared uint shared_index[gl_WorkGroupSize.x];

void reduce_rows() {
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  // A 2-D grid may hold more workgroups than outputs; whole workgroups leave (uniformly).
  if (group >= p.outer * p.splits) return;
  const uint lid = gl_LocalInvocationID.x;
  const uint row = group / p.splits, split = group % p.splits;
  const uint begin = split * p.chunk, end = min(p.len, begin + p.chunk);
  ACC acc = identity();
  uint best = NO_INDEX;
  for (uint r = begin + lid; r < end; r += gl_WorkGroupSize.x) {
    const uint e = row * p.len + r;
    const ACC x = load_acc(e);
    if (IS_ARG) {
      const uint ix = index_of(e, r);
      if (arg_beats(x, ix, acc, best)) {
        acc = x;
        best = ix;
      }
    } else {
      acc = combine(acc, x);
    }
  }
  shared_value[lid] = acc;
  shared_index[lid] = best;
  barrier();
  for (uint half_ = gl_WorkGroupSize.x / 2u; half_ > 0u; half_ >>= 1u) {
    if (lid < half_) {
      const ACC b = shared_value[lid + half_];
      if (IS_ARG) {
        const uint ib = shared_index[lid + half_];
        if (arg_beats(b, ib, shared_value[lid], shared_index[lid])) {
          shared_value[lid] = b;
          shared_index[lid] = ib;
        }
      } else {
        shared_value[lid] = combine(shared_value[lid], b);
      }
    }
    barrier();
  }
  if (lid == 0u) write_result(group, shared_value[0], shared_index[0]);
}

void reduce_cols() {
  const uint t = global_index();
  const uint columns = p.outer * p.splits * p.inner;
  if (t >= columns) return;
  const uint col = t % p.inner, rest = t / p.inner;
  const uint split = rest % p.splits, o = rest / p.splits;
  const uint begin = split * p.chunk, end = min(p.len, begin + p.chunk);
  ACC acc = identity();
  uint best = NO_INDEX;
  for (uint r = begin; r < end; ++r) {
    const uint e = (o * p.len + r) * p.inner + col;
    const ACC x = load_acc(e);
    if (IS_ARG) {
      const uint ix = index_of(e, r);
      if (arg_beats(x, ix, acc, best)) {
        acc = x;
        best = ix;
      }
    } else {
      acc = combine(acc, x);
    }
  }
  write_result(t, acc, best);
}

void main() {
  if (MODE == MODE_ROWS) {
    reduce_rows();
  } else {
    reduce_cols();
  }
}
