#include "vulkan/spirv_passes.h"

#include <cstdlib>
#include <spirv-tools/optimizer.hpp>
#include <string>

#include "vkt/error.h"
#include "vulkan/test_override.h"

namespace vkt::vk {

namespace {
TestOverride<GeneratedPasses> g_override;
}  // namespace

GeneratedPasses parse_generated_passes(const char* text) {
  const std::string s = text == nullptr ? "" : text;
  if (s.empty() || s == "none") return GeneratedPasses::none;
  if (s == "inline") return GeneratedPasses::inline_calls;
  if (s == "simplify") return GeneratedPasses::simplify;
  throw Error("[compile] VKT_COMPILE_SPIRV='" + s + "': expected none, inline or simplify");
}

GeneratedPasses generated_passes() {
  if (const std::optional<GeneratedPasses> p = g_override.get()) return *p;
  static const GeneratedPasses passes = parse_generated_passes(std::getenv("VKT_COMPILE_SPIRV"));
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
