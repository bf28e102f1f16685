// Checks for decompositions: tolerances scaled by the condition number, and reconstruction
// of a from its factors (Q·R, U·S·Vᵀ, V·W·Vᵀ, P·L·U, L·Lᵀ) in double precision on the host.
// Shared by the golden, unit and conformance tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "support/compare.h"
#include "vkt/vkt.h"

namespace vkt::testing {

// The unit roundoff of the precision a result was computed in (f16/bf16/integers: f32).
inline double compute_epsilon(DType result) {
  return result == DType::f64 ? 0x1p-52 : 0x1p-23;
}
// Rounding a result to its own dtype.
inline double storage_epsilon(DType result) {
  switch (result) {
    case DType::f16:
      return 0x1p-10;
    case DType::bf16:
      return 0x1p-7;
    case DType::f64:
      return 0x1p-52;
    default:
      return 0x1p-23;
  }
}

// Forward error of a solve or factor (x, L, eigenvalues...): a few rounding steps per
// dimension, amplified by the condition number, plus the rounding to the result dtype;
// relative to the largest expected magnitude (at least 1).
inline Tolerance conditioned_tolerance(DType result, std::int64_t n, double cond, double scale) {
  const double nn = static_cast<double>(std::max<std::int64_t>(n, 1));
  const double rel = 32 * nn * compute_epsilon(result) * cond + 4 * storage_epsilon(result);
  return {0, rel * std::max(scale, 1.0)};
}

inline double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

// Row-major matrices, one per batch entry, read as doubles.
struct Matrices {
  std::int64_t count = 0, rows = 0, cols = 0;
  std::vector<double> data;
  double at(std::int64_t b, std::int64_t i, std::int64_t j) const {
    return data[static_cast<std::size_t>((b * rows + i) * cols + j)];
  }
};

inline Matrices matrices(const Tensor& t) {
  Matrices m;
  m.rows = t.shape()[t.shape().size() - 2];
  m.cols = t.shape().back();
  m.data = as_doubles(t);
  const std::int64_t per = m.rows * m.cols;
  m.count = per == 0 ? 0 : t.size() / per;
  return m;
}

// The symmetric matrix a's lower triangle defines (what cholesky and eigh read).
inline Matrices symmetric_from_lower(const Tensor& a) {
  Matrices m = matrices(a);
  for (std::int64_t b = 0; b < m.count; ++b) {
    for (std::int64_t i = 0; i < m.rows; ++i) {
      for (std::int64_t j = i + 1; j < m.cols; ++j) {
        m.data[static_cast<std::size_t>((b * m.rows + i) * m.cols + j)] = m.at(b, j, i);
      }
    }
  }
  return m;
}

// The product x · diag(d) · y for each batch entry (d empty: no diagonal), with x's
// columns and y's rows cut to `inner` (the reduced forms of complete factors).
inline Matrices product(const Matrices& x, const std::vector<double>& d, const Matrices& y,
                        std::int64_t inner, bool transpose_y = false) {
  Matrices out;
  out.count = x.count;
  out.rows = x.rows;
  out.cols = transpose_y ? y.rows : y.cols;
  const std::int64_t dn = inner;
  out.data.assign(static_cast<std::size_t>(out.count * out.rows * out.cols), 0.0);
  for (std::int64_t b = 0; b < out.count; ++b) {
    for (std::int64_t i = 0; i < out.rows; ++i) {
      for (std::int64_t j = 0; j < out.cols; ++j) {
        double s = 0;
        for (std::int64_t k = 0; k < inner; ++k) {
          const double w = d.empty() ? 1.0 : d[static_cast<std::size_t>(b * dn + k)];
          s += x.at(b, i, k) * w * (transpose_y ? y.at(b, j, k) : y.at(b, k, j));
        }
        out.data[static_cast<std::size_t>((b * out.rows + i) * out.cols + j)] = s;
      }
    }
  }
  return out;
}

// Backward error: factors multiplied back give a within a few roundings per dimension of
// the compute precision (plus the rounding of the factors to the result dtype), relative to
// |a|'s largest element. Backward-stable factorisations need no condition number here.
inline ::testing::AssertionResult reconstructs(const Matrices& got, const Matrices& a,
                                               DType result) {
  if (got.data.size() != a.data.size()) {
    return ::testing::AssertionFailure()
           << "reconstruction has " << got.data.size() << " elements, a has " << a.data.size();
  }
  const double n = static_cast<double>(std::max<std::int64_t>({a.rows, a.cols, 1}));
  const double tol =
      32 * n * (compute_epsilon(result) + storage_epsilon(result)) * std::max(max_abs(a.data), 1.0);
  for (std::size_t i = 0; i < got.data.size(); ++i) {
    if (!(std::fabs(got.data[i] - a.data[i]) <= tol)) {
      return ::testing::AssertionFailure()
             << "element " << i << ": " << got.data[i] << " reconstructed, a has " << a.data[i]
             << " (tol " << tol << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

// xᵀx = I for the first `columns` columns of each x (orthonormal columns).
inline ::testing::AssertionResult orthonormal_columns(const Matrices& x, std::int64_t columns,
                                                      DType result) {
  Matrices xt;  // xᵀ
  xt.count = x.count;
  xt.rows = x.cols;
  xt.cols = x.rows;
  xt.data.resize(x.data.size());
  for (std::int64_t b = 0; b < x.count; ++b) {
    for (std::int64_t i = 0; i < x.rows; ++i) {
      for (std::int64_t j = 0; j < x.cols; ++j) {
        xt.data[static_cast<std::size_t>((b * x.cols + j) * x.rows + i)] = x.at(b, i, j);
      }
    }
  }
  const Matrices g = product(xt, {}, x, x.rows);
  Matrices eye = g;
  for (std::int64_t b = 0; b < g.count; ++b) {
    for (std::int64_t i = 0; i < g.rows; ++i) {
      for (std::int64_t j = 0; j < g.cols; ++j) {
        eye.data[static_cast<std::size_t>((b * g.rows + i) * g.cols + j)] = i == j ? 1.0 : 0.0;
        if (i >= columns || j >= columns) {  // beyond the checked block: compare with itself
          eye.data[static_cast<std::size_t>((b * g.rows + i) * g.cols + j)] = g.at(b, i, j);
        }
      }
    }
  }
  return reconstructs(g, eye, result);
}

}  // namespace vkt::testing
