// Python values into tensors and back: vt.asarray (zero-copy from C-contiguous NumPy arrays
// on the cpu), scalars as weak literals, axes, and NumPy views of cpu tensors.
#include <cstdint>
#include <cstring>
#include <memory>

#include "bindings.h"
#include "dlpack_bridge.h"

namespace vkt::python {
namespace {

Shape shape_of(const py::array& a) {
  Shape s;
  for (py::ssize_t i = 0; i < a.ndim(); ++i) s.push_back(static_cast<std::int64_t>(a.shape(i)));
  return s;
}

bool native_order(const py::array& a) {
  return a.dtype().attr("isnative").cast<bool>();
}

// A NumPy array of Python objects: what the user passed, not what NumPy made of it.
py::array to_numpy_array(py::handle obj, bool* from_python) {
  py::module_ np = py::module_::import("numpy");
  *from_python = !py::isinstance<py::array>(obj) && !py::hasattr(obj, "__array_interface__") &&
                 !PyObject_CheckBuffer(obj.ptr());
  py::object arr;
  try {
    arr = np.attr("asarray")(obj);
  } catch (py::error_already_set& e) {
    throw TypeError("[asarray] cannot read " + py::repr(obj).cast<std::string>().substr(0, 80) +
                    ": " + std::string(e.what()).substr(0, 200));
  }
  return arr.cast<py::array>();
}

// The cpu tensor over a C-contiguous array's memory; the array stays alive with it.
Tensor borrow(const py::array& a, DType d) {
  a.inc_ref();
  PyObject* owner = a.ptr();
  return from_pointer(a.data(), d, shape_of(a), [owner](const void*) {
    if (!Py_IsInitialized()) return;  // the interpreter has ended: nothing left to release
    py::gil_scoped_acquire gil;
    Py_DECREF(owner);
  });
}

}  // namespace

bool is_python_scalar(py::handle obj) {
  return PyBool_Check(obj.ptr()) || PyLong_Check(obj.ptr()) || PyFloat_Check(obj.ptr()) ||
         PyComplex_Check(obj.ptr());
}

Scalar scalar_arg(py::handle obj, const char* op) {
  if (PyBool_Check(obj.ptr())) return Scalar(static_cast<std::int64_t>(obj.ptr() == Py_True));
  if (PyLong_Check(obj.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
    if (overflow == 0) return Scalar(static_cast<std::int64_t>(v));
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(obj.ptr());
      if (!PyErr_Occurred()) return Scalar(static_cast<std::uint64_t>(u));
      PyErr_Clear();
    }
    throw TypeError(std::string("[") + op + "] the integer " + py::str(obj).cast<std::string>() +
                    " does not fit 64 bits");
  }
  if (PyFloat_Check(obj.ptr())) return Scalar(PyFloat_AsDouble(obj.ptr()));
  if (PyComplex_Check(obj.ptr())) {
    return Scalar(
        std::complex<double>(PyComplex_RealAsDouble(obj.ptr()), PyComplex_ImagAsDouble(obj.ptr())));
  }
  throw TypeError(std::string("[") + op + "] expected a number, got " +
                  py::repr(obj).cast<std::string>());
}

bool is_array_like(py::handle obj) {
  return py::isinstance<Tensor>(obj) || py::isinstance<py::array>(obj) ||
         py::hasattr(obj, "__dlpack__");
}

Axes axes_arg(py::handle axis) {
  if (axis.is_none()) return {};
  if (PyLong_Check(axis.ptr())) return {axis.cast<std::int64_t>()};
  Axes axes;
  for (py::handle a : axis) {
    if (!PyLong_Check(a.ptr())) {
      throw TypeError("[axis] expected int axes, got " + py::repr(axis).cast<std::string>());
    }
    axes.push_back(a.cast<std::int64_t>());
  }
  return axes;
}

Tensor asarray(py::handle obj, std::optional<DType> dtype, Backend* device,
               std::optional<bool> copy) {
  if (py::isinstance<Tensor>(obj)) {
    Tensor t = obj.cast<Tensor>();
    const bool converts = dtype && *dtype != t.dtype();
    const bool moves = device != nullptr && device != &t.backend();
    if (copy == false && (converts || moves)) {
      throw Error("[asarray] copy=False, but the tensor must be " +
                  std::string(converts ? "converted" : "moved to " + device->name()));
    }
    if (converts) t = as_type(t, *dtype);
    if (moves) return transfer(t, *device);
    if (copy == true && !converts) return vkt::copy(t, t.backend());
    return t;
  }
  if (!py::isinstance<py::array>(obj) && py::hasattr(obj, "__dlpack__")) {
    const Tensor t = import_dlpack(obj, device, copy);
    if (dtype && *dtype != t.dtype()) {
      if (copy == false) throw Error("[asarray] copy=False, but the tensor must be converted");
      return as_type(t, *dtype);
    }
    return t;
  }
  bool from_python = false;
  py::array a = to_numpy_array(obj, &from_python);
  std::optional<DType> natural = from_numpy_dtype(a.dtype());
  if (!natural) {
    throw TypeError("[asarray] NumPy dtype " + py::str(a.dtype()).cast<std::string>() + " of " +
                    py::repr(obj).cast<std::string>().substr(0, 80) + " has no vktensor dtype");
  }
  // Python floats and complex numbers default to f32 and c64, as vktensor's literals do.
  if (from_python && *natural == DType::f64) natural = DType::f32;
  if (from_python && *natural == DType::c128) natural = DType::c64;
  Backend& target = device != nullptr ? *device : default_backend();
  const bool contiguous = (a.flags() & py::array::c_style) != 0 && native_order(a);
  // Aligned to a whole item, which vkt::from_pointer asks: NumPy calls a complex128 array
  // aligned at 8 bytes, where sharing its memory would raise instead of copying.
  const bool aligned = a.attr("flags").attr("aligned").cast<bool>() &&
                       reinterpret_cast<std::uintptr_t>(a.data()) % itemsize(*natural) == 0;
  const bool numpy_type_kept = from_numpy_dtype(a.dtype()) == natural;
  const bool zero_copy = target.is_cpu() && contiguous && aligned && numpy_type_kept &&
                         (!dtype || *dtype == *natural) && copy != true;
  if (copy == false && !zero_copy) {
    throw Error(
        "[asarray] copy=False, but this input needs a copy (not C-contiguous, not "
        "aligned, another byte order, dtype or device)");
  }
  Tensor t;
  if (zero_copy) {
    t = borrow(a, *natural);
  } else {
    py::module_ np = py::module_::import("numpy");
    // np.asarray keeps a 0-d array 0-d (ascontiguousarray would make it 1-d) and copies only
    // where it must, under NumPy 1 and 2 alike (np.array's copy=False means never in NumPy 2).
    py::array c = np.attr("asarray")(a, py::arg("dtype") = numpy_dtype(*natural, "asarray"),
                                     py::arg("order") = "C");
    // np.asarray may hand back the input or a view of it (same memory), not a copy.
    const bool fresh_copy = c.ptr() != a.ptr() && c.data() != a.data();
    if (copy == true || !target.is_cpu() || !fresh_copy) {
      const auto* p = static_cast<const std::byte*>(c.data());
      t = from_bytes(std::span<const std::byte>(p, c.attr("nbytes").cast<std::size_t>()), *natural,
                     shape_of(c), &target);
    } else {
      t = borrow(c, *natural);  // the contiguous copy NumPy just made is ours alone
    }
  }
  return dtype && *dtype != t.dtype() ? as_type(t, *dtype) : t;
}

Tensor tensor_arg(py::handle obj) {
  if (py::isinstance<Tensor>(obj)) return obj.cast<Tensor>();
  return asarray(obj, std::nullopt, &cpu(), std::nullopt);
}

const Tensor& tensor_ref(py::handle obj, Tensor& converted) {
  // The exact type first: pybind11's isinstance looks the type up in a hash map.
  static PyTypeObject* const tensor_type =
      reinterpret_cast<PyTypeObject*>(py::type::of<Tensor>().ptr());
  if (Py_TYPE(obj.ptr()) == tensor_type || py::isinstance<Tensor>(obj)) {
    return obj.cast<const Tensor&>();
  }
  converted = asarray(obj, std::nullopt, &cpu(), std::nullopt);
  return converted;
}

py::array numpy_view(const Tensor& t, const char* op) {
  auto use = std::make_unique<StorageUse>(detail::use_bytes(op, t));
  if (!t.backend().is_cpu()) {
    throw TypeError("[" + std::string(op) + "] the tensor lives on " + t.backend().name() +
                    "; read it to the host first: x.to_device(vt.cpu()) (a download of " +
                    std::to_string(t.nbytes()) + " bytes)");
  }
  const py::dtype d = numpy_dtype(t.dtype(), op);
  std::vector<py::ssize_t> shape(t.shape().begin(), t.shape().end());
  std::vector<py::ssize_t> strides(shape.size());
  py::ssize_t stride = static_cast<py::ssize_t>(itemsize(t.dtype()));
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= std::max<py::ssize_t>(shape[i], 1);
  }
  const void* data = t.size() == 0 ? nullptr : to_pointer(t);
  // The view's base owns the claim (and through it the storage): the bytes outlive both the
  // tensor object and a vt.deallocate while NumPy may still read them.
  py::capsule owner(use.get(), [](void* p) { delete static_cast<StorageUse*>(p); });
  use.release();
  py::array view(d, shape, strides, data, owner);
  view.attr("flags").attr("writeable") = false;  // tensors are immutable
  return view;
}

}  // namespace vkt::python
