// vkt::compile's fused elementwise groups on the cpu, as blocked loops (compiled.cpp).
#pragma once

#include <memory>

#include "compile/fused_group.h"

namespace vkt::cpu_kernels {

std::unique_ptr<detail::FusedKernel> compile_fused(const detail::FusedGroup& group);

}  // namespace vkt::cpu_kernels
