// Derivative rules of conv, window_sum/product/max/min, window_scatter_max/min.
#include "grad/rules.h"
#include "vkt/ops.h"

namespace vkt::detail {

Rule window_rule(Op op) {
  switch (op) {
    default:
      return nullptr;
  }
}

}  // namespace vkt::detail
