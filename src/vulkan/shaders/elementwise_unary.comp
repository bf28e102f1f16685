#version 450
// Elementwise unary ops: out[i] = f(in[i]). DTYPE is the input dtype; the output has DTYPE,
// or u8 for the predicates (is_nan, is_infinity, logical_not). OP is the op's shader code
// (op_codes.glsl, generated from the op table; DYNAMIC: read from the push constants, for
// one pipeline per dtype where pipeline compiles are slow). Float
// functions only ever see float dtypes (the core converts integer inputs to f32); f16/bf16
// compute in f32 and round once. f64 runs the exact ops and the exp/log/trig families in f64
// (supports() sends the other f64 transcendentals to the cpu). Each invocation walks the
// tensor in a grid-stride loop. Complex inputs (c64; c128 in the f64 module) run negate,
// conjugate, real, imag on the words (bit-exact), abs as hypot, phase as atan2, exp, log,
// sqrt, and the predicates.
#include "common.glsl"
#extension GL_EXT_control_flow_attributes : require
#include "dtype_value.glsl"
#include "float_bits.glsl"
#include "elementwise_math.glsl"
#ifdef VKT_F64
#include "elementwise_math_f64.glsl"
#endif

layout(constant_id = 1) const uint OP_CONSTANT = 0;
layout(constant_id = 2) const uint DTYPE = 10;

#include "op_codes.glsl"  // OP_<NAME>, unary_writes_u8(): generated from the op table
#include "elementwise_unary_ops.glsl"
#include "elementwise_complex.glsl"  // c64 and c128 ops (c128 in the f64 module)
const uint DYNAMIC = 0xffffffffu;

layout(binding = 0) readonly buffer InU8 { uint8_t v[]; } in_u8;
layout(binding = 0) readonly buffer InS8 { int8_t v[]; } in_s8;
layout(binding = 0) readonly buffer InU16 { uint16_t v[]; } in_u16;
layout(binding = 0) readonly buffer InS16 { int16_t v[]; } in_s16;
layout(binding = 0) readonly buffer InU32 { uint v[]; } in_u32;
layout(binding = 0) readonly buffer InS32 { int v[]; } in_s32;
layout(binding = 0) readonly buffer InF32 { float v[]; } in_f32;
#ifdef VKT_I64
layout(binding = 0) readonly buffer InU64 { uint64_t v[]; } in_u64;
layout(binding = 0) readonly buffer InS64 { int64_t v[]; } in_s64;
#endif
#ifdef VKT_F64
layout(binding = 0) readonly buffer InF64 { double v[]; } in_f64;
#endif

#define DST_BINDING 1
#include "dtype_store.glsl"
// Complex elements as one 8- or 16-byte load and store.
layout(binding = 0) readonly buffer InC64 { vec2 v[]; } in_c64;
layout(binding = 1) writeonly buffer DstC64 { vec2 v[]; } dst_c64;
#ifdef VKT_F64
layout(binding = 0) readonly buffer InC128 { dvec2 v[]; } in_c128;
layout(binding = 1) writeonly buffer DstC128 { dvec2 v[]; } dst_c128;
#endif

layout(push_constant) uniform Push { uint n, op; } p;

// FIXED_OP: a module of one op (compile_op_modules.cmake), every other op's code folded away.
#ifdef FIXED_OP
uint op_code() { return FIXED_OP; }
#else
uint op_code() { return OP_CONSTANT == DYNAMIC ? p.op : OP_CONSTANT; }
#endif

bool is_float_dtype() { return DTYPE == DT_F32 || DTYPE == DT_F16 || DTYPE == DT_BF16; }

float in_float(uint i) {
  if (DTYPE == DT_F16) return unpackHalf2x16(uint(in_u16.v[i])).x;
  if (DTYPE == DT_BF16) return uintBitsToFloat(uint(in_u16.v[i]) << 16);
  return in_f32.v[i];
}

// An integer element equal to zero (logical_not), read at its own width.
bool integer_is_zero(uint i) {
  if (DTYPE == DT_U8 || DTYPE == DT_S8) return uint(in_u8.v[i]) == 0u;
  if (DTYPE == DT_U16 || DTYPE == DT_S16) return uint(in_u16.v[i]) == 0u;
  if (DTYPE == DT_U32 || DTYPE == DT_S32) return in_u32.v[i] == 0u;
#ifdef VKT_I64
  if (DTYPE == DT_U64 || DTYPE == DT_S64) return in_u64.v[i] == 0ul;
#endif
  return false;
}

// The u8-writing ops. Zero is decided on the bits (a subnormal is not zero), as on the cpu.
bool predicate(uint op, uint i) {
  if (is_float_dtype()) {
    const float x = in_float(i);
    return op == OP_IS_NAN ? isnan(x) : (op == OP_IS_INFINITY ? isinf(x) : !f32_nonzero(x));
#ifdef VKT_F64
  } else if (DTYPE == DT_F64) {
    const double x = in_f64.v[i];
    return op == OP_IS_NAN ? isnan(x) : (op == OP_IS_INFINITY ? isinf(x) : !f64_nonzero(x));
#endif
  }
  return op == OP_LOGICAL_NOT && integer_is_zero(i);  // integers are finite
}

// c64 / c128 elements: words 2i, 2i+1 (c64) or 4i..4i+3 (c128), real part first.
void complex_element(uint op, uint i) {
  const uint w = DTYPE == DT_C64 ? 1u : 2u;  // 32-bit words per part
  const uint s = 2u * w * i, top = w - 1u;   // top: the word holding a part's sign
  if (unary_writes_u8(op)) {
    bool r = false;
    if (DTYPE == DT_C64) r = c_predicate_c64(op, in_c64.v[i]);
#ifdef VKT_F64
    else r = c_predicate_c128(op, in_c128.v[i]);
#endif
    dst_u8.v[i] = uint8_t(r ? 1u : 0u);
  } else if (op == OP_ABS) {
    if (DTYPE == DT_C64) dst_f32.v[i] = c_abs_c64(in_c64.v[i]);
#ifdef VKT_F64
    else dst_f64.v[i] = c_abs_c128(in_c128.v[i]);
#endif
  } else if (op == OP_PHASE) {  // atan2(im, re), a real result
    if (DTYPE == DT_C64) dst_f32.v[i] = atan2_f32(in_f32.v[2u * i + 1u], in_f32.v[2u * i]);
#ifdef VKT_F64
    else dst_f64.v[i] = atan2_f64(in_f64.v[2u * i + 1u], in_f64.v[2u * i]);
#endif
  } else if (op == OP_REAL || op == OP_IMAG) {
    const uint from = s + (op == OP_IMAG ? w : 0u);
    for (uint j = 0u; j < w; ++j) dst_u32.v[w * i + j] = in_u32.v[from + j];
  } else if (op == OP_EXP || op == OP_LOG || op == OP_SQRT) {
    if (DTYPE == DT_C64) {
      dst_c64.v[i] = c_unary_c64(op, in_c64.v[i]);
#ifdef VKT_F64
    } else {
      dst_c128.v[i] = c_unary_c128(op, in_c128.v[i]);
#endif
    }
  } else {  // negate flips both signs, conjugate the imaginary part's
    for (uint j = 0u; j < 2u * w; ++j) {
      const bool flip = j == w + top || (op == OP_NEGATE && j == top);
      dst_u32.v[s + j] = in_u32.v[s + j] ^ (flip ? 0x80000000u : 0u);
    }
  }
}

void element(uint i) {
  const uint op = op_code();
#ifndef VKT_REAL_ONLY  // per-op modules: complex dtypes take the family's module
  if (DTYPE == DT_C64 || DTYPE == DT_C128) {
    complex_element(op, i);
    return;
  }
#endif
  if (unary_writes_u8(op)) {
    dst_u8.v[i] = uint8_t(predicate(op, i) ? 1u : 0u);
    return;
  }
  if (is_float_dtype()) {
    const float r = float_function(op, in_float(i));
    if (DTYPE == DT_F16) dst_u16.v[i] = uint16_t(f32_to_f16_bits(r));
    else if (DTYPE == DT_BF16) dst_u16.v[i] = uint16_t(f32_to_bf16_bits(r));
    else dst_f32.v[i] = r;
  } else if (DTYPE == DT_S8) {
    dst_s8.v[i] = int8_t(signed_function(op, int(in_s8.v[i]), 8u));
  } else if (DTYPE == DT_S16) {
    dst_s16.v[i] = int16_t(signed_function(op, int(in_s16.v[i]), 16u));
  } else if (DTYPE == DT_S32) {
    dst_s32.v[i] = signed_function(op, in_s32.v[i], 32u);
  } else if (DTYPE == DT_U8) {
    dst_u8.v[i] = uint8_t(unsigned_function(op, uint(in_u8.v[i]), 8u));
  } else if (DTYPE == DT_U16) {
    dst_u16.v[i] = uint16_t(unsigned_function(op, uint(in_u16.v[i]), 16u));
  } else if (DTYPE == DT_U32) {
    dst_u32.v[i] = unsigned_function(op, in_u32.v[i], 32u);
#ifdef VKT_I64
  } else if (DTYPE == DT_S64 || DTYPE == DT_U64) {
    dst_u64.v[i] = bits64_function(op, in_u64.v[i], DTYPE == DT_S64);
#endif
#ifdef VKT_F64
  } else if (DTYPE == DT_F64) {
    dst_f64.v[i] = double_function(op, in_f64.v[i]);
#endif
  }
}

// f32 -> f32 ops move four elements per 16-byte load and store (pool ranges start 256-byte
// aligned: memory.h), the last partial four read and written one by one, through the same
// one call of float_function: so results do not depend on the path, and the op's code is in
// the pipeline once. The lanes take turns in a loop the driver keeps rolled (the vectors
// rotate, so no lane is indexed dynamically). Unrolled, or two lanes a turn, the driver
// compiled the code four or two times: on the H100 sin's module took 58 or 43 ms to create
// against 30, pow's 74 or 48 against 36 (pipeline-time-lanes.csv), for device times within
// 14% (at 16M tanh 53.4 -> 60.5 us, sin 47.4 -> 52.0, pow 120.7 -> 116.8: one lane a turn
// against unrolled, bench_results/h100/consumer-one-lane.csv).
layout(binding = 0) readonly buffer InF32x4 { vec4 v[]; } in_f32x4;
layout(binding = 1) writeonly buffer DstF32x4 { vec4 v[]; } dst_f32x4;

vec4 f32_lanes(uint op, vec4 x) {
  vec4 r = vec4(0.0);
  [[dont_unroll]] for (int k = 0; k < 4; ++k) {
    r = vec4(r.yzw, float_function(op, x.x));
    x = x.yzwx;
  }
  return r;
}

void f32_in_fours(uint op, uint stride) {
  const uint fours = p.n / 4u + (p.n % 4u != 0u ? 1u : 0u);  // n + 3 could wrap
  for (uint j = global_index(); j < fours; j += stride) {
    const uint at = 4u * j, left = p.n - at;
    const bool whole = left >= 4u;
    vec4 x = vec4(0.0);
    if (whole) {
      x = in_f32x4.v[j];
    } else {
      x.x = in_f32.v[at];
      if (left > 1u) x.y = in_f32.v[at + 1u];
      if (left > 2u) x.z = in_f32.v[at + 2u];
    }
    const vec4 r = f32_lanes(op, x);
    if (whole) {
      dst_f32x4.v[j] = r;
    } else {
      dst_f32.v[at] = r.x;
      if (left > 1u) dst_f32.v[at + 1u] = r.y;
      if (left > 2u) dst_f32.v[at + 2u] = r.z;
    }
  }
}

void main() {
  const uint stride = grid_stride(), op = op_code();
  if (DTYPE == DT_F32 && !unary_writes_u8(op)) {
    f32_in_fours(op, stride);
    return;
  }
  for (uint i = global_index(); i < p.n; i += stride) element(i);
}
