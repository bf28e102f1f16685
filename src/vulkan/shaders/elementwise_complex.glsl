// Complex elementwise ops on (re, im) pairs, written once for c64 and c128: the includer
// defines CT (vec2 / dvec2), RT (float / double), CF(name) (the name with its suffix), and
// the real helpers RDIV (a correctly scaled division), R_NONZERO / R_EQUAL (on the bits), then
// includes this file. Semantics are std::complex's (the cpu kernels): multiply and divide
// as C99 Annex G (GCC's __mulsc3 / __divsc3: the textbook formulas, Smith's division, and
// the recovery of infinities where both parts came out NaN); products are `precise` so no
// driver fuses them into an fma the cpu does not do.

bool CF(c_is_nan)(CT z) { return isnan(z.x) || isnan(z.y); }
bool CF(c_is_inf)(CT z) { return isinf(z.x) || isinf(z.y); }
bool CF(c_nonzero)(CT z) { return R_NONZERO(z.x) || R_NONZERO(z.y); }
RT CF(c_copysign)(RT m, RT s) { return (s < RT(0) || (s == RT(0) && RT(1) / s < RT(0))) ? -abs(m) : abs(m); }

CT CF(c_mul)(CT a, CT b) {
  precise RT ac = a.x * b.x, bd = a.y * b.y, ad = a.x * b.y, bc = a.y * b.x;
  precise RT x = ac - bd, y = ad + bc;
  if (isnan(x) && isnan(y)) {
    RT ar = a.x, ai = a.y, br = b.x, bi = b.y;
    bool recalc = false;
    if (isinf(ar) || isinf(ai)) {
      ar = CF(c_copysign)(isinf(ar) ? RT(1) : RT(0), ar);
      ai = CF(c_copysign)(isinf(ai) ? RT(1) : RT(0), ai);
      if (isnan(br)) br = CF(c_copysign)(RT(0), br);
      if (isnan(bi)) bi = CF(c_copysign)(RT(0), bi);
      recalc = true;
    }
    if (isinf(br) || isinf(bi)) {
      br = CF(c_copysign)(isinf(br) ? RT(1) : RT(0), br);
      bi = CF(c_copysign)(isinf(bi) ? RT(1) : RT(0), bi);
      if (isnan(ar)) ar = CF(c_copysign)(RT(0), ar);
      if (isnan(ai)) ai = CF(c_copysign)(RT(0), ai);
      recalc = true;
    }
    if (!recalc && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
      if (isnan(ar)) ar = CF(c_copysign)(RT(0), ar);
      if (isnan(ai)) ai = CF(c_copysign)(RT(0), ai);
      if (isnan(br)) br = CF(c_copysign)(RT(0), br);
      if (isnan(bi)) bi = CF(c_copysign)(RT(0), bi);
      recalc = true;
    }
    if (recalc) {
      const RT inf = RT(1) / RT(0);
      precise RT rx = ar * br - ai * bi, ry = ar * bi + ai * br;
      x = inf * rx;
      y = inf * ry;
    }
  }
  return CT(x, y);
}

// Smith's algorithm (as libgcc's __divsc3), then Annex G's recovery of infinite / zero
// results that the formulas turned into NaN.
CT CF(c_div)(CT a, CT b) {
  const RT c = b.x, d = b.y;
  precise RT x, y, denom;
  if (abs(c) < abs(d)) {
    const RT ratio = RDIV(c, d);
    denom = c * ratio + d;
    x = RDIV(a.x * ratio + a.y, denom);
    y = RDIV(a.y * ratio - a.x, denom);
  } else {
    const RT ratio = RDIV(d, c);
    denom = d * ratio + c;
    x = RDIV(a.y * ratio + a.x, denom);
    y = RDIV(a.y - a.x * ratio, denom);
  }
  if (isnan(x) && isnan(y)) {
    const RT inf = RT(1) / RT(0);
    if (denom == RT(0) && (!isnan(a.x) || !isnan(a.y))) {
      x = CF(c_copysign)(inf, c) * a.x;
      y = CF(c_copysign)(inf, c) * a.y;
    } else if ((isinf(a.x) || isinf(a.y)) && !isinf(c) && !isnan(c) && !isinf(d) && !isnan(d)) {
      const RT ar = CF(c_copysign)(isinf(a.x) ? RT(1) : RT(0), a.x);
      const RT ai = CF(c_copysign)(isinf(a.y) ? RT(1) : RT(0), a.y);
      x = inf * (ar * c + ai * d);
      y = inf * (ai * c - ar * d);
    } else if ((isinf(c) || isinf(d)) && !isinf(a.x) && !isnan(a.x) && !isinf(a.y) &&
               !isnan(a.y)) {
      const RT cr = CF(c_copysign)(isinf(c) ? RT(1) : RT(0), c);
      const RT ci = CF(c_copysign)(isinf(d) ? RT(1) : RT(0), d);
      x = RT(0) * (a.x * cr + a.y * ci);
      y = RT(0) * (a.y * cr - a.x * ci);
    }
  }
  return CT(x, y);
}

// |z| as hypot: the larger part times sqrt(1 + (smaller / larger)^2), so nothing overflows
// or underflows on the way; an infinite part gives inf even beside a NaN.
RT CF(c_abs)(CT z) {
  const RT a = abs(z.x), b = abs(z.y);
  if (isinf(a) || isinf(b)) return RT(1) / RT(0);
  if (isnan(a) || isnan(b)) return a + b;
  const RT hi = max(a, b), lo = min(a, b);
  if (hi == RT(0)) return RT(0);
  const RT r = RDIV(lo, hi);
  return hi * sqrt(RT(1) + r * r);
}

CT CF(c_binary)(uint op, CT a, CT b) {
  switch (op) {
    case OP_ADD: return a + b;
    case OP_SUBTRACT: return a - b;
    case OP_MULTIPLY: return CF(c_mul)(a, b);
    default: return CF(c_div)(a, b);  // divide
  }
}

// equal / not_equal compare both parts (NaN unequal); logical ops read nonzero as either
// part nonzero.
bool CF(c_binary_predicate)(uint op, CT a, CT b) {
  switch (op) {
    case OP_EQUAL: return R_EQUAL(a.x, b.x) && R_EQUAL(a.y, b.y);
    case OP_NOT_EQUAL: return !(R_EQUAL(a.x, b.x) && R_EQUAL(a.y, b.y));
    case OP_LOGICAL_AND: return CF(c_nonzero)(a) && CF(c_nonzero)(b);
    case OP_LOGICAL_OR: return CF(c_nonzero)(a) || CF(c_nonzero)(b);
    default: return CF(c_nonzero)(a) != CF(c_nonzero)(b);  // logical_xor
  }
}

// The u8-writing unary ops.
bool CF(c_predicate)(uint op, CT z) {
  switch (op) {
    case OP_IS_NAN: return CF(c_is_nan)(z);
    case OP_IS_INFINITY: return CF(c_is_inf)(z);
    default: return !CF(c_nonzero)(z);  // logical_not
  }
}
