// CompileFuzzVulkan: generated fuzz programs as vkt::compile functions on the device, against
// the same nodes run eagerly there: bit for bit, first call and replay, validation on.
// vkt_fuzz --compiled-every runs the same check inside a fuzzing campaign.
#include <iostream>
#include <string>

#include "conformance/fixture.h"
#include "fuzz/compile_check.h"

namespace vkt::fuzz {
namespace {

constexpr std::uint64_t kSeed = 6;
// Each program compiles its own kernels (shaderc and a pipeline each: the most of a
// program's time on lavapipe), so the suite runs a few; VKT_COMPILE_FUZZ_PROGRAMS more.
constexpr std::int64_t kDefaultPrograms = 12;

class CompileFuzzVulkan : public testing::VulkanTest {};

TEST_F(CompileFuzzVulkan, CompiledEqualsEager) {
  const std::int64_t count = program_count_from_env("VKT_COMPILE_FUZZ_PROGRAMS", kDefaultPrograms);
  const CompileStats stats =
      check_compiled_programs(kSeed, count, gpu(), [](std::int64_t i, const std::string& what) {
        ADD_FAILURE() << "program " << i << " of seed " << kSeed << "\n" << what;
      });
  std::cout << stats.summary() << "\n";
  EXPECT_EQ(stats.mismatches, 0);
  EXPECT_GE(stats.compiled * 10, count * 8);
  EXPECT_GE(stats.outputs_compared, stats.compiled);
}

}  // namespace
}  // namespace vkt::fuzz
