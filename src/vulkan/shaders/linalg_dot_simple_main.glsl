// vkt::compile's quick first tier for dot groups (compiled_dot.cpp): one invocation per
// element of C, no shared memory, no unrolling, so the driver creates its pipeline in a
// fraction of a tiled kernel's time. Same problem and push constants as linalg_dot_main.glsl.
// Invariant: C's values are the tiled and register-blocked kernels' (and split K's adding
// pass's). Each K chunk is summed from zero with k ascending, `acc += a * b` as they write
// it; the chunks' sums are added from zero in chunk order only where K is split.
#include "common.glsl"

layout(constant_id = 1) const uint DTYPE = DT_F32;

#include "linalg_float_io.glsl"

// The group's epilogue (compiled_dot.cpp): C's value c for element `at` of the output.
void dot_epilogue(uint at, ACC c);

#include "linalg_dot_push.glsl"

void main() {
  const uint i = global_index();
  const uint mn = p.m * p.n;
  if (i >= p.batch * mn) return;
  const uint bi = i / mn, r = i % mn, m = r / p.n, n = r % p.n;
  const uint a_row = bi * p.sab + m * p.sam, b_column = bi * p.sbb + n * p.sbn;
  ACC sum = ACC(0);
  for (uint s = 0; s < p.splits; ++s) {
    const uint k_end = min(p.k, (s + 1) * p.k_chunk);
    ACC acc = ACC(0);
    for (uint k = s * p.k_chunk; k < k_end; ++k) {
      acc += load_a(a_row + k * p.sak) * load_b(b_column + k * p.sbk);
    }
    sum = p.splits == 1 ? acc : sum + acc;
  }
  dot_epilogue(bi * p.scb + m * p.scm + n, sum);
}
