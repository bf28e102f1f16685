// Solvers (Nx.LinAlg): triangular_solve and solve. A vector right-hand side is solved as a
// one-column (left side) or one-row (right side) matrix, so backends see matrices only.
#include "core/checks.h"
#include "core/dispatch.h"
#include "core/linalg_parts.h"
#include "vkt/ops.h"

namespace vkt {
namespace {

// b as a batch of matrices: [..., n] becomes [..., n, 1], or [..., 1, n] when `as_row`.
// ShapeError unless b's batch dims are a's and its solved dim is n (Nx's shape rule).
Tensor rhs_matrix(std::string_view op, const Tensor& a, const Tensor& b, bool as_row) {
  detail::check_defined(op, b);
  const Shape batch = detail::leading_dims(a, 2);
  const std::int64_t n = a.shape().back();
  auto incompatible = [&] {
    detail::fail<ShapeError>(
        op, "incompatible shapes a " + shape_str(a.shape()) + " and b " + shape_str(b.shape()) +
                ": b must be [..., " + std::to_string(n) +
                "] or a batch of matrices with a's batch "
                "dims " +
                shape_str(batch) + " and " + std::to_string(n) + (as_row ? " columns" : " rows"));
  };
  if (b.rank() == a.rank() - 1) {
    if (detail::leading_dims(b, 1) != batch || b.shape().back() != n) incompatible();
    Shape shape = batch;
    shape.insert(shape.end(), as_row ? std::initializer_list<std::int64_t>{1, n}
                                     : std::initializer_list<std::int64_t>{n, 1});
    return reshape(b, shape);
  }
  if (b.rank() != a.rank() || detail::leading_dims(b, 2) != batch) incompatible();
  const std::int64_t solved = as_row ? b.shape().back() : b.shape()[b.shape().size() - 2];
  if (solved != n) incompatible();
  return b;
}

struct Operands {
  Tensor a, b;  // in the compute dtype; b as a batch of matrices
  DType result;
};

Operands prepare(std::string_view op, const Tensor& a, const Tensor& b, bool as_row) {
  detail::check_matrices(op, a, true);
  detail::check_defined(op, b);
  detail::check_backends(op, std::vector<Tensor>{a, b});
  const Tensor b_matrix = rhs_matrix(op, a, b, as_row);
  const DType result = detail::linalg_result_dtype(promote(a.dtype(), b.dtype()));
  const DType compute = detail::linalg_compute_dtype(result);
  return {as_type(a, compute), as_type(b_matrix, compute), result};
}

}  // namespace

Tensor triangular_solve(const Tensor& a, const Tensor& b, const TriangularSolveOptions& opts) {
  const Operands ops = prepare("triangular_solve", a, b, !opts.left_side);
  const TriangularSolveParams params{opts.left_side, opts.lower, opts.transform_a};
  const Tensor x = detail::dispatch(
      {Op::triangular_solve, {ops.a, ops.b}, params, ops.b.dtype(), ops.b.shape()});
  return as_type(reshape(x, b.shape()), ops.result);
}

Tensor solve(const Tensor& a, const Tensor& b) {
  const Operands ops = prepare("solve", a, b, false);
  const Tensor x =
      detail::dispatch({Op::solve, {ops.a, ops.b}, NoParams{}, ops.b.dtype(), ops.b.shape()});
  return as_type(reshape(x, b.shape()), ops.result);
}

}  // namespace vkt
