#version 450
// conv's split K, second pass: each output element adds its `splits` partial sums (the
// implicit GEMM's scratch [splits][elements] in the accumulator type: f32, f64 for f64) in
// split order, one invocation per element, so the result never depends on scheduling, and
// stores the sum once in the output dtype (f16/bf16 rounded once, as the unsplit kernel).
#include "common.glsl"

layout(constant_id = 1) const uint DTYPE = DT_F32;

#include "linalg_float_io.glsl"

layout(push_constant) uniform Push {
  uint elements, splits;
} p;

void main() {
  const uint i = global_index();
  if (i >= p.elements) return;
  ACC sum = ACC(0);
  for (uint s = 0; s < p.splits; ++s) sum += load_partial(s * p.elements + i);
  store_c(i, sum);
}
