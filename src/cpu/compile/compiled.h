// vkt::compile's fused elementwise groups on the cpu, as blocked loops (compiled.cpp).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "compile/fused_group.h"

namespace vkt::cpu_kernels {

std::unique_ptr<detail::FusedKernel> compile_fused(const detail::FusedGroup& group);

// The index of the last value that reads each value; outputs (read after a block's
// evaluation) and values nobody reads get past-the-end and their own index. Both kinds of
// cpu group free a block's values after their last reader by it.
std::vector<std::size_t> last_uses(const detail::FusedGroup& g);

}  // namespace vkt::cpu_kernels
