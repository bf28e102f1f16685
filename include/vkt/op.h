// Op identities: the Op enum, its families and names, all from the op table (op_table.h).
// What an op's kind, dtypes and device rules are is for backend implementers
// (vkt/backend/op_info.h).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "vkt/op_table.h"

namespace vkt {

enum class Op : std::uint16_t {
#define VKT_ENUM_ENTRY(name) name,
  VKT_ALL_OPS(VKT_ENUM_ENTRY)
#undef VKT_ENUM_ENTRY
};

enum class OpFamily : std::uint8_t {
  unary,
  binary,
  reduce,
  argreduce,
  window,
  cumulative,
  creation,
  conversion,
  movement,
  indexing,
  sort,
  linalg,
  conv,
  window_scatter,  // window_scatter_max/min
  callable,        // reduce / window_reduce with a user function (the cpu runs them)
  fft              // fft, ifft, rfft, irfft along one axis
};

std::string_view op_name(Op op);
OpFamily op_family(Op op);
// Throws Unsupported on an unknown name.
Op op_from_name(std::string_view name);
const std::vector<Op>& all_ops();

}  // namespace vkt
