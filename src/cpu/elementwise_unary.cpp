// PLACEHOLDER until this family lands (replaced by its implementation).
#include "cpu/kernels.h"

namespace vkt::cpu_kernels {
Tensor run_unary(const OpCall& call) {
  throw Unsupported("[" + std::string(op_name(call.op)) + "] not yet on the cpu backend");
}
}  // namespace vkt::cpu_kernels
