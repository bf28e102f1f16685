// Sort keys (src/vulkan/ops/sort.cpp): the input's raw bits at binding SRC_BINDING mapped to
// unsigned keys whose order is src/cpu/sort_keys.h's (NaN above +inf and all equal, -0 equal
// to +0; halves keep 16-bit keys: f16/bf16 -> f32 is monotone, so the order is the same),
// inverted for descending. Keys are uvec2 (low word, high word; high is 0 up to 32 bits):
// no 64-bit types, so every device with 8/16-bit storage sorts every dtype.
// Specialization constants 1, 2: DTYPE, DESCENDING.
layout(constant_id = 1) const uint DTYPE = 10;
layout(constant_id = 2) const bool DESCENDING = false;

layout(binding = SRC_BINDING) readonly buffer SrcU8 { uint8_t v[]; } src_u8;
layout(binding = SRC_BINDING) readonly buffer SrcU16 { uint16_t v[]; } src_u16;
layout(binding = SRC_BINDING) readonly buffer SrcU32 { uint v[]; } src_u32;

const uint ELEM_BITS = (DTYPE == DT_U8 || DTYPE == DT_S8) ? 8u
    : (DTYPE == DT_U16 || DTYPE == DT_S16 || DTYPE == DT_F16 || DTYPE == DT_BF16) ? 16u
    : (DTYPE == DT_U64 || DTYPE == DT_S64 || DTYPE == DT_F64) ? 64u : 32u;
const bool IS_FLOAT_KEY = DTYPE >= DT_F16;
const bool IS_SIGNED_KEY = DTYPE >= DT_S8 && DTYPE <= DT_S64;

uint narrow_key(uint r) {
  const uint bits = ELEM_BITS;
  const uint sign = 1u << (bits - 1u);
  const uint ones = bits == 32u ? ~0u : (1u << bits) - 1u;
  uint k;
  if (IS_FLOAT_KEY) {
    const uint inf = DTYPE == DT_F32 ? 0x7f800000u : DTYPE == DT_F16 ? 0x7c00u : 0x7f80u;
    const uint mag = r & (sign - 1u);
    if (mag > inf) {
      k = ones;  // every NaN, either sign
    } else if (mag == 0u) {
      k = sign;  // -0 and +0
    } else {
      k = (r & sign) != 0u ? ~r & ones : r | sign;
    }
  } else {
    k = IS_SIGNED_KEY ? r ^ sign : r;
  }
  return DESCENDING ? ~k & ones : k;
}

uvec2 wide_key(uvec2 r) {
  uvec2 k;
  if (DTYPE == DT_F64) {
    const uint hi = r.y & 0x7fffffffu;
    if (hi > 0x7ff00000u || (hi == 0x7ff00000u && r.x != 0u)) {
      k = uvec2(~0u);
    } else if (hi == 0u && r.x == 0u) {
      k = uvec2(0u, 0x80000000u);
    } else {
      k = (r.y & 0x80000000u) != 0u ? ~r : uvec2(r.x, r.y | 0x80000000u);
    }
  } else {
    k = IS_SIGNED_KEY ? uvec2(r.x, r.y ^ 0x80000000u) : r;
  }
  return DESCENDING ? ~k : k;
}

// The key of input element e.
uvec2 sort_key(uint e) {
  if (ELEM_BITS == 8u) return uvec2(narrow_key(uint(src_u8.v[e])), 0u);
  if (ELEM_BITS == 16u) return uvec2(narrow_key(uint(src_u16.v[e])), 0u);
  if (ELEM_BITS == 32u) return uvec2(narrow_key(src_u32.v[e]), 0u);
  return wide_key(uvec2(src_u32.v[2u * e], src_u32.v[2u * e + 1u]));
}

// Line `row` of the [outer, len, inner] view starts here; its elements are inner apart.
uint line_start(uint row, uint len, uint inner) {
  return (row / inner) * len * inner + row % inner;
}
