// Dot groups: a dot whose result C only an elementwise group reads (an MLP layer's bias and
// activation) becomes one group with that epilogue, which a backend runs as its dot kernel
// applying the epilogue to each C value before the store: C itself is written only when it
// is a plan output too. Formed after the other groups (plan.cpp), from the elementwise
// group the dot's consumers joined; that group is kept to run after an ordinary dot where
// the backend cannot fuse the two.
#include <algorithm>
#include <map>

#include "compile/node_rules.h"
#include "compile/plan.h"

namespace vkt::detail {
namespace {

bool dot_dtype(DType d) {
  return d == DType::f16 || d == DType::bf16 || d == DType::f32 || d == DType::f64;
}

}  // namespace

FusedGroup epilogue_only(const FusedGroup& dot_group) {
  const FusedValue& dot = dot_group.values.at(static_cast<std::size_t>(dot_group.dot));
  std::vector<int> operand_leaves;
  for (int a : dot.args)
    operand_leaves.push_back(dot_group.values[static_cast<std::size_t>(a)].leaf);
  auto is_operand = [&](int leaf) {
    return std::find(operand_leaves.begin(), operand_leaves.end(), leaf) != operand_leaves.end();
  };
  FusedGroup e;
  e.shape = dot_group.shape;
  std::vector<int> new_leaf(dot_group.leaf_dtypes.size(), -1);
  for (std::size_t k = 0; k < dot_group.leaf_dtypes.size(); ++k) {
    if (is_operand(static_cast<int>(k))) continue;
    new_leaf[k] = static_cast<int>(e.leaf_dtypes.size());
    e.leaf_dtypes.push_back(dot_group.leaf_dtypes[k]);
    e.leaf_shapes.push_back(dot_group.leaf_shapes[k]);
  }
  std::vector<int> new_value(dot_group.values.size(), -1);
  for (std::size_t k = 0; k < dot_group.values.size(); ++k) {
    FusedValue v = dot_group.values[k];
    if (v.kind == FusedValue::Kind::leaf && is_operand(v.leaf)) continue;
    if (static_cast<int>(k) == dot_group.dot) {  // C: the last leaf
      v.kind = FusedValue::Kind::leaf;
      v.args.clear();
      v.leaf = static_cast<int>(dot_group.leaf_dtypes.size() - operand_leaves.size());
    } else if (v.kind == FusedValue::Kind::leaf) {
      v.leaf = new_leaf[static_cast<std::size_t>(v.leaf)];
    }
    for (int& a : v.args) a = new_value[static_cast<std::size_t>(a)];
    new_value[k] = static_cast<int>(e.values.size());
    e.values.push_back(std::move(v));
  }
  e.leaf_dtypes.push_back(dot.dtype);
  e.leaf_shapes.push_back(dot_group.shape);
  for (int o : dot_group.outputs) e.outputs.push_back(new_value[static_cast<std::size_t>(o)]);
  return e;
}

// A dot qualifies when its float result, of the group's shape, is read (in its exact view)
// by members of one plain elementwise group and by nothing else but the plan's outputs.
std::vector<bool> Plan::form_dot_groups(
    const std::vector<std::vector<std::pair<int, bool>>>& consumers,
    const std::vector<bool>& is_output) {
  const std::size_t n = graph_.nodes.size();
  std::vector<bool> folded(n, false);
  if (!caps_.dot_epilogues) return folded;
  for (std::size_t i = 0; i < n; ++i) {
    const GraphNode& dot = graph_.nodes[i];
    if (dot.kind != GraphNode::Kind::op || op_fusion(dot.op) != Fusion::dot ||
        !dot_dtype(dot.dtype) || consumers[i].empty())
      continue;
    int group = -1;
    bool alone = true;
    for (const auto& consumer : consumers[i]) {
      const std::vector<int>& gs = groups_of_[static_cast<std::size_t>(consumer.first)];
      alone = alone && consumer.second && gs.size() == 1 && (group < 0 || gs[0] == group);
      if (!alone) break;
      group = gs[0];
    }
    if (!alone) continue;
    const auto gi = static_cast<std::size_t>(group);
    const Group& plain = *groups_[gi];
    if (plain.rows || plain.reduction || plain.dot >= 0 ||
        graph_.nodes[static_cast<std::size_t>(plain.root)].shape != dot.shape)
      continue;
    auto g = std::make_unique<Group>();
    g->root = plain.root;
    g->members = plain.members;
    g->written = plain.written;
    if (is_output[i]) g->written.push_back(static_cast<int>(i));
    g->dot = static_cast<int>(i);
    g->epilogue = std::move(groups_[gi]);
    groups_[gi] = std::move(g);
    build_dot_description(*groups_[gi]);
    folded[i] = true;
  }
  return folded;
}

// Leaves 0 and 1 are the dot's operands (read by the dot, not broadcast), value 2 the dot,
// then the epilogue as build_group_description makes it, C standing for the dot node.
void Plan::build_dot_description(Group& g) {
  const GraphNode& dot = graph_.nodes[static_cast<std::size_t>(g.dot)];
  FusedGroup& d = g.desc;
  for (const ValueRef& r : dot.args) {
    FusedValue v;
    v.kind = FusedValue::Kind::leaf;
    v.dtype = r.dtype;
    v.shape = r.shape;
    v.leaf = static_cast<int>(g.leaves.size());
    g.leaves.push_back(r);
    d.leaf_dtypes.push_back(r.dtype);
    d.leaf_shapes.push_back(r.shape);
    d.values.push_back(std::move(v));
  }
  FusedValue c = op_value(dot);
  c.args = {0, 1};
  d.values.push_back(std::move(c));
  d.dot = 2;
  d.dot_params = std::get<DotParams>(dot.params);
  build_group_description(g, {{g.dot, d.dot}});
}

void Plan::run_unfused_dot(Group& g, std::vector<Tensor>& values, Backend* device) {
  const auto c = static_cast<std::size_t>(g.dot);
  values[c] = run_node(g.dot, values, device);
  Group& e = *g.epilogue;
  if (e.members.size() > 1) {
    run_group(e, values, device);
  } else {
    values[static_cast<std::size_t>(e.root)] = run_node(e.root, values, device);
  }
  if (std::find(g.written.begin(), g.written.end(), g.dot) == g.written.end()) values[c] = Tensor();
}

}  // namespace vkt::detail
