// vt.<op> for the ops whose C++ form takes an options struct or a caller's function: dot
// with contraction and batch axes, conv, triangular_solve, window_scatter_max/min, fft2 and
// ifft2, to_batched, copy, and reduce / window_reduce with a Python function.
#include "bindings.h"

namespace vkt::python {
namespace {

using py::arg;

ConvPadding conv_padding(py::handle padding, ConvOptions& o) {
  if (padding.is_none()) return ConvPadding::config;
  if (py::isinstance<py::str>(padding)) {
    const std::string mode = padding.cast<std::string>();
    if (mode == "valid") return ConvPadding::valid;
    if (mode == "same") return ConvPadding::same;
    throw Error("[conv] padding must be 'valid', 'same' or (lo, hi) pairs, got '" + mode + "'");
  }
  o.padding = pairs_arg(padding, "conv");
  return ConvPadding::config;
}

TriangularTransform transform_arg(const std::string& s) {
  if (s == "none") return TriangularTransform::none;
  if (s == "transpose") return TriangularTransform::transpose;
  if (s == "conjugate_transpose") return TriangularTransform::conjugate_transpose;
  throw Error(
      "[triangular_solve] transform_a must be 'none', 'transpose' or "
      "'conjugate_transpose', got '" +
      s + "'");
}

// A (lhs, rhs) pair of axis lists, as jax.lax.dot_general's dimension numbers give them.
std::pair<Axes, Axes> axes_pair(py::handle obj, const char* what) {
  if (obj.is_none()) return {};
  const py::sequence s = py::reinterpret_borrow<py::sequence>(obj);
  if (!py::isinstance<py::sequence>(obj) || py::len(s) != 2) {
    throw TypeError(std::string("[dot] ") + what + " is a pair (axes of a, axes of b), got " +
                    py::repr(obj).cast<std::string>());
  }
  return {axes_arg(s[0]), axes_arg(s[1])};
}

py::object to_python(const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::signed_int:
      return py::int_(s.as<std::int64_t>());
    case Scalar::Kind::unsigned_int:
      return py::int_(s.as<std::uint64_t>());
    case Scalar::Kind::floating:
      return py::float_(s.as_double());
    case Scalar::Kind::complex:
      break;
  }
  const std::complex<double> c = s.as_complex();
  return py::reinterpret_steal<py::object>(PyComplex_FromDoubles(c.real(), c.imag()));
}

// What the function returned, as a literal: a Python number, or a NumPy scalar by its kind.
Scalar from_python(py::handle r) {
  if (is_python_scalar(r)) return scalar_arg(r, "reduce");
  if (py::hasattr(r, "dtype") && py::hasattr(r.attr("dtype"), "kind")) {
    const std::string kind = r.attr("dtype").attr("kind").cast<std::string>();
    const py::module_ builtins = py::module_::import("builtins");
    const char* as = kind == "c" ? "complex" : kind == "f" ? "float" : "int";
    if (kind == "c" || kind == "f" || kind == "i" || kind == "u" || kind == "b") {
      return scalar_arg(builtins.attr(as)(r), "reduce");
    }
  }
  throw TypeError("[reduce] the function must return a number, got " +
                  py::repr(r).cast<std::string>().substr(0, 80));
}

// A Python function as the C++ fold: the cpu runs it from its threads, each call taking the
// GIL (the op itself runs without it, or those threads could never have it). What fn raises
// reaches the caller as raised.
ReduceFunction python_fold(py::function fn) {
  auto held = std::shared_ptr<py::function>(new py::function(std::move(fn)), [](py::function* f) {
    py::gil_scoped_acquire gil;
    delete f;
  });
  return [held](Scalar element, Scalar acc) -> Scalar {
    py::gil_scoped_acquire gil;
    return from_python((*held)(to_python(element), to_python(acc)));
  };
}

}  // namespace

void register_option_ops(py::module_& m) {
  m.def(
      "dot",
      [](py::object a, py::object b, py::object contract_axes, py::object batch_axes,
         py::object preferred_element_type) {
        const Tensor x = tensor_arg(a), y = tensor_arg(b);
        std::optional<DType> preferred;
        if (!preferred_element_type.is_none()) preferred = dtype_arg(preferred_element_type);
        if (contract_axes.is_none() && batch_axes.is_none()) {
          return without_gil_if_long(largest({x, y}), [&] { return dot(x, y, preferred); });
        }
        if (contract_axes.is_none()) {
          throw TypeError("[dot] batch_axes needs contract_axes as well");
        }
        const auto [ca, cb] = axes_pair(contract_axes, "contract_axes");
        const auto [ba, bb] = axes_pair(batch_axes, "batch_axes");
        return without_gil_if_long(largest({x, y}),
                                   [&] { return dot(x, ca, ba, y, cb, bb, preferred); });
      },
      arg("a"), arg("b"), py::kw_only(), arg("contract_axes") = py::none(),
      arg("batch_axes") = py::none(), arg("preferred_element_type") = py::none(),
      "Nx.dot: a @ b, or over contract_axes=(axes of a, axes of b) with batch_axes likewise; "
      "preferred_element_type (JAX's) is the result's dtype, the operands converted to it "
      "first (float8 x float8 -> float32 multiplies exactly).");
  m.def(
      "conv",
      [](py::object input, py::object kernel, py::object strides, py::object padding,
         py::object input_dilation, py::object kernel_dilation, std::int64_t feature_group_size,
         std::int64_t batch_group_size, py::object input_permutation, py::object kernel_permutation,
         py::object output_permutation) {
        const Tensor x = tensor_arg(input), k = tensor_arg(kernel);
        ConvOptions o;
        o.strides = axes_arg(strides);
        o.padding_mode = conv_padding(padding, o);
        o.input_dilation = axes_arg(input_dilation);
        o.kernel_dilation = axes_arg(kernel_dilation);
        o.feature_group_size = feature_group_size;
        o.batch_group_size = batch_group_size;
        o.input_permutation = axes_arg(input_permutation);
        o.kernel_permutation = axes_arg(kernel_permutation);
        o.output_permutation = axes_arg(output_permutation);
        return without_gil_if_long(largest({x, k}), [&] { return conv(x, k, o); });
      },
      arg("input"), arg("kernel"), py::kw_only(), arg("strides") = py::none(),
      arg("padding") = py::none(), arg("input_dilation") = py::none(),
      arg("kernel_dilation") = py::none(), arg("feature_group_size") = 1,
      arg("batch_group_size") = 1, arg("input_permutation") = py::none(),
      arg("kernel_permutation") = py::none(), arg("output_permutation") = py::none(),
      "Nx.conv (cross-correlation); padding 'valid', 'same' or (lo, hi) per spatial axis.");
  m.def(
      "triangular_solve",
      [](py::object a, py::object b, bool left_side, bool lower, const std::string& transform) {
        const Tensor x = tensor_arg(a), y = tensor_arg(b);
        const TriangularSolveOptions o{left_side, lower, transform_arg(transform)};
        return without_gil_if_long(largest({x, y}), [&] { return triangular_solve(x, y, o); });
      },
      arg("a"), arg("b"), py::kw_only(), arg("left_side") = true, arg("lower") = true,
      arg("transform_a") = "none");
  using Scatter =
      Tensor (*)(const Tensor&, const Tensor&, Scalar, const Shape&, const WindowOptions&);
  using TensorInitScatter =
      Tensor (*)(const Tensor&, const Tensor&, const Tensor&, const Shape&, const WindowOptions&);
  using Scatters = std::pair<Scatter, TensorInitScatter>;
  for (const auto& [name, f] :
       {std::pair<const char*, Scatters>{"window_scatter_max",
                                         {&window_scatter_max, &window_scatter_max}},
        {"window_scatter_min", {&window_scatter_min, &window_scatter_min}}}) {
    m.def(
        name,
        [f = f](py::object x, py::object source, py::object init_value, py::object window,
                py::object strides, py::object padding, py::object dilations) {
          const Tensor t = tensor_arg(x), s = tensor_arg(source);
          const Axes w = axes_arg(window);
          const WindowOptions o = window_options(strides, padding, dilations);
          if (is_array_like(init_value)) {  // Nx's form: a rank-0 tensor, dtypes promoted
            const Tensor init = tensor_arg(init_value);
            return without_gil_if_long(t, [&] { return f.second(t, s, init, w, o); });
          }
          const Scalar init = scalar_arg(init_value, "window_scatter");
          return without_gil_if_long(t, [&] { return f.first(t, s, init, w, o); });
        },
        arg("x"), arg("source"), arg("init_value"), arg("window"), arg("strides") = py::none(),
        arg("padding") = py::none(), arg("dilations") = py::none());
  }
  using Transform2 = Tensor (*)(const Tensor&, const std::vector<std::int64_t>&, const Axes&);
  for (const auto& [name, f] :
       {std::pair<const char*, Transform2>{"fft2", &fft2}, {"ifft2", &ifft2}}) {
    m.def(
        name,
        [f = f](py::object x, py::object lengths, py::object axes) {
          const Tensor t = tensor_arg(x);
          const Axes l = axes_arg(lengths), a = axes_arg(axes);
          return without_gil_if_long(t, [&] { return f(t, l, a); });
        },
        arg("x"), arg("lengths") = py::none(), arg("axes") = py::make_tuple(-2, -1));
  }
  m.def(
      "to_batched",
      [](py::object x, std::int64_t batch_size, const std::string& leftover) {
        if (leftover != "repeat" && leftover != "discard") {
          throw Error("[to_batched] leftover must be 'repeat' or 'discard', got '" + leftover +
                      "'");
        }
        const Tensor t = tensor_arg(x);
        return to_batched(t, batch_size,
                          leftover == "repeat" ? Leftover::repeat : Leftover::discard);
      },
      arg("x"), arg("batch_size"), arg("leftover") = "repeat");
  m.def(
      "copy",
      [](py::object x, py::object device) {
        const Tensor t = tensor_arg(x);
        Backend& to = device.is_none() ? t.backend() : device.cast<Backend&>();
        return without_gil_if_long(t, [&] { return copy(t, to); });
      },
      arg("x"), arg("device") = py::none(), "A new tensor with its own memory, on `device`.");
  m.def(
      "reduce",
      [](py::object x, py::object acc, py::function fn, py::object axis, bool keepdims) {
        const Tensor t = tensor_arg(x);
        const Scalar a = scalar_arg(acc, "reduce");
        const Axes axes = axes_arg(axis);
        const ReduceFunction f = python_fold(std::move(fn));
        py::gil_scoped_release release;
        return reduce(t, a, f, axes, keepdims);
      },
      arg("x"), arg("acc"), arg("fn"), arg("axis") = py::none(), arg("keepdims") = false,
      "Nx.reduce: folds fn(element, acc) from acc over the axes, in row-major order.");
  m.def(
      "window_reduce",
      [](py::object x, py::object acc, py::object window, py::function fn, py::object strides,
         py::object padding, py::object dilations) {
        const Tensor t = tensor_arg(x);
        const Scalar a = scalar_arg(acc, "window_reduce");
        const Axes w = axes_arg(window);
        const WindowOptions o = window_options(strides, padding, dilations);
        const ReduceFunction f = python_fold(std::move(fn));
        py::gil_scoped_release release;
        return window_reduce(t, a, w, o, f);
      },
      arg("x"), arg("acc"), arg("window"), arg("fn"), arg("strides") = py::none(),
      arg("padding") = py::none(), arg("dilations") = py::none());
}

}  // namespace vkt::python
