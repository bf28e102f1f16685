// vkt::vjp, grad and value_and_grad: trace f, run its graph forward on the primals keeping
// every value, then walk the graph backwards applying each op's rule (rules.h).
#include <string>

#include "compile/trace.h"
#include "core/dispatch.h"
#include "grad/rules.h"
#include "vkt/backend/op_info.h"
#include "vkt/grad.h"
#include "vkt/ops.h"

namespace vkt::detail {

Rule rule_of(Op op) {
  for (const auto lookup : {elementwise_rule, structural_rule, indexing_rule, window_rule,
                            linalg_rule, spectral_rule}) {
    if (const Rule r = lookup(op)) return r;
  }
  return nullptr;
}

}  // namespace vkt::detail

namespace vkt {
namespace {

using detail::Graph;
using detail::GraphNode;
using detail::ValueRef;

// Complex values carry one too, in Nx's convention (docs/grad.md): dL/dx - i dL/dy.
bool carries_gradient(DType d) {
  return is_float(d) || is_complex(d);
}

// A value as one use saw it: reshape and bitcast alias storage without an op (so does the
// core's u8 view of a narrow dtype's codes, which bitcast itself refuses).
Tensor as_seen(const Tensor& t, const ValueRef& ref) {
  Tensor v = t;
  if (ref.dtype != v.dtype()) v = Tensor(ref.dtype, v.shape(), v.storage());
  if (ref.shape != v.shape()) v = reshape(v, ref.shape);
  return v;
}

// The recorded function and every node's value at the primals.
struct Recording {
  Graph graph;
  std::vector<Tensor> values;
  std::vector<Tensor> primals;
};

Recording record(const TensorFunction& f, const std::vector<Tensor>& primals) {
  Recording r;
  r.primals = primals;
  for (const Tensor& p : primals) {
    if (!p.defined()) throw Error("[grad] a primal is an empty (default-constructed) tensor");
  }
  {
    detail::Trace trace(primals);
    const std::vector<Tensor> outputs = f(trace.symbolic_inputs());
    r.graph = trace.finish(outputs);
  }
  Backend* device = &cpu();
  for (const Tensor& p : primals) {
    if (!p.backend().is_cpu()) device = &p.backend();
  }
  r.values.resize(r.graph.nodes.size());
  for (std::size_t i = 0; i < r.graph.nodes.size(); ++i) {
    const GraphNode& n = r.graph.nodes[i];
    switch (n.kind) {
      case GraphNode::Kind::input:
        r.values[i] = primals.at(static_cast<std::size_t>(n.input));
        break;
      case GraphNode::Kind::constant:
        r.values[i] = from_bytes(n.bytes, n.dtype, n.shape, &cpu());
        break;
      case GraphNode::Kind::captured:
        r.values[i] = n.captured;
        break;
      case GraphNode::Kind::op: {
        OpCall call{n.op, {}, n.params, n.dtype, n.shape, nullptr};
        for (const ValueRef& a : n.args) {
          call.inputs.push_back(as_seen(r.values[static_cast<std::size_t>(a.node)], a));
        }
        if (n.target_is_trace) call.target = device;
        r.values[i] = detail::dispatch(std::move(call));
        break;
      }
    }
  }
  return r;
}

// Per node: whether its value depends on a differentiated primal, through uses a gradient
// crosses. Only those need a cotangent: the rest (data, labels, constants, whatever is
// computed from them alone) get none, as JAX's linearize leaves them out of the backward
// pass, so no rule runs for a branch that cannot reach an argnum.
std::vector<bool> differentiated(const Graph& graph, const std::vector<bool>& primals) {
  std::vector<bool> wanted(graph.nodes.size(), false);
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const GraphNode& n = graph.nodes[i];
    if (n.kind == GraphNode::Kind::input) {
      const auto p = static_cast<std::size_t>(n.input);
      wanted[i] = p < primals.size() && primals[p] && carries_gradient(n.dtype);
      continue;
    }
    if (n.kind != GraphNode::Kind::op || !carries_gradient(n.dtype)) continue;
    for (const ValueRef& a : n.args) {
      if (!a.stops_gradient && a.dtype == graph.nodes[static_cast<std::size_t>(a.node)].dtype &&
          wanted[static_cast<std::size_t>(a.node)]) {
        wanted[i] = true;
      }
    }
  }
  return wanted;
}

// Node i's rule applied to its cotangent, each input's share passed to `accumulate`.
template <class Accumulate>
void pull_back_node(const Recording& r, std::size_t i, const std::vector<Tensor>& cot,
                    const std::vector<bool>& wanted, const Accumulate& accumulate) {
  const GraphNode& n = r.graph.nodes[i];
  // A creation op (no inputs: full, iota, eye on the traced backend) is a constant.
  if (n.kind != GraphNode::Kind::op || !cot[i].defined() || n.args.empty()) return;
  // The factorizations' and solves' rules are written for real values (their complex forms
  // are Hermitian, which needs conjugates their rules do not take); dot's transpose is right.
  if (op_info(n.op).family == OpFamily::linalg && n.op != Op::dot) {
    bool complex_values = is_complex(n.dtype);
    for (const ValueRef& a : n.args) complex_values = complex_values || is_complex(a.dtype);
    if (complex_values) {
      throw Unsupported("[grad] " + std::string(op_name(n.op)) +
                        ": derivatives of complex values are not written yet");
    }
  }
  if (op_info(n.op).grad == Grad::zero) return;
  const detail::Rule rule = op_info(n.op).grad == Grad::diff ? detail::rule_of(n.op) : nullptr;
  if (rule == nullptr) {
    throw Unsupported("[grad] " + std::string(op_name(n.op)) +
                      (op_info(n.op).grad == Grad::none ? " has no derivative"
                                                        : ": its derivative is not written yet"));
  }
  std::vector<Tensor> in;
  std::vector<bool> args_wanted;
  for (const ValueRef& a : n.args) {
    in.push_back(as_seen(r.values[static_cast<std::size_t>(a.node)], a));
    args_wanted.push_back(!a.stops_gradient && wanted[static_cast<std::size_t>(a.node)]);
  }
  const std::vector<Tensor> grads = rule({n, in, r.values[i], cot[i], args_wanted});
  for (std::size_t j = 0; j < n.args.size() && j < grads.size(); ++j)
    accumulate(n.args[j], grads[j]);
}

// release: a one-shot pullback (grad, value_and_grad) drops each node's value and cotangent
// once its own rule has run (every use of it came later in the graph, so was already
// walked), so the backward pass holds what is still ahead, not the whole forward pass.
// primals: which primals are differentiated; the rest get no cotangent (undefined) and no
// backward work.
std::vector<Tensor> pull_back(Recording& r, const std::vector<Tensor>& cotangents,
                              const std::vector<bool>& primals, bool release) {
  const Graph& graph = r.graph;
  const std::vector<bool> wanted = differentiated(graph, primals);
  if (cotangents.size() != graph.outputs.size()) {
    throw Error("[vjp] the pullback takes one cotangent per output: " +
                std::to_string(graph.outputs.size()) + ", got " +
                std::to_string(cotangents.size()));
  }
  std::vector<Tensor> cot(graph.nodes.size());
  // Adds g, the cotangent of one use, into its node's (no gradient crosses a bitcast).
  const auto accumulate = [&](const ValueRef& use, const Tensor& g) {
    const GraphNode& n = graph.nodes[static_cast<std::size_t>(use.node)];
    if (!g.defined() || use.stops_gradient || !carries_gradient(n.dtype) || use.dtype != n.dtype ||
        !wanted[static_cast<std::size_t>(use.node)]) {
      return;
    }
    Tensor& sum = cot[static_cast<std::size_t>(use.node)];
    const Tensor shaped = as_type(reshape(g, n.shape), n.dtype);
    sum = sum.defined() ? add(sum, shaped) : shaped;
  };
  for (std::size_t k = 0; k < cotangents.size(); ++k) {
    const ValueRef& out = graph.outputs[k];
    if (!cotangents[k].defined() || cotangents[k].shape() != out.shape) {
      throw ShapeError("[vjp] cotangent " + std::to_string(k) + " must have its output's shape " +
                       shape_str(out.shape) +
                       (cotangents[k].defined() ? ", got " + shape_str(cotangents[k].shape())
                                                : ", got an empty tensor"));
    }
    accumulate(out, cotangents[k]);
  }
  const std::size_t inputs = r.primals.size();
  for (std::size_t i = graph.nodes.size(); i-- > 0;) {
    pull_back_node(r, i, cot, wanted, accumulate);
    if (release && i >= inputs) {
      r.values[i] = Tensor();
      cot[i] = Tensor();
    }
  }
  // A differentiated primal no path reaches gets zeros; the others nothing (no fill).
  std::vector<Tensor> out;
  for (std::size_t p = 0; p < r.primals.size(); ++p) {
    const Tensor& primal = r.primals[p];
    if (cot[p].defined() || !primals[p]) {
      out.push_back(cot[p]);
    } else {
      out.push_back(full(primal.shape(), 0, primal.dtype(), &primal.backend()));
    }
  }
  return out;
}

std::vector<int> chosen(const std::vector<int>& argnums, std::size_t count) {
  std::vector<int> picks = argnums;
  if (picks.empty()) {
    for (std::size_t i = 0; i < count; ++i) picks.push_back(static_cast<int>(i));
  }
  for (int a : picks) {
    if (a < 0 || static_cast<std::size_t>(a) >= count) {
      throw Error("[grad] argnums names primal " + std::to_string(a) + " of " +
                  std::to_string(count));
    }
  }
  return picks;
}

}  // namespace

Vjp vjp(const TensorFunction& f, const std::vector<Tensor>& primals) {
  auto r = std::make_shared<Recording>(record(f, primals));
  Vjp result;
  for (const ValueRef& out : r->graph.outputs) {
    result.outputs.push_back(as_seen(r->values[static_cast<std::size_t>(out.node)], out));
  }
  result.pullback = [r](const std::vector<Tensor>& cotangents) {
    const std::vector<bool> every(r->primals.size(), true);
    return pull_back(*r, cotangents, every, false);  // callable again: the values stay
  };
  return result;
}

std::pair<Tensor, std::vector<Tensor>> value_and_grad(const TensorFunction& f,
                                                      const std::vector<Tensor>& primals,
                                                      const std::vector<int>& argnums) {
  const std::vector<int> picks = chosen(argnums, primals.size());
  Recording r = record(f, primals);
  std::vector<Tensor> outputs;
  for (const ValueRef& out : r.graph.outputs) {
    outputs.push_back(as_seen(r.values[static_cast<std::size_t>(out.node)], out));
  }
  if (outputs.size() != 1 || outputs[0].rank() != 0 || !is_float(outputs[0].dtype())) {
    throw Error("[grad] the function must return one float scalar (rank 0), got " +
                std::to_string(outputs.size()) + " outputs" +
                (outputs.empty() ? std::string()
                                 : ", the first " + std::string(dtype_name(outputs[0].dtype())) +
                                       shape_str(outputs[0].shape())));
  }
  const Tensor value = outputs[0];
  std::vector<bool> differentiate(primals.size(), false);
  for (int a : picks) differentiate[static_cast<std::size_t>(a)] = true;
  const std::vector<Tensor> all =
      pull_back(r, {full({}, 1, value.dtype(), &value.backend())}, differentiate, true);
  std::vector<Tensor> grads;
  for (int a : picks) grads.push_back(all[static_cast<std::size_t>(a)]);
  return {value, grads};
}

std::vector<Tensor> grad(const TensorFunction& f, const std::vector<Tensor>& primals,
                         const std::vector<int>& argnums) {
  return value_and_grad(f, primals, argnums).second;
}

TensorFunction grad(TensorFunction f, std::vector<int> argnums) {
  return [f = std::move(f), argnums = std::move(argnums)](const std::vector<Tensor>& primals) {
    return grad(f, primals, argnums);
  };
}

TensorFunction value_and_grad(TensorFunction f, std::vector<int> argnums) {
  return [f = std::move(f), argnums = std::move(argnums)](const std::vector<Tensor>& primals) {
    auto [value, grads] = value_and_grad(f, primals, argnums);
    grads.insert(grads.begin(), std::move(value));
    return grads;
  };
}

Tensor stop_gradient(const Tensor& t) {
  return detail::stop_gradient_in_trace(t);
}

}  // namespace vkt
