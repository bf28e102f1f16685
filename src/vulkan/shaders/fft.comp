#version 450
// The lines of an fft moved into or out of VkFFT's buffer (src/vulkan/ops/fft.cpp), word by word,
// over count = outer x n_out x inner elements, src lines having n_in points:
//   k < stored:  dst[o][k][i] = k < take ? src[o][k][i] : 0
//   k >= stored: dst[o][k][i] = conj(dst[o][n_out - k][i])  (irfft's Hermitian half)
// Elements are IN_WORDS and OUT_WORDS 32-bit words (f32 1, f64 and c64 2, c128 4): a real
// source element fills the real part and the imaginary part is zero; a real destination
// takes the real part. Bits move unchanged (conj flips the imaginary sign bit). irfft
// (stored < n_out) reads only the real parts of the zero and (even n_out) middle points, as
// NumPy: their imaginary parts are written as +0.
#include "common.glsl"

layout(constant_id = 1) const uint IN_WORDS = 2;
layout(constant_id = 2) const uint OUT_WORDS = 2;

layout(binding = 0) readonly buffer Src { uint v[]; } src;
layout(binding = 1) writeonly buffer Dst { uint v[]; } dst;
layout(push_constant) uniform Push { uint count, n_in, n_out, inner, take, stored; } p;

void main() {
  const uint stride = grid_stride();
  for (uint e = global_index(); e < p.count; e += stride) {
    const uint i = e % p.inner;
    const uint line = e / p.inner;
    const uint k = line % p.n_out;
    const uint o = line / p.n_out;
    const bool mirrored = k >= p.stored;
    const uint j = mirrored ? p.n_out - k : k;
    const uint d = e * OUT_WORDS;
    const bool real_point = p.stored < p.n_out && (j == 0u || 2u * j == p.n_out);
    if (j < p.take) {
      const uint s = ((o * p.n_in + j) * p.inner + i) * IN_WORDS;
      for (uint w = 0u; w < OUT_WORDS; ++w) {
        uint word = w < IN_WORDS ? src.v[s + w] : 0u;
        // The imaginary part's sign: its only word (c64) or its high word (c128).
        if (mirrored && w == OUT_WORDS - 1u) word ^= 0x80000000u;
        if (real_point && w >= OUT_WORDS / 2u) word = 0u;
        dst.v[d + w] = word;
      }
    } else {
      for (uint w = 0u; w < OUT_WORDS; ++w) dst.v[d + w] = 0u;
    }
  }
}
