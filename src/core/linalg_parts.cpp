#include "core/linalg_parts.h"

#include <string>

#include "core/checks.h"
#include "vkt/ops.h"

namespace vkt::detail {

DType linalg_result_dtype(DType d) {
  return to_float_type(d);
}

DType linalg_compute_dtype(DType d) {
  const DType r = to_float_type(d);
  return (r == DType::f16 || r == DType::bf16) ? DType::f32 : r;
}

void check_matrices(std::string_view op, const Tensor& t, bool square) {
  check_defined(op, t);
  if (t.rank() < 2) {
    fail<ShapeError>(op, "expects a matrix or a batch of matrices (rank >= 2), got shape " +
                             shape_str(t.shape()));
  }
  const std::int64_t m = t.shape()[t.shape().size() - 2];
  const std::int64_t n = t.shape().back();
  if (square && m != n) {
    fail<ShapeError>(op, "expects square matrices, got shape " + shape_str(t.shape()) + " (" +
                             std::to_string(m) + "x" + std::to_string(n) + ")");
  }
}

Shape leading_dims(const Tensor& t, std::size_t trailing) {
  return Shape(t.shape().begin(), t.shape().end() - static_cast<std::ptrdiff_t>(trailing));
}

std::vector<Tensor> unpack_parts(const Tensor& packed, const Shape& batch,
                                 const std::vector<Shape>& parts, DType dtype) {
  std::vector<Tensor> out;
  std::vector<std::int64_t> start(batch.size() + 1, 0);
  std::vector<std::int64_t> lengths(batch.begin(), batch.end());
  lengths.push_back(0);
  for (const Shape& part : parts) {
    lengths.back() = numel(part);
    Shape shape = batch;
    shape.insert(shape.end(), part.begin(), part.end());
    out.push_back(as_type(reshape(slice(packed, start, lengths), shape), dtype));
    start.back() += lengths.back();
  }
  return out;
}

}  // namespace vkt::detail
