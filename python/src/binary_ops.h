// Elementwise ops by Op, for operands that may be Python scalars (weak literals): the op
// table's binary rows, stamped into one lookup so operators and vt.<op> share it.
#pragma once

#include "bindings.h"

namespace vkt::python {

// op(a, b) where each of a and b is a tensor, a Python number or anything asarray reads.
Tensor binary_any(Op op, py::handle a, py::handle b);
// op(a, literal b): the table's Tensor-Scalar overload.
Tensor binary_right_literal(Op op, const Tensor& a, Scalar b);
// Python's // and % (floor division; the remainder takes the divisor's sign), built on the
// table's quotient/divide and remainder, which truncate as C does.
Tensor floor_divide(py::handle a, py::handle b);
Tensor python_mod(py::handle a, py::handle b);

}  // namespace vkt::python
