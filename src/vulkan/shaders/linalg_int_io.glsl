// Integer dtypes for linalg_dot.comp, with the cpu kernel's semantics: operands widened
// (sign- or zero-extended) to an unsigned accumulator of 32 bits (64 bits for u64/s64, the
// VKT_I64 module), products and sums wrapping, the result truncated to the dtype on store.
// Wrapping sums are exact in any order, so results match the cpu bit for bit.
#ifdef VKT_I64
#define ACC uint64_t
#define SWIDE int64_t
#else
#define ACC uint
#define SWIDE int
#endif

layout(binding = 0) readonly buffer AU8 { uint8_t v[]; } a_u8;
layout(binding = 0) readonly buffer AS8 { int8_t v[]; } a_s8;
layout(binding = 0) readonly buffer AU16 { uint16_t v[]; } a_u16;
layout(binding = 0) readonly buffer AS16 { int16_t v[]; } a_s16;
layout(binding = 0) readonly buffer AACC { ACC v[]; } a_acc;
layout(binding = 1) readonly buffer BU8 { uint8_t v[]; } b_u8;
layout(binding = 1) readonly buffer BS8 { int8_t v[]; } b_s8;
layout(binding = 1) readonly buffer BU16 { uint16_t v[]; } b_u16;
layout(binding = 1) readonly buffer BS16 { int16_t v[]; } b_s16;
layout(binding = 1) readonly buffer BACC { ACC v[]; } b_acc;
layout(binding = 2) writeonly buffer CU8 { uint8_t v[]; } c_u8;
layout(binding = 2) writeonly buffer CU16 { uint16_t v[]; } c_u16;
layout(binding = 2) writeonly buffer CACC { ACC v[]; } c_acc;

// 8/16-bit dtypes only here; 32-bit dtypes (64-bit in the VKT_I64 module) are ACC's width,
// where signed and unsigned share the bits.
ACC load_a(uint i) {
  if (DTYPE == DT_U8) return ACC(uint(a_u8.v[i]));
  if (DTYPE == DT_S8) return ACC(SWIDE(int(a_s8.v[i])));
  if (DTYPE == DT_U16) return ACC(uint(a_u16.v[i]));
  if (DTYPE == DT_S16) return ACC(SWIDE(int(a_s16.v[i])));
  return a_acc.v[i];
}

ACC load_b(uint i) {
  if (DTYPE == DT_U8) return ACC(uint(b_u8.v[i]));
  if (DTYPE == DT_S8) return ACC(SWIDE(int(b_s8.v[i])));
  if (DTYPE == DT_U16) return ACC(uint(b_u16.v[i]));
  if (DTYPE == DT_S16) return ACC(SWIDE(int(b_s16.v[i])));
  return b_acc.v[i];
}

void store_c(uint i, ACC x) {
  if (DTYPE == DT_U8 || DTYPE == DT_S8) {
    c_u8.v[i] = uint8_t(uint(x));
  } else if (DTYPE == DT_U16 || DTYPE == DT_S16) {
    c_u16.v[i] = uint16_t(uint(x));
  } else {
    c_acc.v[i] = x;
  }
}

// Scratch of partial sums (MODE 1 writes it as C, MODE 2 reads it as A).
void store_partial(uint i, ACC x) { c_acc.v[i] = x; }
ACC load_partial(uint i) { return a_acc.v[i]; }
