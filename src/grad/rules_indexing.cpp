// Derivative rules of gather, take, take_along_axis, put_slice, indexed_add/put, clip, sort, top_k.
#include "grad/rules.h"
#include "vkt/ops.h"

namespace vkt::detail {

Rule indexing_rule(Op op) {
  switch (op) {
    default:
      return nullptr;
  }
}

}  // namespace vkt::detail
