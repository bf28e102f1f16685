// WORD: the element type of WIDTH bytes (-DWIDTH=1|2|4|8). Pure data movement copies words,
// so one variant serves every dtype of that width; 8-byte words are uvec2 (no 64-bit types).
#if WIDTH == 1
#define WORD uint8_t
#elif WIDTH == 2
#define WORD uint16_t
#elif WIDTH == 4
#define WORD uint
#else
#define WORD uvec2
#endif

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
