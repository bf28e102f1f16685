// The results of a sorted line (src/vulkan/ops/sort.cpp), at binding DST_BINDING: the input's
// element bits in sorted order (sort), s64 indices (argsort, along the axis), or the first
// k s64 indices of each line (top_k, the last axis). Needs sort_key.glsl's source views.
// Specialization constant 3: OUT_MODE.
layout(constant_id = 3) const uint OUT_MODE = 0;
const uint OUT_SORT = 0, OUT_ARGSORT = 1, OUT_TOP_K = 2;

layout(binding = DST_BINDING) writeonly buffer DstU8 { uint8_t v[]; } dst_u8;
layout(binding = DST_BINDING) writeonly buffer DstU16 { uint16_t v[]; } dst_u16;
layout(binding = DST_BINDING) writeonly buffer DstU32 { uint v[]; } dst_u32;

// Position j of line `row` holds the line's element `idx`.
void emit(uint row, uint j, uint idx, uint len, uint inner, uint k) {
  if (OUT_MODE == OUT_TOP_K) {
    if (j >= k) return;
    const uint o = row * k + j;
    dst_u32.v[2u * o] = idx;
    dst_u32.v[2u * o + 1u] = 0u;
    return;
  }
  const uint start = line_start(row, len, inner);
  const uint o = start + j * inner;
  if (OUT_MODE == OUT_ARGSORT) {
    dst_u32.v[2u * o] = idx;
    dst_u32.v[2u * o + 1u] = 0u;
    return;
  }
  const uint e = start + idx * inner;
  if (ELEM_BITS == 8u) {
    dst_u8.v[o] = src_u8.v[e];
  } else if (ELEM_BITS == 16u) {
    dst_u16.v[o] = src_u16.v[e];
  } else if (ELEM_BITS == 32u) {
    dst_u32.v[o] = src_u32.v[e];
  } else {
    dst_u32.v[2u * o] = src_u32.v[2u * e];
    dst_u32.v[2u * o + 1u] = src_u32.v[2u * e + 1u];
  }
}
