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

// 64-bit unsigned helpers on (lo, hi) = (.x, .y) word pairs.
uvec2 shl64(uvec2 v, uint s) {
  if (s == 0u) return v;
  if (s >= 64u) return uvec2(0u);
  if (s >= 32u) return uvec2(0u, v.x << (s - 32u));
  return uvec2(v.x << s, (v.y << s) | (v.x >> (32u - s)));
}
uvec2 shr64(uvec2 v, uint s) {
  if (s == 0u) return v;
  if (s >= 64u) return uvec2(0u);
  if (s >= 32u) return uvec2(v.y >> (s - 32u), 0u);
  return uvec2((v.x >> s) | (v.y << (32u - s)), v.y >> s);
}
// v >> s, with the bits shifted out ORed into bit 0 (sticky).
uvec2 shr64_sticky(uvec2 v, uint s) {
  const uvec2 r = shr64(v, s);
  const uvec2 back = s >= 64u ? uvec2(0u) : shl64(r, s);
  return uvec2(r.x | (back != v ? 1u : 0u), r.y);
}
uvec2 add64(uvec2 a, uvec2 b) {
  uint carry;
  const uint lo = uaddCarry(a.x, b.x, carry);
  return uvec2(lo, a.y + b.y + carry);
}
uvec2 sub64(uvec2 a, uvec2 b) {
  uint borrow;
  const uint lo = usubBorrow(a.x, b.x, borrow);
  return uvec2(lo, a.y - b.y - borrow);
}

// binary64 addition on (lo, hi) bits: soft_f32_add's method with a 56-bit significand, so
// f64 adds need no shaderFloat64 and ignore the device's denormal and rounding modes.
uvec2 soft_f64_add(uvec2 a, uvec2 b) {
  const uint ah = a.y & 0x7fffffffu, bh = b.y & 0x7fffffffu;
  const bool a_nan = ah > 0x7ff00000u || (ah == 0x7ff00000u && a.x != 0u);
  const bool b_nan = bh > 0x7ff00000u || (bh == 0x7ff00000u && b.x != 0u);
  if (a_nan) return uvec2(a.x, a.y | 0x80000u);
  if (b_nan) return uvec2(b.x, b.y | 0x80000u);
  const bool a_inf = ah == 0x7ff00000u, b_inf = bh == 0x7ff00000u;  // low words are 0 here
  if (a_inf || b_inf) {
    if (a_inf && b_inf && a.y != b.y) return uvec2(0u, 0xfff80000u);
    return a_inf ? a : b;
  }
  const bool a_zero = ah == 0u && a.x == 0u, b_zero = bh == 0u && b.x == 0u;
  if (b_zero) return a_zero ? uvec2(0u, a.y & b.y) : a;
  if (a_zero) return b;
  const bool a_larger = ah > bh || (ah == bh && a.x >= b.x);
  const uvec2 x = a_larger ? a : b, y = a_larger ? b : a;
  const uint sign = x.y & 0x80000000u;
  uint ex = (x.y >> 20) & 0x7ffu, ey = (y.y >> 20) & 0x7ffu;
  uvec2 mx = shl64(uvec2(x.x, (x.y & 0xfffffu) | (ex != 0u ? 0x100000u : 0u)), 3u);
  uvec2 my = shl64(uvec2(y.x, (y.y & 0xfffffu) | (ey != 0u ? 0x100000u : 0u)), 3u);
  ex = max(ex, 1u);
  ey = max(ey, 1u);
  my = shr64_sticky(my, ex - ey);
  uint e = ex;
  uvec2 m;
  if (((x.y ^ y.y) & 0x80000000u) == 0u) {
    m = add64(mx, my);
    if (m.y >= 0x1000000u) {  // 2^56: one bit of carry
      m = shr64_sticky(m, 1u);
      ++e;
    }
  } else {
    m = sub64(mx, my);
    if (m.x == 0u && m.y == 0u) return uvec2(0u);
    // Normalise so bit 55 is set, or as far as the exponent allows (subnormal).
    const uint top = m.y != 0u ? 32u + uint(findMSB(m.y)) : uint(findMSB(m.x));
    const uint s = min(55u - top, e - 1u);
    m = shl64(m, s);
    e -= s;
  }
  const uint low = m.x & 7u;
  m = shr64(m, 3u);
  if (low > 4u || (low == 4u && (m.x & 1u) != 0u)) {
    m = add64(m, uvec2(1u, 0u));
    if (m.y == 0x200000u) {  // 2^53
      m = shr64(m, 1u);
      ++e;
    }
  }
  if (e >= 2047u) return uvec2(0u, sign | 0x7ff00000u);
  return uvec2(m.x, sign | ((m.y >= 0x100000u ? e : 0u) << 20) | (m.y & 0xfffffu));
}
