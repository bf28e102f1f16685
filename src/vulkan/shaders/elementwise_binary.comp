#version 450
// Elementwise binary ops. Both inputs have one dtype (DTYPE); the output has DTYPE, or u8
// for comparisons and logical ops. OP is the op's shader code (op_codes.glsl, generated
// from the op table). MODE picks the indexing: 0 same shape (plain index), 1 `a` is one
// element, 2 `b` is one element, 3 broadcast through collapsed per-axis strides (the host
// merges axes, rank <= 8).
// OP or MODE equal to DYNAMIC are read from the push constants instead (one pipeline per
// dtype where pipeline compiles are slow, e.g. lavapipe).
// Each invocation walks the output in a grid-stride loop, so a launch of n / 4 invocations
// does several coalesced elements each. c64 (c128 in the f64 module) runs add, subtract,
// multiply, divide, equal, not_equal and the logical ops (elementwise_complex.glsl).
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
layout(constant_id = 3) const uint MODE_CONSTANT = 0;
const uint DYNAMIC = 0xffffffffu;

#include "op_codes.glsl"  // OP_<NAME>, binary_writes_u8(): generated from the op table
#include "elementwise_binary_ops.glsl"
#include "elementwise_complex.glsl"  // c64 and c128 ops (c128 in the f64 module)

layout(binding = 0) readonly buffer AU8 { uint8_t v[]; } a_u8;
layout(binding = 0) readonly buffer AS8 { int8_t v[]; } a_s8;
layout(binding = 0) readonly buffer AU16 { uint16_t v[]; } a_u16;
layout(binding = 0) readonly buffer AS16 { int16_t v[]; } a_s16;
layout(binding = 0) readonly buffer AU32 { uint v[]; } a_u32;
layout(binding = 0) readonly buffer AS32 { int v[]; } a_s32;
layout(binding = 0) readonly buffer AF32 { float v[]; } a_f32;
layout(binding = 1) readonly buffer BU8 { uint8_t v[]; } b_u8;
layout(binding = 1) readonly buffer BS8 { int8_t v[]; } b_s8;
layout(binding = 1) readonly buffer BU16 { uint16_t v[]; } b_u16;
layout(binding = 1) readonly buffer BS16 { int16_t v[]; } b_s16;
layout(binding = 1) readonly buffer BU32 { uint v[]; } b_u32;
layout(binding = 1) readonly buffer BS32 { int v[]; } b_s32;
layout(binding = 1) readonly buffer BF32 { float v[]; } b_f32;
#ifdef VKT_I64
layout(binding = 0) readonly buffer AU64 { uint64_t v[]; } a_u64;
layout(binding = 0) readonly buffer AS64 { int64_t v[]; } a_s64;
layout(binding = 1) readonly buffer BU64 { uint64_t v[]; } b_u64;
layout(binding = 1) readonly buffer BS64 { int64_t v[]; } b_s64;
#endif
#ifdef VKT_F64
layout(binding = 0) readonly buffer AF64 { double v[]; } a_f64;
layout(binding = 1) readonly buffer BF64 { double v[]; } b_f64;
#endif

#define DST_BINDING 2
#include "dtype_store.glsl"
// Complex elements as one 8- or 16-byte load and store.
layout(binding = 0) readonly buffer AC64 { vec2 v[]; } a_c64;
layout(binding = 1) readonly buffer BC64 { vec2 v[]; } b_c64;
layout(binding = 2) writeonly buffer DstC64 { vec2 v[]; } dst_c64;
#ifdef VKT_F64
layout(binding = 0) readonly buffer AC128 { dvec2 v[]; } a_c128;
layout(binding = 1) readonly buffer BC128 { dvec2 v[]; } b_c128;
layout(binding = 2) writeonly buffer DstC128 { dvec2 v[]; } dst_c128;
#endif

// n: output elements; rank, dims and per-input strides (0 on broadcast axes) for MODE 3.
layout(push_constant) uniform Push {
  uint n, rank, op, mode;
  uint dims[8], a_strides[8], b_strides[8];
} p;

// Specialization constants fold these where they are fixed.
// FIXED_OP: a module of one op (compile_op_modules.cmake), every other op's code folded away.
#ifdef FIXED_OP
uint op_code() { return FIXED_OP; }
#else
uint op_code() { return OP_CONSTANT == DYNAMIC ? p.op : OP_CONSTANT; }
#endif
uint mode() { return MODE_CONSTANT == DYNAMIC ? p.mode : MODE_CONSTANT; }

uint dtype_bits() {
  if (DTYPE == DT_U8 || DTYPE == DT_S8) return 8u;
  if (DTYPE == DT_U16 || DTYPE == DT_S16) return 16u;
  if (DTYPE == DT_U64 || DTYPE == DT_S64) return 64u;
  return 32u;
}

float a_float(uint i) {
  if (DTYPE == DT_F16) return unpackHalf2x16(uint(a_u16.v[i])).x;
  if (DTYPE == DT_BF16) return uintBitsToFloat(uint(a_u16.v[i]) << 16);
  return a_f32.v[i];
}
float b_float(uint i) {
  if (DTYPE == DT_F16) return unpackHalf2x16(uint(b_u16.v[i])).x;
  if (DTYPE == DT_BF16) return uintBitsToFloat(uint(b_u16.v[i]) << 16);
  return b_f32.v[i];
}
int a_signed(uint i) {
  if (DTYPE == DT_S8) return int(a_s8.v[i]);
  if (DTYPE == DT_S16) return int(a_s16.v[i]);
  return a_s32.v[i];
}
int b_signed(uint i) {
  if (DTYPE == DT_S8) return int(b_s8.v[i]);
  if (DTYPE == DT_S16) return int(b_s16.v[i]);
  return b_s32.v[i];
}
uint a_unsigned(uint i) {
  if (DTYPE == DT_U8) return uint(a_u8.v[i]);
  if (DTYPE == DT_U16) return uint(a_u16.v[i]);
  return a_u32.v[i];
}
uint b_unsigned(uint i) {
  if (DTYPE == DT_U8) return uint(b_u8.v[i]);
  if (DTYPE == DT_U16) return uint(b_u16.v[i]);
  return b_u32.v[i];
}

void store_float(uint i, float r) {
  if (DTYPE == DT_F16) dst_u16.v[i] = uint16_t(f32_to_f16_bits(r));
  else if (DTYPE == DT_BF16) dst_u16.v[i] = uint16_t(f32_to_bf16_bits(r));
  else dst_f32.v[i] = r;
}
// Integer results truncate to the dtype's width (the wrapping the cpu's casts do).
void store_int(uint i, uint bits) {
  if (DTYPE == DT_U8) dst_u8.v[i] = uint8_t(bits);
  else if (DTYPE == DT_S8) dst_s8.v[i] = int8_t(int(bits));
  else if (DTYPE == DT_U16) dst_u16.v[i] = uint16_t(bits);
  else if (DTYPE == DT_S16) dst_s16.v[i] = int16_t(int(bits));
  else dst_u32.v[i] = bits;
}
void store_bool(uint i, bool v) { dst_u8.v[i] = uint8_t(v ? 1u : 0u); }

void element(uint i, uint ia, uint ib) {
  const uint op = op_code();
  const bool PREDICATE = binary_writes_u8(op);
#ifdef VKT_REAL_ONLY  // per-op modules: complex dtypes take the family's module
  if (false) {
#else
  if (DTYPE == DT_C64) {
#endif
    const vec2 a = a_c64.v[ia], b = b_c64.v[ib];
    if (PREDICATE) {
      store_bool(i, c_binary_predicate_c64(op, a, b));
    } else {
      dst_c64.v[i] = c_binary_c64(op, a, b);
    }
#ifdef VKT_F64
  } else if (DTYPE == DT_C128) {
    const dvec2 a = a_c128.v[ia], b = b_c128.v[ib];
    if (PREDICATE) {
      store_bool(i, c_binary_predicate_c128(op, a, b));
    } else {
      dst_c128.v[i] = c_binary_c128(op, a, b);
    }
#endif
  } else if (DTYPE == DT_F32 || DTYPE == DT_F16 || DTYPE == DT_BF16) {
    const float a = a_float(ia), b = b_float(ib);
    if (PREDICATE) store_bool(i, float_predicate(op, a, b));
    else store_float(i, float_binary(op, a, b));
  } else if (DTYPE == DT_S8 || DTYPE == DT_S16 || DTYPE == DT_S32) {
    const int a = a_signed(ia), b = b_signed(ib);
    if (PREDICATE) store_bool(i, int_predicate_s32(op, a, b));
    else store_int(i, uint(int_binary_s32(op, a, b, dtype_bits())));
  } else if (DTYPE == DT_U8 || DTYPE == DT_U16 || DTYPE == DT_U32) {
    const uint a = a_unsigned(ia), b = b_unsigned(ib);
    if (PREDICATE) store_bool(i, int_predicate_u32(op, a, b));
    else store_int(i, int_binary_u32(op, a, b, dtype_bits()));
#ifdef VKT_I64
  } else if (DTYPE == DT_S64) {
    const int64_t a = a_s64.v[ia], b = b_s64.v[ib];
    if (PREDICATE) store_bool(i, int_predicate_s64(op, a, b));
    else dst_u64.v[i] = uint64_t(int_binary_s64(op, a, b, 64u));
  } else if (DTYPE == DT_U64) {
    const uint64_t a = a_u64.v[ia], b = b_u64.v[ib];
    if (PREDICATE) store_bool(i, int_predicate_u64(op, a, b));
    else dst_u64.v[i] = int_binary_u64(op, a, b, 64u);
#endif
#ifdef VKT_F64
  } else if (DTYPE == DT_F64) {
    const double a = a_f64.v[ia], b = b_f64.v[ib];
    if (PREDICATE) store_bool(i, double_predicate(op, a, b));
    else dst_f64.v[i] = double_binary(op, a, b);
#endif
  }
}

// f32 -> f32 ops in the modes without strides move four elements per 16-byte load and
// store, a one-element operand read once and the last partial four one by one, through one
// call of float_binary, a lane at a time in a loop kept rolled (elementwise_unary.comp says
// why).
layout(binding = 0) readonly buffer AF32x4 { vec4 v[]; } a_f32x4;
layout(binding = 1) readonly buffer BF32x4 { vec4 v[]; } b_f32x4;
layout(binding = 2) writeonly buffer DstF32x4 { vec4 v[]; } dst_f32x4;

vec4 f32_lanes(uint op, vec4 a, vec4 b) {
  vec4 r = vec4(0.0);
  [[dont_unroll]] for (int k = 0; k < 4; ++k) {
    r = vec4(r.yzw, float_binary(op, a.x, b.x));
    a = a.yzwx;
    b = b.yzwx;
  }
  return r;
}

// Up to four elements of an f32 operand from element `at` on (`left` of them).
vec4 a_four(uint MODE, uint j, uint at, uint left) {
  if (MODE == 1u) return vec4(a_f32.v[0]);
  if (left >= 4u) return a_f32x4.v[j];
  return vec4(a_f32.v[at], left > 1u ? a_f32.v[at + 1u] : 0.0, left > 2u ? a_f32.v[at + 2u] : 0.0, 0.0);
}
vec4 b_four(uint MODE, uint j, uint at, uint left) {
  if (MODE == 2u) return vec4(b_f32.v[0]);
  if (left >= 4u) return b_f32x4.v[j];
  return vec4(b_f32.v[at], left > 1u ? b_f32.v[at + 1u] : 0.0, left > 2u ? b_f32.v[at + 2u] : 0.0, 0.0);
}

void f32_in_fours(uint MODE, uint op, uint stride) {
  const uint fours = p.n / 4u + (p.n % 4u != 0u ? 1u : 0u);  // n + 3 could wrap
  for (uint j = global_index(); j < fours; j += stride) {
    const uint at = 4u * j, left = p.n - at;
    const vec4 r = f32_lanes(op, a_four(MODE, j, at, left), b_four(MODE, j, at, left));
    if (left >= 4u) {
      dst_f32x4.v[j] = r;
    } else {
      dst_f32.v[at] = r.x;
      if (left > 1u) dst_f32.v[at + 1u] = r.y;
      if (left > 2u) dst_f32.v[at + 2u] = r.z;
    }
  }
}

// One call of element(), so the op's code is in the module once more, not once per mode
// (MODE is constant in a specialised pipeline either way).
void main() {
  const uint stride = grid_stride(), MODE = mode(), op = op_code();
  if (DTYPE == DT_F32 && !binary_writes_u8(op) && MODE != 3u) {
    f32_in_fours(MODE, op, stride);
    return;
  }
  for (uint i = global_index(); i < p.n; i += stride) {
    uint ia = i, ib = i;
    if (MODE == 1u) {
      ia = 0u;
    } else if (MODE == 2u) {
      ib = 0u;
    } else if (MODE == 3u) {
      uint rest = i;
      ia = 0u;
      ib = 0u;
      for (uint k = p.rank; k-- > 0u;) {
        const uint q = rest / p.dims[k];
        const uint c = rest - q * p.dims[k];
        ia += c * p.a_strides[k];
        ib += c * p.b_strides[k];
        rest = q;
      }
    }
    element(i, ia, ib);
  }
}
