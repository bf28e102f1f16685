// vkt::compile's dot groups (FusedGroup::dot) on the cpu (compiled_dot.cpp).
#pragma once

#include <memory>

#include "compile/fused_group.h"

namespace vkt::cpu_kernels {

std::unique_ptr<detail::FusedKernel> compile_dot(const detail::FusedGroup& group);

}  // namespace vkt::cpu_kernels
