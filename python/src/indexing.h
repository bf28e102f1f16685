// x[key] with NumPy's basic indexing: ints, slices of any step, Ellipsis and None, and one
// integer array (take along that axis).
#pragma once

#include "bindings.h"

namespace vkt::python {

Tensor getitem(const Tensor& t, py::handle key);

}  // namespace vkt::python
