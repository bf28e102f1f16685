// dtypes in Python: vt.float32 ... (NumPy's names), the NumPy dtype of each, and the dtype
// arguments ops take (a vt dtype, a NumPy dtype or type, or a name).
#include <array>
#include <string_view>

#include "bindings.h"

namespace vkt::python {
namespace {

struct DTypeName {
  DType dtype;
  const char* python;  // the Array API / NumPy name
  const char* numpy;   // NumPy's dtype string, empty where NumPy has none
};
// The narrow dtypes take ml_dtypes' and PyTorch's names; NumPy itself has none of them.
constexpr std::array<DTypeName, 20> kNames = {
    {{DType::u8, "uint8", "u1"},      {DType::u16, "uint16", "u2"},
     {DType::u32, "uint32", "u4"},    {DType::u64, "uint64", "u8"},
     {DType::s8, "int8", "i1"},       {DType::s16, "int16", "i2"},
     {DType::s32, "int32", "i4"},     {DType::s64, "int64", "i8"},
     {DType::f16, "float16", "f2"},   {DType::bf16, "bfloat16", ""},
     {DType::f32, "float32", "f4"},   {DType::f64, "float64", "f8"},
     {DType::c64, "complex64", "c8"}, {DType::c128, "complex128", "c16"},
     {DType::s2, "int2", ""},         {DType::s4, "int4", ""},
     {DType::u2, "uint2", ""},        {DType::u4, "uint4", ""},
     {DType::f8, "float8_e5m2", ""},  {DType::f8_e4m3fn, "float8_e4m3fn", ""}}};

const DTypeName& entry(DType d) {
  for (const DTypeName& n : kNames) {
    if (n.dtype == d) return n;
  }
  throw Error("[dtype] unknown dtype");
}

}  // namespace

py::dtype numpy_dtype(DType d, const char* op) {
  const DTypeName& n = entry(d);
  if (*n.numpy == '\0') {
    throw TypeError(std::string("[") + op + "] " + n.python +
                    " has no NumPy dtype; convert first, e.g. vt.as_type(x, vt.float32)");
  }
  return py::dtype(n.numpy);
}

std::optional<DType> from_numpy_dtype(const py::dtype& d) {
  // Read as Python attributes: pybind11 before 2.12 reads itemsize at NumPy 1's offset, which
  // NumPy 2 moved.
  const char kind = d.attr("kind").cast<std::string>().at(0);
  const auto size = d.attr("itemsize").cast<std::size_t>();
  if (kind == 'b') return DType::u8;
  for (const DTypeName& n : kNames) {
    if (*n.numpy == '\0') continue;
    if (n.numpy[0] == kind && itemsize(n.dtype) == size) return n.dtype;
  }
  return std::nullopt;
}

DType dtype_arg(py::handle obj) {
  if (py::isinstance<DType>(obj)) return obj.cast<DType>();
  if (py::isinstance<py::str>(obj)) {
    const std::string name = obj.cast<std::string>();
    for (const DTypeName& n : kNames) {
      if (name == n.python) return n.dtype;
    }
    if (name == "bool") return DType::u8;
    // Nx's names of the narrow dtypes stay out: NumPy's "f8", "u2" and "u4" are float64,
    // uint16 and uint32 (Dask passes dtype="f8"); those go by ml_dtypes' names above.
    for (DType d : kValueDTypes) {
      if (name == dtype_name(d)) return d;
    }
    throw TypeError("[dtype] unknown dtype name '" + name + "'");
  }
  py::dtype d;
  try {
    d = py::dtype::from_args(py::reinterpret_borrow<py::object>(obj));
  } catch (const py::error_already_set&) {
    throw TypeError("[dtype] " + py::repr(obj).cast<std::string>() + " is not a dtype");
  }
  if (const auto v = from_numpy_dtype(d)) return *v;
  throw TypeError("[dtype] NumPy dtype " + py::str(d).cast<std::string>() +
                  " has no vktensor equivalent");
}

void register_dtypes(py::module_& m) {
  py::enum_<DType> e(m, "dtype", "A tensor's element type (vt.float32, vt.int64, ...).");
  for (const DTypeName& n : kNames) {
    e.value(n.python, n.dtype);
    m.attr(n.python) = n.dtype;
  }
  m.attr("bool") = DType::u8;  // predicates and comparisons give u8 (Nx has no boolean type)
  e.def_property_readonly("itemsize", [](DType d) { return itemsize(d); });
  // Set on the type itself: py::enum_ installs its own __str__ and __repr__ late.
  e.attr("__str__") =
      py::cpp_function([](DType d) { return std::string(entry(d).python); }, py::is_method(e));
  e.attr("__repr__") = py::cpp_function(
      [](DType d) { return "vt." + std::string(entry(d).python); }, py::is_method(e));
}

}  // namespace vkt::python
