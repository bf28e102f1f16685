// Small rules about graph nodes that the planner's passes share (plan.cpp, row_groups.cpp).
#pragma once

#include <string>

#include "compile/fused_group.h"
#include "compile/graph.h"

namespace vkt::detail {

inline bool same_view(const ValueRef& r, const GraphNode& n) {
  return r.dtype == n.dtype && r.shape == n.shape;
}

inline std::string ref_key(const ValueRef& r) {
  return std::to_string(r.node) + ":" + std::string(dtype_name(r.dtype)) + shape_str(r.shape);
}

// A broadcast that aligns the input's axes to the right of the output's (what implicit
// broadcasting does): in a group, where every value is evaluated per element of the
// group's shape with leaves broadcast the same way, it is the identity.
inline bool implicit_broadcast(const GraphNode& n) {
  if (n.kind != GraphNode::Kind::op || n.op != Op::broadcast || n.args.size() != 1) return false;
  const Axes& map = std::get<BroadcastParams>(n.params).axes;
  const auto in_rank = static_cast<std::int64_t>(n.args[0].shape.size());
  const auto out_rank = static_cast<std::int64_t>(n.shape.size());
  if (static_cast<std::int64_t>(map.size()) != in_rank) return false;
  for (std::int64_t i = 0; i < in_rank; ++i) {
    if (map[static_cast<std::size_t>(i)] != out_rank - in_rank + i) return false;
  }
  return true;
}

// Narrow dtypes run op by op: no fused kernel reads or writes their codes.
inline bool touches_narrow(const GraphNode& n) {
  if (is_narrow(n.dtype)) return true;
  for (const auto& a : n.args) {
    if (is_narrow(a.dtype)) return true;
  }
  return false;
}

inline bool fusible(const GraphNode& n) {
  return n.kind == GraphNode::Kind::op && !touches_narrow(n) &&
         (fusible_op(n.op) || implicit_broadcast(n));
}

// The group's value that node n's op computes; the caller adds its arguments.
inline FusedValue op_value(const GraphNode& n) {
  FusedValue v;
  v.kind = FusedValue::Kind::op;
  v.op = n.op;
  v.dtype = n.dtype;
  v.shape = n.shape;
  return v;
}

inline bool reduction(const GraphNode& n) {
  return n.kind == GraphNode::Kind::op && reduction_op(n.op) &&
         std::holds_alternative<ReduceParams>(n.params);
}

}  // namespace vkt::detail
