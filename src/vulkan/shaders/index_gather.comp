#version 450
// gather / take / take_along_axis (MODE 0 / 1 / 2): each output element reads one clamped
// s64 index (or k of them for gather) as uint pairs and copies one word. MODE 3: gather of
// single elements by one index each (gather_points below).
#include "common.glsl"
#include "movement_word.glsl"

layout(constant_id = 1) const uint MODE = 0;

// Axes the rest element walks (a constant: the walk unrolls; the outermost needs no division).
layout(constant_id = 2) const uint REST_RANK = 0;

layout(binding = 0) readonly buffer Src { WORD v[]; } src;
layout(binding = 1) readonly buffer Indices { uint v[]; } indices;  // s64 as (lo, hi) pairs
layout(binding = 2) writeonly buffer Dst { WORD v[]; } dst;

// Four consecutive output words packed into one store (MODE 3, widths up to 4 bytes).
#if WIDTH == 1
#define QUAD uint
#elif WIDTH == 2
#define QUAD uvec2
#else
#define QUAD uvec4
#endif
layout(binding = 1) readonly buffer Indices4 { uvec4 v[]; } indices4;  // two s64 per uvec4
layout(binding = 2) writeonly buffer Dst4 { QUAD v[]; } dst4;

// gather: out element o = (row o / rest, rest element o % rest); the row's k indices pick
// t's `axes` (dims ax_dim, strides ax_stride); the rest element walks t's other axes.
// take: out {outer, count, inner} reads t {outer, dim, inner} at index[o's count position].
// take_along_axis: out {outer, count, inner} reads t at index[o] along the axis.
layout(push_constant) uniform Push {
  uint n, rest, k, count;  // take / take_along_axis: n, inner, dim, count
  uint rest_dim[MAX_RANK];
  uint rest_stride[MAX_RANK];
  uint ax_dim[MAX_RANK];
  uint ax_stride[MAX_RANK];
  // Divisors as (magic, shift) pairs (fast_div): a = rest (gather) or inner (take,
  // take_along_axis); b = count. shifts: a's in bits 0..5, b's in bits 6..11.
  uint magic_a, magic_b, shifts;
} p;

uint index_at(uint j, uint dim) { return clamp_index(indices.v[2u * j], indices.v[2u * j + 1u], dim); }

// The source word index of output element o.
uint locate(uint o) {
  uint s;
  if (MODE == 0u) {
    const uint row = fast_div(o, p.magic_a, shift_at(p.shifts, 0));
    uint rem = o - row * p.rest;
    s = 0u;
    for (uint j = 0u; j < p.k; ++j) s += index_at(row * p.k + j, p.ax_dim[j]) * p.ax_stride[j];
    for (int a = int(REST_RANK) - 1; a > 0; --a) {
      const uint q = rem / p.rest_dim[a];
      s += (rem - q * p.rest_dim[a]) * p.rest_stride[a];
      rem = q;
    }
    if (REST_RANK > 0u) s += rem * p.rest_stride[0];
  } else {
    const uint inner = p.rest, dim = p.k, count = p.count;
    const uint row = fast_div(o, p.magic_a, shift_at(p.shifts, 0)), i = o - row * inner;
    const uint outer = fast_div(row, p.magic_b, shift_at(p.shifts, 1));
    const uint j = MODE == 1u ? row - outer * count : o;
    s = (outer * dim + index_at(j, dim)) * inner + i;
  }
  return s;
}

// Four output words, read by the indices in a (outputs 4q, 4q + 1) and b (4q + 2, 4q + 3).
struct Quad {
  REG w0, w1, w2, w3;
};

Quad load_quad(uvec4 a, uvec4 b) {
  const uint dim = p.ax_dim[0], step = p.ax_stride[0];
  return Quad(TO_REG(src.v[clamp_index(a.x, a.y, dim) * step]),
              TO_REG(src.v[clamp_index(a.z, a.w, dim) * step]),
              TO_REG(src.v[clamp_index(b.x, b.y, dim) * step]),
              TO_REG(src.v[clamp_index(b.z, b.w, dim) * step]));
}

// Output quad q, in one store where the four words fit 16 bytes.
void store_quad(uint q, Quad v) {
#if WIDTH == 1
  dst4.v[q] = v.w0 | (v.w1 << 8) | (v.w2 << 16) | (v.w3 << 24);
#elif WIDTH == 2
  dst4.v[q] = uvec2(v.w0 | (v.w1 << 16), v.w2 | (v.w3 << 16));
#elif WIDTH == 4
  dst4.v[q] = uvec4(v.w0, v.w1, v.w2, v.w3);
#else
  dst.v[4u * q] = v.w0;
  dst.v[4u * q + 1u] = v.w1;
  dst.v[4u * q + 2u] = v.w2;
  dst.v[4u * q + 3u] = v.w3;
#endif
}

// MODE 3 (gather with rest 1 and k 1; index.cpp): outputs
// in quads, each quad's four s64 indices read as two 16-byte loads; two quads per step, all
// their loads before their stores; then the last n % 4 outputs one by one.
void gather_points() {
  const uint stride = grid_stride(), quads = p.n / 4u;
  uint q = global_index();
  for (; q + stride < quads; q += 2u * stride) {
    const uint r = q + stride;
    const uvec4 a0 = indices4.v[2u * q], b0 = indices4.v[2u * q + 1u];
    const uvec4 a1 = indices4.v[2u * r], b1 = indices4.v[2u * r + 1u];
    const Quad v0 = load_quad(a0, b0), v1 = load_quad(a1, b1);
    store_quad(q, v0);
    store_quad(r, v1);
  }
  for (; q < quads; q += stride) {
    store_quad(q, load_quad(indices4.v[2u * q], indices4.v[2u * q + 1u]));
  }
  for (uint o = 4u * quads + global_index(); o < p.n; o += stride) {
    dst.v[o] = src.v[index_at(o, p.ax_dim[0]) * p.ax_stride[0]];
  }
}

void main() {
  if (MODE == 3u) {
    gather_points();
    return;
  }
  const uint stride = grid_stride(), end = unrolled_end(p.n, stride);
  uint o = global_index();
  for (; o < end; o += 4u * stride) {
    const uint s0 = locate(o), s1 = locate(o + stride);
    const uint s2 = locate(o + 2u * stride), s3 = locate(o + 3u * stride);
    const REG w0 = TO_REG(src.v[s0]), w1 = TO_REG(src.v[s1]);
    const REG w2 = TO_REG(src.v[s2]), w3 = TO_REG(src.v[s3]);
    dst.v[o] = TO_WORD(w0);
    dst.v[o + stride] = TO_WORD(w1);
    dst.v[o + 2u * stride] = TO_WORD(w2);
    dst.v[o + 3u * stride] = TO_WORD(w3);
  }
  for (; o < p.n; o += stride) dst.v[o] = src.v[locate(o)];
}
