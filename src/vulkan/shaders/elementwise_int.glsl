// Integer elementwise ops on compute type T (int, uint, int64_t or uint64_t), instantiated by
// defining T, U (its unsigned twin), SIGNED_T (1 or 0) and SUF (a name suffix) before each
// include. 8- and 16-bit dtypes compute in 32 bits (sign- or zero-extended): every op below
// then agrees with the narrow type's wrapping result once the store truncates. `bits` is the
// dtype's width (shift counts and bit counts are relative to it).
#define EW_CAT_(a, b) a##_##b
#define EW_CAT(a, b) EW_CAT_(a, b)

// Pow by squaring, wrapping; a negative exponent gives 0 except for bases 1 and -1.
T EW_CAT(int_pow, SUF)(T base, T e) {
#if SIGNED_T
  if (e < T(0)) {
    if (base == T(1)) return T(1);
    if (base == T(-1)) return (e & T(1)) != T(0) ? T(-1) : T(1);
    return T(0);
  }
#endif
  U r = U(1), b = U(base), k = U(e);
  while (k != U(0)) {
    if ((k & U(1)) != U(0)) r *= b;
    b *= b;
    k >>= 1;
  }
  return T(r);
}

// Magnitudes in U: GLSL leaves / and % of negative operands undefined, and -MIN wraps to
// MIN whose unsigned value is the right magnitude.
U EW_CAT(magnitude, SUF)(T a) {
#if SIGNED_T
  return a < T(0) ? U(-a) : U(a);
#else
  return U(a);
#endif
}

// Truncating division; by zero gives 0, MIN / -1 wraps to MIN.
T EW_CAT(int_quotient, SUF)(T a, T b) {
  if (b == T(0)) return T(0);
#if SIGNED_T
  if (b == T(-1)) return -a;
  const T q = T(EW_CAT(magnitude, SUF)(a) / EW_CAT(magnitude, SUF)(b));
  return (a < T(0)) != (b < T(0)) ? -q : q;
#else
  return a / b;
#endif
}

// Remainder with the dividend's sign; by zero (and MIN % -1) gives 0.
T EW_CAT(int_remainder, SUF)(T a, T b) {
  if (b == T(0)) return T(0);
#if SIGNED_T
  if (b == T(-1)) return T(0);
  const T r = T(EW_CAT(magnitude, SUF)(a) % EW_CAT(magnitude, SUF)(b));
  return a < T(0) ? -r : r;
#else
  return a % b;
#endif
}

// Counts outside [0, bits): left shifts and unsigned right shifts give 0; a signed right
// shift saturates to 0 or -1 by the sign.
T EW_CAT(shift_left, SUF)(T a, T count, uint bits) {
#if SIGNED_T
  if (count < T(0)) return T(0);
#endif
  if (count >= T(bits)) return T(0);
  return a << count;
}
T EW_CAT(shift_right, SUF)(T a, T count, uint bits) {
#if SIGNED_T
  if (count < T(0) || count >= T(bits)) return a < T(0) ? T(-1) : T(0);
#else
  if (count >= T(bits)) return T(0);
#endif
  return a >> count;
}

T EW_CAT(int_binary, SUF)(uint op, T a, T b, uint bits) {
  switch (op) {
    case OP_ADD: return a + b;
    case OP_SUBTRACT: return a - b;
    case OP_MULTIPLY: return a * b;
    case OP_POW: return EW_CAT(int_pow, SUF)(a, b);
    case OP_REMAINDER: return EW_CAT(int_remainder, SUF)(a, b);
    case OP_MIN: return min(a, b);
    case OP_MAX: return max(a, b);
    case OP_QUOTIENT: return EW_CAT(int_quotient, SUF)(a, b);
    case OP_BITWISE_AND: return a & b;
    case OP_BITWISE_OR: return a | b;
    case OP_BITWISE_XOR: return a ^ b;
    case OP_LEFT_SHIFT: return EW_CAT(shift_left, SUF)(a, b, bits);
    case OP_RIGHT_SHIFT: return EW_CAT(shift_right, SUF)(a, b, bits);
    default: return T(0);
  }
}

bool EW_CAT(int_predicate, SUF)(uint op, T a, T b) {
  switch (op) {
    case OP_EQUAL: return a == b;
    case OP_NOT_EQUAL: return a != b;
    case OP_LESS: return a < b;
    case OP_LESS_EQUAL: return a <= b;
    case OP_GREATER: return a > b;
    case OP_GREATER_EQUAL: return a >= b;
    case OP_LOGICAL_AND: return a != T(0) && b != T(0);
    case OP_LOGICAL_OR: return a != T(0) || b != T(0);
    default: return (a != T(0)) != (b != T(0));  // OP_LOGICAL_XOR
  }
}
