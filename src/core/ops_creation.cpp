// Creation and conversion ops: shape/dtype rules, then dispatch.
#include <string>

#include "core/checks.h"
#include "core/dispatch.h"
#include "vkt/ops.h"

namespace vkt {
namespace {

void check_creation_shape(const char* op, const Shape& shape) {
  for (std::int64_t d : shape) {
    if (d < 0)
      detail::fail<ShapeError>(op, "shape " + shape_str(shape) + " has a negative dimension");
  }
}

}  // namespace

Tensor full(const Shape& shape, Scalar value, DType dtype, Backend* backend) {
  check_creation_shape("full", shape);
  return detail::dispatch({Op::full, {}, FullParams{value}, dtype, shape, backend});
}

Tensor iota(const Shape& shape, DType dtype, std::optional<std::int64_t> axis, Backend* backend) {
  check_creation_shape("iota", shape);
  std::int64_t a = -1;
  if (axis) a = normalize_axis("iota", *axis, static_cast<std::int64_t>(shape.size()));
  return detail::dispatch({Op::iota, {}, IotaParams{a}, dtype, shape, backend});
}

Tensor eye(const Shape& shape, DType dtype, Backend* backend) {
  check_creation_shape("eye", shape);
  if (shape.size() < 2) {
    detail::fail<ShapeError>("eye", "needs a shape of rank >= 2, got " + shape_str(shape));
  }
  return detail::dispatch({Op::eye, {}, NoParams{}, dtype, shape, backend});
}

Tensor eye(std::int64_t n, DType dtype, Backend* backend) {
  return eye(Shape{n, n}, dtype, backend);
}

Tensor scalar_tensor(Scalar value, std::optional<DType> dtype, Backend* backend) {
  return full({}, value, dtype.value_or(value.default_type()), backend);
}

Tensor as_type(const Tensor& t, DType dtype) {
  detail::check_defined("as_type", t);
  if (t.dtype() == dtype) return t;
  return detail::dispatch({Op::as_type, {t}, NoParams{}, dtype, t.shape()});
}

Tensor bitcast(const Tensor& t, DType dtype) {
  detail::check_defined("bitcast", t);
  // Nx's rule: the same size in bits (s4 and u4 share their codes; s4 and u8 do not).
  if (bit_width(t.dtype()) != bit_width(dtype)) {
    detail::fail<TypeError>("bitcast", "cannot reinterpret " + std::string(dtype_name(t.dtype())) +
                                           " (" + std::to_string(bit_width(t.dtype())) +
                                           " bits) as " + std::string(dtype_name(dtype)) + " (" +
                                           std::to_string(bit_width(dtype)) + " bits)");
  }
  // Same bytes, another dtype: an alias, no kernel (a narrow integer's code holds its bits
  // alone, so s4 <-> u4 is an alias too).
  return Tensor(dtype, t.shape(), t.storage());
}

void synchronize() {
  cpu().synchronize();
  try {
    vulkan().synchronize();
  } catch (const NoDevice&) {
    // No Vulkan device: nothing pending anywhere but the cpu.
  }
}

}  // namespace vkt
