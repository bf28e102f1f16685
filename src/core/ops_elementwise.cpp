// Elementwise unary and binary ops: dtype rules (Nx promotion, weak literals), broadcasting,
// validation, then dispatch. Kernels receive inputs already converted to the dtype the
// operation is computed in (see docs/semantics-elementwise.md).
#include <string>

#include "core/checks.h"
#include "core/dispatch.h"
#include "vkt/ops.h"

namespace vkt {
namespace {

std::string dtype_str(DType d) {
  return std::string(dtype_name(d));
}

}  // namespace

Tensor unary(Op op, const Tensor& t) {
  const std::string name(op_name(op));
  if (op_family(op) != OpFamily::unary) {
    detail::fail<Unsupported>(name, "is not an elementwise unary op");
  }
  detail::check_defined(name, t);
  DType out_dtype = t.dtype();
  Tensor input = t;
  if (!op_accepts(op, t.dtype())) {
    detail::fail<TypeError>(name, std::string(op_info(op).dtypes == OpDTypes::integer
                                                  ? "expects an integer tensor"
                                                  : "is not defined for complex numbers") +
                                      ", got " + detail::describe(t));
  }
  switch (op_kind(op)) {
    case OpKind::float_function:
      // Integers are computed in f32; the kernel only ever sees float or complex inputs.
      out_dtype = to_float_type(t.dtype());
      input = as_type(t, out_dtype);
      break;
    case OpKind::predicate:
      out_dtype = DType::u8;
      break;
    default:  // keeps_type, imaginary_part
      break;
  }
  // abs, real, imag, phase of a complex tensor: the real type of its parts.
  if (op_info(op).dtypes == OpDTypes::to_real && is_complex(t.dtype())) {
    out_dtype = to_real_type(t.dtype());
  }
  return detail::dispatch({op, {input}, NoParams{}, out_dtype, t.shape()});
}

Tensor binary(Op op, const Tensor& a, const Tensor& b) {
  const std::string name(op_name(op));
  if (op_family(op) != OpFamily::binary) {
    detail::fail<Unsupported>(name, "is not an elementwise binary op");
  }
  detail::check_defined(name, a);
  detail::check_defined(name, b);
  // Before any conversion: a converted input that fell back to the cpu would hide its device.
  detail::check_backends(name, {a, b});
  Shape out_shape = broadcast_shapes(name.c_str(), a.shape(), b.shape());
  const DType promoted = promote(a.dtype(), b.dtype());
  DType compute = promoted;
  DType out_dtype = promoted;
  if (!op_accepts(op, promoted)) {
    detail::fail<TypeError>(name, std::string(op_info(op).dtypes == OpDTypes::integer
                                                  ? "expects integer operands"
                                                  : "is not defined for complex numbers") +
                                      ", got " + dtype_str(a.dtype()) + " and " +
                                      dtype_str(b.dtype()) + " (promoted to " +
                                      dtype_str(promoted) + ")");
  }
  switch (op_kind(op)) {
    case OpKind::to_float:
      compute = out_dtype = to_float_type(promoted);
      break;
    case OpKind::comparison:
    case OpKind::logical:
      out_dtype = DType::u8;
      break;
    default:  // arithmetic
      break;
  }
  return detail::dispatch({op,
                           {as_type(a, compute), as_type(b, compute)},
                           NoParams{},
                           out_dtype,
                           std::move(out_shape)});
}

namespace {
// A weak literal takes the tensor's type (a float literal with an integer tensor: f32).
Tensor literal_for(Scalar s, const Tensor& other, const std::string& op) {
  detail::check_defined(op, other);
  return scalar_tensor(s, s.weak_type_with(other.dtype()), &cpu());
}
}  // namespace

#define VKT_DEFINE_UNARY(name)   \
  Tensor name(const Tensor& t) { \
    return unary(Op::name, t);   \
  }
VKT_UNARY_OPS(VKT_DEFINE_UNARY)
#undef VKT_DEFINE_UNARY

#define VKT_DEFINE_BINARY(name)                           \
  Tensor name(const Tensor& a, const Tensor& b) {         \
    return binary(Op::name, a, b);                        \
  }                                                       \
  Tensor name(const Tensor& a, Scalar b) {                \
    return binary(Op::name, a, literal_for(b, a, #name)); \
  }                                                       \
  Tensor name(Scalar a, const Tensor& b) {                \
    return binary(Op::name, literal_for(a, b, #name), b); \
  }
VKT_BINARY_OPS(VKT_DEFINE_BINARY)
#undef VKT_DEFINE_BINARY

}  // namespace vkt
