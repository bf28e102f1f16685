// Shared by the binding files: how Python values become dtypes, axes, scalars and tensors,
// and the register_* functions module.cpp calls, one per file.
#pragma once

#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "vkt/vkt.h"

namespace vkt::python {

namespace py = pybind11;

// A dtype from a vt dtype, a NumPy dtype or scalar type, or a name ("float32", "f32").
DType dtype_arg(py::handle obj);
// The NumPy dtype of d (bfloat16 has none: TypeError naming `op`).
py::dtype numpy_dtype(DType d, const char* op);
// The vktensor dtype of a NumPy dtype, if it has one (bool reads as u8).
std::optional<DType> from_numpy_dtype(const py::dtype& d);

// A Python int, float, bool or complex as a weak scalar literal.
bool is_python_scalar(py::handle obj);
Scalar scalar_arg(py::handle obj, const char* op);
// A tensor, NumPy array or DLPack producer, as opposed to a Python number: ops taking Nx's
// tensor-or-number values (pad's value, window_scatter's init_value) pick their form by it.
bool is_array_like(py::handle obj);

// Axes from None (every axis: an empty list), an int or a sequence of ints.
Axes axes_arg(py::handle axis);

// vt.asarray: a tensor from a tensor, NumPy array, buffer, nested sequence or scalar; a
// C-contiguous NumPy array of a vktensor dtype becomes a cpu tensor without a copy.
Tensor asarray(py::handle obj, std::optional<DType> dtype, Backend* device,
               std::optional<bool> copy);
// An op's operand: a tensor as is, anything else through asarray on the cpu.
Tensor tensor_arg(py::handle obj);
// The same without copying a tensor (a copy costs an allocation, its shape): a reference to
// the one `obj` holds, valid while obj lives, or `converted`, filled by asarray.
const Tensor& tensor_ref(py::handle obj, Tensor& converted);
// (lo, hi) pairs from a sequence of 2-sequences (TypeError naming `op` otherwise).
std::vector<std::pair<std::int64_t, std::int64_t>> pairs_arg(py::handle pairs, const char* op);
// Window strides, padding and dilations from Python values (None: the defaults).
WindowOptions window_options(py::object strides, py::object padding, py::object dilations);

// A NumPy view of a cpu tensor's memory (read-only). It claims the bytes (StorageUse), so a
// vt.deallocate meanwhile frees them only once the view is gone; `op` names the caller in
// the error for a device or deallocated tensor.
py::array numpy_view(const Tensor& t, const char* op);

// Runs f without the GIL where the work is long enough to pay for giving it up (`t`, the op's
// main input, has more than 32768 elements or lives on a device, whose op may wait): other
// Python threads run meanwhile. Small cpu ops keep it (releasing costs about 0.1 us a call).
// f must not touch Python objects: convert the arguments first.
inline bool worth_releasing_gil(const Tensor& t) {
  return t.defined() && (t.size() > 32768 || !t.backend().is_cpu());
}
template <class F>
auto without_gil_if_long(const Tensor& t, F&& f) -> decltype(f()) {
  if (!worth_releasing_gil(t)) return f();
  py::gil_scoped_release release;
  return f();
}

// Gives the Tensor class (made with py::buffer_protocol()) the buffer protocol of buffer.cpp.
void install_tensor_buffer(py::handle tensor_class);

// The input that decides whether an op of several releases the GIL: a device one, else the
// largest.
const Tensor& largest(const std::vector<Tensor>& ts);

// vt.Deallocated, for the paths that set a Python error themselves (the buffer protocol).
py::handle deallocated_error();

void register_errors(py::module_& m);
void register_dtypes(py::module_& m);
void register_tensor(py::module_& m);
void register_ops(py::module_& m);
void register_runtime(py::module_& m);
void register_bench_hooks(py::module_& m);
void register_compile(py::module_& m);
void register_option_ops(py::module_& m);
void register_grad(py::module_& m);
void register_block(py::module_& m);

}  // namespace vkt::python
