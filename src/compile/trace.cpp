#include "compile/trace.h"

#include <atomic>
#include <cstring>
#include <string>

#include "vkt/error.h"

namespace vkt::detail {
namespace {

thread_local Trace* current_trace = nullptr;
std::atomic<std::uint64_t> next_trace_id{1};

// A symbolic tensor's storage: which trace and node it stands for. A constant (bytes a
// cpu tensor or literal brought into the trace) has no node until its first use.
class TraceStorage final : public Storage {
 public:
  TraceStorage(Backend& owner, std::size_t nbytes, std::uint64_t trace, int node)
      : Storage(owner, nbytes), trace_(trace), node_(node) {}
  std::uint64_t trace() const { return trace_; }
  std::vector<std::byte> bytes;
  int node_index() const { return node_; }
  void set_node(int n) { node_ = n; }
  bool stops_gradient = false;

 private:
  std::uint64_t trace_;
  int node_;
};

Trace& active_trace(std::uint64_t trace_id, const char* what) {
  if (current_trace == nullptr || current_trace->id() != trace_id) {
    throw Error(std::string("[compile] ") + what +
                ": a traced tensor was used outside the trace that made it (a symbolic "
                "tensor escaped the compiled function)");
  }
  return *current_trace;
}

class TracerBackend final : public Backend {
 public:
  std::string name() const override { return "trace"; }
  bool takes_every_call() const override { return true; }
  bool captures_device_tensors() const override { return true; }
  Tensor capture(const Tensor& t) override {
    if (current_trace == nullptr) active_trace(0, "capture");
    return current_trace->captured(t);
  }

  std::shared_ptr<Storage> from_host(const void* data, std::size_t nbytes) override {
    if (current_trace == nullptr) {
      throw Error("[compile] a tensor was moved to the tracer outside a trace");
    }
    auto s = std::make_shared<TraceStorage>(*this, nbytes, current_trace->id(), -1);
    s->bytes.resize(nbytes);
    if (nbytes != 0) std::memcpy(s->bytes.data(), data, nbytes);
    return s;
  }
  void to_host(const Storage&, std::size_t, void*, std::size_t) override {
    throw Error(
        "[compile] a traced tensor has no value yet: reading it (to_vector, item, to_cpu) "
        "inside a compiled function is not possible; return it instead");
  }
  bool supports(const OpCall&) const override { return true; }

  Tensor execute(const OpCall& call) override {
    Trace* trace = current_trace;
    if (trace == nullptr) active_trace(0, "execute");
    GraphNode node;
    node.kind = GraphNode::Kind::op;
    node.op = call.op;
    node.params = call.params;
    node.dtype = call.out_dtype;
    node.shape = call.out_shape;
    node.target_is_trace = call.inputs.empty() && call.target == this;
    for (const Tensor& t : call.inputs) node.args.push_back(trace->ref_of(t));
    Graph& g = trace->graph();
    g.nodes.push_back(std::move(node));
    return trace->symbolic(static_cast<int>(g.nodes.size()) - 1, call.out_dtype, call.out_shape);
  }
};

TracerBackend& tracer() {
  static TracerBackend b;
  return b;
}

}  // namespace

bool is_tracer(const Backend& b) {
  return &b == &tracer();
}

Tensor stop_gradient_in_trace(const Tensor& t) {
  const auto* s = t.defined() ? dynamic_cast<const TraceStorage*>(t.storage().get()) : nullptr;
  if (s == nullptr || current_trace == nullptr || current_trace->id() != s->trace()) return t;
  return current_trace->stopped(t);
}

Trace::Trace(const std::vector<Tensor>& inputs)
    : id_(next_trace_id.fetch_add(1)), previous_(current_trace) {
  current_trace = this;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    GraphNode n;
    n.kind = GraphNode::Kind::input;
    n.input = static_cast<int>(i);
    n.dtype = inputs[i].dtype();
    n.shape = inputs[i].shape();
    graph_.nodes.push_back(std::move(n));
    graph_.input_dtypes.push_back(inputs[i].dtype());
    graph_.input_shapes.push_back(inputs[i].shape());
    symbolic_.push_back(symbolic(static_cast<int>(i), inputs[i].dtype(), inputs[i].shape()));
  }
}

Trace::~Trace() {
  current_trace = previous_;
}

Tensor Trace::symbolic(int node, DType dtype, const Shape& shape) {
  const std::size_t bytes = static_cast<std::size_t>(numel(shape)) * itemsize(dtype);
  return Tensor(dtype, shape, std::make_shared<TraceStorage>(tracer(), bytes, id_, node));
}

ValueRef Trace::ref_of(const Tensor& t) {
  auto* s = dynamic_cast<TraceStorage*>(t.storage().get());
  if (s == nullptr) {
    throw Error("[compile] internal: an op on the tracer got a tensor of " + t.backend().name());
  }
  active_trace(s->trace(), "op");
  if (s->node_index() < 0) {  // a constant's first use fixes its dtype and shape
    GraphNode n;
    n.kind = GraphNode::Kind::constant;
    n.dtype = t.dtype();
    n.shape = t.shape();
    n.bytes = s->bytes;
    graph_.nodes.push_back(std::move(n));
    s->set_node(static_cast<int>(graph_.nodes.size()) - 1);
  }
  return {s->node_index(), t.dtype(), t.shape(), s->stops_gradient};
}

Tensor Trace::stopped(const Tensor& t) {
  const ValueRef ref = ref_of(t);
  const std::size_t bytes = static_cast<std::size_t>(numel(ref.shape)) * itemsize(ref.dtype);
  auto s = std::make_shared<TraceStorage>(tracer(), bytes, id_, ref.node);
  s->stops_gradient = true;
  return Tensor(ref.dtype, ref.shape, std::move(s));
}

Tensor Trace::captured(const Tensor& t) {
  for (const auto& [real, symbol] : captured_) {
    if (real.storage() == t.storage() && real.dtype() == t.dtype() && real.shape() == t.shape()) {
      return symbol;
    }
  }
  GraphNode n;
  n.kind = GraphNode::Kind::captured;
  n.dtype = t.dtype();
  n.shape = t.shape();
  n.captured = t;
  graph_.nodes.push_back(std::move(n));
  Tensor symbol = symbolic(static_cast<int>(graph_.nodes.size()) - 1, t.dtype(), t.shape());
  captured_.emplace_back(t, symbol);
  return symbol;
}

Graph Trace::finish(const std::vector<Tensor>& outputs) {
  for (const Tensor& t : outputs) {
    if (!t.defined()) throw Error("[compile] the function returned an empty tensor");
    if (is_tracer(t.backend())) {
      graph_.outputs.push_back(ref_of(t));
      continue;
    }
    GraphNode n;  // a real tensor returned as is (captured, or made without the inputs)
    n.kind = GraphNode::Kind::captured;
    n.dtype = t.dtype();
    n.shape = t.shape();
    n.captured = t;
    graph_.nodes.push_back(std::move(n));
    graph_.outputs.push_back({static_cast<int>(graph_.nodes.size()) - 1, t.dtype(), t.shape()});
  }
  return std::move(graph_);
}

}  // namespace vkt::detail
