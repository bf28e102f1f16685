// GradFuzzVulkan: vkt::grad of generated fuzz programs run on the device (forward values,
// every rule's ops and the cotangents there) against central finite differences taken on
// the cpu; the unit suite's GradFuzz runs the same programs' check on the cpu.
#include <iostream>
#include <string>

#include "conformance/fixture.h"
#include "fuzz/generate.h"
#include "fuzz/grad_check.h"
#include "fuzz/rng.h"

namespace vkt::fuzz {
namespace {

constexpr std::uint64_t kSeed = 2;
// A few hundred programs reach a comparison within a suite's budget on lavapipe;
// VKT_GRAD_FUZZ_PROGRAMS runs more.
constexpr std::int64_t kDefaultPrograms = 300;

class GradFuzzVulkan : public testing::VulkanTest {};

TEST_F(GradFuzzVulkan, ProgramsMatchFiniteDifferences) {
  const std::int64_t count = program_count_from_env("VKT_GRAD_FUZZ_PROGRAMS", kDefaultPrograms);
  GradCheckOptions on_device;
  on_device.device = &gpu();
  GradStats stats;
  int reported = 0;
  for (std::int64_t i = 0; i < count; ++i) {
    const Program p = generate(mix(kSeed, static_cast<std::uint64_t>(i)));
    const std::optional<GradMismatch> m = check_gradients(p, stats, on_device);
    if (m && reported++ < 3) {
      GradStats scratch;
      const auto small =
          check_gradients(shrink_gradient_mismatch(p, on_device), scratch, on_device);
      ADD_FAILURE() << "program " << i << " of seed " << kSeed << "\n"
                    << (small ? small->describe() : m->describe());
    }
  }
  std::cout << stats.summary() << "\n";
  EXPECT_EQ(stats.mismatches, 0);
  EXPECT_GE(stats.checked * 10, count);  // as GradFuzz: a tenth reach a comparison
  EXPECT_GE(stats.elements_compared, 4 * stats.checked);
}

}  // namespace
}  // namespace vkt::fuzz
