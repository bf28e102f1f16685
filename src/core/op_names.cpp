#include <string>

#include "vkt/error.h"
#include "vkt/op_call.h"

namespace vkt {

std::string_view op_name(Op op) {
  switch (op) {
#define VKT_NAME_CASE(name) \
  case Op::name:            \
    return #name;
    VKT_ALL_OPS(VKT_NAME_CASE)
#undef VKT_NAME_CASE
  }
  return "?";
}

const std::vector<Op>& all_ops() {
  static const std::vector<Op> ops = {
#define VKT_LIST_ENTRY(name) Op::name,
      VKT_ALL_OPS(VKT_LIST_ENTRY)
#undef VKT_LIST_ENTRY
  };
  return ops;
}

Op op_from_name(std::string_view name) {
  for (Op op : all_ops()) {
    if (op_name(op) == name) return op;
  }
  throw Unsupported("[op] unknown op name '" + std::string(name) + "'");
}

OpFamily op_family(Op op) {
  switch (op) {
#define VKT_FAMILY_CASE(name) case Op::name:
    VKT_UNARY_OPS(VKT_FAMILY_CASE) return OpFamily::unary;
    VKT_BINARY_OPS(VKT_FAMILY_CASE) return OpFamily::binary;
    VKT_REDUCE_OPS(VKT_FAMILY_CASE) return OpFamily::reduce;
    VKT_ARGREDUCE_OPS(VKT_FAMILY_CASE) return OpFamily::argreduce;
    VKT_WINDOW_OPS(VKT_FAMILY_CASE) return OpFamily::window;
    VKT_CUMULATIVE_OPS(VKT_FAMILY_CASE) return OpFamily::cumulative;
    VKT_LINALG_OPS(VKT_FAMILY_CASE) return OpFamily::linalg;
#undef VKT_FAMILY_CASE
    case Op::full:
    case Op::iota:
    case Op::eye:
      return OpFamily::creation;
    case Op::as_type:
    case Op::bitcast:
    case Op::copy:
      return OpFamily::conversion;
    case Op::broadcast:
    case Op::transpose:
    case Op::pad:
    case Op::reverse:
    case Op::slice:
    case Op::put_slice:
    case Op::concatenate:
      return OpFamily::movement;
    case Op::gather:
    case Op::take:
    case Op::take_along_axis:
    case Op::select:
    case Op::clip:
    case Op::indexed_add:
    case Op::indexed_put:
      return OpFamily::indexing;
    case Op::sort:
    case Op::argsort:
    case Op::top_k:
      return OpFamily::sort;
    case Op::dot:
      return OpFamily::linalg;
  }
  return OpFamily::unary;
}

BinaryKind binary_kind(Op op) {
  switch (op) {
    case Op::divide:
    case Op::atan2:
      return BinaryKind::to_float;
    case Op::quotient:
    case Op::bitwise_and:
    case Op::bitwise_or:
    case Op::bitwise_xor:
    case Op::left_shift:
    case Op::right_shift:
      return BinaryKind::integer_only;
    case Op::equal:
    case Op::not_equal:
    case Op::less:
    case Op::less_equal:
    case Op::greater:
    case Op::greater_equal:
      return BinaryKind::comparison;
    case Op::logical_and:
    case Op::logical_or:
    case Op::logical_xor:
      return BinaryKind::logical;
    default:
      return BinaryKind::arithmetic;
  }
}

}  // namespace vkt
