// The fallback contract and batching, checked by exact ledger deltas.
#include <cstdlib>
#include <string>

#include "common/settings.h"
#include "conformance/batch_submits.h"
#include "conformance/fixture.h"
#include "core/dispatch.h"
#include "core/legacy_policy.h"
#include "support/compare.h"
#include "vkt/backend/op_call.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

class Ledger : public VulkanTest {
 protected:
  void TearDown() override {
    vk::testing::set_native_disabled(Op::as_type, false);
    set_legacy_policy({});
    set_fallback_policy(FallbackPolicy::allow);
    VulkanTest::TearDown();
  }
  // A resident s32 input, with nothing left pending.
  Tensor resident() {
    Tensor t = iota({4, 5}, DType::s32, std::nullopt, &gpu());
    gpu().synchronize();
    return t;
  }
};

Tensor concatenate0(const std::vector<Tensor>& parts) {
  Shape shape = parts.at(0).shape();
  shape[0] = 0;
  for (const Tensor& t : parts) shape[0] += t.dim(0);
  return detail::dispatch({Op::concatenate, parts, AxisParams{0}, parts[0].dtype(), shape});
}

TEST_F(Ledger, NativeOpsOnResidentInputsCrossNoBus) {
  // The concatenate as a copy per piece (a GPU takes one gather pass by default).
  const OverrideScope copies("one_pass_movement=0");
  const Tensor x = resident();
  LedgerScope scope;
  const Tensor a = as_type(x, DType::f32);
  const Tensor b = copy(x, gpu());
  const Tensor c = full({3, 3}, 2.5, DType::f32, &gpu());
  const Tensor e = eye(4, DType::f16, &gpu());
  const Tensor f = concatenate0({x, x});
  for (const Tensor* t : {&a, &b, &c, &e, &f}) EXPECT_EQ(&t->backend(), &gpu());
  const LedgerCounts d = scope.delta();
  EXPECT_EQ(d.uploads, 0u) << d.to_string();
  EXPECT_EQ(d.downloads, 0u) << d.to_string();
  EXPECT_EQ(d.fallbacks, 0u) << d.to_string();
  EXPECT_EQ(d.device_copies, 3u) << d.to_string();  // copy + two concatenate pieces
  EXPECT_EQ(d.device_copy_bytes, 3u * x.nbytes()) << d.to_string();
}

TEST_F(Ledger, UnsupportedOpCostsOneDownloadAndStaysOnCpu) {
  const Tensor x = resident();
  vk::testing::set_native_disabled(Op::as_type, true);
  LedgerScope scope;
  const Tensor y = as_type(x, DType::f64);
  const LedgerCounts d = scope.delta();
  EXPECT_TRUE(y.backend().is_cpu());
  EXPECT_EQ(d.downloads, 1u) << d.to_string();
  EXPECT_EQ(d.download_bytes, x.nbytes()) << d.to_string();
  EXPECT_EQ(d.uploads, 0u) << d.to_string();
  EXPECT_EQ(d.fallbacks_by_op.at("as_type"), 1u) << d.to_string();
  EXPECT_TRUE(tensors_close(y, as_type(transfer(x, cpu()), DType::f64)));
}

TEST_F(Ledger, LegacyPolicyUploadsTheFallbackResult) {
  const Tensor x = resident();
  set_legacy_policy({false, true});
  LedgerScope scope;
  const Tensor y = as_type(x, DType::f32);
  const LedgerCounts d = scope.delta();
  EXPECT_EQ(&y.backend(), &gpu());
  EXPECT_EQ(d.downloads, 1u) << d.to_string();
  EXPECT_EQ(d.uploads, 1u) << d.to_string();
  EXPECT_EQ(d.dispatches, 0u) << d.to_string();
}

TEST_F(Ledger, ErrorPolicyForbidsTheFallbackAndNamesTheOp) {
  const Tensor x = resident();
  vk::testing::set_native_disabled(Op::as_type, true);
  set_fallback_policy(FallbackPolicy::error);
  try {
    as_type(x, DType::u8);
    FAIL() << "no exception";
  } catch (const FallbackForbidden& e) {
    EXPECT_NE(std::string(e.what()).find("[as_type]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("s32"), std::string::npos) << e.what();
  }
  EXPECT_EQ(x.to_vector<std::int32_t>()[19], 19);  // the input is intact
}

TEST_F(Ledger, HundredSmallOpsThenOneReadIsOneSubmit) {
  const Tensor x = resident();
  LedgerScope scope;
  Tensor t = x;
  for (int i = 0; i < 50; ++i) {
    t = as_type(t, DType::f32);
    t = as_type(t, DType::s32);
  }
  const std::vector<std::int32_t> v = t.to_vector<std::int32_t>();
  const LedgerCounts d = scope.delta();
  EXPECT_EQ(v[7], 7);
  EXPECT_EQ(d.dispatches, 100u) << d.to_string();
  // One submit, or one per piece of flush_ops() ops.
  EXPECT_EQ(d.submits, expected_submits(100, poison_fills() ? 2 : 1)) << d.to_string();
  EXPECT_EQ(d.waits, 1u) << d.to_string();
  EXPECT_EQ(d.downloads, 1u) << d.to_string();
}

TEST_F(Ledger, ScalarOperandsRideInTheBatch) {
  // Each literal is a tiny upload; on the staging path it goes inline, so a chain of ops
  // with literals still costs one submit (run under VKT_VK_STAGING=1 by ctest too).
  Tensor x = iota({4096}, DType::f32, std::nullopt, &gpu());
  gpu().synchronize();
  LedgerScope scope;
  for (int i = 0; i < 20; ++i) x = i % 2 ? add(x, 0.5) : multiply(x, 1.5);
  const std::vector<float> v = x.to_vector<float>();
  // The literal's inline upload is one more command of the op where memory is not mapped.
  const std::uint64_t commands = vk::testing::host_mapped() ? 1 : (poison_fills() ? 3 : 2);
  EXPECT_EQ(scope.delta().submits, expected_submits(20, commands)) << scope.delta().to_string();
  EXPECT_EQ(scope.delta().uploads, 20u);
  EXPECT_EQ(scope.delta().fallbacks, 0u);
  float expected = 4095.0f;
  for (int i = 0; i < 20; ++i) expected = i % 2 ? expected + 0.5f : expected * 1.5f;
  EXPECT_FLOAT_EQ(v.back(), expected);
}

TEST_F(Ledger, OneElementOperandsOfSelectAndClipStayOneElement) {
  // A literal branch or bound is uploaded as one element, not broadcast to x's shape.
  const Tensor x = iota({1 << 16}, DType::f32, std::nullopt, &gpu());
  const Tensor pred = greater(x, 100.0);
  gpu().synchronize();
  const Tensor zero = full({}, 0.0, DType::f32, &cpu()), big = full({1}, 7.0, DType::f32, &cpu());
  LedgerScope scope;
  const Tensor y = select(pred, zero, x), z = clip(x, 3.0, 9.0), w = select(pred, big, zero);
  gpu().synchronize();
  const LedgerCounts d = scope.delta();
  EXPECT_EQ(d.fallbacks, 0u) << d.to_string();
  EXPECT_LE(d.upload_bytes, 6u * sizeof(float)) << d.to_string();
  EXPECT_EQ(y.to_vector<float>()[101], 0.0f);
  EXPECT_EQ(z.to_vector<float>()[200], 9.0f);
  EXPECT_EQ(w.to_vector<float>()[50], 0.0f);
  EXPECT_EQ(w.to_vector<float>()[500], 7.0f);
}

TEST_F(Ledger, LongBatchesAreSubmittedAtTheBound) {
  const Tensor x = resident();
  LedgerScope scope;
  Tensor t = x;
  for (int i = 0; i < 150; ++i) {
    t = as_type(t, DType::f32);
    t = as_type(t, DType::s32);
  }
  EXPECT_EQ(t.to_vector<std::int32_t>()[3], 3);
  // 300 dispatches (plus one poison fill each when outputs are not host-mapped) in
  // batches of at most 256 commands; the read joins the last batch.
  const std::uint64_t commands = poison_fills() ? 600 : 300;
  if (vk::testing::flush_ops() == 0) {
    EXPECT_EQ(scope.delta().submits, (commands + 255) / 256) << scope.delta().to_string();
  }
  EXPECT_EQ(scope.delta().submits, expected_submits(300, commands / 300))
      << scope.delta().to_string();
}

TEST_F(Ledger, BarriersOnlyWhereAHazardExists) {
  const Tensor x = resident();
  // A poison fill is a real write before the kernel's write: it needs its barrier.
  const bool fills = poison_fills();
  const std::uint64_t before = vk::testing::hazard_barriers();
  std::vector<Tensor> independent;
  for (int i = 0; i < 20; ++i) independent.push_back(as_type(x, DType::f32));  // all read x
  EXPECT_EQ(vk::testing::hazard_barriers() - before, fills ? 20u : 0u);
  const std::uint64_t mid = vk::testing::hazard_barriers();
  Tensor t = x;
  for (int i = 0; i < 10; ++i) t = as_type(t, i % 2 == 0 ? DType::f32 : DType::s32);  // a chain
  // One per step, but where a step opens a new piece of the batch (the flush bound): the
  // piece's opening barrier orders it. The chain's ops are the batch's 21st to 30th.
  std::uint64_t steps = 0;
  const std::uint32_t flush = vk::testing::flush_ops();
  for (int i = 1; i < 10; ++i) steps += flush != 0 && (20 + i) % flush == 0 ? 0 : 1;
  EXPECT_EQ(vk::testing::hazard_barriers() - mid, fills ? 10u : steps);
  EXPECT_EQ(t.to_vector<std::int32_t>()[11], 11);
}

// What one run of a mixed chain gave: the bits read back, the ledger, the device time.
struct ChainRun {
  std::vector<float> values;
  LedgerCounts counts;
  double device_us = -1;
};

// 21 ops (literals, a tensor operand, a reduction, a movement op) on resident data, timed on
// the device, read once; `flush` ops per submitted piece (0: one submit).
ChainRun run_mixed_chain(std::uint32_t flush) {
  vk::testing::set_flush_ops(flush);
  Backend& gpu = vulkan();
  Tensor x = add(iota({33, 129}, DType::f32, std::nullopt, &gpu), 0.25);
  const Tensor b = multiply(iota({129}, DType::f32, std::nullopt, &gpu), 0.5);
  gpu.synchronize();
  ChainRun r;
  LedgerScope scope;
  gpu.begin_device_timer();
  for (int i = 0; i < 6; ++i) {
    x = i % 2 ? add(x, 0.5) : multiply(x, 1.0001);
    x = subtract(x, b);
  }
  x = add(x, sum(x, {1}, true));  // a reduction (two passes) feeding the chain
  x = transpose(x, {1, 0});
  for (int i = 0; i < 6; ++i) x = i % 2 ? vkt::max(x, -3.0) : divide(x, 1.5);
  gpu.end_device_timer();
  r.values = x.to_vector<float>();
  r.counts = scope.delta();
  r.device_us = gpu.device_timer_us();
  return r;
}

TEST_F(Ledger, PiecewiseSubmittedBatchMatchesOneSubmit) {
  const std::uint32_t saved = vk::testing::flush_ops();
  run_mixed_chain(0);  // pipelines created here, not counted in either run below
  const ChainRun one = run_mixed_chain(0);
  const ChainRun pieces = run_mixed_chain(3);
  vk::testing::set_flush_ops(saved);
  // 21 ops, each with at least one dispatch.
  ASSERT_GE(one.counts.dispatches, 21u) << one.counts.to_string();
  EXPECT_EQ(one.values, pieces.values);  // the same bits
  EXPECT_EQ(one.counts.submits, 1u) << one.counts.to_string();
  EXPECT_GT(pieces.counts.submits, 6u) << pieces.counts.to_string();
  // Everything else the ledger counts is the same: pieces add submits, never waits.
  LedgerCounts same = pieces.counts;
  same.submits = one.counts.submits;
  EXPECT_EQ(same.to_string(), one.counts.to_string());
  EXPECT_EQ(pieces.counts.waits, 1u) << pieces.counts.to_string();
  // The device timer spans the pieces: it reads a time wherever the device has timestamps.
  EXPECT_EQ(one.device_us > 0, pieces.device_us > 0) << one.device_us << " " << pieces.device_us;
}

TEST_F(Ledger, SynchronizeWithNothingPendingCostsNothing) {
  resident();
  LedgerScope scope;
  gpu().synchronize();
  EXPECT_EQ(scope.delta().submits, 0u);
  EXPECT_EQ(scope.delta().waits, 0u);
}

}  // namespace
}  // namespace vkt::testing
