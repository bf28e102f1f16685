// binary32 addition on integer bits, rounded to nearest even with subnormals kept: the x86
// cpu's result bit for bit whatever the device's denormal mode (Vulkan lets devices flush
// f32 subnormals, and many report no DenormPreserve). NaNs follow x86: a NaN operand comes
// back quieted (the first one if both), and inf - inf gives the default NaN 0xffc00000.
uint soft_f32_add(uint a, uint b) {
  const uint abs_a = a & 0x7fffffffu, abs_b = b & 0x7fffffffu;
  if (abs_a > 0x7f800000u) return a | 0x400000u;
  if (abs_b > 0x7f800000u) return b | 0x400000u;
  if (abs_a == 0x7f800000u || abs_b == 0x7f800000u) {
    if (abs_a == abs_b && a != b) return 0xffc00000u;
    return abs_a == 0x7f800000u ? a : b;
  }
  if (abs_b == 0u) return abs_a == 0u ? (a & b) : a;  // -0 + -0 = -0, otherwise +0
  if (abs_a == 0u) return b;
  // x: the larger magnitude.
  const uint x = abs_a >= abs_b ? a : b, y = abs_a >= abs_b ? b : a;
  const uint sign = x & 0x80000000u;
  uint ex = (x >> 23) & 0xffu, ey = (y >> 23) & 0xffu;
  // Significands with the implicit bit, scaled by 8 for guard, round and sticky bits;
  // subnormals have exponent 1 and no implicit bit.
  uint mx = ((x & 0x7fffffu) | (ex != 0u ? 0x800000u : 0u)) << 3;
  uint my = ((y & 0x7fffffu) | (ey != 0u ? 0x800000u : 0u)) << 3;
  ex = max(ex, 1u);
  ey = max(ey, 1u);
  const uint d = ex - ey;
  if (d >= 27u) {
    my = my != 0u ? 1u : 0u;
  } else if (d > 0u) {
    my = (my >> d) | ((my & ((1u << d) - 1u)) != 0u ? 1u : 0u);
  }
  uint e = ex, m;
  if (((x ^ y) & 0x80000000u) == 0u) {
    m = mx + my;
    if (m >= (1u << 27)) {
      m = (m >> 1) | (m & 1u);
      ++e;
    }
  } else {
    m = mx - my;
    if (m == 0u) return 0u;  // x + (-x) = +0 when rounding to nearest
    while (m < (1u << 26) && e > 1u) {
      m <<= 1;
      --e;
    }
  }
  const uint low = m & 7u;
  m >>= 3;
  if (low > 4u || (low == 4u && (m & 1u) != 0u)) {
    ++m;
    if (m == (1u << 24)) {
      m >>= 1;
      ++e;
    }
  }
  if (e >= 255u) return sign | 0x7f800000u;
  return sign | ((m >= 0x800000u ? e : 0u) << 23) | (m & 0x7fffffu);
}
