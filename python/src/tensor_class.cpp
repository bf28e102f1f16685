// vt.Tensor: properties, conversions to Python and NumPy, operators and indexing. Tensors
// are immutable: x[i] = v raises, pointing to put_slice / indexed_put.
#include <complex>

#include "binary_ops.h"
#include "dlpack_bridge.h"
#include "indexing.h"

namespace vkt::python {
namespace {

py::tuple shape_tuple(const Tensor& t) {
  py::tuple s(t.shape().size());
  for (std::size_t i = 0; i < t.shape().size(); ++i) s[i] = t.shape()[i];
  return s;
}

// The one element of a size-1 tensor, read to the host, as a Python number.
py::object item(const Tensor& t, const char* op) {
  if (t.size() != 1) {
    throw ShapeError(std::string("[") + op + "] needs a tensor of one element, got " +
                     std::string(dtype_name(t.dtype())) + shape_str(t.shape()));
  }
  const Tensor h = without_gil_if_long(t, [&] { return t.backend().is_cpu() ? t : t.to_cpu(); });
  const DType d = h.dtype();
  if (is_complex(d)) {
    const std::complex<double> v = as_type(h, DType::c128).to_vector<std::complex<double>>()[0];
    return py::cast(v);
  }
  if (is_float(d)) return py::float_(as_type(h, DType::f64).to_vector<double>()[0]);
  if (is_unsigned_integer(d)) return py::int_(as_type(h, DType::u64).to_vector<std::uint64_t>()[0]);
  return py::int_(as_type(h, DType::s64).to_vector<std::int64_t>()[0]);
}

// x.tolist(): nested lists of Python numbers, read to the host once.
py::object to_list(const Tensor& t) {
  if (t.dtype() == DType::bf16) return to_list(as_type(t, DType::f32));
  if (is_narrow(t.dtype()))
    return to_list(as_type(t, is_float(t.dtype()) ? DType::f32 : wide_type(t.dtype())));
  const Tensor h = without_gil_if_long(t, [&] { return t.backend().is_cpu() ? t : t.to_cpu(); });
  return numpy_view(h, "tolist").attr("tolist")();
}

void define_operators(py::class_<Tensor>& c) {
  struct Entry {
    const char* name;
    const char* reflected;
    Op op;
  };
  constexpr Entry kOperators[] = {{"__add__", "__radd__", Op::add},
                                  {"__sub__", "__rsub__", Op::subtract},
                                  {"__mul__", "__rmul__", Op::multiply},
                                  {"__truediv__", "__rtruediv__", Op::divide},
                                  {"__pow__", "__rpow__", Op::pow},
                                  {"__and__", "__rand__", Op::bitwise_and},
                                  {"__or__", "__ror__", Op::bitwise_or},
                                  {"__xor__", "__rxor__", Op::bitwise_xor},
                                  {"__lshift__", "__rlshift__", Op::left_shift},
                                  {"__rshift__", "__rrshift__", Op::right_shift},
                                  {"__lt__", nullptr, Op::less},
                                  {"__le__", nullptr, Op::less_equal},
                                  {"__gt__", nullptr, Op::greater},
                                  {"__ge__", nullptr, Op::greater_equal},
                                  {"__eq__", nullptr, Op::equal},
                                  {"__ne__", nullptr, Op::not_equal}};
  for (const Entry& e : kOperators) {
    const Op op = e.op;
    c.def(
        e.name, [op](py::object a, py::object b) { return binary_any(op, a, b); },
        py::is_operator());
    if (e.reflected != nullptr) {
      c.def(
          e.reflected, [op](py::object a, py::object b) { return binary_any(op, b, a); },
          py::is_operator());
    }
  }
  c.def(
      "__floordiv__", [](py::object a, py::object b) { return floor_divide(a, b); },
      py::is_operator());
  c.def(
      "__rfloordiv__", [](py::object a, py::object b) { return floor_divide(b, a); },
      py::is_operator());
  c.def(
      "__mod__", [](py::object a, py::object b) { return python_mod(a, b); }, py::is_operator());
  c.def(
      "__rmod__", [](py::object a, py::object b) { return python_mod(b, a); }, py::is_operator());
  c.def("__matmul__", [](const Tensor& a, py::object b) {
    const Tensor y = tensor_arg(b);
    return without_gil_if_long(largest({a, y}), [&] { return matmul(a, y); });
  });
  c.def("__rmatmul__", [](const Tensor& a, py::object b) {
    const Tensor x = tensor_arg(b);
    return without_gil_if_long(largest({x, a}), [&] { return matmul(x, a); });
  });
  c.def("__neg__", [](const Tensor& t) { return negate(t); });
  c.def("__pos__", [](const Tensor& t) { return t; });
  c.def("__invert__", [](const Tensor& t) { return bitwise_not(t); });
  c.def("__abs__", [](const Tensor& t) { return abs(t); });
}

}  // namespace

void register_tensor(py::module_& m) {
  // NumPy reads a cpu tensor through the buffer protocol (buffer.cpp), in place; where that
  // raises (bfloat16, a device tensor) it asks __array__, whose error says what to do.
  py::class_<Tensor> c(m, "Tensor",
                       "An immutable n-dimensional array on the cpu or a Vulkan device.",
                       py::buffer_protocol());
  install_tensor_buffer(c);
  c.def_property_readonly("shape", &shape_tuple);
  c.def_property_readonly("dtype", &Tensor::dtype);
  c.def_property_readonly("ndim", [](const Tensor& t) { return t.shape().size(); });
  c.def_property_readonly("size", [](const Tensor& t) { return t.size(); });
  c.def_property_readonly("nbytes", [](const Tensor& t) { return t.nbytes(); });
  c.def_property_readonly(
      "device", [](const Tensor& t) -> Backend& { return t.backend(); },
      py::return_value_policy::reference);
  // vkt::deallocate (tensor.h): frees the storage now; False when it already was.
  c.def("deallocate", [](const Tensor& t) { return deallocate(t); });
  c.def_property_readonly("is_deallocated", [](const Tensor& t) { return is_deallocated(t); });
  c.def(
      "to_device",
      [](const Tensor& t, Backend& d) {
        return without_gil_if_long(t, [&] { return transfer(t, d); });
      },
      py::arg("device"));
  c.def(
      "astype", [](const Tensor& t, py::object d) { return as_type(t, dtype_arg(d)); },
      py::arg("dtype"));
  c.def("reshape", [](const Tensor& t, py::args shape) {
    if (shape.size() == 1 && !PyLong_Check(shape[0].ptr())) return reshape(t, axes_arg(shape[0]));
    return reshape(t, axes_arg(shape));
  });
  c.def_property_readonly("T", [](const Tensor& t) { return transpose(t); });
  c.def("item", [](const Tensor& t) { return item(t, "item"); });
  c.def("tolist", &to_list);
  c.def(
      "tobytes",
      [](const Tensor& t) {
        const std::vector<std::byte> b = without_gil_if_long(t, [&] { return t.to_bytes(); });
        return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
      },
      "Nx's binary of the elements (to_binary): int2/int4/uint2/uint4 packed, the first "
      "element in the high bits of the first byte.");
  c.def("numpy", [](const Tensor& t) {
    if (t.backend().is_cpu()) return numpy_view(t, "numpy").attr("copy")();
    const Tensor h = without_gil_if_long(t, [&] { return t.to_cpu(); });
    return py::object(numpy_view(h, "numpy"));
  });
  c.def(
      "__array__",
      [](py::object self, py::object dtype, py::object copy) {
        py::array view = numpy_view(self.cast<Tensor>(), "__array__");
        const bool converts = !dtype.is_none() && !view.dtype().equal(py::dtype::from_args(dtype));
        // NumPy 2's protocol: copy=True asks for a copy, copy=False for none at all.
        if (converts && !copy.is_none() && !copy.cast<bool>()) {
          throw py::value_error("[__array__] copy=False, but a conversion to " +
                                py::str(dtype).cast<std::string>() + " needs a copy");
        }
        if (converts) return py::object(view.attr("astype")(dtype));
        return !copy.is_none() && copy.cast<bool>() ? view.attr("copy")() : py::object(view);
      },
      py::arg("dtype") = py::none(), py::arg("copy") = py::none());
  c.def(
      "__dlpack__",
      [](const Tensor& t, py::object /*stream*/, py::object max_version, py::object dl_device,
         std::optional<bool> copy) { return export_dlpack(t, max_version, dl_device, copy); },
      py::kw_only(), py::arg("stream") = py::none(), py::arg("max_version") = py::none(),
      py::arg("dl_device") = py::none(), py::arg("copy") = py::none());
  c.def("__dlpack_device__", &dlpack_device);
  c.def("__repr__", [](const Tensor& t) { return inspect(t); });
  c.def("__len__", [](const Tensor& t) {
    if (t.shape().empty()) throw TypeError("[len] a 0-d tensor has no length");
    return t.shape()[0];
  });
  c.def("__iter__", [](py::object self) {
    const Tensor t = self.cast<Tensor>();
    if (t.shape().empty()) throw TypeError("[iter] a 0-d tensor cannot be iterated");
    py::list rows;
    for (std::int64_t i = 0; i < t.shape()[0]; ++i) rows.append(getitem(t, py::int_(i)));
    return py::iter(rows);
  });
  c.def("__bool__", [](const Tensor& t) { return py::bool_(item(t, "bool")); });
  c.def("__float__", [](const Tensor& t) { return py::float_(item(t, "float")); });
  c.def("__int__", [](const Tensor& t) { return py::int_(item(t, "int")); });
  c.def("__complex__", [](const Tensor& t) {
    return py::module_::import("builtins").attr("complex")(item(t, "complex"));
  });
  c.def("__index__", [](const Tensor& t) {
    if (!is_integer(t.dtype())) throw TypeError("[index] needs an integer tensor");
    return py::int_(item(t, "index"));
  });
  c.def("__getitem__", [](const Tensor& t, py::object key) { return getitem(t, key); });
  c.def("__setitem__", [](const Tensor&, py::object, py::object) {
    throw TypeError(
        "[setitem] tensors are immutable: x = vt.put_slice(x, start, update) or "
        "vt.indexed_put(x, indices, updates) returns the changed tensor");
  });
  define_operators(c);
}

}  // namespace vkt::python
