// The dot kernels' push constants (DotPush in linalg_gemm.h): sizes, each operand's (batch,
// row, column) strides, K's split and C's (batch, row) strides.
layout(push_constant) uniform Push {
  uint m, n, k, batch;
  uint sab, sam, sak;
  uint sbb, sbk, sbn;
  uint splits, k_chunk;
  uint scb, scm;
#ifdef VKT_DOT_EPILOGUE
  uint zero;  // 0, hiding the epilogue's literals from constant folding (compiled.cpp)
#endif
} p;
