// A hook for bench/peers/python_overhead.py: the same op called from a C++ loop, so the
// Python binding's cost per call is measured against the C++ call in the same process, on
// the same tensors. Not part of the API (underscore name).
#include <chrono>

#include "binary_ops.h"

namespace vkt::python {
namespace {

// Nanoseconds per call of `calls` back-to-back calls of op on (a[, b]); the results are
// dropped as the Python loop drops them.
double cpp_ns_per_call(const std::string& op_name_text, const Tensor& a, py::object b, int calls) {
  const Op op = op_from_name(op_name_text);
  const bool literal = is_python_scalar(b);
  const Scalar s = literal ? scalar_arg(b, "bench") : Scalar(0);
  const Tensor bt = b.is_none() || literal ? Tensor() : tensor_arg(b);
  py::gil_scoped_release release;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) {
    if (op == Op::sum) {
      (void)sum(a);
    } else if (op_family(op) == OpFamily::unary) {
      (void)unary(op, a);
    } else if (literal) {
      (void)binary_right_literal(op, a, s);
    } else {
      (void)binary(op, a, bt);
    }
  }
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / calls;
}

}  // namespace

void register_bench_hooks(py::module_& m) {
  m.def("_cpp_ns_per_call", &cpp_ns_per_call, py::arg("op"), py::arg("a"), py::arg("b"),
        py::arg("calls"));
}

}  // namespace vkt::python
