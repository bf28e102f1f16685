// When the elementwise families specialise their pipelines per op (elementwise_unary.cpp,
// elementwise_binary.cpp share this rule).
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "common/settings.h"
#include "vkt/backend/op_info.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {

// The shaders' "read it from the push constants" value of a specialization constant.
inline constexpr std::uint32_t kDynamic = 0xffffffffu;

// GPUs get pipelines specialised per op (and binary indexing mode). A CPU device (lavapipe)
// compiles each pipeline through LLVM, so there one pipeline per dtype takes the op at run
// time: a specialised add at 1M runs 6x faster there (exp 27x), but a pipeline per op, dtype
// and mode costs more than most programs' calls save: the every-op unary test with an empty
// cache takes 95 s against 7 (bench_results/lavapipe/specialise-*.csv, by
// scripts/lavapipe-specialise.sh). Overrides::specialise forces either.
inline bool specialise_elementwise(const VulkanBackend& b) {
  return overrides()->specialise.value_or(is_gpu(b.context()));
}

// A family's three variant names (VulkanBackend::variant), built once: the elementwise ops
// are the batch's commonest, and a name per op would be a heap string each time.
inline std::string_view elementwise_variant(const std::array<std::string, 3>& names, DType d) {
  return names[VulkanBackend::variant_index({d})];
}

// The names of a family's per-op modules of the base variant, "<base>_op<code>" indexed by
// shader code (src/vulkan/compile_op_modules.cmake), built once.
inline std::vector<std::string> op_module_names(const std::string& base, OpFamily family) {
  std::vector<std::string> names;
  for (const OpInfo& info : kOpTable) {
    if (info.family != family) continue;
    if (names.size() <= info.shader_code) names.resize(info.shader_code + 1);
    names[info.shader_code] = base + "_op" + std::to_string(info.shader_code);
  }
  return names;
}

// The module of a call's pipeline: specialised, the op's own module where its dtype is a
// real one of the base variant (creating a pipeline costs what its module's size does,
// compile_op_modules.cmake), else the family's variant.
inline std::string_view elementwise_module(const std::array<std::string, 3>& names,
                                           const std::vector<std::string>& op_modules,
                                           bool specialised, Op op, DType d) {
  if (specialised && VulkanBackend::variant_index({d}) == 0 && !is_complex(d)) {
    return op_modules.at(shader_op_code(op));
  }
  return elementwise_variant(names, d);
}

}  // namespace vkt::vk
