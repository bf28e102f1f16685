// vt.block, vt.register_block, vt.has_block (Nx.block): Python functions as a block's
// fallback or as a device's own implementation. A registered function keeps a reference
// to its Python callable, released under the GIL (or left, once the interpreter is gone).
#include "vkt/block.h"

#include <memory>

#include "bindings.h"

namespace vkt::python {
namespace {

std::vector<Tensor> block_results(const std::string& kind, py::handle r) {
  if (py::isinstance<Tensor>(r)) return {r.cast<Tensor>()};
  std::vector<Tensor> out;
  if (py::isinstance<py::tuple>(r) || py::isinstance<py::list>(r)) {
    for (py::handle t : r) {
      if (!py::isinstance<Tensor>(t)) break;
      out.push_back(t.cast<Tensor>());
    }
    if (out.size() == py::len(r)) return out;
  }
  throw TypeError("[block " + kind + "] the function must return a tensor or a tuple or list " +
                  "of tensors, got " + py::repr(r).cast<std::string>());
}

// A Python callable as a BlockFunction, callable from any thread.
BlockFunction from_python(const std::string& kind, py::function f) {
  auto held = std::shared_ptr<py::function>(new py::function(std::move(f)), [](py::function* p) {
    if (Py_IsInitialized() == 0) return;  // the interpreter is gone: nothing to release into
    const py::gil_scoped_acquire gil;
    delete p;
  });
  return [kind, held](const std::vector<Tensor>& inputs) {
    const py::gil_scoped_acquire gil;
    py::tuple args(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) args[i] = py::cast(inputs[i]);
    return block_results(kind, (*held)(*args));
  };
}

}  // namespace

void register_block(py::module_& m) {
  m.def(
      "block",
      [](const std::string& kind, py::iterable inputs, py::function fallback) {
        std::vector<Tensor> in;
        for (py::handle x : inputs) in.push_back(tensor_arg(x));
        return vkt::block(kind, in, from_python(kind, std::move(fallback)));
      },
      py::arg("kind"), py::arg("inputs"), py::arg("fallback"),
      "Nx.block: the inputs' device's own implementation of `kind` where it registered one, "
      "else fallback(*inputs). Returns a list of tensors. Under vt.compile and vt.grad the "
      "fallback runs.");
  m.def(
      "register_block",
      [](Backend& device, const std::string& kind, py::object implementation) {
        vkt::register_block(device, kind,
                            implementation.is_none()
                                ? BlockFunction()
                                : from_python(kind, implementation.cast<py::function>()));
      },
      py::arg("device"), py::arg("kind"), py::arg("implementation"),
      "Makes implementation(*inputs) the device's own for block `kind` (None removes it).");
  m.def(
      "has_block",
      [](const Backend& device, const std::string& kind) { return vkt::has_block(device, kind); },
      py::arg("device"), py::arg("kind"));
}

}  // namespace vkt::python
