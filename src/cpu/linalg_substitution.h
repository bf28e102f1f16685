// triangular_solve by plain substitution, one matrix, element by element: the cpu's answer
// where OpenBLAS's trsm meets an infinity or NaN. Its kernels multiply whole tiles, zeros
// of the unread triangle included, so one non-finite x spreads NaN (0 * inf) to elements
// that do not depend on it; here only real dependencies meet, as in the device's
// substitution and Nx's, so NaN and infinities propagate by arithmetic alone.
#pragma once

#include <cstdint>

namespace vkt::cpu_kernels {

// op(a) x = b (left) or x op(a) = b, a [n, n] row-major reading one triangle, b and x
// [rows, cols] row-major; op is a transpose when `transpose` (real dtypes).
template <class T>
void substitute(bool left, bool lower, bool transpose, std::int64_t n, std::int64_t rows,
                std::int64_t cols, const T* a, const T* b, T* x) {
  // e(i, j) is op(a)[i, j]; it is lower triangular when the stored triangle and the
  // transpose disagree.
  auto e = [&](std::int64_t i, std::int64_t j) { return transpose ? a[j * n + i] : a[i * n + j]; };
  const bool e_lower = lower != transpose;
  if (left) {  // x[:, c] = op(a)^-1 b[:, c]: forward when e is lower, else backward
    for (std::int64_t c = 0; c < cols; ++c) {
      for (std::int64_t s = 0; s < n; ++s) {
        const std::int64_t i = e_lower ? s : n - 1 - s;
        T acc = b[i * cols + c];
        const std::int64_t j0 = e_lower ? 0 : i + 1, j1 = e_lower ? i : n;
        for (std::int64_t j = j0; j < j1; ++j) acc -= e(i, j) * x[j * cols + c];
        x[i * cols + c] = acc / e(i, i);
      }
    }
    return;
  }
  // x[r, :] op(a) = b[r, :]: x[r, i] meets e(j, i) for j below i when e is lower
  // (backward), above it when e is upper (forward).
  for (std::int64_t r = 0; r < rows; ++r) {
    const T* br = b + r * cols;
    T* xr = x + r * cols;
    for (std::int64_t s = 0; s < n; ++s) {
      const std::int64_t i = e_lower ? n - 1 - s : s;
      T acc = br[i];
      const std::int64_t j0 = e_lower ? i + 1 : 0, j1 = e_lower ? n : i;
      for (std::int64_t j = j0; j < j1; ++j) acc -= xr[j] * e(j, i);
      xr[i] = acc / e(i, i);
    }
  }
}

}  // namespace vkt::cpu_kernels
