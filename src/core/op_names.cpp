// Op names and families, read from the op table (vkt/op_table.h).
#include <string>

#include "vkt/backend/op_info.h"
#include "vkt/error.h"

namespace vkt {

std::string_view op_name(Op op) {
  return op_info(op).name;
}

OpFamily op_family(Op op) {
  return op_info(op).family;
}

const std::vector<Op>& all_ops() {
  static const std::vector<Op> ops = [] {
    std::vector<Op> list;
    for (const OpInfo& info : kOpTable) list.push_back(info.op);
    return list;
  }();
  return ops;
}

Op op_from_name(std::string_view name) {
  for (const OpInfo& info : kOpTable) {
    if (info.name == name) return info.op;
  }
  throw Unsupported("[op] unknown op name '" + std::string(name) + "'");
}

}  // namespace vkt
