// One exception tree: vt.Error and a subclass per C++ error class, each also the Python
// built-in a Python user would catch (ShapeError is a ValueError, OutOfMemory a MemoryError).
#include "bindings.h"

namespace vkt::python {
namespace {

// Kept for the process's lifetime (released): the translator may run until the interpreter
// ends, and a static py::handle would be released after it has.
py::handle make_error(py::module_& m, const char* name, py::handle base, py::handle builtin) {
  py::tuple bases = builtin ? py::make_tuple(base, builtin) : py::make_tuple(base);
  const std::string qualified = std::string("vktensor.") + name;
  py::object cls = py::reinterpret_steal<py::object>(
      PyErr_NewException(qualified.c_str(), bases.ptr(), nullptr));
  m.attr(name) = cls;
  return cls.release();
}

py::handle deallocated_class;

}  // namespace

py::handle deallocated_error() {
  return deallocated_class;
}

void register_errors(py::module_& m) {
  static py::handle error = make_error(m, "Error", PyExc_RuntimeError, py::handle());
  static py::handle shape = make_error(m, "ShapeError", error, PyExc_ValueError);
  static py::handle axis = make_error(m, "AxisError", error, PyExc_IndexError);
  static py::handle type = make_error(m, "TypeError", error, PyExc_TypeError);
  static py::handle backends = make_error(m, "IncompatibleBackends", error, PyExc_ValueError);
  static py::handle unsupported = make_error(m, "Unsupported", error, PyExc_NotImplementedError);
  static py::handle forbidden = make_error(m, "FallbackForbidden", error, py::handle());
  static py::handle memory = make_error(m, "OutOfMemory", error, PyExc_MemoryError);
  static py::handle lost = make_error(m, "DeviceLost", error, py::handle());
  static py::handle no_device = make_error(m, "NoDevice", error, py::handle());
  static py::handle linalg = make_error(m, "LinAlgError", error, PyExc_ValueError);
  // A RuntimeError through vt.Error, as JAX raises for a deleted array.
  static py::handle deallocated = make_error(m, "Deallocated", error, py::handle());
  deallocated_class = deallocated;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ShapeError& e) {
      PyErr_SetString(shape.ptr(), e.what());
    } catch (const AxisError& e) {
      PyErr_SetString(axis.ptr(), e.what());
    } catch (const TypeError& e) {
      PyErr_SetString(type.ptr(), e.what());
    } catch (const IncompatibleBackends& e) {
      PyErr_SetString(backends.ptr(), e.what());
    } catch (const Unsupported& e) {
      PyErr_SetString(unsupported.ptr(), e.what());
    } catch (const FallbackForbidden& e) {
      PyErr_SetString(forbidden.ptr(), e.what());
    } catch (const OutOfMemory& e) {
      PyErr_SetString(memory.ptr(), e.what());
    } catch (const DeviceLost& e) {
      PyErr_SetString(lost.ptr(), e.what());
    } catch (const NoDevice& e) {
      PyErr_SetString(no_device.ptr(), e.what());
    } catch (const LinAlgError& e) {
      PyErr_SetString(linalg.ptr(), e.what());
    } catch (const Deallocated& e) {
      PyErr_SetString(deallocated.ptr(), e.what());
    } catch (const Error& e) {
      PyErr_SetString(error.ptr(), e.what());
    }
  });
}

}  // namespace vkt::python
