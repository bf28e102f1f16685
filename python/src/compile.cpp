// @vt.compile: a Python function of tensors traced once per signature through the C++
// tracer (the same plans, fused kernels and cache as vkt::compile), then replayed. Tensor and
// NumPy arguments are traced; every other argument (numbers, axes, strings) is part of the
// signature, as vkt::compile's scalars are. The function returns a tensor or a tuple or list
// of tensors.
#include "vkt/compile.h"

#include <algorithm>
#include <map>
#include <utility>

#include "bindings.h"

namespace vkt::python {
namespace {

enum class ResultForm : std::uint8_t { single, tuple, list };

class Compiled {
 public:
  explicit Compiled(py::function fn)
      : fn_(std::move(fn)), cache_(std::make_shared<detail::CompileCache>()) {}

  py::object call(const py::args& args, const py::kwargs& kwargs) {
    std::vector<Tensor> inputs;
    std::string key;
    // Positional and keyword arguments in a fixed order: tensors become inputs, the rest
    // the signature (by repr, with its type, so 1 and 1.0 differ).
    const auto take = [&](py::handle a) {
      if (py::isinstance<Tensor>(a) || py::isinstance<py::array>(a)) {
        inputs.push_back(tensor_arg(a));
        key += "T;";
      } else {
        key += py::str(py::type::of(a).attr("__name__")).cast<std::string>() + ":" +
               py::repr(a).cast<std::string>() + ";";
      }
    };
    for (py::handle a : args) take(a);
    std::vector<std::string> names;
    for (auto item : kwargs) names.push_back(item.first.cast<std::string>());
    std::sort(names.begin(), names.end());
    for (const std::string& n : names) {
      key += n + "=";
      take(kwargs[py::str(n)]);
    }
    std::string signature = key;
    for (const Tensor& t : inputs) {
      signature += std::string(dtype_name(t.dtype())) + shape_str(t.shape()) + "@" +
                   t.backend().name() + ";";
    }
    const auto trace = [&](const std::vector<Tensor>& traced) {
      std::size_t next = 0;
      const auto swap_in = [&](py::handle a) -> py::object {
        if (py::isinstance<Tensor>(a) || py::isinstance<py::array>(a)) {
          return py::cast(traced.at(next++));
        }
        return py::reinterpret_borrow<py::object>(a);
      };
      py::list call_args;
      for (py::handle a : args) call_args.append(swap_in(a));
      py::dict call_kwargs;
      for (const std::string& n : names) call_kwargs[py::str(n)] = swap_in(kwargs[py::str(n)]);
      const py::object result = fn_(*call_args, **call_kwargs);
      return flatten(result, signature);
    };
    const std::vector<Tensor> out = cache_->call(key, inputs, trace);
    return rebuild(out, results_.at(signature));
  }

  std::string describe() const { return cache_->describe_last(); }
  std::size_t plans() const { return cache_->plans(); }

 private:
  std::vector<Tensor> flatten(const py::object& r, const std::string& signature) {
    std::vector<Tensor> flat;
    ResultForm form = ResultForm::single;
    if (py::isinstance<Tensor>(r)) {
      flat.push_back(r.cast<Tensor>());
    } else if (py::isinstance<py::tuple>(r) || py::isinstance<py::list>(r)) {
      form = py::isinstance<py::tuple>(r) ? ResultForm::tuple : ResultForm::list;
      for (py::handle item : r) {
        if (!py::isinstance<Tensor>(item)) {
          throw TypeError("[compile] the function returned a " +
                          py::str(py::type::of(item).attr("__name__")).cast<std::string>() +
                          " among its results; it must return tensors");
        }
        flat.push_back(item.cast<Tensor>());
      }
    } else {
      throw TypeError("[compile] the function returned a " +
                      py::str(py::type::of(r).attr("__name__")).cast<std::string>() +
                      "; it must return a tensor, or a tuple or list of tensors");
    }
    results_[signature] = form;
    return flat;
  }

  static py::object rebuild(const std::vector<Tensor>& out, ResultForm form) {
    if (form == ResultForm::single) return py::cast(out.at(0));
    py::list items;
    for (const Tensor& t : out) items.append(py::cast(t));
    return form == ResultForm::tuple ? py::object(py::tuple(items)) : py::object(items);
  }

  py::function fn_;
  std::shared_ptr<detail::CompileCache> cache_;
  std::map<std::string, ResultForm> results_;  // each signature's result structure
};

}  // namespace

void register_compile(py::module_& m) {
  py::class_<Compiled>(m, "Compiled", "A function compiled by vt.compile.")
      .def("__call__", &Compiled::call)
      .def("describe", &Compiled::describe, "The plan of the last signature traced, as text.")
      .def_property_readonly("plans", &Compiled::plans);
  m.def(
      "compile", [](py::function fn) { return Compiled(std::move(fn)); }, py::arg("fn"),
      "Traces fn once per signature (dtypes, shapes, devices, non-tensor arguments), fuses "
      "it as vkt::compile does, and replays the plan on later calls.");
}

}  // namespace vkt::python
