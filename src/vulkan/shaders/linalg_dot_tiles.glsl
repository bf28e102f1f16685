// The dot kernels' walk over C's tiles, shared by linalg_dot_main.glsl, linalg_dot_reg_main.glsl
// and linalg_dot_coopmat.comp, each of which defines BM, BN, GROUP_M, MODE, the push block p
// and compute_tile(batch, k_begin, k_end, out_base, out_row, m0, n0, tid) first.
// z = batch * splits + split; tiles go in bands of GROUP_M tile rows (L2 reuse of B), and
// tiles and batches past the launched grid are looped over. Loop bounds are uniform across
// the workgroup, so the barriers inside compute_tile stay uniform.
void run_tiles(uint tid) {
  const uint tiles_m = (p.m + BM - 1) / BM;
  const uint tiles_n = (p.n + BN - 1) / BN;
  const uint mn = p.m * p.n;
  for (uint z = gl_WorkGroupID.z; z < p.batch * p.splits; z += gl_NumWorkGroups.z) {
    const uint k_begin = (z % p.splits) * p.k_chunk;
    const uint k_end = min(p.k, k_begin + p.k_chunk);
    const uint launched = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    const uint band = GROUP_M * tiles_n;
    for (uint t = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
         t < tiles_m * tiles_n; t += launched) {
      const uint first_m = (t / band) * GROUP_M;
      const uint rows = min(GROUP_M, tiles_m - first_m);
      const uint tm = first_m + (t % band) % rows, tn = (t % band) / rows;
      const uint bi = z / p.splits;
      if (MODE == 1) {  // the scratch: contiguous [batch, splits, M, N]
        compute_tile(bi, k_begin, k_end, z * mn, p.n, tm * BM, tn * BN, tid);
      } else {
        compute_tile(bi, k_begin, k_end, bi * p.scb, p.scm, tm * BM, tn * BN, tid);
      }
    }
  }
}
