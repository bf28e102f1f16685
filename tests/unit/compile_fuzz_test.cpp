// CompileFuzz: generated fuzz programs as vkt::compile functions on the cpu, against the same
// nodes run eagerly: bit for bit, first call and replay (tests/fuzz/compile_check.h).
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "fuzz/compile_check.h"
#include "fuzz/generate.h"
#include "fuzz/rng.h"

namespace vkt::fuzz {
namespace {

constexpr std::uint64_t kSeed = 5;
// Every unit run checks these, in the sanitizer builds too; VKT_COMPILE_FUZZ_PROGRAMS runs more.
constexpr std::int64_t kDefaultPrograms = 4000;

TEST(CompileFuzz, CpuCompiledEqualsEager) {
  const std::int64_t count = program_count_from_env("VKT_COMPILE_FUZZ_PROGRAMS", kDefaultPrograms);
  const CompileStats stats =
      check_compiled_programs(kSeed, count, cpu(), [](std::int64_t i, const std::string& what) {
        ADD_FAILURE() << "program " << i << " of seed " << kSeed << "\n" << what;
      });
  std::cout << stats.summary() << "\n";
  EXPECT_EQ(stats.mismatches, 0);
  // Nearly every program has an op that runs: most must be compiled and compared, with
  // creation ops traced into some of them.
  EXPECT_GE(stats.compiled * 10, count * 8);
  EXPECT_GE(stats.outputs_compared, stats.compiled);
  EXPECT_GT(stats.traced_creation, 0);
}

// The checker must fail on a wrong compiled result: one bit of every compiled result flipped.
TEST(CompileFuzz, ACorruptedResultIsCaught) {
  CompileCheckOptions corrupt;
  corrupt.corrupt_compiled = [](std::vector<std::byte>& bytes) {
    if (!bytes.empty()) bytes.back() ^= std::byte{1};
  };
  int caught = 0;
  for (std::uint64_t i = 0; i < 100 && caught < 5; ++i) {
    const Program p = generate(mix(kSeed, i));
    CompileStats honest, corrupted;
    if (check_compiled(p, cpu(), honest) || honest.compiled == 0) continue;
    const std::optional<CompileMismatch> m = check_compiled(p, cpu(), corrupted, corrupt);
    // A program whose every output is empty has no byte to flip.
    if (!m && corrupted.compiled == 1) continue;
    ASSERT_TRUE(m.has_value()) << "a corrupted result passed";
    EXPECT_NE(m->what.find("compiled bits"), std::string::npos) << m->describe();
    EXPECT_NE(m->plan.find("graph ("), std::string::npos) << m->describe();
    ++caught;
  }
  EXPECT_EQ(caught, 5);
}

}  // namespace
}  // namespace vkt::fuzz
