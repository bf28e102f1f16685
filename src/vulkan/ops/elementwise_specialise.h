// When the elementwise families specialise their pipelines per op (elementwise_unary.cpp,
// elementwise_binary.cpp share this rule).
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/settings.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {

// The shaders' "read it from the push constants" value of a specialization constant.
inline constexpr std::uint32_t kDynamic = 0xffffffffu;

// GPUs get pipelines specialised per op (and binary indexing mode). A CPU device (lavapipe)
// compiles each pipeline through LLVM, so there one pipeline per dtype takes the op at run
// time: a specialised add or exp is 5 to 35 times faster there, but making a pipeline per
// op, dtype and mode costs more than a program's calls save (the every-op conformance tests
// go from about a minute and a half to past fifteen minutes: scripts/lavapipe-specialise.sh,
// bench_results/lavapipe/specialise-*.csv). Overrides::specialise forces either.
inline bool specialise_elementwise(const VulkanBackend& b) {
  return overrides()->specialise.value_or(b.context().properties().deviceType !=
                                          VK_PHYSICAL_DEVICE_TYPE_CPU);
}

// A family's three variant names (VulkanBackend::variant), built once: the elementwise ops
// are the batch's commonest, and a name per op would be a heap string each time.
inline std::string_view elementwise_variant(const std::array<std::string, 3>& names, DType d) {
  return names[VulkanBackend::variant_index({d})];
}

}  // namespace vkt::vk
