// The extension module vktensor._vktensor: vktensor/__init__.py re-exports it.
#include "bindings.h"

PYBIND11_MODULE(_vktensor, m) {
  m.doc() = "vktensor: tensors on the cpu and on any Vulkan device, with honest transfer costs";
  vkt::python::register_errors(m);
  vkt::python::register_dtypes(m);
  vkt::python::register_runtime(m);
  vkt::python::register_tensor(m);
  vkt::python::register_ops(m);
  vkt::python::register_compile(m);
  vkt::python::register_grad(m);
  vkt::python::register_block(m);
  vkt::python::register_bench_hooks(m);
}
