#include "vulkan/spirv/spirv_passes.h"

#include <cstdlib>
#include <spirv-tools/optimizer.hpp>
#include <string>

#include "common/env_choice.h"
#include "vkt/error.h"
#include "vulkan/runtime/test_override.h"

namespace vkt::vk {

namespace {
TestOverride<GeneratedPasses> g_override;
}  // namespace

GeneratedPasses parse_generated_passes(const char* text) {
  constexpr GeneratedPasses kByWord[] = {GeneratedPasses::none, GeneratedPasses::inline_calls,
                                         GeneratedPasses::simplify};
  return kByWord[common::word_choice(text == nullptr ? "" : text, "VKT_COMPILE_SPIRV",
                                     {"none", "inline", "simplify"}, 0, "compile")];
}

GeneratedPasses generated_passes() {
  if (const std::optional<GeneratedPasses> p = g_override.get()) return *p;
  static const GeneratedPasses passes =
      parse_generated_passes(common::env_text("VKT_COMPILE_SPIRV").data());
  return passes;
}

void testing::set_generated_passes(const std::optional<GeneratedPasses>& passes) {
  g_override.set(passes);
}

const char* passes_name(GeneratedPasses passes) {
  switch (passes) {
    case GeneratedPasses::none:
      return "none";
    case GeneratedPasses::inline_calls:
      return "inline";
    case GeneratedPasses::simplify:
      return "simplify";
  }
  return "none";
}

std::vector<std::uint32_t> run_generated_passes(std::vector<std::uint32_t> words,
                                                GeneratedPasses passes) {
  if (passes == GeneratedPasses::none) return words;
  spvtools::Optimizer opt(SPV_ENV_VULKAN_1_1);
  std::string log;
  opt.SetMessageConsumer([&log](spv_message_level_t, const char*, const spv_position_t&,
                                const char* message) { log += std::string(message) + "\n"; });
  opt.RegisterPass(spvtools::CreateInlineExhaustivePass())
      .RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
  if (passes == GeneratedPasses::simplify) {
    opt.RegisterPass(spvtools::CreateSSARewritePass())
        .RegisterPass(spvtools::CreateCCPPass())
        .RegisterPass(spvtools::CreateAggressiveDCEPass());
  }
  std::vector<std::uint32_t> out;
  if (!opt.Run(words.data(), words.size(), &out))
    throw Error(std::string("[compile] SPIR-V passes (") + passes_name(passes) +
                ") failed: " + log);
  return out;
}

}  // namespace vkt::vk
