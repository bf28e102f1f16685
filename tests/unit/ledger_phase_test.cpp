// The ledger's first-call breakdown: phase times and pipeline creations, counted in a
// scope's delta and printed, and a compiled function's second call adding none.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "vkt/compile.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

TEST(LedgerPhases, TimerAndPipelineRecordsAppearInTheDelta) {
  LedgerScope scope;
  {
    const PhaseTimer timed(ledger::Phase::codegen);
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
  }
  ledger::record_pipeline_created(2'500'000);  // 2.5 ms in ns
  ledger::record_pipeline_created(500'000);
  const LedgerCounts d = scope.delta();
  EXPECT_GE(d.codegen_us, 3000u);
  EXPECT_EQ(d.trace_us + d.plan_us + d.kernel_compile_us + d.precompile_us, 0u);
  EXPECT_EQ(d.pipelines_created, 2u);
  EXPECT_EQ(d.pipeline_create_us, 3000u);
  EXPECT_NE(d.to_string().find("pipelines_created=2 pipeline_create_us=3000"), std::string::npos)
      << d.to_string();
}

TEST(LedgerPhases, CompiledSecondCallTracesAndPlansNothing) {
  const Tensor x = from_vector(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
  auto f = compile([](const Tensor& t) { return sum(exp(multiply(t, 0.25f)), {1}); });
  LedgerScope first;
  const Tensor a = f(x);
  EXPECT_EQ(first.delta().traces, 1u);
  LedgerScope second;
  const Tensor b = f(x);
  const LedgerCounts d = second.delta();
  EXPECT_EQ(d.plan_reuses, 1u);
  EXPECT_EQ(d.trace_us + d.plan_us + d.codegen_us + d.kernel_compile_us + d.precompile_us, 0u);
  EXPECT_EQ(d.pipelines_created, 0u);
  EXPECT_EQ(a.to_vector<float>(), b.to_vector<float>());
}

}  // namespace
}  // namespace vkt
