// Tracing: the traced function runs over symbolic tensors owned by the tracer backend,
// whose execute() records each validated OpCall in a Graph and returns another symbolic
// tensor. The core's validation and shape/dtype rules run unchanged.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "compile/graph.h"
#include "vkt/tensor.h"

namespace vkt::detail {

// True for the tracer backend (dispatch sends every call on it straight to execute()).
bool is_tracer(const Backend& b);
// t through a use no cotangent crosses, when t is a value of the current trace; else t.
Tensor stop_gradient_in_trace(const Tensor& t);

// One trace on this thread: makes the symbolic inputs, records calls until finish().
class Trace {
 public:
  Trace(const std::vector<Tensor>& inputs);
  ~Trace();
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;

  const std::vector<Tensor>& symbolic_inputs() const { return symbolic_; }
  // The graph with these outputs (symbolic tensors, or real ones kept as captured values).
  Graph finish(const std::vector<Tensor>& outputs);

  // For the tracer backend.
  Graph& graph() { return graph_; }
  std::uint64_t id() const { return id_; }
  ValueRef ref_of(const Tensor& t);
  // t's value through a use that no cotangent crosses (vkt::stop_gradient): no op.
  Tensor stopped(const Tensor& t);
  // A device tensor an op reads without the function taking it: a captured value (a constant
  // of the trace, no copy), the same node for each use of the same tensor.
  Tensor captured(const Tensor& t);
  Tensor symbolic(int node, DType dtype, const Shape& shape);

 private:
  Graph graph_;
  std::vector<Tensor> symbolic_;
  std::vector<std::pair<Tensor, Tensor>> captured_;  // a device tensor, its symbolic value
  std::uint64_t id_;
  Trace* previous_;
};

}  // namespace vkt::detail
