// Text forms of graphs and fused groups (VKT_COMPILE_DUMP, Plan::describe).
#include <sstream>

#include "compile/fused_group.h"
#include "compile/graph.h"

namespace vkt::detail {
namespace {

std::string view(DType d, const Shape& s) {
  return std::string(dtype_name(d)) + shape_str(s);
}

}  // namespace

std::string Graph::describe() const {
  std::ostringstream s;
  s << "graph (" << nodes.size() << " nodes):\n";
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const GraphNode& n = nodes[i];
    s << "  %" << i << " " << view(n.dtype, n.shape) << " = ";
    switch (n.kind) {
      case GraphNode::Kind::input:
        s << "input " << n.input;
        break;
      case GraphNode::Kind::constant:
        s << "constant (" << n.bytes.size() << " bytes)";
        break;
      case GraphNode::Kind::captured:
        s << "captured tensor on " << n.captured.backend().name();
        break;
      case GraphNode::Kind::op:
        s << op_name(n.op);
        for (const ValueRef& a : n.args) {
          s << " %" << a.node;
          const GraphNode& src = nodes[static_cast<std::size_t>(a.node)];
          if (a.dtype != src.dtype || a.shape != src.shape) s << " as " << view(a.dtype, a.shape);
        }
        break;
    }
    s << "\n";
  }
  s << "  outputs:";
  for (const ValueRef& r : outputs) s << " %" << r.node;
  s << "\n";
  return s.str();
}

std::string FusedGroup::describe() const {
  std::ostringstream s;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const FusedValue& v = values[i];
    s << "    v" << i << " " << view(v.dtype, v.shape) << " = ";
    switch (v.kind) {
      case FusedValue::Kind::leaf:
        s << "leaf " << v.leaf;
        break;
      case FusedValue::Kind::scalar:
        s << "scalar";
        break;
      case FusedValue::Kind::op:
        s << op_name(v.op);
        for (int a : v.args) s << " v" << a;
        break;
    }
    if (rows && v.per_row) s << " (per row)";
    s << "\n";
  }
  if (reduce) {
    s << "    reduces v" << outputs.at(0) << " by " << op_name(reduce->op) << " over axes {";
    for (std::size_t k = 0; k < reduce->axes.size(); ++k) s << (k ? "," : "") << reduce->axes[k];
    s << "}" << (reduce->keep_axes ? " (kept)" : "") << ", writes "
      << view(reduce->dtype, reduce->shape);
    if (outputs.size() > 1) s << "; also writes";
    for (std::size_t k = 1; k < outputs.size(); ++k) s << " v" << outputs[k];
    s << "\n";
    return s.str();
  }
  if (rows) s << "    row group: reductions over the last axis of " << shape_str(shape) << "\n";
  s << "    writes:";
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    s << " v" << outputs[k];
    if (rows) s << " " << shape_str(output_shapes.at(k));
  }
  if (!rows) s << " " << shape_str(shape);
  s << "\n";
  return s.str();
}

}  // namespace vkt::detail
