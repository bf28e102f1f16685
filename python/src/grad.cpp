// vt.vjp underneath vt.grad / vt.value_and_grad (vktensor/grad.py): the Python function runs
// once over the tracer's symbolic tensors, through vkt::vjp; the pullback is a Python
// callable. The function returns a tensor or a tuple or list of tensors.
#include "vkt/grad.h"

#include "bindings.h"

namespace vkt::python {
namespace {

std::vector<Tensor> results_of(py::handle r) {
  if (py::isinstance<Tensor>(r)) return {r.cast<Tensor>()};
  if (py::isinstance<py::tuple>(r) || py::isinstance<py::list>(r)) {
    std::vector<Tensor> out;
    for (py::handle t : r) {
      if (!py::isinstance<Tensor>(t)) {
        throw TypeError("[vjp] the function must return tensors, got a " +
                        py::str(py::type::of(t).attr("__name__")).cast<std::string>());
      }
      out.push_back(t.cast<Tensor>());
    }
    return out;
  }
  throw TypeError("[vjp] the function must return a tensor or a tuple or list of tensors, got " +
                  py::str(py::type::of(r).attr("__name__")).cast<std::string>());
}

// (outputs, pullback, returned_one): the outputs as a list, the pullback taking a list of
// cotangents, and whether f returned a lone tensor.
py::tuple vjp_of(py::function f, py::iterable primal_objects) {
  std::vector<Tensor> primals;
  for (py::handle p : primal_objects) primals.push_back(tensor_arg(p));
  bool returned_one = false;
  const TensorFunction traced = [&](const std::vector<Tensor>& symbolic) {
    py::tuple args(symbolic.size());
    for (std::size_t i = 0; i < symbolic.size(); ++i) args[i] = py::cast(symbolic[i]);
    const py::object r = f(*args);
    returned_one = py::isinstance<Tensor>(r);
    return results_of(r);
  };
  Vjp v = vjp(traced, primals);
  auto pullback = [pb = std::move(v.pullback)](py::iterable cotangents) {
    std::vector<Tensor> cts;
    for (py::handle c : cotangents) cts.push_back(tensor_arg(c));
    return pb(cts);
  };
  return py::make_tuple(v.outputs, py::cpp_function(pullback), returned_one);
}

}  // namespace

void register_grad(py::module_& m) {
  m.def("_vjp", &vjp_of, py::arg("f"), py::arg("primals"));
  m.def(
      "stop_gradient", [](const Tensor& t) { return stop_gradient(t); }, py::arg("x"),
      "x, through which no gradient flows: inside a function being differentiated, "
      "f(stop_gradient(x)) is a constant of x (jax.lax.stop_gradient).");
}

}  // namespace vkt::python
