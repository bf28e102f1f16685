// Binary ops whose operands may be Python numbers: a number stays a weak literal (vktensor's
// promotion), as `x + 1` is in C++.
#include "binary_ops.h"

#include <array>

namespace vkt::python {
namespace {

using TensorScalar = Tensor (*)(const Tensor&, Scalar);
using ScalarTensor = Tensor (*)(Scalar, const Tensor&);

struct BinaryEntry {
  Op op;
  TensorScalar right_literal;
  ScalarTensor left_literal;
};

#define VKT_BINARY_ENTRY(name)                                 \
  BinaryEntry{Op::name, static_cast<TensorScalar>(&vkt::name), \
              static_cast<ScalarTensor>(&vkt::name)},
const BinaryEntry kBinary[] = {VKT_BINARY_OPS(VKT_BINARY_ENTRY)};
#undef VKT_BINARY_ENTRY

const BinaryEntry& entry(Op op) {
  for (const BinaryEntry& e : kBinary) {
    if (e.op == op) return e;
  }
  throw Error("[" + std::string(op_name(op)) + "] is not a binary op");
}

}  // namespace

Tensor binary_any(Op op, py::handle a, py::handle b) {
  const char* name = op_name(op).data();
  const bool a_number = is_python_scalar(a), b_number = is_python_scalar(b);
  Tensor held_a, held_b;
  if (b_number && !a_number) {
    const Tensor& x = tensor_ref(a, held_a);
    const Scalar s = scalar_arg(b, name);
    return without_gil_if_long(x, [&] { return entry(op).right_literal(x, s); });
  }
  if (a_number && !b_number) {
    const Scalar s = scalar_arg(a, name);
    const Tensor& y = tensor_ref(b, held_b);
    return without_gil_if_long(y, [&] { return entry(op).left_literal(s, y); });
  }
  const Tensor& x = tensor_ref(a, held_a);
  const Tensor& y = tensor_ref(b, held_b);
  return without_gil_if_long(x.size() >= y.size() ? x : y, [&] { return binary(op, x, y); });
}

Tensor binary_right_literal(Op op, const Tensor& a, Scalar b) {
  return entry(op).right_literal(a, b);
}

Tensor floor_divide(py::handle a, py::handle b) {
  const Tensor x = tensor_arg(a);
  if (is_float(x.dtype()) || is_complex(x.dtype()) ||
      (is_python_scalar(b) && PyFloat_Check(b.ptr()))) {
    return vkt::floor(binary_any(Op::divide, a, b));
  }
  // Integers: truncate, then step down where the remainder is nonzero and the operands'
  // signs differ.
  const Tensor q = binary_any(Op::quotient, a, b);
  const Tensor r = binary_any(Op::remainder, a, b);
  const Tensor y = is_python_scalar(b)
                       ? full({}, scalar_arg(b, "floor_divide"), q.dtype(), &x.backend())
                       : tensor_arg(b);
  const Tensor adjust = logical_and(not_equal(r, 0), not_equal(less(r, 0), less(y, 0)));
  return subtract(q, as_type(adjust, q.dtype()));
}

Tensor python_mod(py::handle a, py::handle b) {
  const Tensor r = binary_any(Op::remainder, a, b);
  const Tensor x = tensor_arg(a);
  const Tensor y =
      is_python_scalar(b) ? full({}, scalar_arg(b, "mod"), r.dtype(), &x.backend()) : tensor_arg(b);
  const Tensor shift = logical_and(not_equal(r, 0), not_equal(less(r, 0), less(y, 0)));
  const Tensor moved = select(shift, add(r, y), r);
  if (!is_float(moved.dtype())) return moved;
  // A zero remainder takes the divisor's sign too (Python: -0.0 % 4 == 0.0).
  const Tensor zero = select(less(y, 0), negate(abs(moved)), abs(moved));
  return select(equal(moved, 0), zero, moved);
}

}  // namespace vkt::python
