// GradFuzz: vkt::grad of generated fuzz programs against central finite differences.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "fuzz/generate.h"
#include "fuzz/grad_check.h"
#include "fuzz/rng.h"

namespace vkt::fuzz {
namespace {

constexpr std::uint64_t kSeed = 1;
// Every unit run checks these (about a quarter of them reach a comparison), in the
// sanitizer builds too, so the count stays modest; VKT_GRAD_FUZZ_PROGRAMS runs more.
constexpr std::int64_t kDefaultPrograms = 10000;

TEST(GradFuzz, ProgramsMatchFiniteDifferences) {
  const std::int64_t count = program_count_from_env("VKT_GRAD_FUZZ_PROGRAMS", kDefaultPrograms);
  GradStats stats;
  int reported = 0;
  for (std::int64_t i = 0; i < count; ++i) {
    const Program p = generate(mix(kSeed, static_cast<std::uint64_t>(i)));
    const std::optional<GradMismatch> m = check_gradients(p, stats);
    if (m && reported++ < 3) {
      // The smallest program still failing, so the report names the rule at fault.
      GradStats scratch;
      const std::optional<GradMismatch> small =
          check_gradients(shrink_gradient_mismatch(p), scratch);
      ADD_FAILURE() << "program " << i << " of seed " << kSeed << "\n"
                    << (small ? small->describe() : m->describe());
    }
  }
  std::cout << stats.summary() << "\n";
  RecordProperty("checked", std::to_string(stats.checked));
  RecordProperty("elements_compared", std::to_string(stats.elements_compared));
  EXPECT_EQ(stats.mismatches, 0);
  // Many programs are skipped (bitcasts, no float leaf, sizes); a tenth must remain, or the
  // checker has stopped checking.
  EXPECT_GE(stats.checked * 10, count);
  EXPECT_GE(stats.elements_compared, 4 * stats.checked);
}

// The checker must fail on a wrong gradient: the same programs, with every analytic
// element off by 0.1% (a rule with a wrong constant), must report a mismatch.
TEST(GradFuzz, ACorruptedRuleIsCaught) {
  GradCheckOptions corrupt;
  corrupt.corrupt_analytic = [](double g) { return g * 1.001 + 1e-4; };
  int caught = 0, clean = 0;
  for (std::uint64_t i = 0; i < 200 && caught < 5; ++i) {
    const Program p = generate(mix(kSeed, i));
    GradStats honest, corrupted;
    if (check_gradients(p, honest) || honest.elements_compared == 0) continue;
    ++clean;
    const std::optional<GradMismatch> m = check_gradients(p, corrupted, corrupt);
    ASSERT_TRUE(m.has_value()) << "a corrupted gradient passed:\n" << listing(p, {});
    EXPECT_TRUE(m->what.empty());
    EXPECT_NE(m->listing.find("%" + std::to_string(m->primal) + " = const"), std::string::npos)
        << m->describe();
    ++caught;
  }
  EXPECT_EQ(caught, 5);
  EXPECT_EQ(clean, caught);
}

}  // namespace
}  // namespace vkt::fuzz
