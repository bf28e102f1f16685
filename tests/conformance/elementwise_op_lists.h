// Every elementwise unary and binary op, from the op table's X-macros (vkt/ops.h), for the
// conformance tests that walk them all.
#pragma once

#include <vector>

#include "vkt/vkt.h"

namespace vkt::testing {

inline const std::vector<Op> kUnaryOps = {
#define VKT_LIST_OP(name) Op::name,
    VKT_UNARY_OPS(VKT_LIST_OP)};
inline const std::vector<Op> kBinaryOps = {VKT_BINARY_OPS(VKT_LIST_OP)
#undef VKT_LIST_OP
};

}  // namespace vkt::testing
