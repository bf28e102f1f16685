// Reductions and arg-reductions of a [outer, R, inner] view of a contiguous input
// (src/vulkan/ops/reduce.cpp plans the views and passes). Two modes:
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
// Included by reduce.comp and by vkt::compile's fused reductions (src/vulkan/compile/compiled.cpp),
// which define VKT_FUSED_PROLOGUE and their own load_value(i) (reduce_acc.glsl).
#include "common.glsl"
#include "dtype_value.glsl"
#ifdef VKT_SUBGROUP
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#endif

#include "reduce_acc.glsl"

layout(constant_id = 4) const uint MODE = 0;
layout(constant_id = 5) const bool TIE_HIGH = false;
layout(constant_id = 6) const bool HAS_SRC_INDEX = false;  // arg: indices come from binding 1
layout(constant_id = 7) const bool WRITE_VALUES = true;    // arg: partial values to binding 2
// An f32 source read as vec4 (reduce.cpp sets it on GPUs in rows mode where every row range
// starts on a multiple of 4 elements, in columns mode where inner is a multiple of 4, not
// fused).
layout(constant_id = 8) const bool VEC4 = false;

const uint MODE_ROWS = 0, MODE_COLS = 1;

// Four loads in flight: x[k] = element e + k * step. A fused prologue (vkt::compile) is
// inlined at every load_acc call before the driver folds it: there, one call in a loop the
// driver unrolls, since each call site multiplied its pipeline creation time.
#ifdef VKT_FUSED_PROLOGUE
#define LOAD4(x, e, step) \
  ACC x[4];               \
  for (uint k_ = 0u; k_ < 4u; ++k_) x[k_] = load_acc((e) + k_ * (step))
#else
#define LOAD4(x, e, step)                                                      \
  const ACC x[4] = ACC[4](load_acc(e), load_acc((e) + (step)),                 \
                          load_acc((e) + 2u * (step)), load_acc((e) + 3u * (step)))
#endif
const bool IS_ARG = OP == COMBINE_ARGMAX || OP == COMBINE_ARGMIN;
const uint NO_INDEX = 0xffffffffu;

// Arg-reduction indices as s64 (low word, high word = 0): every index is below 2^31.
layout(binding = 1) readonly buffer SrcIndex { uint v[]; } src_index;
#define DST_BINDING 2
#include "dtype_store.glsl"
layout(binding = 3) writeonly buffer DstIndex { uint v[]; } dst_index;

// zero: always 0, read by vkt::compile's fused prologues to hide their literals' values.
layout(push_constant) uniform Push { uint outer, len, inner, chunk, splits, lanes, zero; } p;

// Does candidate (vb, ib) beat (va, ia)? NO_INDEX marks "nothing yet".
bool arg_beats(ACC vb, uint ib, ACC va, uint ia) {
  if (ib == NO_INDEX) return false;
  if (ia == NO_INDEX) return true;
  const bool a_nan = acc_isnan(va), b_nan = acc_isnan(vb);
  const bool index_wins = TIE_HIGH ? ib > ia : ib < ia;
  if (a_nan || b_nan) return a_nan && b_nan ? index_wins : b_nan;
  if (acc_equal(vb, va)) return index_wins;
  return OP == COMBINE_ARGMAX ? acc_less(va, vb) : acc_less(vb, va);
}

// The running arg choice (acc, best) takes candidate (x, ix) when it beats it.
void take_candidate(inout ACC acc, inout uint best, ACC x, uint ix) {
  if (arg_beats(x, ix, acc, best)) {
    acc = x;
    best = ix;
  }
}

// take_candidate for candidates that come in increasing index order (a first pass: each
// invocation scans its range upwards): the choice arg_beats makes, decided by selects, so
// lanes do not diverge on the data (argmax/argmin were the slowest full reductions).
void take_next(inout ACC acc, inout uint best, ACC x, uint ix) {
  const bool acc_nan = acc_isnan(acc), x_nan = acc_isnan(x);
  const bool beats = OP == COMBINE_ARGMAX ? acc_less(acc, x) : acc_less(x, acc);
  const bool ties = acc_equal(x, acc);
  // Lowest index wins ties: a later candidate must beat; highest: it may also tie.
  const bool take = best == NO_INDEX || (x_nan ? (TIE_HIGH || !acc_nan)
                                               : (!acc_nan && (beats || (TIE_HIGH && ties))));
  acc = take ? x : acc;
  best = take ? ix : best;
}

void write_result(uint o, ACC v, uint index) {
  if (IS_ARG) {
    dst_index.v[2u * o] = index;
    dst_index.v[2u * o + 1u] = 0u;
    if (!WRITE_VALUES) return;
  }
#ifdef ACC_IS_FLOAT
  store_value(DST_DTYPE, o, float_value(widen(v)));
#else
  store_value(DST_DTYPE, o, int_value(IWIDE(v), is_unsigned_code(DST_DTYPE)));
#endif
}

uint index_of(uint element, uint r) { return HAS_SRC_INDEX ? src_index.v[2u * element] : r; }

// The arg step of a scan: in index order where the indices are the scan's own.
void take_scanned(inout ACC acc, inout uint best, ACC x, uint element, uint r) {
  if (HAS_SRC_INDEX) {
    take_candidate(acc, best, x, index_of(element, r));
  } else {
    take_next(acc, best, x, r);
  }
}

// The vec4 scan of rows mode: f32 sources (ACC_F32, or ACC_U32 for all/any). A fused
// prologue takes it where eager does (VKT_FUSED_VEC4), combining in the same order.
#if (defined(ACC_F32) || defined(ACC_U32)) && \
    (!defined(VKT_FUSED_PROLOGUE) || defined(VKT_FUSED_VEC4))
#define VKT_REDUCE_VEC4
#ifdef VKT_FUSED_PROLOGUE
// Elements 4q .. 4q + 3 as accumulator operands (one load_acc call site: see LOAD4).
void load_quad(uint q, out ACC a[4]) {
  for (uint c = 0u; c < 4u; ++c) a[c] = load_acc(4u * q + c);
}
#else
layout(binding = 0) readonly buffer SrcF32x4 { vec4 v[]; } src_f32x4;
// load_acc of an f32 element: the value, or its truth for all/any.
ACC acc_of_f32(float x) {
  if (OP == COMBINE_ALL || OP == COMBINE_ANY) return ACC(f32_nonzero(x) ? 1 : 0);
  return ACC(x);
}
void load_quad(uint q, out ACC a[4]) {
  const vec4 v = src_f32x4.v[q];
  for (uint c = 0u; c < 4u; ++c) a[c] = acc_of_f32(v[c]);
}
#endif
ACC combine4(ACC a[4]) { return combine(combine(a[0], a[1]), combine(a[2], a[3])); }

#ifdef ACC_F32
// A first pass's arg scan on keys: the f32 bits as an int ordered like the values (-0 ==
// +0), NaN the extreme. A later candidate (higher index) is taken when its key beats, or
// with TIE_HIGH ties: the choice take_next makes, in fewer instructions (argmax was bound
// by its per-element compare chain).
int arg_key(float x) {
  const uint u = floatBitsToUint(x), m = u & 0x7fffffffu;
  const int k = (u & 0x80000000u) != 0u ? -int(m) : int(m);
  return m > 0x7f800000u ? (OP == COMBINE_ARGMAX ? 0x7fffffff : -0x7fffffff - 1) : k;
}
int arg_key_start() { return OP == COMBINE_ARGMAX ? -0x7fffffff - 1 : 0x7fffffff; }  // beaten by all

// One element of the vec4 scan, e its element index, e - base its row index.
void arg_element(inout int key, inout float acc, inout uint best, float x, uint e, uint base) {
  if (HAS_SRC_INDEX) {
    take_candidate(acc, best, x, src_index.v[2u * e]);
    return;
  }
  const int k = arg_key(x);
  const bool take = OP == COMBINE_ARGMAX ? (TIE_HIGH ? k >= key : k > key) : (TIE_HIGH ? k <= key : k < key);
  key = take ? k : key;
  acc = take ? x : acc;
  best = take ? e - base : best;
}
#endif

// Elements [base + begin, base + end) of a row starting at element `base`, lane `lane` of
// `stride`: whole vec4s (four loads in flight), then the last (end - begin) % 4 elements.
// base + begin is a multiple of 4. Each invocation visits its elements in index order.
void scan_rows_vec4(uint base, uint begin, uint end, uint lane, uint stride, inout ACC acc,
                    inout uint best) {
  const uint q_end = (base + end) / 4u;
  uint q = (base + begin) / 4u + lane;
#ifdef ACC_F32
  int key = arg_key_start();
#endif
  // Quads combine into acc one after another, so a fused prologue (one load site, its
  // copies multiply pipeline creation time) takes the single-quad loop in the same order.
#ifndef VKT_FUSED_PROLOGUE
  for (; q + 3u * stride < q_end; q += 4u * stride) {
    ACC x[4][4];
    for (uint k = 0u; k < 4u; ++k) load_quad(q + k * stride, x[k]);
    if (IS_ARG) {
#ifdef ACC_F32
      for (uint k = 0u; k < 4u; ++k) {
        for (uint c = 0u; c < 4u; ++c) {
          arg_element(key, acc, best, x[k][c], 4u * (q + k * stride) + c, base);
        }
      }
#endif
    } else {
      for (uint k = 0u; k < 4u; ++k) acc = combine(acc, combine4(x[k]));
    }
  }
#endif
  for (; q < q_end; q += stride) {
    ACC x[4];
    load_quad(q, x);
    if (IS_ARG) {
#ifdef ACC_F32
      for (uint c = 0u; c < 4u; ++c) arg_element(key, acc, best, x[c], 4u * q + c, base);
#endif
    } else {
      acc = combine(acc, combine4(x));
    }
  }
  for (uint e = max(4u * q_end, base + begin) + lane; e < base + end; e += stride) {
    const ACC x = load_acc(e);
    if (IS_ARG) {
#ifdef ACC_F32
      arg_element(key, acc, best, x, e, base);
#endif
    } else {
      acc = combine(acc, x);
    }
  }
}
#endif

shared ACC shared_value[gl_WorkGroupSize.x];
shared uint shared_index[gl_WorkGroupSize.x];

// Workgroup `group` of a rows pass.
void reduce_rows(uint group) {
  // `lanes` invocations per row: the whole workgroup, or for short unsplit rows a slice of
  // it (several rows per workgroup, so no invocation idles on a short row).
  const uint lanes = p.lanes, per_group = gl_WorkGroupSize.x / lanes;
  // A 2-D grid may hold more workgroups than needed; whole workgroups leave (uniformly).
  if (group >= (p.outer + per_group - 1u) / per_group * p.splits) return;
  const uint lid = gl_LocalInvocationID.x, lane = lid % lanes;
  const uint row = group / p.splits * per_group + lid / lanes, split = group % p.splits;
  const bool valid = row < p.outer;
  const uint begin = split * p.chunk, end = valid ? min(p.len, begin + p.chunk) : begin;
  ACC acc = identity();
  uint best = NO_INDEX;
  const uint stride = lanes;
  uint r = begin + lane;
#ifdef VKT_REDUCE_VEC4
#ifdef VKT_FUSED_PROLOGUE
  scan_rows_vec4(row * p.len, begin, end, lane, stride, acc, best);
#else
  if (VEC4) {
    scan_rows_vec4(row * p.len, begin, end, lane, stride, acc, best);
    r = end;
  }
#endif
#endif
#if !defined(VKT_FUSED_PROLOGUE) || !defined(VKT_FUSED_VEC4)
  // Four independent loads in flight per invocation (memory-level parallelism); arg
  // candidates are then taken in index order (take_scanned).
  for (; r + 3u * stride < end; r += 4u * stride) {
    const uint e = row * p.len + r;
    LOAD4(x, e, stride);
    if (IS_ARG) {
      take_scanned(acc, best, x[0], e, r);
      take_scanned(acc, best, x[1], e + stride, r + stride);
      take_scanned(acc, best, x[2], e + 2u * stride, r + 2u * stride);
      take_scanned(acc, best, x[3], e + 3u * stride, r + 3u * stride);
    } else {
      acc = combine(acc, combine(combine(x[0], x[1]), combine(x[2], x[3])));
    }
  }
  for (; r < end; r += stride) {
    const uint e = row * p.len + r;
    const ACC x = load_acc(e);
    if (IS_ARG) {
      take_scanned(acc, best, x, e, r);
    } else {
      acc = combine(acc, x);
    }
  }
#endif
  // The row's `lanes` values are combined in shared memory by a tree. With VKT_SUBGROUP,
  // where whole subgroups serve one row, a shuffle butterfly first combines each subgroup
  // (every lane ends with its subgroup's value: combine is commutative and arg_beats a total
  // order), so the tree starts from lanes / subgroup size values: 3 barrier rounds, not 8.
  uint parts = lanes;
  uint slot = lid;
  bool writer = true;
#ifdef VKT_SUBGROUP
  if (lanes % gl_SubgroupSize == 0u) {
    for (uint offset = gl_SubgroupSize / 2u; offset > 0u; offset >>= 1u) {
      const ACC other = subgroupShuffleXor(acc, offset);
      const uint other_index = subgroupShuffleXor(best, offset);
      if (IS_ARG) {
        take_candidate(acc, best, other, other_index);
      } else {
        acc = combine(acc, other);
      }
    }
    parts = lanes / gl_SubgroupSize;
    slot = lid / gl_SubgroupSize;  // subgroups are runs of the local index; rows align to them
    writer = gl_SubgroupInvocationID == 0u;
  }
#endif
  const uint base = lid / lanes * parts;
  if (writer) {
    shared_value[slot] = acc;
    shared_index[slot] = best;
  }
  barrier();
  for (uint half_ = parts / 2u; half_ > 0u; half_ >>= 1u) {
    if (lane < half_) {
      const ACC b = shared_value[base + lane + half_];
      if (IS_ARG) {
        const uint ib = shared_index[base + lane + half_];
        if (arg_beats(b, ib, shared_value[base + lane], shared_index[base + lane])) {
          shared_value[base + lane] = b;
          shared_index[base + lane] = ib;
        }
      } else {
        shared_value[base + lane] = combine(shared_value[base + lane], b);
      }
    }
    barrier();
  }
  if (lane == 0u && valid) {
    write_result(row * p.splits + split, shared_value[base], shared_index[base]);
  }
}

// Invocation t of a columns pass.
void reduce_cols(uint t) {
  const uint inner = p.inner, columns = p.outer * p.splits * inner;
  if (t >= columns) return;
  const uint col = t % inner, rest = t / inner;
  const uint split = rest % p.splits, o = rest / p.splits;
  const uint begin = split * p.chunk, end = min(p.len, begin + p.chunk);
  ACC acc = identity();
  uint best = NO_INDEX;
  uint r = begin;
  const uint step = inner;
  for (; r + 3u < end; r += 4u) {
    const uint e = (o * p.len + r) * inner + col;
    LOAD4(x, e, step);
    if (IS_ARG) {
      take_scanned(acc, best, x[0], e, r);
      take_scanned(acc, best, x[1], e + step, r + 1u);
      take_scanned(acc, best, x[2], e + 2u * step, r + 2u);
      take_scanned(acc, best, x[3], e + 3u * step, r + 3u);
    } else {
      acc = combine(acc, combine(combine(x[0], x[1]), combine(x[2], x[3])));
    }
  }
  for (; r < end; ++r) {
    const uint e = (o * p.len + r) * inner + col;
    const ACC x = load_acc(e);
    if (IS_ARG) {
      take_scanned(acc, best, x, e, r);
    } else {
      acc = combine(acc, x);
    }
  }
  write_result(t, acc, best);
}

#if defined(VKT_REDUCE_VEC4) && !defined(VKT_FUSED_PROLOGUE)
// reduce_cols with VEC4 (inner a multiple of 4): invocation (o, split, quad) reduces four
// adjacent columns from vec4 loads, each column in reduce_cols' order (the same results).
void reduce_cols_vec4() {
  const uint t = global_index(), inner4 = p.inner / 4u;
  if (t >= p.outer * p.splits * inner4) return;
  const uint col4 = t % inner4, rest = t / inner4;
  const uint split = rest % p.splits, o = rest / p.splits;
  const uint begin = split * p.chunk, end = min(p.len, begin + p.chunk);
  ACC acc[4];
  uint best[4];
  for (uint c = 0u; c < 4u; ++c) {
    acc[c] = identity();
    best[c] = NO_INDEX;
  }
  uint r = begin;
  for (; r + 3u < end; r += 4u) {
    const uint q = (o * p.len + r) * inner4 + col4;
    ACC x[4][4];
    for (uint k = 0u; k < 4u; ++k) load_quad(q + k * inner4, x[k]);
    for (uint c = 0u; c < 4u; ++c) {
      if (IS_ARG) {
        for (uint k = 0u; k < 4u; ++k) take_scanned(acc[c], best[c], x[k][c], 4u * (q + k * inner4) + c, r + k);
      } else {
        acc[c] = combine(acc[c], combine(combine(x[0][c], x[1][c]), combine(x[2][c], x[3][c])));
      }
    }
  }
  for (; r < end; ++r) {
    const uint q = (o * p.len + r) * inner4 + col4;
    ACC x[4];
    load_quad(q, x);
    for (uint c = 0u; c < 4u; ++c) {
      if (IS_ARG) {
        take_scanned(acc[c], best[c], x[c], 4u * q + c, r);
      } else {
        acc[c] = combine(acc[c], x[c]);
      }
    }
  }
  for (uint c = 0u; c < 4u; ++c) write_result(rest * p.inner + 4u * col4 + c, acc[c], best[c]);
}
#endif

void main() {
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
#ifdef VKT_FUSED_MODE
  // A fused prologue runs in one known mode (reduce_variant_defines): the other is not built.
  if (VKT_FUSED_MODE == MODE_ROWS) {
    reduce_rows(group);
  } else {
    reduce_cols(global_index());
  }
#else
  if (MODE == MODE_ROWS) {
    reduce_rows(group);
#if defined(VKT_REDUCE_VEC4) && !defined(VKT_FUSED_PROLOGUE)
  } else if (VEC4) {
    reduce_cols_vec4();
#endif
  } else {
    reduce_cols(global_index());
  }
#endif
}
