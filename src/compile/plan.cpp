#include "compile/plan.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <functional>
#include <future>
#include <map>
#include <sstream>

#include "compile/node_rules.h"
#include "core/checks.h"
#include "core/dispatch.h"
#include "core/legacy_policy.h"
#include "vkt/backend.h"
#include "vkt/ledger.h"
#include "vkt/ops.h"

namespace vkt::detail {
namespace {

// A value read by several groups is recomputed in each, up to this many, instead of written
// once and read back (softmax's exp(x - max) feeds both its sum and its division).
constexpr std::size_t kMaxRecomputes = 3;

// The backend a signature's device-bound steps run on: the first input not on the cpu.
Backend* device_of(const std::vector<Tensor>& inputs) {
  for (const Tensor& t : inputs) {
    if (!t.backend().is_cpu()) return &t.backend();
  }
  return nullptr;
}

}  // namespace

// The op table's fuse column.
bool fusible_op(Op op) {
  return op_fusion(op) == Fusion::elementwise;
}

bool reduction_op(Op op) {
  return op_fusion(op) == Fusion::reduction;
}

Plan::Plan(Graph graph, Backend& where) : graph_(std::move(graph)), caps_(fusion_caps(where)) {
  merge_common_subexpressions();
  const std::size_t n = graph_.nodes.size();
  std::vector<bool> live(n, false);
  for (const ValueRef& r : graph_.outputs) live[static_cast<std::size_t>(r.node)] = true;
  for (std::size_t i = n; i-- > 0;) {
    if (!live[i]) continue;
    for (const ValueRef& a : graph_.nodes[i].args) live[static_cast<std::size_t>(a.node)] = true;
  }
  constants_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const GraphNode& node = graph_.nodes[i];
    if (node.kind == GraphNode::Kind::constant && live[i]) {
      constants_[i] = from_bytes(node.bytes, node.dtype, node.shape, &cpu());
    }
  }
  build_groups(live);

  // Each value is dropped after the last step that reads it (outputs are kept).
  std::vector<int> last_read(n, -1);
  auto reads = [&](int node, int step) { last_read[static_cast<std::size_t>(node)] = step; };
  for (std::size_t s = 0; s < steps_.size(); ++s) {
    const Step& st = steps_[s];
    if (st.fused) {
      for (const ValueRef& r : groups_[static_cast<std::size_t>(st.index)]->leaves)
        reads(r.node, static_cast<int>(s));
    } else {
      for (const ValueRef& r : graph_.nodes[static_cast<std::size_t>(st.index)].args)
        reads(r.node, static_cast<int>(s));
    }
  }
  for (const ValueRef& r : graph_.outputs) last_read[static_cast<std::size_t>(r.node)] = -1;
  release_after_.resize(steps_.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (last_read[i] >= 0 && graph_.nodes[i].kind == GraphNode::Kind::op)
      release_after_[static_cast<std::size_t>(last_read[i])].push_back(static_cast<int>(i));
  }
}

// Identical constants and identical parameterless ops over the same values become one node.
void Plan::merge_common_subexpressions() {
  std::vector<int> alias(graph_.nodes.size());
  std::map<std::string, int> seen;
  for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
    alias[i] = static_cast<int>(i);
    GraphNode& node = graph_.nodes[i];
    for (ValueRef& a : node.args) a.node = alias[static_cast<std::size_t>(a.node)];
    std::string key;
    if (node.kind == GraphNode::Kind::constant) {
      key = "c" + std::string(dtype_name(node.dtype)) + shape_str(node.shape) + ":" +
            std::string(reinterpret_cast<const char*>(node.bytes.data()), node.bytes.size());
    } else if (node.kind == GraphNode::Kind::op && std::holds_alternative<NoParams>(node.params) &&
               (fusible_op(node.op) || node.op == Op::copy)) {
      key = "o" + std::string(op_name(node.op)) + std::string(dtype_name(node.dtype)) +
            shape_str(node.shape);
      for (const ValueRef& a : node.args) key += "," + ref_key(a);
    } else {
      continue;
    }
    const auto [it, inserted] = seen.emplace(std::move(key), static_cast<int>(i));
    if (!inserted) alias[i] = it->second;
  }
  for (ValueRef& r : graph_.outputs) r.node = alias[static_cast<std::size_t>(r.node)];
}

// Walking back from the sinks, an elementwise node joins its consumers' group when every
// consumer is in that one group and sees its exact dtype and shape: then nobody outside the
// group reads it and, unless it is an output (written by the same kernel, where it has the
// group's shape), it is never written. Where the backend fuses reductions, a reduction roots
// a group whose elementwise prologue joins it the same way; where it recomputes, a
// non-output value whose exact-view consumers are all in 2 to kMaxRecomputes groups is
// recomputed in each of them. Otherwise
// it roots a group of its own (written once). Each group has one root, reached from every
// member; its other written values are read by no step, and a recomputed value is written
// by none, so groups never form a cycle.
void Plan::build_groups(const std::vector<bool>& live) {
  const std::size_t n = graph_.nodes.size();
  std::vector<std::vector<std::pair<int, bool>>> consumers(n);  // (consumer, exact view)
  std::vector<bool> is_output(n, false);
  for (const ValueRef& r : graph_.outputs) is_output[static_cast<std::size_t>(r.node)] = true;
  for (std::size_t i = 0; i < n; ++i) {
    if (!live[i]) continue;
    for (const ValueRef& a : graph_.nodes[i].args) {
      const auto p = static_cast<std::size_t>(a.node);
      consumers[p].emplace_back(static_cast<int>(i), same_view(a, graph_.nodes[p]));
    }
  }
  groups_of_.assign(n, {});
  root_of_.assign(n, -1);
  auto new_group = [&](std::size_t i, bool reducing) {
    const int g = static_cast<int>(groups_.size());
    groups_.push_back(std::make_unique<Group>());
    groups_.back()->root = static_cast<int>(i);
    groups_.back()->reduction = reducing;
    groups_.back()->written.push_back(static_cast<int>(i));
    return g;
  };
  std::vector<std::vector<int>> row_sets;
  const std::vector<int> row_set_of = find_row_groups(live, row_sets);
  for (std::size_t i = n; i-- > 0;) {
    if (!live[i]) continue;
    const GraphNode& node = graph_.nodes[i];
    if (row_set_of[i] >= 0) {  // a row group, made at its last node (the others follow it)
      const int set_index = row_set_of[i];
      const std::vector<int>& set = row_sets[static_cast<std::size_t>(set_index)];
      if (static_cast<int>(i) != set.back()) continue;
      const int g = new_group(i, false);
      Group& rg = *groups_[static_cast<std::size_t>(g)];
      rg.rows = true;
      for (auto it = set.rbegin(); it != set.rend(); ++it) {
        const auto m = static_cast<std::size_t>(*it);
        groups_of_[m] = {g};
        rg.members.push_back(*it);
        if (reduction(graph_.nodes[m])) rg.row_shape = graph_.nodes[m].args.at(0).shape;
        bool read_outside = is_output[m];
        for (const auto& consumer : consumers[m])
          read_outside =
              read_outside || row_set_of[static_cast<std::size_t>(consumer.first)] != set_index;
        if (m != i && read_outside) rg.written.push_back(*it);
      }
      root_of_[i] = g;
      continue;
    }
    if (caps_.reductions && reduction(node)) {
      const int g = new_group(i, true);
      groups_of_[i] = {g};
      root_of_[i] = g;
      groups_[static_cast<std::size_t>(g)]->members.push_back(static_cast<int>(i));
      continue;
    }
    if (!fusible(node)) continue;
    // The groups of every consumer, when all see the exact view and are in some group.
    std::vector<int> joined;
    bool all_grouped = !consumers[i].empty();
    for (const auto& [c, exact] : consumers[i]) {
      const std::vector<int>& gs = groups_of_[static_cast<std::size_t>(c)];
      if (!exact || gs.empty()) {
        all_grouped = false;
        break;
      }
      for (int g : gs) {
        if (std::find(joined.begin(), joined.end(), g) == joined.end()) joined.push_back(g);
      }
    }
    if (!all_grouped) joined.clear();
    // A row group takes prologues of its rows' shape only (or one element): a value of
    // another shape could be meant per row or per column where rows and columns match.
    const bool off_rows = std::any_of(joined.begin(), joined.end(), [&](int g) {
      const Group& jg = *groups_[static_cast<std::size_t>(g)];
      return jg.rows && node.shape != jg.row_shape && numel(node.shape) != 1;
    });
    if (off_rows) joined.clear();
    if (joined.size() > 1 && (!caps_.recompute || is_output[i] || joined.size() > kMaxRecomputes))
      joined.clear();
    // Without recomputation, a reduction's input that later steps read too is written by
    // the reduction's kernel as it reduces it (one pass over the prologue, not two).
    if (joined.empty() && !caps_.recompute) {
      int reducer = -1;
      for (const auto& [c, exact] : consumers[i]) {
        const int g = root_of_[static_cast<std::size_t>(c)];
        if (exact && g >= 0 && groups_[static_cast<std::size_t>(g)]->reduction &&
            graph_.nodes[static_cast<std::size_t>(c)].args.at(0).node == static_cast<int>(i)) {
          if (reducer < 0) reducer = c;  // the earliest: later steps read the value
        }
      }
      bool later = reducer >= 0;
      for (const auto& [c, exact] : consumers[i]) later = later && (c == reducer || c > reducer);
      if (later) {
        joined.push_back(root_of_[static_cast<std::size_t>(reducer)]);
        groups_[static_cast<std::size_t>(joined[0])]->written.push_back(static_cast<int>(i));
        std::sort(joined.begin(), joined.end());
        groups_of_[i] = joined;
        groups_[static_cast<std::size_t>(joined[0])]->members.push_back(static_cast<int>(i));
        continue;
      }
    }
    // An output joins only where it has the group's shape: the kernel writes it as well.
    if (joined.size() == 1 && is_output[i]) {
      Group& g = *groups_[static_cast<std::size_t>(joined[0])];
      if (g.reduction ||
          graph_.nodes[static_cast<std::size_t>(g.root)].shape != graph_.nodes[i].shape) {
        joined.clear();
      } else {
        g.written.push_back(static_cast<int>(i));
      }
    }
    if (joined.empty()) {
      joined.push_back(new_group(i, false));
      root_of_[i] = joined[0];
    }
    std::sort(joined.begin(), joined.end());
    groups_of_[i] = joined;
    for (int g : joined)
      groups_[static_cast<std::size_t>(g)]->members.push_back(static_cast<int>(i));
  }
  for (auto& g : groups_) {
    if (g->rows) {  // prologues joined after the set: graph order is an evaluation order
      std::sort(g->members.begin(), g->members.end());
      build_row_description(*g);
      continue;
    }
    std::reverse(g->members.begin(), g->members.end());
    if (g->members.size() > 1) build_group_description(*g);
  }
  const std::vector<bool> folded = form_dot_groups(consumers, is_output);
  for (std::size_t i = 0; i < n; ++i) {
    if (!live[i] || graph_.nodes[i].kind != GraphNode::Kind::op || folded[i]) continue;
    const int g = root_of_[i];
    if (g >= 0 && groups_[static_cast<std::size_t>(g)]->dot >= 0) {
      steps_.push_back({true, g});
    } else if (groups_of_[i].empty() ||
               (g >= 0 && groups_[static_cast<std::size_t>(g)]->members.size() == 1)) {
      steps_.push_back({false, static_cast<int>(i)});
    } else if (g >= 0) {
      steps_.push_back({true, g});
    }
  }
}

void Plan::build_group_description(Group& g, std::map<int, int> value_of_member) {
  FusedGroup& d = g.desc;
  const GraphNode& root = graph_.nodes[static_cast<std::size_t>(g.root)];
  // A reduction's group evaluates its prologue over the reduction's input.
  d.shape = g.reduction ? root.args.at(0).shape : root.shape;
  std::map<std::string, int> value_of_leaf;
  for (int m : g.members) {
    if (g.reduction && m == g.root) break;  // last: reduces the prologue's root
    const GraphNode& node = graph_.nodes[static_cast<std::size_t>(m)];
    if (node.op == Op::broadcast) {  // implicit: the argument's value, broadcast as a leaf is
      const ValueRef& a = node.args.at(0);
      const auto it = value_of_member.find(a.node);
      value_of_member[m] =
          it != value_of_member.end() ? it->second : leaf_value(g, value_of_leaf, a, false);
      continue;
    }
    FusedValue v = op_value(node);
    for (const ValueRef& a : node.args) {
      const auto it = value_of_member.find(a.node);  // members of this group only
      v.args.push_back(it != value_of_member.end() ? it->second
                                                   : leaf_value(g, value_of_leaf, a, false));
    }
    d.values.push_back(std::move(v));
    value_of_member[m] = static_cast<int>(d.values.size()) - 1;
  }
  if (g.reduction) {
    const auto& p = std::get<ReduceParams>(root.params);
    d.reduce = FusedReduce{root.op, p.axes, p.keep_axes, root.dtype, root.shape};
    d.outputs.push_back(value_of_member.at(root.args.at(0).node));
    for (std::size_t k = 1; k < g.written.size(); ++k)
      d.outputs.push_back(value_of_member.at(g.written[k]));
    return;
  }
  for (int w : g.written) d.outputs.push_back(value_of_member.at(w));
}

int Plan::leaf_value(Group& g, std::map<std::string, int>& value_of_leaf, const ValueRef& r,
                     bool per_row) const {
  const std::string key = ref_key(r);
  if (auto it = value_of_leaf.find(key); it != value_of_leaf.end()) return it->second;
  const GraphNode& src = graph_.nodes[static_cast<std::size_t>(r.node)];
  FusedGroup& d = g.desc;
  FusedValue v;
  v.dtype = r.dtype;
  v.shape = r.shape;
  v.per_row = per_row;
  if (src.kind == GraphNode::Kind::constant && numel(r.shape) == 1) {
    v.kind = FusedValue::Kind::scalar;  // a literal: inlined, no buffer
    v.scalar = src.bytes;
  } else {
    v.kind = FusedValue::Kind::leaf;
    v.leaf = static_cast<int>(g.leaves.size());
    g.leaves.push_back(r);
    d.leaf_dtypes.push_back(r.dtype);
    d.leaf_shapes.push_back(r.shape);
  }
  d.values.push_back(std::move(v));
  const int index = static_cast<int>(d.values.size()) - 1;
  value_of_leaf.emplace(key, index);
  return index;
}

Tensor Plan::resolve(const ValueRef& ref, const std::vector<Tensor>& values) const {
  const auto i = static_cast<std::size_t>(ref.node);
  const GraphNode& node = graph_.nodes[i];
  Tensor t;
  switch (node.kind) {
    case GraphNode::Kind::constant:
      t = constants_[i];
      break;
    case GraphNode::Kind::captured:
      t = node.captured;
      break;
    default:
      t = values[i];
      break;
  }
  if (!t.defined())
    throw Error("[compile] internal: value of node " + std::to_string(i) + " missing");
  // The traced alias (a user's bitcast, or the core's u8 view of a narrow dtype's codes).
  if (ref.dtype != t.dtype()) t = Tensor(ref.dtype, t.shape(), t.storage());
  if (ref.shape != t.shape()) t = reshape(t, ref.shape);
  return t;
}

Tensor Plan::run_node(int index, std::vector<Tensor>& values, Backend* device) const {
  const GraphNode& node = graph_.nodes[static_cast<std::size_t>(index)];
  OpCall call{node.op, {}, node.params, node.dtype, node.shape, nullptr};
  for (const ValueRef& a : node.args) call.inputs.push_back(resolve(a, values));
  if (node.target_is_trace) call.target = device != nullptr ? device : &cpu();
  return dispatch(std::move(call));
}

FusedKernel* Plan::kernel_for(Group& g, Backend& b) {
  std::lock_guard lock(g.mutex);
  auto it = g.kernels.find(&b);
  if (it == g.kernels.end()) it = g.kernels.emplace(&b, compile_fused(b, g.desc)).first;
  return it->second.get();
}

// The device creates the pipelines an ordinary step's op will use (its args stand-ins).
void Plan::prepare_node(int index, Backend& b) const {
  const GraphNode& node = graph_.nodes[static_cast<std::size_t>(index)];
  OpCall call{node.op, {}, node.params, node.dtype, node.shape, nullptr};
  for (const ValueRef& a : node.args) {
    const std::size_t bytes = static_cast<std::size_t>(numel(a.shape)) * itemsize(a.dtype);
    call.inputs.emplace_back(a.dtype, a.shape, std::make_shared<Storage>(b, bytes));
  }
  try {
    b.prepare(call);
  } catch (const Error&) {
    // Only preparation: the step's own run reports the problem where it happens.
  }
}

// Shader compilation and pipeline creation are most of a first call: the groups' kernels
// for the device are compiled, and the other steps' pipelines created, at once, one thread
// each, before the first run needs them one after another.
void Plan::precompile(Backend& b) {
  if (!legacy_policy().native) return;  // the legacy path runs groups unfused
  const PhaseTimer timed(ledger::Phase::precompile);
  std::vector<std::function<void()>> tasks;
  for (const Step& st : steps_) {
    if (st.fused) {
      Group* g = groups_[static_cast<std::size_t>(st.index)].get();
      tasks.emplace_back([this, g, &b] {
        // A dot group its backend cannot fuse runs its epilogue's own group instead.
        if (kernel_for(*g, b) != nullptr || !g->epilogue) return;
        prepare_node(g->dot, b);
        if (g->epilogue->members.size() > 1) kernel_for(*g->epilogue, b);
      });
      continue;
    }
    // An ordinary dispatch: the device prepares its pipelines meanwhile.
    if (graph_.nodes[static_cast<std::size_t>(st.index)].target_is_trace) continue;
    tasks.emplace_back([this, index = st.index, &b] { prepare_node(index, b); });
  }
  if (tasks.empty()) return;
  // All but the last on threads of their own; the last here (a one-step plan starts none).
  std::vector<std::future<void>> pending;
  for (std::size_t k = 0; k + 1 < tasks.size(); ++k)
    pending.push_back(std::async(std::launch::async, tasks[k]));
  std::exception_ptr failure;
  try {
    tasks.back()();
  } catch (...) {
    failure = std::current_exception();
  }
  for (auto& p : pending) {
    try {
      p.get();
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

void Plan::run_group(Group& g, std::vector<Tensor>& values, Backend* device) {
  std::vector<Tensor> leaves;
  for (const ValueRef& r : g.leaves) leaves.push_back(resolve(r, values));
  check_backends("compile", leaves);
  // A fused kernel reads its leaves without dispatch: claim them here instead (a tensor
  // the function captured may have been deallocated since the trace).
  std::vector<StorageUse> uses;
  for (const Tensor& t : leaves) uses.push_back(use_bytes("compile", t));
  Backend* b = &cpu();
  for (const Tensor& t : leaves) {
    if (!t.backend().is_cpu()) b = &t.backend();
  }
  if (leaves.empty() && device != nullptr) b = device;
  // The legacy path measures what eager dispatches cost: no fused kernels there (a backend
  // without a fallback policy has no legacy path).
  FusedKernel* kernel =
      (b->takes_every_call() || legacy_policy().native) ? kernel_for(g, *b) : nullptr;
  if (kernel != nullptr && !kernel->runs_without_waiting()) kernel = nullptr;
  if (kernel == nullptr && g.dot >= 0) {
    run_unfused_dot(g, values, device);
    return;
  }
  if (kernel == nullptr) {
    for (int m : g.members) values[static_cast<std::size_t>(m)] = run_node(m, values, device);
    for (int m : g.members) {
      if (std::find(g.written.begin(), g.written.end(), m) == g.written.end())
        values[static_cast<std::size_t>(m)] = Tensor();
    }
    return;
  }
  for (Tensor& t : leaves) t = transfer(t, *b);
  std::vector<Tensor> out = kernel->run(leaves);
  for (std::size_t k = 0; k < g.written.size(); ++k)
    values[static_cast<std::size_t>(g.written[k])] = std::move(out.at(k));
}

std::vector<Tensor> Plan::run(const std::vector<Tensor>& inputs) {
  std::vector<Tensor> values(graph_.nodes.size());
  for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
    const GraphNode& node = graph_.nodes[i];
    if (node.kind == GraphNode::Kind::input)
      values[i] = inputs.at(static_cast<std::size_t>(node.input));
  }
  Backend* device = device_of(inputs);
  if (device != nullptr) std::call_once(precompiled_, [&] { precompile(*device); });
  for (std::size_t s = 0; s < steps_.size(); ++s) {
    const Step& st = steps_[s];
    if (st.fused) {
      run_group(*groups_[static_cast<std::size_t>(st.index)], values, device);
    } else {
      values[static_cast<std::size_t>(st.index)] = run_node(st.index, values, device);
    }
    for (int dead : release_after_[s]) values[static_cast<std::size_t>(dead)] = Tensor();
  }
  std::vector<Tensor> out;
  for (const ValueRef& r : graph_.outputs) out.push_back(resolve(r, values));
  return out;
}

std::size_t Plan::fused_groups() const {
  std::size_t n = 0;
  for (const Step& s : steps_) n += s.fused ? 1 : 0;
  return n;
}

std::string Plan::describe() const {
  std::ostringstream s;
  s << graph_.describe();
  s << "steps (" << steps_.size() << "):\n";
  for (const Step& st : steps_) {
    if (!st.fused) {
      s << "  dispatch %" << st.index << " "
        << op_name(graph_.nodes[static_cast<std::size_t>(st.index)].op) << "\n";
      continue;
    }
    const Group& g = *groups_[static_cast<std::size_t>(st.index)];
    s << "  fused " << (g.dot >= 0 ? "dot " : "") << "group " << st.index << " -> %" << g.root
      << " (" << g.members.size() << " ops, " << g.leaves.size() << " leaves):\n"
      << g.desc.describe();
  }
  return s.str();
}

}  // namespace vkt::detail
