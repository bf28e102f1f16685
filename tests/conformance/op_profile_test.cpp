// Backend::begin_op_profile / end_op_profile: every op and compiled kernel labelled, in the
// order given, timed within the work's device time, and the results unchanged.
#include <string>
#include <vector>

#include "conformance/fixture.h"
#include "vkt/compile.h"

namespace vkt::testing {
namespace {

class OpProfile : public VulkanTest {};

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

Tensor chain(const Tensor& x) {
  return sum(multiply(add(x, 1.0f), x), {1});
}

TEST_F(OpProfile, LabelsEachOpInOrderWithinTheDeviceTime) {
  Backend& g = gpu();
  const Tensor x = iota({33, 129}, DType::f32, std::nullopt, &g);
  const std::vector<float> plain = chain(x).to_vector<float>();
  g.synchronize();
  g.begin_device_timer();
  g.begin_op_profile();
  const Tensor y = chain(x);
  const std::vector<Backend::OpTime> times = g.end_op_profile();
  g.end_device_timer();
  EXPECT_EQ(y.to_vector<float>(), plain);  // profiling changes no result
  ASSERT_EQ(times.size(), 3u);
  EXPECT_TRUE(starts_with(times[0].label, "add f32 {33, 129} <- {33, 129}")) << times[0].label;
  EXPECT_TRUE(starts_with(times[1].label, "multiply f32 {33, 129} <- {33, 129}, {33, 129}"))
      << times[1].label;
  EXPECT_EQ(times[2].label, "sum f32 {33} <- {33, 129}");
  double total = 0;
  for (const Backend::OpTime& t : times) {
    EXPECT_GE(t.device_us, 0) << t.label;
    total += t.device_us;
  }
  // The ops' times are disjoint parts of the timed span (a tick of rounding each).
  const double span = g.device_timer_us();
  if (span >= 0) {
    EXPECT_LE(total, span + 1.0);
  }
  // Outside a profile nothing is recorded.
  (void)chain(x);
  g.begin_op_profile();
  EXPECT_TRUE(g.end_op_profile().empty());
}

TEST_F(OpProfile, ACompiledPlanNamesItsFusedKernels) {
  Backend& g = gpu();
  const Tensor x = iota({4096}, DType::f32, std::nullopt, &g);
  auto f = compile([](const Tensor& t) { return exp(negate(multiply(t, 0.001f))); });
  const std::vector<float> first = f(x).to_vector<float>();  // traced and compiled here
  g.begin_op_profile();
  const Tensor y = f(x);
  const std::vector<Backend::OpTime> times = g.end_op_profile();
  EXPECT_EQ(y.to_vector<float>(), first);
  ASSERT_FALSE(times.empty());
  bool fused = false;
  for (const Backend::OpTime& t : times) fused = fused || starts_with(t.label, "fused ");
  EXPECT_TRUE(fused) << times[0].label;
}

// Past the ops a profile times, a last entry says how many ran untimed: never a silently
// short profile.
TEST_F(OpProfile, OpsPastTheCapacityAreCountedNotDropped) {
  Backend& g = gpu();
  Tensor x = full({1}, 1.0f, DType::f32, &g);
  g.begin_op_profile();
  for (int i = 0; i < 8192 + 5; ++i) x = add(x, 1.0f);
  const std::vector<Backend::OpTime> times = g.end_op_profile();
  EXPECT_EQ(x.to_vector<float>(), std::vector<float>{8198.0f});
  ASSERT_EQ(times.size(), 8193u);
  EXPECT_TRUE(starts_with(times[8191].label, "add f32 {1}")) << times[8191].label;
  EXPECT_TRUE(starts_with(times[8192].label, "5 more ops, not timed")) << times[8192].label;
}

TEST(OpProfileCpu, TheCpuHasNoDeviceClock) {
  cpu().begin_op_profile();
  (void)add(iota({8}, DType::f32), 1.0f);
  EXPECT_TRUE(cpu().end_op_profile().empty());
}

}  // namespace
}  // namespace vkt::testing
