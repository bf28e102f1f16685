// vt.<op>: every op of vkt/ops.h under its C++ name, with Python keyword arguments. The
// elementwise ops are stamped from the op table; operands may be tensors, NumPy arrays,
// lists or Python numbers (weak literals).
#include "binary_ops.h"
#include "dlpack_bridge.h"

namespace vkt::python {
namespace {

using py::arg;

// Reductions over no axes (axis=()) reduce nothing, as NumPy's do: a trailing size-1 axis is
// added and reduced, so the result has the reduction's dtype.
using Reduction = Tensor (*)(const Tensor&, const Axes&, bool);
Tensor reduce_over(Reduction f, py::object x, py::object axis, bool keepdims) {
  Tensor held;
  const Tensor& t = tensor_ref(x, held);
  const Axes axes = axes_arg(axis);
  if (!axis.is_none() && axes.empty()) {
    Shape s = t.shape();
    s.push_back(1);
    return f(reshape(t, s), {static_cast<std::int64_t>(t.shape().size())}, false);
  }
  return without_gil_if_long(t, [&] { return f(t, axes, keepdims); });
}

// The indices' dtype of argmax/argmin/argsort: NumPy's int64 unless named (C++ and Nx
// default to s32; Python follows NumPy, whose users index with int64).
DType index_dtype_arg(py::handle dtype) {
  return dtype.is_none() ? DType::s64 : dtype_arg(dtype);
}

TieBreak tie_arg(const std::string& s) {
  if (s == "low") return TieBreak::low;
  if (s == "high") return TieBreak::high;
  throw Error("[argmax] tie_break must be 'low' or 'high', got '" + s + "'");
}

std::vector<Tensor> tensor_list(py::iterable xs) {
  std::vector<Tensor> v;
  for (py::handle x : xs) v.push_back(tensor_arg(x));
  return v;
}

Backend* device_arg(py::object device) {
  return device.is_none() ? nullptr : &device.cast<Backend&>();
}

DType dtype_or(py::object dtype, DType fallback) {
  return dtype.is_none() ? fallback : dtype_arg(dtype);
}

void define_elementwise(py::module_& m) {
#define VKT_DEF_UNARY(name)                                                \
  m.def(                                                                   \
      #name,                                                               \
      [](py::object x) {                                                   \
        Tensor held;                                                       \
        const Tensor& t = tensor_ref(x, held);                             \
        return without_gil_if_long(t, [&] { return unary(Op::name, t); }); \
      },                                                                   \
      arg("x"));
  VKT_UNARY_OPS(VKT_DEF_UNARY)
#undef VKT_DEF_UNARY
#define VKT_DEF_BINARY(name)                                                                  \
  m.def(                                                                                      \
      #name, [](py::object a, py::object b) { return binary_any(Op::name, a, b); }, arg("a"), \
      arg("b"));
  VKT_BINARY_OPS(VKT_DEF_BINARY)
#undef VKT_DEF_BINARY
  m.def("floor_divide", [](py::object a, py::object b) { return floor_divide(a, b); });
  m.def("mod", [](py::object a, py::object b) { return python_mod(a, b); });
  // The op by its name, as vkt::unary / vkt::binary take an Op.
  m.def(
      "unary",
      [](const std::string& op, py::object x) {
        const Op o = op_from_name(op);
        const Tensor t = tensor_arg(x);
        return without_gil_if_long(t, [&] { return unary(o, t); });
      },
      arg("op"), arg("x"));
  m.def(
      "binary",
      [](const std::string& op, py::object a, py::object b) {
        return binary_any(op_from_name(op), a, b);
      },
      arg("op"), arg("a"), arg("b"));
}

void define_creation(py::module_& m) {
  m.def(
      "asarray",
      [](py::object obj, py::object dtype, py::object device, std::optional<bool> copy) {
        return asarray(obj, dtype.is_none() ? std::nullopt : std::optional(dtype_arg(dtype)),
                       device_arg(device), copy);
      },
      arg("obj"), arg("dtype") = py::none(), arg("device") = py::none(), arg("copy") = py::none());
  m.def(
      "from_dlpack",
      [](py::object x, py::object device, std::optional<bool> copy) {
        if (py::isinstance<Tensor>(x)) return asarray(x, std::nullopt, device_arg(device), copy);
        return import_dlpack(x, device_arg(device), copy);
      },
      arg("x"), py::kw_only(), arg("device") = py::none(), arg("copy") = py::none());
  m.def(
      "from_bytes",
      [](py::buffer data, py::object dtype, py::object shape, py::object device) {
        const py::buffer_info info = data.request();
        py::ssize_t stride = info.itemsize;
        for (py::ssize_t a = info.ndim; a-- > 0;) {
          if (info.shape[a] > 1 && info.strides[a] != stride) {
            throw ShapeError("[from_bytes] data must be C-contiguous bytes");
          }
          stride *= info.shape[a];
        }
        const auto* p = static_cast<const std::byte*>(info.ptr);
        const auto n = static_cast<std::size_t>(info.size * info.itemsize);
        return from_bytes(std::span<const std::byte>(p, n), dtype_arg(dtype), axes_arg(shape),
                          device_arg(device));
      },
      "A tensor from Nx's binary (from_binary) of the dtype: int2/int4/uint2/uint4 packed.",
      arg("data"), arg("dtype"), arg("shape"), arg("device") = py::none());
  m.def(
      "full",
      [](py::object shape, py::object value, py::object dtype, py::object device) {
        const Scalar v = scalar_arg(value, "full");
        return full(axes_arg(shape), v, dtype_or(dtype, v.default_type()), device_arg(device));
      },
      arg("shape"), arg("fill_value"), arg("dtype") = py::none(), arg("device") = py::none());
  m.def(
      "scalar_tensor",
      [](py::object value, py::object dtype, py::object device) {
        const Scalar v = scalar_arg(value, "scalar_tensor");
        return scalar_tensor(v, dtype.is_none() ? std::nullopt : std::optional(dtype_arg(dtype)),
                             device_arg(device));
      },
      arg("value"), arg("dtype") = py::none(), arg("device") = py::none());
  m.def(
      "iota",
      [](py::object shape, py::object dtype, std::optional<std::int64_t> axis, py::object device) {
        return iota(axes_arg(shape), dtype_or(dtype, DType::s64), axis, device_arg(device));
      },
      arg("shape"), arg("dtype") = py::none(), arg("axis") = py::none(),
      arg("device") = py::none());
  m.def(
      "eye",
      [](std::int64_t n, py::object dtype, py::object device) {
        return eye(n, dtype_or(dtype, DType::f32), device_arg(device));
      },
      arg("n"), arg("dtype") = py::none(), arg("device") = py::none());
  m.def(
      "as_type",
      [](py::object x, py::object d) {
        const Tensor t = tensor_arg(x);
        const DType to = dtype_arg(d);
        return without_gil_if_long(t, [&] { return as_type(t, to); });
      },
      arg("x"), arg("dtype"));
  m.def(
      "bitcast", [](py::object x, py::object d) { return bitcast(tensor_arg(x), dtype_arg(d)); },
      arg("x"), arg("dtype"));
}

void define_movement(py::module_& m) {
  m.def(
      "reshape",
      [](py::object x, py::object s) {
        const Tensor t = tensor_arg(x);
        const Axes shape = axes_arg(s);
        return without_gil_if_long(t, [&] { return reshape(t, shape); });
      },
      arg("x"), arg("shape"));
  m.def(
      "squeeze",
      [](py::object x, py::object a) {
        const Tensor t = tensor_arg(x);
        const Axes axes = axes_arg(a);
        return without_gil_if_long(t, [&] { return squeeze(t, axes); });
      },
      arg("x"), arg("axis") = py::none());
  m.def(
      "broadcast",
      [](py::object x, py::object s, py::object a) {
        const Tensor t = tensor_arg(x);
        const Axes shape = axes_arg(s), axes = axes_arg(a);
        return without_gil_if_long(t, [&] { return broadcast(t, shape, axes); });
      },
      arg("x"), arg("shape"), arg("axes") = py::none());
  m.def(
      "transpose",
      [](py::object x, py::object a) {
        const Tensor t = tensor_arg(x);
        const Axes axes = axes_arg(a);
        return without_gil_if_long(t, [&] { return transpose(t, axes); });
      },
      arg("x"), arg("axes") = py::none());
  m.def(
      "reverse",
      [](py::object x, py::object a) {
        const Tensor t = tensor_arg(x);
        const Axes axes = axes_arg(a);
        return without_gil_if_long(t, [&] { return reverse(t, axes); });
      },
      arg("x"), arg("axis") = py::none());
  m.def(
      "pad",
      [](py::object x, py::object value, py::iterable config) {
        std::vector<PadAxis> c;
        for (py::handle p : config) {
          const py::tuple t = py::tuple(py::reinterpret_borrow<py::object>(p));
          c.push_back({t[0].cast<std::int64_t>(), t[1].cast<std::int64_t>(),
                       t.size() > 2 ? t[2].cast<std::int64_t>() : 0});
        }
        const Tensor t = tensor_arg(x);
        if (is_array_like(value)) {  // Nx's form: a rank-0 tensor, dtypes promoted
          const Tensor v = tensor_arg(value);
          return without_gil_if_long(t, [&] { return pad(t, v, c); });
        }
        const Scalar v = scalar_arg(value, "pad");
        return without_gil_if_long(t, [&] { return pad(t, v, c); });
      },
      arg("x"), arg("value"), arg("config"));
  m.def(
      "slice",
      [](py::object x, py::object start, py::object lengths, py::object strides) {
        const Tensor t = tensor_arg(x);
        const Axes s = axes_arg(start), l = axes_arg(lengths), st = axes_arg(strides);
        return without_gil_if_long(t, [&] { return slice(t, s, l, st); });
      },
      arg("x"), arg("start"), arg("lengths"), arg("strides") = py::none());
  m.def(
      "put_slice",
      [](py::object x, py::object start, py::object update) {
        const Tensor t = tensor_arg(x), u = tensor_arg(update);
        const Axes s = axes_arg(start);
        return without_gil_if_long(t, [&] { return put_slice(t, s, u); });
      },
      arg("x"), arg("start"), arg("update"));
  m.def(
      "take",
      [](py::object x, py::object i, std::int64_t axis) {
        const Tensor t = tensor_arg(x), idx = tensor_arg(i);
        return without_gil_if_long(t, [&] { return take(t, idx, axis); });
      },
      arg("x"), arg("indices"), arg("axis") = 0);
  m.def(
      "take_along_axis",
      [](py::object x, py::object i, std::int64_t axis) {
        const Tensor t = tensor_arg(x), idx = tensor_arg(i);
        return without_gil_if_long(t, [&] { return take_along_axis(t, idx, axis); });
      },
      arg("x"), arg("indices"), arg("axis"));
  m.def(
      "gather",
      [](py::object x, py::object i, py::object a) {
        const Tensor t = tensor_arg(x), idx = tensor_arg(i);
        const Axes axes = axes_arg(a);
        return without_gil_if_long(t, [&] { return gather(t, idx, axes); });
      },
      arg("x"), arg("indices"), arg("axes") = py::none());
  m.def(
      "concatenate",
      [](py::iterable xs, std::int64_t axis) {
        const std::vector<Tensor> ts = tensor_list(xs);
        return without_gil_if_long(largest(ts), [&] { return concatenate(ts, axis); });
      },
      arg("tensors"), arg("axis") = 0);
  m.def(
      "stack",
      [](py::iterable xs, std::int64_t axis) {
        const std::vector<Tensor> ts = tensor_list(xs);
        return without_gil_if_long(largest(ts), [&] { return stack(ts, axis); });
      },
      arg("tensors"), arg("axis") = 0);
  m.def(
      "select",
      [](py::object p, py::object a, py::object b) {
        const Tensor pred = tensor_arg(p), on_true = tensor_arg(a), on_false = tensor_arg(b);
        return without_gil_if_long(largest({pred, on_true, on_false}),
                                   [&] { return select(pred, on_true, on_false); });
      },
      arg("pred"), arg("on_true"), arg("on_false"));
  m.def(
      "clip",
      [](py::object x, py::object lo, py::object hi) {
        const Tensor t = tensor_arg(x);
        if (is_python_scalar(lo) && is_python_scalar(hi)) {
          const Scalar l = scalar_arg(lo, "clip"), h = scalar_arg(hi, "clip");
          return without_gil_if_long(t, [&] { return clip(t, l, h); });
        }
        const Tensor l = tensor_arg(lo), h = tensor_arg(hi);
        return without_gil_if_long(t, [&] { return clip(t, l, h); });
      },
      arg("x"), arg("lo"), arg("hi"));
  using Scatter = Tensor (*)(const Tensor&, const Tensor&, const Tensor&, const Axes&);
  const std::pair<const char*, Scatter> kScatters[] = {{"indexed_add", &indexed_add},
                                                       {"indexed_put", &indexed_put}};
  for (const auto& [name, f] : kScatters) {
    m.def(
        name,
        [f = f](py::object x, py::object i, py::object u, py::object a) {
          const Tensor t = tensor_arg(x), idx = tensor_arg(i), updates = tensor_arg(u);
          const Axes axes = axes_arg(a);
          return without_gil_if_long(t, [&] { return f(t, idx, updates, axes); });
        },
        arg("x"), arg("indices"), arg("updates"), arg("axes") = py::none());
  }
}

void define_reductions(py::module_& m) {
  const std::pair<const char*, Reduction> kReductions[] = {{"sum", &sum},
                                                           {"product", &product},
                                                           {"reduce_max", &reduce_max},
                                                           {"reduce_min", &reduce_min},
                                                           {"all", &all},
                                                           {"any", &any}};
  for (const auto& [name, f] : kReductions) {
    m.def(
        name,
        [f = f](py::object x, py::object axis, bool keepdims) {
          return reduce_over(f, x, axis, keepdims);
        },
        arg("x"), arg("axis") = py::none(), arg("keepdims") = false);
  }
  m.def(
      "argmax",
      [](py::object x, std::optional<std::int64_t> axis, bool keepdims, const std::string& tie,
         py::object dtype) {
        const Tensor t = tensor_arg(x);
        const TieBreak b = tie_arg(tie);
        const DType type = index_dtype_arg(dtype);
        return without_gil_if_long(t, [&] { return argmax(t, axis, keepdims, b, type); });
      },
      arg("x"), arg("axis") = py::none(), arg("keepdims") = false, arg("tie_break") = "low",
      arg("dtype") = py::none());
  m.def(
      "argmin",
      [](py::object x, std::optional<std::int64_t> axis, bool keepdims, const std::string& tie,
         py::object dtype) {
        const Tensor t = tensor_arg(x);
        const TieBreak b = tie_arg(tie);
        const DType type = index_dtype_arg(dtype);
        return without_gil_if_long(t, [&] { return argmin(t, axis, keepdims, b, type); });
      },
      arg("x"), arg("axis") = py::none(), arg("keepdims") = false, arg("tie_break") = "low",
      arg("dtype") = py::none());
  using Scan = Tensor (*)(const Tensor&, std::int64_t, bool);
  const std::pair<const char*, Scan> kScans[] = {{"cumulative_sum", &cumulative_sum},
                                                 {"cumulative_product", &cumulative_product},
                                                 {"cumulative_max", &cumulative_max},
                                                 {"cumulative_min", &cumulative_min}};
  for (const auto& [name, f] : kScans) {
    m.def(
        name,
        [f = f](py::object x, std::int64_t axis, bool reverse) {
          const Tensor t = tensor_arg(x);
          return without_gil_if_long(t, [&] { return f(t, axis, reverse); });
        },
        arg("x"), arg("axis") = 0, arg("reverse") = false);
  }
  using Window = Tensor (*)(const Tensor&, const Shape&, const WindowOptions&);
  const std::pair<const char*, Window> kWindows[] = {{"window_sum", &window_sum},
                                                     {"window_product", &window_product},
                                                     {"window_max", &window_max},
                                                     {"window_min", &window_min}};
  for (const auto& [name, f] : kWindows) {
    m.def(
        name,
        [f = f](py::object x, py::object window, py::object strides, py::object padding,
                py::object dilations) {
          const Tensor t = tensor_arg(x);
          const Axes w = axes_arg(window);
          const WindowOptions o = window_options(strides, padding, dilations);
          return without_gil_if_long(t, [&] { return f(t, w, o); });
        },
        arg("x"), arg("window"), arg("strides") = py::none(), arg("padding") = py::none(),
        arg("dilations") = py::none());
  }
}

void define_sort_and_linalg(py::module_& m) {
  m.def(
      "sort",
      [](py::object x, std::int64_t axis, bool descending) {
        const Tensor t = tensor_arg(x);
        const Direction d = descending ? Direction::desc : Direction::asc;
        return without_gil_if_long(t, [&] { return sort(t, axis, d); });
      },
      arg("x"), arg("axis") = -1, arg("descending") = false);
  m.def(
      "argsort",
      [](py::object x, std::int64_t axis, bool descending, py::object dtype) {
        const Tensor t = tensor_arg(x);
        const Direction d = descending ? Direction::desc : Direction::asc;
        const DType type = index_dtype_arg(dtype);
        return without_gil_if_long(t, [&] { return argsort(t, axis, d, type); });
      },
      arg("x"), arg("axis") = -1, arg("descending") = false, arg("dtype") = py::none());
  m.def(
      "top_k",
      [](py::object x, std::int64_t k) {
        const Tensor t = tensor_arg(x);
        auto [values, indices] = without_gil_if_long(t, [&] { return top_k(t, k); });
        return py::make_tuple(values, indices);
      },
      arg("x"), arg("k"));
  using Binary = Tensor (*)(const Tensor&, const Tensor&);
  for (const auto& [name, f] :
       {std::pair<const char*, Binary>{"matmul", &matmul}, {"solve", &solve}}) {
    m.def(name, [f = f](py::object a, py::object b) {
      const Tensor x = tensor_arg(a), y = tensor_arg(b);
      return without_gil_if_long(largest({x, y}), [&] { return f(x, y); });
    });
  }
  using Unary = Tensor (*)(const Tensor&);
  for (const auto& [name, f] :
       {std::pair<const char*, Unary>{"cholesky", &cholesky}, {"determinant", &determinant}}) {
    m.def(name, [f = f](py::object a) {
      const Tensor x = tensor_arg(a);
      return without_gil_if_long(x, [&] { return f(x); });
    });
  }
  m.def(
      "qr",
      [](py::object a, const std::string& mode) {
        if (mode != "reduced" && mode != "complete") {
          throw Error("[qr] mode must be 'reduced' or 'complete', got '" + mode + "'");
        }
        const Tensor x = tensor_arg(a);
        const QrMode q = mode == "reduced" ? QrMode::reduced : QrMode::complete;
        QR r = without_gil_if_long(x, [&] { return qr(x, q); });
        return py::make_tuple(r.q, r.r);
      },
      arg("a"), arg("mode") = "reduced");
  m.def("eigh", [](py::object a) {
    const Tensor x = tensor_arg(a);
    Eigh r = without_gil_if_long(x, [&] { return eigh(x); });
    return py::make_tuple(r.eigenvalues, r.eigenvectors);
  });
  m.def(
      "svd",
      [](py::object a, bool full_matrices) {
        const Tensor x = tensor_arg(a);
        SVD r = without_gil_if_long(x, [&] { return svd(x, full_matrices); });
        return py::make_tuple(r.u, r.s, r.vt);
      },
      arg("a"), arg("full_matrices") = true);
  m.def("lu", [](py::object a) {
    const Tensor x = tensor_arg(a);
    LU r = without_gil_if_long(x, [&] { return lu(x); });
    return py::make_tuple(r.p, r.l, r.u);
  });
  m.def(
      "all_close",
      [](py::object a, py::object b, double rtol, double atol, bool equal_nan) {
        const Tensor x = tensor_arg(a), y = tensor_arg(b);
        const AllCloseOptions o{rtol, atol, equal_nan};
        return without_gil_if_long(largest({x, y}), [&] { return all_close(x, y, o); });
      },
      arg("a"), arg("b"), arg("rtol") = 1e-5, arg("atol") = 1e-8, arg("equal_nan") = false);
  using Transform = Tensor (*)(const Tensor&, std::optional<std::int64_t>, std::int64_t);
  const std::pair<const char*, Transform> kTransforms[] = {
      {"fft", &fft}, {"ifft", &ifft}, {"rfft", &rfft}, {"irfft", &irfft}};
  for (const auto& [name, f] : kTransforms) {
    m.def(
        name,
        [f = f](py::object x, std::optional<std::int64_t> n, std::int64_t axis) {
          const Tensor t = tensor_arg(x);
          return without_gil_if_long(t, [&] { return f(t, n, axis); });
        },
        arg("x"), arg("n") = py::none(), arg("axis") = -1);
  }
}

}  // namespace

// The input that decides whether an op of several releases the GIL: a device one, else the
// largest.
const Tensor& largest(const std::vector<Tensor>& ts) {
  static const Tensor kNone;
  const Tensor* pick = &kNone;
  for (const Tensor& t : ts) {
    if (pick == &kNone || worth_releasing_gil(t) || t.size() > pick->size()) pick = &t;
    if (worth_releasing_gil(*pick)) break;
  }
  return *pick;
}

std::vector<std::pair<std::int64_t, std::int64_t>> pairs_arg(py::handle pairs, const char* op) {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  for (py::handle p : pairs) {
    const py::sequence lo_hi = py::reinterpret_borrow<py::sequence>(p);
    if (!py::isinstance<py::sequence>(p) || py::len(lo_hi) != 2) {
      throw TypeError("[" + std::string(op) + "] padding is a list of (lo, hi) pairs, got " +
                      py::repr(pairs).cast<std::string>());
    }
    out.emplace_back(lo_hi[0].cast<std::int64_t>(), lo_hi[1].cast<std::int64_t>());
  }
  return out;
}

WindowOptions window_options(py::object strides, py::object padding, py::object dilations) {
  WindowOptions o;
  if (!strides.is_none()) o.strides = axes_arg(strides);
  if (!dilations.is_none()) o.dilations = axes_arg(dilations);
  if (!padding.is_none()) o.padding = pairs_arg(padding, "window");
  return o;
}

void register_ops(py::module_& m) {
  define_elementwise(m);
  define_creation(m);
  define_movement(m);
  define_reductions(m);
  define_sort_and_linalg(m);
  register_option_ops(m);
}

}  // namespace vkt::python
