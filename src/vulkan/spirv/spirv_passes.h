// The SPIR-V passes vkt::compile runs over shaderc's unoptimised module (kernel_cache.cpp)
// before the driver creates its pipeline. VKT_COMPILE_SPIRV chooses:
//   none      the module as shaderc gives it at -O0
//   inline    every call inlined, the dead functions removed
//   simplify  inline, then SSA form, constants propagated, dead code removed
// spirv-opt's full -O list costs a first call more than it saves the driver (run 42's VM
// timing); these are its cheap passes, measured against the driver on the H200.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace vkt::vk {

enum class GeneratedPasses { none, inline_calls, simplify };

// `text` ("" or null: none) as a pass list; an unknown value throws vkt::Error naming
// VKT_COMPILE_SPIRV, the value and the choices.
GeneratedPasses parse_generated_passes(const char* text);
// VKT_COMPILE_SPIRV, read once (or the test hook's, testing.h set_generated_passes).
GeneratedPasses generated_passes();
const char* passes_name(GeneratedPasses passes);

// The module after `passes` (unchanged for none). Throws vkt::Error if a pass fails.
std::vector<std::uint32_t> run_generated_passes(std::vector<std::uint32_t> words,
                                                GeneratedPasses passes);

namespace testing {
// Kernels compiled from now on take `passes` in place of VKT_COMPILE_SPIRV's (nullopt: back
// to it). The cache keys name the pass list, so no kernel of another list is reused.
void set_generated_passes(const std::optional<GeneratedPasses>& passes);
}  // namespace testing

}  // namespace vkt::vk
