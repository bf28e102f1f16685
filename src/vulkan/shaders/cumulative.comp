#version 450
// cumulative_sum / product / max / min of a [outer, len, inner] view along len, forward or
// reverse (src/vulkan/ops/cumulative.cpp). The axis is cut into `splits` chunks of `chunk`
// (original index order); with splits > 1 three phases run:
//   PHASE_TOTALS: each chunk's total -> partials[(o * splits + s) * inner + col] (binding 3)
//   PHASE_CARRIES: per (o, col), the combination of the chunks before each chunk in scan
//     order -> carries (binding 3), reading the partials (binding 1)
//   PHASE_SCAN: each chunk scanned from its carry (binding 1 when HAS_CARRY) -> out
// With one chunk only PHASE_SCAN runs. MODE_ROWS (inner == 1): a workgroup (or a slice of
// one, for short rows) per chunk scans tiles in shared memory; MODE_COLS: an invocation per (o, chunk, col) walks
// its chunk (adjacent invocations read adjacent columns).
#include "common.glsl"
#include "dtype_value.glsl"

#include "reduce_acc.glsl"

layout(constant_id = 4) const uint MODE = 0;
layout(constant_id = 5) const uint PHASE = 2;
layout(constant_id = 6) const bool REVERSE = false;
layout(constant_id = 7) const bool HAS_CARRY = false;

const uint MODE_ROWS = 0, MODE_COLS = 1;
const uint PHASE_TOTALS = 0, PHASE_CARRIES = 1, PHASE_SCAN = 2;

layout(binding = 1) readonly buffer AccIn { ACC v[]; } acc_in;
#define DST_BINDING 2
#include "dtype_store.glsl"
layout(binding = 3) writeonly buffer AccOut { ACC v[]; } acc_out;

layout(push_constant) uniform Push { uint outer, len, inner, chunk, splits, lanes; } p;

void store_acc(uint i, ACC v) {
#ifdef ACC_IS_FLOAT
  store_value(DST_DTYPE, i, float_value(widen(v)));
#else
  store_value(DST_DTYPE, i, int_value(IWIDE(v), is_unsigned_code(DST_DTYPE)));
#endif
}

// The axis index of scan step k of a chunk [begin, end).
uint position(uint begin, uint end, uint k) { return REVERSE ? end - 1u - k : begin + k; }

shared ACC shared_value[gl_WorkGroupSize.x];

// Inclusive scan of x across each slice of `lanes` invocations (invocation order = scan
// order); the slice's total is then in shared_value[slice base + lanes - 1].
ACC slice_scan(ACC x, uint lane, uint lanes) {
  const uint lid = gl_LocalInvocationID.x;
  shared_value[lid] = x;
  barrier();
  for (uint offset = 1u; offset < lanes; offset <<= 1u) {
    ACC y = shared_value[lid];
    if (lane >= offset) y = combine(shared_value[lid - offset], y);
    barrier();
    shared_value[lid] = y;
    barrier();
  }
  return shared_value[lid];
}

void scan_rows() {
  // `lanes` invocations per chunk: the whole workgroup, or for short unsplit rows a slice
  // of it (several rows per workgroup).
  const uint lanes = p.lanes, per_group = gl_WorkGroupSize.x / lanes;
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  // Whole workgroups past the grid leave (uniformly).
  if (group >= (p.outer + per_group - 1u) / per_group * p.splits) return;
  const uint lid = gl_LocalInvocationID.x, lane = lid % lanes, last = lid - lane + lanes - 1u;
  const uint row = group / p.splits * per_group + lid / lanes, split = group % p.splits;
  const bool valid = row < p.outer;
  const uint slot = row * p.splits + split;
  const uint begin = split * p.chunk, end = valid ? min(p.len, begin + p.chunk) : begin;
  ACC carry = HAS_CARRY && valid ? acc_in.v[slot] : identity();
  // Tiles up to the chunk length (the same in every slice: barriers stay uniform).
  for (uint k0 = 0u; k0 < p.chunk; k0 += lanes) {
    const uint k = k0 + lane;
    const bool inside = k < end - begin;
    const uint e = row * p.len + (inside ? position(begin, end, k) : 0u);
    const ACC scanned = slice_scan(inside ? load_acc(e) : identity(), lane, lanes);
    if (PHASE == PHASE_SCAN && inside) store_acc(e, combine(carry, scanned));
    carry = combine(carry, shared_value[last]);
    barrier();  // the next tile overwrites shared_value
  }
  if (PHASE == PHASE_TOTALS && lane == 0u && valid) acc_out.v[slot] = carry;
}

void scan_cols() {
  const uint t = global_index();
  if (t >= p.outer * p.splits * p.inner) return;
  const uint col = t % p.inner, rest = t / p.inner;
  const uint split = rest % p.splits, o = rest / p.splits;
  const uint begin = split * p.chunk, end = min(p.len, begin + p.chunk);
  ACC acc = HAS_CARRY ? acc_in.v[t] : identity();
  for (uint k = 0u; k < end - begin; ++k) {
    const uint e = (o * p.len + position(begin, end, k)) * p.inner + col;
    acc = combine(acc, load_acc(e));
    if (PHASE == PHASE_SCAN) store_acc(e, acc);
  }
  if (PHASE == PHASE_TOTALS) acc_out.v[t] = acc;
}

// One invocation per (o, col): carries of the splits chunks, in scan order.
void carries() {
  const uint t = global_index();
  if (t >= p.outer * p.inner) return;
  const uint col = t % p.inner, o = t / p.inner;
  ACC running = identity();
  for (uint k = 0u; k < p.splits; ++k) {
    const uint s = REVERSE ? p.splits - 1u - k : k;
    const uint i = (o * p.splits + s) * p.inner + col;
    const ACC total = acc_in.v[i];
    acc_out.v[i] = running;
    running = combine(running, total);
  }
}

void main() {
  if (PHASE == PHASE_CARRIES) {
    carries();
  } else if (MODE == MODE_ROWS) {
    scan_rows();
  } else {
    scan_cols();
  }
}
