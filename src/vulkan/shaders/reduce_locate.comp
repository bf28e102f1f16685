#version 450
// argmax/argmin of long f32 rows by value, then place (src/vulkan/ops/reduce_locate.cpp):
//   MODE_EXTREME: workgroup (row, split) finds its range's extreme with two integer min/max
//     per element on the bits (no index carried), or that the range holds a NaN; it writes
//     the extreme's bits (a NaN for a NaN) as the split's partial.
//   MODE_LOCATE: workgroup (row, part) reduces the row's partials to the row's extreme and
//     the first split holding it (the last with TIE_HIGH), then scans `part`'s span of that
//     split for the first matching element and folds its index into the row's result with
//     an atomic min (max). MODE_EXTREME's split 0 set the result to the fold's identity.
// The order is the cpu's (src/cpu/argreduce.h): NaN is the extreme, -0 ties +0, ties go to
// the lowest index (highest with TIE_HIGH); values compare by their bits, so subnormals
// count where a device flushes them.
#include "common.glsl"

layout(constant_id = 1) const uint MODE = 0;
layout(constant_id = 2) const bool IS_MAX = true;
layout(constant_id = 3) const bool TIE_HIGH = false;
const uint MODE_EXTREME = 0, MODE_LOCATE = 1;
const uint LOCATE_STEPS = 4;  // vec4 loads per invocation in a locate span

// Row r of `outer` is elements [r * len, (r + 1) * len); r * len is a multiple of 4 (the host
// checks), and so is chunk, so every split starts on a vec4.
layout(push_constant) uniform Push { uint outer, len, chunk, splits, parts; } p;

layout(binding = 0) readonly buffer SrcWords { uint v[]; } src;
layout(binding = 0) readonly buffer SrcQuads { uvec4 v[]; } src4;
layout(binding = 1) buffer Partials { uint v[]; } partials;
layout(binding = 2) buffer Dst { uint v[]; } dst;  // s64 indices: low word, then 0

const uint NAN_BITS = 0x7fc00000u;

bool is_nan_bits(uint b) { return (b & 0x7fffffffu) > 0x7f800000u; }

// The extreme of a NaN-free set from its bits' signed max and min (argmax) or unsigned max
// and min (argmin): for max, a value with the sign clear is above every one with it set, and
// among the latter the least signed integer is the least magnitude; min mirrors it.
uint extreme_of(uint hi, uint lo) {
  if (IS_MAX) return int(hi) >= 0 ? hi : lo;
  return (hi & 0x80000000u) != 0u ? hi : lo;
}

// Equal as values: the same bits, or both zeros (-0 ties +0).
bool same_value(uint a, uint b) { return a == b || ((a | b) & 0x7fffffffu) == 0u; }

shared int shared_hi_s, shared_lo_s;
shared uint shared_hi_u, shared_lo_u, shared_nan, shared_pick, shared_at;

void fold_init() {
  if (gl_LocalInvocationID.x == 0u) {
    shared_hi_s = int(0x80000000u);
    shared_lo_s = 0x7fffffff;
    shared_hi_u = 0u;
    shared_lo_u = 0xffffffffu;
    shared_nan = 0u;
  }
  barrier();
}

// Folds one invocation's (hi, lo, nan) into the workgroup's and returns its partial: the
// extreme's bits, NaN_BITS where some invocation saw a NaN.
uint fold_extreme(uint hi, uint lo, bool nan) {
  if (IS_MAX) {
    atomicMax(shared_hi_s, int(hi));
    atomicMin(shared_lo_s, int(lo));
  } else {
    atomicMax(shared_hi_u, hi);
    atomicMin(shared_lo_u, lo);
  }
  if (nan) atomicOr(shared_nan, 1u);
  barrier();
  const uint h = IS_MAX ? uint(shared_hi_s) : shared_hi_u;
  const uint l = IS_MAX ? uint(shared_lo_s) : shared_lo_u;
  return shared_nan != 0u ? NAN_BITS : extreme_of(h, l);
}

// The running (hi, lo) of a set of bits: signed for max, unsigned for min.
void take(inout uint hi, inout uint lo, uint b) {
  if (IS_MAX) {
    hi = uint(max(int(hi), int(b)));
    lo = uint(min(int(lo), int(b)));
  } else {
    hi = max(hi, b);
    lo = min(lo, b);
  }
}

void take4(inout uint hi, inout uint lo, inout bool nan, uvec4 q) {
  nan = nan || any(isnan(uintBitsToFloat(q)));
  for (uint c = 0u; c < 4u; ++c) take(hi, lo, q[c]);
}

void extreme_pass(uint group) {
  if (group >= p.outer * p.splits) return;  // uniform: a 2-D grid's spare workgroups
  const uint row = group / p.splits, split = group % p.splits, lid = gl_LocalInvocationID.x;
  const uint wg = gl_WorkGroupSize.x;
  const uint base = row * p.len, begin = split * p.chunk, end = min(p.len, begin + p.chunk);
  uint hi = IS_MAX ? 0x80000000u : 0u, lo = IS_MAX ? 0x7fffffffu : 0xffffffffu;
  bool nan = false;
  const uint q_end = (base + end) / 4u;
  uint q = (base + begin) / 4u + lid;
  for (; q + 3u * wg < q_end; q += 4u * wg) {  // four loads in flight
    const uvec4 x0 = src4.v[q], x1 = src4.v[q + wg], x2 = src4.v[q + 2u * wg],
                x3 = src4.v[q + 3u * wg];
    take4(hi, lo, nan, x0);
    take4(hi, lo, nan, x1);
    take4(hi, lo, nan, x2);
    take4(hi, lo, nan, x3);
  }
  for (; q < q_end; q += wg) take4(hi, lo, nan, src4.v[q]);
  for (uint e = max(4u * q_end, base + begin) + lid; e < base + end; e += wg) {
    const uint b = src.v[e];
    nan = nan || is_nan_bits(b);
    take(hi, lo, b);
  }
  fold_init();
  const uint partial = fold_extreme(hi, lo, nan);
  if (lid == 0u) {
    partials.v[group] = partial;
    if (split == 0u) {  // the locate pass folds indices into this
      dst.v[2u * row] = TIE_HIGH ? 0u : 0xffffffffu;
      dst.v[2u * row + 1u] = 0u;
    }
  }
}

bool matches(uint b, uint target, bool nan_target) {
  return nan_target ? is_nan_bits(b) : same_value(b, target);
}

void locate_pass(uint group) {
  if (group >= p.outer * p.parts) return;  // uniform
  const uint row = group / p.parts, part = group % p.parts, lid = gl_LocalInvocationID.x;
  const uint wg = gl_WorkGroupSize.x;
  // The row's extreme over its partials (each a split's extreme, or NaN).
  uint hi = IS_MAX ? 0x80000000u : 0u, lo = IS_MAX ? 0x7fffffffu : 0xffffffffu;
  bool nan = false;
  for (uint s = lid; s < p.splits; s += wg) {
    const uint b = partials.v[row * p.splits + s];
    nan = nan || is_nan_bits(b);
    take(hi, lo, b);
  }
  fold_init();
  const uint target = fold_extreme(hi, lo, nan);
  const bool nan_target = is_nan_bits(target);
  // The first (last) split whose partial is the extreme.
  if (lid == 0u) {
    shared_pick = TIE_HIGH ? 0u : 0xffffffffu;
    shared_at = shared_pick;  // the fold's identity: a part that matches nothing leaves it
  }
  barrier();
  for (uint s = lid; s < p.splits; s += wg) {
    if (matches(partials.v[row * p.splits + s], target, nan_target)) {
      if (TIE_HIGH) {
        atomicMax(shared_pick, s);
      } else {
        atomicMin(shared_pick, s);
      }
    }
  }
  barrier();
  const uint split = shared_pick;
  const uint span = LOCATE_STEPS * 4u * wg;
  const uint base = row * p.len, begin = split * p.chunk + part * span;
  const uint end = min(min(p.len, split * p.chunk + p.chunk), begin + span);
  if (begin >= end) return;  // uniform: this part lies past the split's end
  // This invocation's elements, in index order: quads lid, lid + wg, ... of the span.
  bool found = false;
  uint at = 0u;
  for (uint i = 0u; i < LOCATE_STEPS; ++i) {
    const uint r = begin + 4u * (lid + i * wg);  // row index of the quad's first element
    if (r >= end) break;
    const uvec4 x = r + 4u <= end ? src4.v[(base + r) / 4u]
                                  : uvec4(src.v[base + r], r + 1u < end ? src.v[base + r + 1u] : 0u,
                                          r + 2u < end ? src.v[base + r + 2u] : 0u, 0u);
    for (uint c = 0u; c < 4u; ++c) {
      if (r + c < end && matches(x[c], target, nan_target) && (TIE_HIGH || !found)) {
        found = true;
        at = r + c;
      }
    }
  }
  // The workgroup's first (last) match, then one atomic per workgroup on the row's result.
  if (found) {
    if (TIE_HIGH) {
      atomicMax(shared_at, at);
    } else {
      atomicMin(shared_at, at);
    }
  }
  barrier();
  if (lid == 0u) {
    if (TIE_HIGH) {
      atomicMax(dst.v[2u * row], shared_at);
    } else {
      atomicMin(dst.v[2u * row], shared_at);
    }
  }
}

void main() {
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (MODE == MODE_EXTREME) {
    extreme_pass(group);
  } else {
    locate_pass(group);
  }
}
