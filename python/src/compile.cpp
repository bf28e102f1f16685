// @vt.compile: a Python function of tensors traced once per signature through the C++
// tracer (the same plans, fused kernels and cache as vkt::compile), then replayed. Tensor and
// NumPy arguments are traced; every other argument (numbers, axes, strings) is part of the
// signature, as vkt::compile's scalars are. Tuples, lists and dicts of arguments are walked
// (the tensors in them traced), and the function returns a tensor or tuples and lists of them,
// nested as vt.value_and_grad's (value, gradients in the parameters' structure) is.
#include "vkt/compile.h"

#include <algorithm>
#include <functional>
#include <map>
#include <utility>

#include "bindings.h"

namespace vkt::python {
namespace {

bool is_tensor_like(py::handle a) {
  return py::isinstance<Tensor>(a) || py::isinstance<py::array>(a);
}
bool is_sequence(py::handle a) {
  return py::isinstance<py::tuple>(a) || py::isinstance<py::list>(a);
}

// An argument keyed by its repr must hold no tensor in its attributes: a tensor's repr
// prints its first elements only, so two such arguments could share a plan and its
// constants (a wrong answer); the tensors would not be traced either.
void refuse_hidden_tensors(py::handle a) {
  if (!py::hasattr(a, "__dict__")) return;
  for (auto item : py::reinterpret_borrow<py::dict>(a.attr("__dict__"))) {
    if (is_tensor_like(item.second)) {
      throw TypeError("[compile] an argument of type " +
                      py::str(py::type::of(a).attr("__name__")).cast<std::string>() +
                      " holds a tensor in ." + py::str(item.first).cast<std::string>() +
                      ": pass tensors directly or in tuples, lists or dicts");
    }
  }
}

// A result's structure: the same tuples, lists and dicts with None where each tensor was.
py::object structure_of(py::handle r, std::vector<Tensor>& flat) {
  if (py::isinstance<Tensor>(r)) {
    flat.push_back(r.cast<Tensor>());
    return py::none();
  }
  if (py::isinstance<py::dict>(r)) {
    py::dict items;
    for (auto item : py::reinterpret_borrow<py::dict>(r)) {
      items[item.first] = structure_of(item.second, flat);
    }
    return items;
  }
  if (!is_sequence(r)) {
    throw TypeError("[compile] the function returned a " +
                    py::str(py::type::of(r).attr("__name__")).cast<std::string>() +
                    "; it must return a tensor, or tuples, lists or dicts of tensors");
  }
  py::list items;
  for (py::handle item : r) items.append(structure_of(item, flat));
  return py::isinstance<py::tuple>(r) ? py::object(py::tuple(items)) : py::object(items);
}

py::object rebuild(py::handle structure, const std::vector<Tensor>& out, std::size_t& next) {
  if (structure.is_none()) return py::cast(out.at(next++));
  if (py::isinstance<py::dict>(structure)) {
    py::dict items;
    for (auto item : py::reinterpret_borrow<py::dict>(structure)) {
      items[item.first] = rebuild(item.second, out, next);
    }
    return items;
  }
  py::list items;
  for (py::handle item : structure) items.append(rebuild(item, out, next));
  return py::isinstance<py::tuple>(structure) ? py::object(py::tuple(items)) : py::object(items);
}

class Compiled {
 public:
  explicit Compiled(py::function fn)
      : fn_(std::move(fn)), cache_(std::make_shared<detail::CompileCache>()) {}

  py::object call(const py::args& args, const py::kwargs& kwargs) {
    std::vector<Tensor> inputs;
    std::string key;
    // Positional and keyword arguments in a fixed order: tensors become inputs, the rest
    // the signature (by repr, with its type, so 1 and 1.0 differ).
    std::function<void(py::handle)> take = [&](py::handle a) {
      if (is_tensor_like(a)) {
        inputs.push_back(tensor_arg(a));
        key += "T;";
      } else if (is_sequence(a)) {
        key += py::isinstance<py::tuple>(a) ? "(" : "[";
        for (py::handle item : a) take(item);
        key += ")";
      } else if (py::isinstance<py::dict>(a)) {  // in its order: keys are the signature's
        key += "{";
        for (auto item : py::reinterpret_borrow<py::dict>(a)) {
          key += py::repr(item.first).cast<std::string>() + ":";
          take(item.second);
        }
        key += "}";
      } else {
        refuse_hidden_tensors(a);
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
      py::gil_scoped_acquire gil;  // released around the cache's call below
      std::size_t next = 0;
      std::function<py::object(py::handle)> swap_in = [&](py::handle a) -> py::object {
        if (is_tensor_like(a)) return py::cast(traced.at(next++));
        if (is_sequence(a)) {
          py::list items;
          for (py::handle item : a) items.append(swap_in(item));
          return py::isinstance<py::tuple>(a) ? py::object(py::tuple(items)) : py::object(items);
        }
        if (py::isinstance<py::dict>(a)) {
          py::dict traced_dict;
          for (auto item : py::reinterpret_borrow<py::dict>(a)) {
            traced_dict[item.first] = swap_in(item.second);
          }
          return traced_dict;
        }
        return py::reinterpret_borrow<py::object>(a);
      };
      py::list call_args;
      for (py::handle a : args) call_args.append(swap_in(a));
      py::dict call_kwargs;
      for (const std::string& n : names) call_kwargs[py::str(n)] = swap_in(kwargs[py::str(n)]);
      const py::object result = fn_(*call_args, **call_kwargs);
      std::vector<Tensor> flat;
      results_[signature] = structure_of(result, flat);
      return flat;
    };
    std::vector<Tensor> out;
    {
      // The cache's lock is waited for without the GIL: a thread tracing this function holds
      // that lock and needs the GIL for the Python body, so two threads calling it at once
      // deadlocked (one tracing a new shape, the other waiting for the lock with the GIL).
      py::gil_scoped_release released;
      out = cache_->call(key, inputs, trace);
    }
    std::size_t next = 0;
    return rebuild(results_.at(signature), out, next);
  }

  std::string describe() const { return cache_->describe_last(); }
  std::size_t plans() const { return cache_->plans(); }

 private:
  py::function fn_;
  std::shared_ptr<detail::CompileCache> cache_;
  std::map<std::string, py::object> results_;  // each signature's result structure
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
