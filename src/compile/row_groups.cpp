// Row groups: reductions over the last axis of a shape S whose results elementwise values
// broadcast back along that axis (softmax's max and sum, layer norm's mean and variance)
// become one group that a backend runs a row at a time: each row read once, reduced on
// chip, its consumers evaluated and written. Found before the other groups (plan.cpp).
#include <algorithm>
#include <map>

#include "compile/node_rules.h"
#include "compile/plan.h"

namespace vkt::detail {
namespace {

Shape stripped(const Shape& s) {
  std::size_t k = 0;
  while (k < s.size() && s[k] == 1) ++k;
  return Shape(s.begin() + static_cast<std::ptrdiff_t>(k), s.end());
}

// A per-row value's shapes: the reduced axis kept (as 1) or dropped.
Shape kept_row(const Shape& s) {
  Shape k = s;
  k.back() = 1;
  return k;
}
Shape dropped_row(const Shape& s) {
  return Shape(s.begin(), s.end() - 1);
}

bool row_shaped(const Shape& v, const Shape& s) {
  return stripped(v) == stripped(kept_row(s)) || stripped(v) == stripped(dropped_row(s));
}

// A per-row value of the dropped form ({R} for rows {R, L}): its outside operands align
// to it, not to S, so the group reads them reshaped with a trailing 1.
bool dropped_form(const Shape& v, const Shape& s) {
  return v != s && stripped(v) == stripped(dropped_row(s)) && stripped(v) != stripped(kept_row(s));
}

bool float_dtype(DType d) {
  return d == DType::f16 || d == DType::bf16 || d == DType::f32 || d == DType::f64;
}

// A reduction a row group takes: over the last axis alone, of rows of at most max_row
// elements, a float input to its own dtype (sum, product, max, min), or any/all to u8.
bool row_reduction(const GraphNode& n, std::int64_t max_row) {
  if (!reduction(n)) return false;
  const Axes& axes = std::get<ReduceParams>(n.params).axes;
  const Shape& s = n.args.at(0).shape;
  const auto last = static_cast<std::int64_t>(s.size()) - 1;
  if (s.empty() || axes.size() != 1 || axes[0] != last) return false;
  const std::int64_t len = s.back(), total = numel(s);
  if (len < 1 || total < 1 || len > max_row || total >= (std::int64_t{1} << 31)) return false;
  const DType in = n.args[0].dtype;
  if (is_complex(in)) return false;
  if (n.op == Op::any || n.op == Op::all) return n.dtype == DType::u8;
  return float_dtype(in) && n.dtype == in;
}

}  // namespace

// From each row reduction not yet taken, the set grows by every live node that reads it
// (or reads what joined) per row: elementwise values of shape S that read members exactly
// or per-row members as {..., 1}, per-row values of a per-row shape, further row
// reductions of S; and by row reductions of S and per-row values that a member reads
// (layer norm's sum of squares beside its sum). A set is kept when no node outside it reads a
// member before its last node (where the group runs), so groups stay in dependency order.
std::vector<int> Plan::find_row_groups(const std::vector<bool>& live,
                                       std::vector<std::vector<int>>& sets) const {
  const std::size_t n = graph_.nodes.size();
  std::vector<int> set_of(n, -1);
  if (caps_.max_row <= 0) return set_of;
  std::vector<std::vector<std::size_t>> consumers(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!live[i]) continue;
    for (const ValueRef& a : graph_.nodes[i].args)
      consumers[static_cast<std::size_t>(a.node)].push_back(i);
  }
  for (std::size_t r = 0; r < n; ++r) {
    if (!live[r] || set_of[r] >= 0 || !row_reduction(graph_.nodes[r], caps_.max_row)) continue;
    const Shape s = graph_.nodes[r].args[0].shape;
    std::vector<char> in(n, 0), per_row(n, 0);
    in[r] = per_row[r] = 1;
    // Whether node j may join the set as it stands.
    auto joins = [&](std::size_t j) {
      const GraphNode& node = graph_.nodes[j];
      if (row_reduction(node, caps_.max_row) && node.args[0].shape == s) {
        const ValueRef& a = node.args[0];
        const auto src = static_cast<std::size_t>(a.node);
        if (in[src]) return !per_row[src] && same_view(a, graph_.nodes[src]);
        return std::any_of(consumers[j].begin(), consumers[j].end(),
                           [&](std::size_t c) { return in[c] != 0; });
      }
      if (!fusible(node) || is_complex(node.dtype)) return false;
      const bool element = node.shape == s;
      if (!element && !row_shaped(node.shape, s)) return false;
      // A per-row value a member reads joins too (layer norm's E[x^2] before mean^2).
      bool any_member = !element && std::any_of(consumers[j].begin(), consumers[j].end(),
                                                [&](std::size_t c) { return in[c] != 0; });
      for (const ValueRef& a : node.args) {
        const auto src = static_cast<std::size_t>(a.node);
        if (!in[src]) continue;
        any_member = true;
        const Shape& view = a.shape;
        if (per_row[src]) {
          // A per-row member read as another shape of its rows, never through a bitcast
          // (the group evaluates the member's own dtype).
          if (a.dtype != graph_.nodes[src].dtype ||
              stripped(view) != stripped(element ? kept_row(s) : node.shape)) {
            return false;
          }
        } else if (!element || !same_view(a, graph_.nodes[src])) {
          return false;
        }
      }
      return any_member;
    };
    for (bool grew = true; grew;) {
      grew = false;
      for (std::size_t j = 0; j < n; ++j) {
        if (in[j] || !live[j] || set_of[j] >= 0 || !joins(j)) continue;
        in[j] = 1;
        per_row[j] = reduction(graph_.nodes[j]) || graph_.nodes[j].shape != s;
        grew = true;
      }
    }
    std::vector<int> members;
    for (std::size_t j = 0; j < n; ++j) {
      if (in[j]) members.push_back(static_cast<int>(j));
    }
    if (members.size() < 2) continue;
    const auto root = static_cast<std::size_t>(members.back());
    bool ordered = true;
    for (int m : members) {
      for (std::size_t c : consumers[static_cast<std::size_t>(m)])
        ordered = ordered && (in[c] || c > root);
    }
    if (!ordered) continue;
    for (int m : members) set_of[static_cast<std::size_t>(m)] = static_cast<int>(sets.size());
    sets.push_back(std::move(members));
  }
  return set_of;
}

void Plan::build_row_description(Group& g) {
  FusedGroup& d = g.desc;
  d.rows = true;
  d.shape = g.row_shape;
  const Shape& s = g.row_shape;
  std::map<int, int> value_of_member;
  std::map<std::string, int> value_of_leaf;
  auto row_leaf_value = [&](ValueRef r, const Shape& consumer) {
    if (dropped_form(consumer, s)) {  // aligned to the consumer's rows: one more axis, 1
      Shape view(consumer.size() - std::min(consumer.size(), r.shape.size()), 1);
      view.insert(view.end(), r.shape.begin(), r.shape.end());
      view.push_back(1);
      r.shape = view;
    }
    const bool per_row = r.shape.empty() || numel(r.shape) == 1 ||
                         (r.shape.size() <= s.size() && r.shape.back() == 1);
    return leaf_value(g, value_of_leaf, r, per_row);
  };
  auto operand = [&](const ValueRef& a, const Shape& consumer) {
    const auto it = value_of_member.find(a.node);
    return it != value_of_member.end() ? it->second : row_leaf_value(a, consumer);
  };
  for (int m : g.members) {
    const GraphNode& node = graph_.nodes[static_cast<std::size_t>(m)];
    if (node.op == Op::broadcast) {  // implicit: its argument's value
      value_of_member[m] = operand(node.args.at(0), node.shape);
      continue;
    }
    FusedValue v = op_value(node);
    v.per_row = true;
    for (const ValueRef& a : node.args) {
      v.args.push_back(operand(a, node.shape));
      v.per_row = v.per_row && d.values[static_cast<std::size_t>(v.args.back())].per_row;
    }
    if (reduction(node)) v.per_row = true;
    d.values.push_back(std::move(v));
    value_of_member[m] = static_cast<int>(d.values.size()) - 1;
  }
  for (int w : g.written) {
    d.outputs.push_back(value_of_member.at(w));
    d.output_shapes.push_back(graph_.nodes[static_cast<std::size_t>(w)].shape);
  }
}

}  // namespace vkt::detail
