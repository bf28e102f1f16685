// A workgroup-wide exclusive prefix sum of one uint per invocation (Hillis-Steele in shared
// memory); every invocation must call it (it holds barriers).
shared uint scan_buf[gl_WorkGroupSize.x];

uint workgroup_exclusive_scan(uint value) {
  const uint lid = gl_LocalInvocationID.x;
  scan_buf[lid] = value;
  barrier();
  for (uint off = 1u; off < gl_WorkGroupSize.x; off <<= 1u) {
    const uint add = lid >= off ? scan_buf[lid - off] : 0u;
    barrier();
    scan_buf[lid] += add;
    barrier();
  }
  const uint inclusive = scan_buf[lid];
  barrier();  // scan_buf may be reused right away
  return inclusive - value;
}
