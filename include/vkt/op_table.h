// The op table: one row per op, the one place an op's classification is stated. The core
// (dtype rules), both backends (kernels, supports()), the shaders (op codes generated at
// build time) and the tests read it through vkt/op.h and vkt/backend/op_info.h.
//
// A row is R(X, name, family, kind, dtypes, vulkan):
//   family  OpFamily: which core file validates it and which backend kernel family runs it.
//   kind    OpKind: how an elementwise op types its result (none outside unary/binary):
//           unary   float_function (integers computed in f32, out float), keeps_type,
//                   predicate (out u8), imaginary_part (zeros of the input type);
//           binary  arithmetic (out = promoted), to_float (computed in the float type of the
//                   promoted dtype), comparison and logical (out u8).
//   dtypes  OpDTypes: the dtypes the op's operands may have (the core's TypeError
//           otherwise; families check the rest of their own rules): any (complex
//           included; a complex input gives a complex result), real (every dtype but
//           complex), integer, or to_real (any; a complex input gives the real type of its
//           parts: abs, real, imag, phase).
//   vulkan  VulkanRule: native (every real dtype the device has, f64 included; complex runs
//           on the cpu), native_complex (native, and c64 / c128 too), no_f64 (f64 runs
//           on the cpu: GLSL.std.450 has no f64 transcendentals and none is written out), or
//           own_rule (the family's supports() decides from shapes and dtypes).
// An elementwise op's shader op code is its position in its family's list (op_info.h), and
// the build writes OP_<NAME> constants for the shaders from it (src/vulkan/gen_op_codes.cpp).
#pragma once

// The rows are kept aligned by hand, one op a line.
// clang-format off
#define VKT_UNARY_TABLE(R, X)                                   \
  R(X, exp, unary, float_function, any, native_complex)                 \
  R(X, expm1, unary, float_function, any, native)               \
  R(X, log, unary, float_function, any, native_complex)                 \
  R(X, log1p, unary, float_function, any, native)               \
  R(X, sigmoid, unary, float_function, any, native)             \
  R(X, cos, unary, float_function, any, native)                 \
  R(X, sin, unary, float_function, any, native)                 \
  R(X, tan, unary, float_function, any, native)                 \
  R(X, cosh, unary, float_function, any, native)                \
  R(X, sinh, unary, float_function, any, native)                \
  R(X, tanh, unary, float_function, any, native)                \
  R(X, acos, unary, float_function, any, native)                \
  R(X, asin, unary, float_function, any, native)                \
  R(X, atan, unary, float_function, any, native)                \
  R(X, acosh, unary, float_function, any, native)               \
  R(X, asinh, unary, float_function, any, native)               \
  R(X, atanh, unary, float_function, any, native)               \
  R(X, sqrt, unary, float_function, any, native_complex)                \
  R(X, rsqrt, unary, float_function, any, native)               \
  R(X, cbrt, unary, float_function, any, native)                \
  R(X, erf, unary, float_function, real, no_f64)                 \
  R(X, erfc, unary, float_function, real, no_f64)                \
  R(X, erf_inv, unary, float_function, real, no_f64)             \
  R(X, abs, unary, keeps_type, to_real, native_complex)                     \
  R(X, bitwise_not, unary, keeps_type, integer, native)         \
  R(X, ceil, unary, keeps_type, real, native)                    \
  R(X, floor, unary, keeps_type, real, native)                   \
  R(X, round, unary, keeps_type, real, native)                   \
  R(X, negate, unary, keeps_type, any, native_complex)                  \
  R(X, sign, unary, keeps_type, any, native)                    \
  R(X, count_leading_zeros, unary, keeps_type, integer, native) \
  R(X, population_count, unary, keeps_type, integer, native)    \
  R(X, is_nan, unary, predicate, any, native_complex)                   \
  R(X, is_infinity, unary, predicate, any, native_complex)              \
  R(X, conjugate, unary, keeps_type, any, native_complex)               \
  R(X, real, unary, keeps_type, to_real, native_complex)                    \
  R(X, imag, unary, imaginary_part, to_real, native_complex)                \
  R(X, phase, unary, float_function, to_real, native_complex)               \
  R(X, logical_not, unary, predicate, any, native_complex)

#define VKT_BINARY_TABLE(R, X)                           \
  R(X, add, binary, arithmetic, any, native_complex)             \
  R(X, subtract, binary, arithmetic, any, native_complex)        \
  R(X, multiply, binary, arithmetic, any, native_complex)        \
  R(X, divide, binary, to_float, any, native_complex)            \
  R(X, pow, binary, arithmetic, any, no_f64)             \
  R(X, remainder, binary, arithmetic, real, native)       \
  R(X, atan2, binary, to_float, real, native)             \
  R(X, min, binary, arithmetic, real, native)             \
  R(X, max, binary, arithmetic, real, native)             \
  R(X, quotient, binary, arithmetic, integer, native)    \
  R(X, bitwise_and, binary, arithmetic, integer, native) \
  R(X, bitwise_or, binary, arithmetic, integer, native)  \
  R(X, bitwise_xor, binary, arithmetic, integer, native) \
  R(X, left_shift, binary, arithmetic, integer, native)  \
  R(X, right_shift, binary, arithmetic, integer, native) \
  R(X, equal, binary, comparison, any, native_complex)           \
  R(X, not_equal, binary, comparison, any, native_complex)       \
  R(X, less, binary, comparison, real, native)            \
  R(X, less_equal, binary, comparison, real, native)      \
  R(X, greater, binary, comparison, real, native)         \
  R(X, greater_equal, binary, comparison, real, native)   \
  R(X, logical_and, binary, logical, any, native_complex)        \
  R(X, logical_or, binary, logical, any, native_complex)         \
  R(X, logical_xor, binary, logical, any, native_complex)

#define VKT_REDUCE_TABLE(R, X)                       \
  R(X, all, reduce, none, any, own_rule)        \
  R(X, any, reduce, none, any, own_rule)        \
  R(X, sum, reduce, none, any, own_rule)        \
  R(X, product, reduce, none, any, own_rule)    \
  R(X, reduce_max, reduce, none, real, own_rule) \
  R(X, reduce_min, reduce, none, real, own_rule)

#define VKT_ARGREDUCE_TABLE(R, X)                   \
  R(X, argmax, argreduce, none, real, own_rule) \
  R(X, argmin, argreduce, none, real, own_rule)

#define VKT_WINDOW_TABLE(R, X)                           \
  R(X, window_sum, window, none, any, own_rule)     \
  R(X, window_product, window, none, any, own_rule) \
  R(X, window_max, window, none, real, own_rule)     \
  R(X, window_min, window, none, real, own_rule)

#define VKT_CUMULATIVE_TABLE(R, X)                               \
  R(X, cumulative_sum, cumulative, none, any, own_rule)     \
  R(X, cumulative_product, cumulative, none, any, own_rule) \
  R(X, cumulative_min, cumulative, none, real, own_rule)     \
  R(X, cumulative_max, cumulative, none, real, own_rule)

// Ops with a family of their own.
#define VKT_OTHER_TABLE(R, X)                                        \
  R(X, full, creation, none, any, own_rule)                     \
  R(X, iota, creation, none, any, own_rule)                     \
  R(X, eye, creation, none, any, own_rule)                      \
  R(X, as_type, conversion, none, any, own_rule)                \
  R(X, bitcast, conversion, none, any, own_rule)                \
  R(X, broadcast, movement, none, any, own_rule)                \
  R(X, transpose, movement, none, any, own_rule)                \
  R(X, pad, movement, none, any, own_rule)                      \
  R(X, reverse, movement, none, any, own_rule)                  \
  R(X, slice, movement, none, any, own_rule)                    \
  R(X, put_slice, movement, none, any, own_rule)                \
  R(X, gather, indexing, none, any, own_rule)                   \
  R(X, take, indexing, none, any, own_rule)                     \
  R(X, take_along_axis, indexing, none, any, own_rule)          \
  R(X, concatenate, movement, none, any, own_rule)              \
  R(X, select, indexing, none, any, own_rule)                   \
  R(X, clip, indexing, none, real, own_rule)                     \
  R(X, indexed_add, indexing, none, any, own_rule)              \
  R(X, indexed_put, indexing, none, any, own_rule)              \
  R(X, sort, sort, none, real, own_rule)                         \
  R(X, argsort, sort, none, real, own_rule)                      \
  R(X, top_k, sort, none, real, own_rule)                        \
  R(X, dot, linalg, none, any, own_rule)                        \
  R(X, copy, conversion, none, any, own_rule)                   \
  R(X, conv, conv, none, any, own_rule)                         \
  R(X, window_scatter_max, window_scatter, none, real, own_rule) \
  R(X, window_scatter_min, window_scatter, none, real, own_rule) \
  R(X, reduce, callable, none, real, own_rule)                   \
  R(X, window_reduce, callable, none, real, own_rule)            \
  R(X, triangular_solve, linalg, none, any, own_rule)           \
  R(X, cholesky, linalg, none, any, own_rule)                   \
  R(X, qr, linalg, none, any, own_rule)                         \
  R(X, lu, linalg, none, any, own_rule)                         \
  R(X, eigh, linalg, none, any, own_rule)                       \
  R(X, svd, linalg, none, any, own_rule)                        \
  R(X, solve, linalg, none, any, own_rule)                      \
  R(X, determinant, linalg, none, any, own_rule)               \
  R(X, fft, fft, none, any, own_rule)                           \
  R(X, ifft, fft, none, any, own_rule)                          \
  R(X, rfft, fft, none, real, own_rule)                         \
  R(X, irfft, fft, none, any, own_rule)

#define VKT_OP_TABLE(R, X)  \
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
