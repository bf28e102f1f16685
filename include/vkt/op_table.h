// The op table: one row per op, the one place an op's facts are stated. The core (dtype
// rules), both backends (kernels, combining rules), vkt::compile (what fuses), the shaders
// (op codes generated at build time) and the tests (tolerances) read it through vkt/op.h and
// vkt/backend/op_info.h. What a backend runs natively is that backend's own table
// (src/vulkan/ops/op_support.h), not a column here.
//
// A row is R(X, name, family, kind, dtypes, combine, fuse, grad, accuracy):
//   family   OpFamily: which core file validates it and which backend kernel family runs it.
//   kind     OpKind: how an elementwise op types its result (none outside unary/binary):
//            unary   float_function (integers computed in f32, out float), keeps_type,
//                    predicate (out u8), imaginary_part (zeros of the input type);
//            binary  arithmetic (out = promoted), to_float (computed in the float type of the
//                    promoted dtype), comparison and logical (out u8).
//   dtypes   OpDTypes: the dtypes the op's operands may have (the core's TypeError
//            otherwise; families check the rest of their own rules): any (complex
//            included; a complex input gives a complex result), real (every dtype but
//            complex), integer, or to_real (any; a complex input gives the real type of its
//            parts: abs, real, imag, phase).
//   combine  Combine: how a reduction, window, cumulative or window-scatter op combines
//            elements (sum, product, max, min, all, any, argmax, argmin); none elsewhere.
//   fuse     Fusion: what vkt::compile may fuse: elementwise (into an elementwise group),
//            reduction (roots a group whose prologue is elementwise), dot (roots a group with
//            an elementwise epilogue), none.
//   grad     Grad: diff (differentiable in its float operands), zero (piecewise constant: a
//            zero gradient wherever one exists: ceil, floor, round, sign), none (no gradient:
//            integer or u8 results, creation, a user's combining function).
//   accuracy Accuracy: how a backend's result may differ from the cpu reference's: bits (the
//            same words: data moved, not computed), exact (the same value), ulps (within the
//            elementwise tolerance of the dtype), sum_order / product_order (another order of
//            additions / multiplications), substitution (a triangular solve in another
//            order), factorization (checked by reconstruction, not element by element),
//            spectrum (within eps log2(n) of the transform's norm).
// An elementwise op's shader op code is its position in its family's list (op_info.h), and
// the build writes OP_<NAME> and COMBINE_<NAME> constants for the shaders from it
// (src/vulkan/tools/gen_op_codes.cpp).
#pragma once

// The rows are kept aligned by hand, one op a line.
// clang-format off
#define VKT_UNARY_TABLE(R, X)                                                                                   \
  R(X, exp,                 unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, expm1,               unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, log,                 unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, log1p,               unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, sigmoid,             unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, cos,                 unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, sin,                 unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, tan,                 unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, cosh,                unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, sinh,                unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, tanh,                unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, acos,                unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, asin,                unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, atan,                unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, acosh,               unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, asinh,               unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, atanh,               unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, sqrt,                unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, rsqrt,               unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, cbrt,                unary,          float_function, any,     none,    elementwise, diff, ulps)          \
  R(X, erf,                 unary,          float_function, real,    none,    elementwise, diff, ulps)          \
  R(X, erfc,                unary,          float_function, real,    none,    elementwise, diff, ulps)          \
  R(X, erf_inv,             unary,          float_function, real,    none,    elementwise, diff, ulps)          \
  R(X, abs,                 unary,          keeps_type,     to_real, none,    elementwise, diff, exact)         \
  R(X, bitwise_not,         unary,          keeps_type,     integer, none,    elementwise, none, exact)         \
  R(X, ceil,                unary,          keeps_type,     real,    none,    elementwise, zero, exact)         \
  R(X, floor,               unary,          keeps_type,     real,    none,    elementwise, zero, exact)         \
  R(X, round,               unary,          keeps_type,     real,    none,    elementwise, zero, exact)         \
  R(X, negate,              unary,          keeps_type,     any,     none,    elementwise, diff, exact)         \
  R(X, sign,                unary,          keeps_type,     any,     none,    elementwise, zero, exact)         \
  R(X, count_leading_zeros, unary,          keeps_type,     integer, none,    elementwise, none, exact)         \
  R(X, population_count,    unary,          keeps_type,     integer, none,    elementwise, none, exact)         \
  R(X, is_nan,              unary,          predicate,      any,     none,    elementwise, none, exact)         \
  R(X, is_infinity,         unary,          predicate,      any,     none,    elementwise, none, exact)         \
  R(X, conjugate,           unary,          keeps_type,     any,     none,    elementwise, diff, exact)         \
  R(X, real,                unary,          keeps_type,     to_real, none,    elementwise, diff, exact)         \
  R(X, imag,                unary,          imaginary_part, to_real, none,    elementwise, diff, exact)         \
  R(X, phase,               unary,          float_function, to_real, none,    elementwise, diff, ulps)          \
  R(X, logical_not,         unary,          predicate,      any,     none,    elementwise, none, exact)

#define VKT_BINARY_TABLE(R, X)                                                                                  \
  R(X, add,                 binary,         arithmetic,     any,     none,    elementwise, diff, ulps)          \
  R(X, subtract,            binary,         arithmetic,     any,     none,    elementwise, diff, ulps)          \
  R(X, multiply,            binary,         arithmetic,     any,     none,    elementwise, diff, ulps)          \
  R(X, divide,              binary,         to_float,       any,     none,    elementwise, diff, ulps)          \
  R(X, pow,                 binary,         arithmetic,     any,     none,    elementwise, diff, ulps)          \
  R(X, remainder,           binary,         arithmetic,     real,    none,    elementwise, diff, exact)         \
  R(X, atan2,               binary,         to_float,       real,    none,    elementwise, diff, ulps)          \
  R(X, min,                 binary,         arithmetic,     real,    none,    elementwise, diff, exact)         \
  R(X, max,                 binary,         arithmetic,     real,    none,    elementwise, diff, exact)         \
  R(X, quotient,            binary,         arithmetic,     integer, none,    elementwise, none, exact)         \
  R(X, bitwise_and,         binary,         arithmetic,     integer, none,    elementwise, none, exact)         \
  R(X, bitwise_or,          binary,         arithmetic,     integer, none,    elementwise, none, exact)         \
  R(X, bitwise_xor,         binary,         arithmetic,     integer, none,    elementwise, none, exact)         \
  R(X, left_shift,          binary,         arithmetic,     integer, none,    elementwise, none, exact)         \
  R(X, right_shift,         binary,         arithmetic,     integer, none,    elementwise, none, exact)         \
  R(X, equal,               binary,         comparison,     any,     none,    elementwise, none, exact)         \
  R(X, not_equal,           binary,         comparison,     any,     none,    elementwise, none, exact)         \
  R(X, less,                binary,         comparison,     real,    none,    elementwise, none, exact)         \
  R(X, less_equal,          binary,         comparison,     real,    none,    elementwise, none, exact)         \
  R(X, greater,             binary,         comparison,     real,    none,    elementwise, none, exact)         \
  R(X, greater_equal,       binary,         comparison,     real,    none,    elementwise, none, exact)         \
  R(X, logical_and,         binary,         logical,        any,     none,    elementwise, none, exact)         \
  R(X, logical_or,          binary,         logical,        any,     none,    elementwise, none, exact)         \
  R(X, logical_xor,         binary,         logical,        any,     none,    elementwise, none, exact)

#define VKT_REDUCE_TABLE(R, X)                                                                                  \
  R(X, all,                 reduce,         none,           any,     all,     reduction,   none, exact)         \
  R(X, any,                 reduce,         none,           any,     any,     reduction,   none, exact)         \
  R(X, sum,                 reduce,         none,           any,     sum,     reduction,   diff, sum_order)     \
  R(X, product,             reduce,         none,           any,     product, reduction,   diff, product_order) \
  R(X, reduce_max,          reduce,         none,           real,    max,     reduction,   diff, exact)         \
  R(X, reduce_min,          reduce,         none,           real,    min,     reduction,   diff, exact)

#define VKT_ARGREDUCE_TABLE(R, X)                                                                               \
  R(X, argmax,              argreduce,      none,           real,    argmax,  none,        none, exact)         \
  R(X, argmin,              argreduce,      none,           real,    argmin,  none,        none, exact)

#define VKT_WINDOW_TABLE(R, X)                                                                                  \
  R(X, window_sum,          window,         none,           any,     sum,     none,        diff, sum_order)     \
  R(X, window_product,      window,         none,           any,     product, none,        diff, product_order) \
  R(X, window_max,          window,         none,           real,    max,     none,        diff, exact)         \
  R(X, window_min,          window,         none,           real,    min,     none,        diff, exact)

#define VKT_CUMULATIVE_TABLE(R, X)                                                                              \
  R(X, cumulative_sum,      cumulative,     none,           any,     sum,     none,        diff, sum_order)     \
  R(X, cumulative_product,  cumulative,     none,           any,     product, none,        diff, product_order) \
  R(X, cumulative_min,      cumulative,     none,           real,    min,     none,        diff, exact)         \
  R(X, cumulative_max,      cumulative,     none,           real,    max,     none,        diff, exact)

// Ops with a family of their own.
#define VKT_OTHER_TABLE(R, X)                                                                                   \
  R(X, full,                creation,       none,           any,     none,    none,        none, exact)         \
  R(X, iota,                creation,       none,           any,     none,    none,        none, exact)         \
  R(X, eye,                 creation,       none,           any,     none,    none,        none, exact)         \
  R(X, as_type,             conversion,     none,           any,     none,    elementwise, diff, exact)         \
  R(X, bitcast,             conversion,     none,           any,     none,    none,        none, bits)          \
  R(X, broadcast,           movement,       none,           any,     none,    none,        diff, bits)          \
  R(X, transpose,           movement,       none,           any,     none,    none,        diff, bits)          \
  R(X, pad,                 movement,       none,           any,     none,    none,        diff, bits)          \
  R(X, reverse,             movement,       none,           any,     none,    none,        diff, bits)          \
  R(X, slice,               movement,       none,           any,     none,    none,        diff, bits)          \
  R(X, put_slice,           movement,       none,           any,     none,    none,        diff, bits)          \
  R(X, gather,              indexing,       none,           any,     none,    none,        diff, bits)          \
  R(X, take,                indexing,       none,           any,     none,    none,        diff, bits)          \
  R(X, take_along_axis,     indexing,       none,           any,     none,    none,        diff, bits)          \
  R(X, concatenate,         movement,       none,           any,     none,    none,        diff, bits)          \
  R(X, select,              indexing,       none,           any,     none,    elementwise, diff, bits)          \
  R(X, clip,                indexing,       none,           real,    none,    elementwise, diff, bits)          \
  R(X, indexed_add,         indexing,       none,           any,     none,    none,        diff, sum_order)     \
  R(X, indexed_put,         indexing,       none,           any,     none,    none,        diff, bits)          \
  R(X, sort,                sort,           none,           real,    none,    none,        diff, bits)          \
  R(X, argsort,             sort,           none,           real,    none,    none,        none, exact)         \
  R(X, top_k,               sort,           none,           real,    none,    none,        diff, bits)          \
  R(X, dot,                 linalg,         none,           any,     none,    dot,         diff, sum_order)     \
  R(X, copy,                conversion,     none,           any,     none,    none,        diff, bits)          \
  R(X, conv,                conv,           none,           any,     none,    none,        diff, sum_order)     \
  R(X, window_scatter_max,  window_scatter, none,           real,    max,     none,        diff, sum_order)     \
  R(X, window_scatter_min,  window_scatter, none,           real,    min,     none,        diff, sum_order)     \
  R(X, reduce,              callable,       none,           any,     none,    none,        none, sum_order)     \
  R(X, window_reduce,       callable,       none,           any,     none,    none,        none, sum_order)     \
  R(X, triangular_solve,    linalg,         none,           any,     none,    none,        diff, substitution)  \
  R(X, cholesky,            linalg,         none,           any,     none,    none,        diff, factorization) \
  R(X, qr,                  linalg,         none,           any,     none,    none,        diff, factorization) \
  R(X, lu,                  linalg,         none,           any,     none,    none,        diff, factorization) \
  R(X, eigh,                linalg,         none,           any,     none,    none,        diff, factorization) \
  R(X, svd,                 linalg,         none,           any,     none,    none,        diff, factorization) \
  R(X, solve,               linalg,         none,           any,     none,    none,        diff, factorization) \
  R(X, determinant,         linalg,         none,           any,     none,    none,        diff, factorization) \
  R(X, fft,                 fft,            none,           any,     none,    none,        diff, spectrum)      \
  R(X, ifft,                fft,            none,           any,     none,    none,        diff, spectrum)      \
  R(X, rfft,                fft,            none,           real,    none,    none,        diff, spectrum)      \
  R(X, irfft,               fft,            none,           any,     none,    none,        diff, spectrum)

#define VKT_OP_TABLE(R, X)                                                                                      \
  VKT_UNARY_TABLE(R, X)     \
  VKT_BINARY_TABLE(R, X)    \
  VKT_REDUCE_TABLE(R, X)    \
  VKT_ARGREDUCE_TABLE(R, X) \
  VKT_WINDOW_TABLE(R, X) VKT_CUMULATIVE_TABLE(R, X) VKT_OTHER_TABLE(R, X)

// Name-only views, for code that stamps out one thing per op: X(name).
#define VKT_OP_TABLE_NAME(X, name, ...) X(name)
#define VKT_UNARY_OPS(X) VKT_UNARY_TABLE(VKT_OP_TABLE_NAME, X)
#define VKT_BINARY_OPS(X) VKT_BINARY_TABLE(VKT_OP_TABLE_NAME, X)
#define VKT_REDUCE_OPS(X) VKT_REDUCE_TABLE(VKT_OP_TABLE_NAME, X)
#define VKT_ARGREDUCE_OPS(X) VKT_ARGREDUCE_TABLE(VKT_OP_TABLE_NAME, X)
#define VKT_WINDOW_OPS(X) VKT_WINDOW_TABLE(VKT_OP_TABLE_NAME, X)
#define VKT_CUMULATIVE_OPS(X) VKT_CUMULATIVE_TABLE(VKT_OP_TABLE_NAME, X)
#define VKT_OTHER_OPS(X) VKT_OTHER_TABLE(VKT_OP_TABLE_NAME, X)
#define VKT_ALL_OPS(X) VKT_OP_TABLE(VKT_OP_TABLE_NAME, X)
// clang-format on
