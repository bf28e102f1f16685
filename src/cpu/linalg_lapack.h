// Shared by the LAPACK-backed ops (linalg_lapack_factor.cpp, linalg_lapack_solve.cpp):
// row-major <-> column-major copies, LAPACK's int dims and its error reports.
#pragma once

#include <climits>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "cpu/kernels.h"
#include "cpu/lapack.h"
#include "vkt/error.h"

namespace vkt::cpu_kernels {

Tensor run_lapack_factor(const OpCall& call);  // cholesky qr lu eigh svd determinant
Tensor run_lapack_solve(const OpCall& call);   // triangular_solve solve

// A dim as LAPACK's int; Unsupported past its range (the matrix would not fit anyway).
inline lapack_int lapack_dim(const OpCall& call, std::int64_t d) {
  if (d > INT_MAX) {
    throw Unsupported("[" + std::string(op_name(call.op)) + "] dimension " + std::to_string(d) +
                      " exceeds LAPACK's 32-bit sizes");
  }
  return static_cast<lapack_int>(d);
}

// LAPACK's leading dimension may not be 0, even for an empty matrix.
inline lapack_int leading(lapack_int rows) {
  return rows > 0 ? rows : 1;
}

// dst (column-major, leading dim `rows`) = src (row-major rows x cols).
template <class T>
void to_col_major(const T* src, std::int64_t rows, std::int64_t cols, T* dst) {
  for (std::int64_t i = 0; i < rows; ++i) {
    for (std::int64_t j = 0; j < cols; ++j) dst[i + j * rows] = src[i * cols + j];
  }
}

// dst (row-major rows x cols) = src (column-major, leading dim `ld`).
template <class T>
void from_col_major(const T* src, std::int64_t ld, std::int64_t rows, std::int64_t cols, T* dst) {
  for (std::int64_t i = 0; i < rows; ++i) {
    for (std::int64_t j = 0; j < cols; ++j) dst[i * cols + j] = src[i + j * ld];
  }
}

// The type of T's parts: T itself for f32/f64, R for std::complex<R>.
template <class T>
struct RealOf {
  using type = T;
};
template <class R>
struct RealOf<std::complex<R>> {
  using type = R;
};
template <class T>
using real_of_t = typename RealOf<T>::type;

// The size of work array LAPACK asked for in a workspace query (lwork = -1); complex
// routines report it in the real part.
template <class T>
lapack_int work_size(T queried) {
  lapack_int n = 0;
  if constexpr (is_complex_v<T>) {
    n = static_cast<lapack_int>(queried.real());
  } else {
    n = static_cast<lapack_int>(queried);
  }
  return n > 1 ? n : 1;
}

// "[op] matrix 3 of the batch ...": which matrix failed, for LinAlgError messages.
inline std::string matrix_label(const OpCall& call, std::int64_t index, std::int64_t count) {
  std::string s = "[" + std::string(op_name(call.op)) + "] matrix";
  if (count > 1) s += " " + std::to_string(index) + " of the batch of " + std::to_string(count);
  return s;
}

// A new output for `call`, filled by run(T* out) in LAPACK's precision (f32, f64, c64 or
// c128; the core converts other dtypes first). TypeError for any other out dtype.
template <class Run>
Tensor run_in_lapack_dtype(const OpCall& call, Run&& run) {
  Tensor out = make_output(call);
  switch (call.out_dtype) {
    case DType::f32:
      run(mutable_data<float>(out));
      break;
    case DType::f64:
      run(mutable_data<double>(out));
      break;
    case DType::c64:
      run(mutable_data<std::complex<float>>(out));
      break;
    case DType::c128:
      run(mutable_data<std::complex<double>>(out));
      break;
    default:
      throw TypeError("[" + std::string(op_name(call.op)) +
                      "] runs on f32, f64, c64 or c128, got " +
                      std::string(dtype_name(call.out_dtype)));
  }
  return out;
}

}  // namespace vkt::cpu_kernels
