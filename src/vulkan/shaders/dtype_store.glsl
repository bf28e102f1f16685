// Typed views of the output buffer at binding DST_BINDING and a store of a Value as dtype d.
layout(binding = DST_BINDING) writeonly buffer DstU8 { uint8_t v[]; } dst_u8;
layout(binding = DST_BINDING) writeonly buffer DstS8 { int8_t v[]; } dst_s8;
layout(binding = DST_BINDING) writeonly buffer DstU16 { uint16_t v[]; } dst_u16;
layout(binding = DST_BINDING) writeonly buffer DstS16 { int16_t v[]; } dst_s16;
layout(binding = DST_BINDING) writeonly buffer DstU32 { uint v[]; } dst_u32;
layout(binding = DST_BINDING) writeonly buffer DstS32 { int v[]; } dst_s32;
layout(binding = DST_BINDING) writeonly buffer DstF32 { float v[]; } dst_f32;
#ifdef VKT_I64
layout(binding = DST_BINDING) writeonly buffer DstU64 { uint64_t v[]; } dst_u64;
#endif
#ifdef VKT_F64
layout(binding = DST_BINDING) writeonly buffer DstF64 { double v[]; } dst_f64;
#endif

void store_value(uint d, uint i, Value v) {
  if (d == DT_F32) {
    dst_f32.v[i] = to_f32(v);
  } else if (d == DT_F16) {
    dst_u16.v[i] = uint16_t(f32_to_f16_bits(to_f32(v)));
  } else if (d == DT_BF16) {
    dst_u16.v[i] = uint16_t(f32_to_bf16_bits(to_f32(v)));
#ifdef VKT_F64
  } else if (d == DT_F64) {
    dst_f64.v[i] = to_f64(v);
#endif
  } else if (d == DT_F8 || d == DT_F8_E4M3FN) {
    dst_u8.v[i] = uint8_t(f8_encode(to_fwide(v), d));
  } else if (is_narrow_int_code(d)) {
    dst_u8.v[i] = uint8_t(uint(to_int_bits(v, d)) & narrow_mask(d));
  } else {
    const IWIDE bits = to_int_bits(v, d);
    // Narrowing conversions truncate: int -> int wraps modulo 2^bits.
    if (d == DT_U8) dst_u8.v[i] = uint8_t(uint(bits));
    else if (d == DT_S8) dst_s8.v[i] = int8_t(int(bits));
    else if (d == DT_U16) dst_u16.v[i] = uint16_t(uint(bits));
    else if (d == DT_S16) dst_s16.v[i] = int16_t(int(bits));
    else if (d == DT_U32) dst_u32.v[i] = uint(bits);
    else if (d == DT_S32) dst_s32.v[i] = int(bits);
#ifdef VKT_I64
    else dst_u64.v[i] = uint64_t(bits);  // u64 and s64 share the bits
#endif
  }
}
