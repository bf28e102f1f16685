// WORD: the element type of WIDTH bytes (-DWIDTH=1|2|4|8|16). Pure data movement copies words,
// so one variant serves every dtype of that width; 8-byte words are uvec2 (no 64-bit types),
// 16-byte words (c128) uvec4.
// REG: a local holding a WORD (8/16-bit types exist only in storage without the arithmetic
// extensions); TO_REG / TO_WORD convert, bits unchanged.
#if WIDTH == 1
#define WORD uint8_t
#define REG uint
#define TO_WORD(r) uint8_t(r)
#elif WIDTH == 2
#define WORD uint16_t
#define REG uint
#define TO_WORD(r) uint16_t(r)
#elif WIDTH == 4
#define WORD uint
#define REG uint
#define TO_WORD(r) (r)
#elif WIDTH == 8
#define WORD uvec2
#define REG uvec2
#define TO_WORD(r) (r)
#else
#define WORD uvec4
#define REG uvec4
#define TO_WORD(r) (r)
#endif
#define TO_REG(w) REG(w)

// Up to MAX_RANK axes per strided view (hosts collapse axes first; more falls back).
#define MAX_RANK 6

// An s64 index stored as two uint words (lo, hi), clamped into [0, dim): the indices are
// read without 64-bit types. dim >= 1.
uint clamp_index(uint lo, uint hi, uint dim) {
  if (int(hi) < 0) return 0u;
  if (hi != 0u || lo >= dim) return dim - 1u;
  return lo;
}

// True when the s64 index (lo, hi) is inside [0, dim).
bool index_in_range(uint lo, uint hi, uint dim) { return hi == 0u && lo < dim; }

// n / d for n < 2^31 by a host-made (magic, shift) pair (FastDivisor in movement_words.h):
// a multiply-high and a shift instead of an integer division, which GPUs emulate in ~20
// instructions and CPU drivers do one lane at a time.
uint fast_div(uint n, uint magic, uint shift) {
  uint hi, lo;
  umulExtended(n, magic, hi, lo);
  return (hi + n) >> shift;
}

// Shift k (6 bits each) of a packed word of shifts.
uint shift_at(uint shifts, int k) { return (shifts >> (6u * uint(k))) & 63u; }
