// The dispatch core's rules, proven on a fake device backend: backend pick, native runs,
// host fallback (result stays on the cpu), fallback policy, legacy policy, ledger counts.
#include "core/dispatch.h"

#include <gtest/gtest.h>

#include <cstring>

#include "core/legacy_policy.h"
#include "support/compare.h"
#include "unit/fake_backend.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::FakeBackend;

class Dispatch : public ::testing::Test {
 protected:
  void TearDown() override {
    set_fallback_policy(FallbackPolicy::allow);
    set_legacy_policy({});
  }
  FakeBackend dev{"fake0", {Op::full, Op::copy, Op::add}};
  FakeBackend other{"fake1", {Op::full, Op::add}};
};

TEST_F(Dispatch, UploadAndReadAreCountedOnce) {
  LedgerScope scope;
  Tensor t = from_vector<float>({1, 2, 3}, &dev);
  EXPECT_EQ(&t.backend(), &dev);
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{1, 2, 3}));
  const LedgerCounts d = scope.delta();
  EXPECT_EQ(d.uploads, 1u);
  EXPECT_EQ(d.upload_bytes, 12u);
  EXPECT_EQ(d.downloads, 1u);
  EXPECT_EQ(d.download_bytes, 12u);
}

TEST_F(Dispatch, SameBackendTransferIsANoOp) {
  Tensor t = from_vector<float>({1, 2}, &dev);
  LedgerScope scope;
  Tensor u = transfer(t, dev);
  EXPECT_EQ(u.storage(), t.storage());
  EXPECT_EQ(scope.delta().uploads + scope.delta().downloads, 0u);
  Tensor c = copy(t, dev);  // a copy has its own storage but crosses no bus
  EXPECT_NE(c.storage(), t.storage());
  EXPECT_EQ(scope.delta().uploads + scope.delta().downloads, 0u);
  EXPECT_EQ(c.to_vector<float>(), t.to_vector<float>());
}

TEST_F(Dispatch, NativeOpOnResidentInputsCostsNoTransfer) {
  Tensor a = from_vector<float>({1, 2}, &dev);
  Tensor b = from_vector<float>({3, 4}, &dev);
  LedgerScope scope;
  Tensor c = detail::dispatch({Op::add, {a, b}, NoParams{}, DType::f32, {2}});
  EXPECT_EQ(&c.backend(), &dev);
  const LedgerCounts d = scope.delta();
  EXPECT_EQ(d.uploads, 0u);
  EXPECT_EQ(d.downloads, 0u);
  EXPECT_EQ(d.fallbacks, 0u);
  EXPECT_EQ(dev.executed, 1);
}

TEST_F(Dispatch, DeviceWinsOverCpuAndMovesTheCpuInput) {
  Tensor a = from_vector<float>({1, 2}, &cpu());
  Tensor b = from_vector<float>({3, 4}, &dev);
  LedgerScope scope;
  Tensor c = detail::dispatch({Op::add, {a, b}, NoParams{}, DType::f32, {2}});
  EXPECT_EQ(&c.backend(), &dev);
  EXPECT_EQ(scope.delta().uploads, 1u);
  EXPECT_EQ(scope.delta().upload_bytes, 8u);
  EXPECT_EQ(c.to_vector<float>(), (std::vector<float>{4, 6}));
  EXPECT_EQ(a.to_vector<float>(), (std::vector<float>{1, 2}));  // input intact, still on cpu
  EXPECT_EQ(&a.backend(), &cpu());
}

TEST_F(Dispatch, TwoDevicesAreIncompatible) {
  Tensor a = from_vector<float>({1}, &dev);
  Tensor b = from_vector<float>({1}, &other);
  try {
    detail::dispatch({Op::add, {a, b}, NoParams{}, DType::f32, {1}});
    FAIL() << "expected IncompatibleBackends";
  } catch (const IncompatibleBackends& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("[add]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("fake0"), std::string::npos) << msg;
    EXPECT_NE(msg.find("fake1"), std::string::npos) << msg;
  }
}

TEST_F(Dispatch, FallbackLeavesTheResultOnTheCpu) {
  Tensor t = from_vector<float>({1.5f, -2.5f, 300.0f}, &dev);
  LedgerScope scope;
  Tensor r = as_type(t, DType::u8);  // the fake device has no as_type
  EXPECT_EQ(&r.backend(), &cpu());
  const LedgerCounts d = scope.delta();
  EXPECT_EQ(d.downloads, 1u);
  EXPECT_EQ(d.download_bytes, 12u);
  EXPECT_EQ(d.uploads, 0u);
  EXPECT_EQ(d.fallbacks, 1u);
  EXPECT_EQ(d.fallbacks_by_op.at("as_type"), 1u);
  EXPECT_EQ(r.to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{1, 0, 255}));
  EXPECT_EQ(scope.delta().downloads, 1u);  // reading a cpu result crosses no bus
}

TEST_F(Dispatch, FallbackOnCpuInputsDownloadsNothing) {
  Tensor t = from_vector<float>({1, 2}, &cpu());
  BackendScope on_dev(dev);
  LedgerScope scope;
  Tensor r = as_type(t, DType::s32);
  EXPECT_EQ(&r.backend(), &cpu());
  EXPECT_EQ(scope.delta().downloads + scope.delta().uploads, 0u);
}

TEST_F(Dispatch, LegacyPolicyReproducesTheSeedsCopies) {
  Tensor t = from_vector<float>({1, 2, 3}, &dev);
  set_legacy_policy({/*native=*/false, /*upload_fallback_result=*/true});
  LedgerScope scope;
  Tensor r = as_type(t, DType::s32);
  EXPECT_EQ(&r.backend(), &dev);
  EXPECT_EQ(scope.delta().downloads, 1u);
  EXPECT_EQ(scope.delta().uploads, 1u);
  // native off: even an op the device supports falls back.
  Tensor c = copy(t, dev);
  Tensor s = detail::dispatch({Op::add, {t, t}, NoParams{}, DType::f32, {3}});
  EXPECT_EQ(scope.delta().fallbacks, 2u);
  EXPECT_EQ(&s.backend(), &dev);
  (void)c;
}

TEST_F(Dispatch, StrictPolicyRaisesOnTheFirstFallback) {
  Tensor t = from_vector<float>({1, 2}, &dev);
  set_fallback_policy(FallbackPolicy::error);
  try {
    as_type(t, DType::s32);
    FAIL() << "expected FallbackForbidden";
  } catch (const FallbackForbidden& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("[as_type]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("f32"), std::string::npos) << msg;
    EXPECT_NE(msg.find("{2}"), std::string::npos) << msg;
  }
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{1, 2}));                  // input intact
  Tensor n = detail::dispatch({Op::add, {t, t}, NoParams{}, DType::f32, {2}});  // native: fine
  EXPECT_EQ(n.to_vector<float>(), (std::vector<float>{2, 4}));
}

TEST_F(Dispatch, WarnPolicyWarnsOncePerOp) {
  Tensor t = from_vector<float>({1, 2}, &dev);
  set_fallback_policy(FallbackPolicy::warn);
  ::testing::internal::CaptureStderr();
  as_type(t, DType::s16);
  as_type(t, DType::s16);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("[as_type]"), std::string::npos) << err;
  EXPECT_EQ(err.find("[as_type]"), err.rfind("[as_type]")) << err;
}

TEST_F(Dispatch, CreationRunsOnTheScopedDefaultBackend) {
  EXPECT_EQ(&default_backend(), &cpu());
  {
    BackendScope scope(dev);
    EXPECT_EQ(&default_backend(), &dev);
    LedgerScope ledger_scope;
    Tensor f = full({4}, 7, DType::s32);  // native on the fake device
    EXPECT_EQ(&f.backend(), &dev);
    EXPECT_EQ(ledger_scope.delta().uploads, 0u);
    Tensor i = iota({3}, DType::s32);  // not native: computed on the cpu, placed as asked
    EXPECT_EQ(&i.backend(), &dev);
    EXPECT_EQ(ledger_scope.delta().uploads, 1u);
    EXPECT_EQ(i.to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 1, 2}));
    EXPECT_EQ(f.to_vector<std::int32_t>(), (std::vector<std::int32_t>(4, 7)));
  }
  EXPECT_EQ(&default_backend(), &cpu());
}

TEST(Tensor, CreationAndReads) {
  Tensor e = eye({2, 3}, DType::f64);
  EXPECT_EQ(e.to_vector<double>(), (std::vector<double>{1, 0, 0, 0, 1, 0}));
  Tensor i = iota({2, 3}, DType::s64, 1);
  EXPECT_EQ(i.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 0, 1, 2}));
  Tensor z = full({0, 3}, 1.5, DType::f16);
  EXPECT_EQ(z.size(), 0);
  EXPECT_TRUE(z.to_bytes().empty());
  Tensor s = scalar_tensor(2.5);
  EXPECT_EQ(s.dtype(), DType::f32);
  EXPECT_EQ(s.rank(), 0);
  EXPECT_EQ(s.item<double>(), 2.5);
  Tensor b = bitcast(from_vector<float>({1.0f}), DType::u32);
  EXPECT_EQ(b.to_vector<std::uint32_t>()[0], 0x3f800000u);
  // Large host reads take the one-pass copy (no zero fill first): contents must be intact.
  const std::int64_t n = 3 << 20;
  const std::vector<std::int32_t> big = iota({n}, DType::s32).to_vector<std::int32_t>();
  ASSERT_EQ(big.size(), static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < n; k += 4099) EXPECT_EQ(big[static_cast<std::size_t>(k)], k);
  EXPECT_EQ(big.back(), n - 1);
  const std::vector<std::byte> bytes = iota({n}, DType::s32).to_bytes();
  EXPECT_EQ(std::memcmp(bytes.data(), big.data(), bytes.size()), 0);
}

TEST(Tensor, ErrorsNameTheOpAndValues) {
  Tensor t = from_vector<float>({1, 2, 3});
  auto expect_msg = [](auto&& f, const std::vector<std::string>& parts) {
    try {
      f();
      ADD_FAILURE() << "no exception; expected " << parts[0];
    } catch (const Error& e) {
      for (const auto& p : parts)
        EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    }
  };
  expect_msg([&] { (void)t.to_vector<double>(); }, {"[to_vector]", "f64", "f32"});
  expect_msg([&] { from_vector<float>({1, 2}, Shape{3}); }, {"[from_bytes]", "{3}"});
  expect_msg([&] { full({2, -1}, 0, DType::f32); }, {"[full]", "{2, -1}"});
  expect_msg([&] { iota({2, 3}, DType::f32, 2); }, {"[iota]", "axis 2", "rank 2"});
  expect_msg([&] { eye(Shape{3}, DType::f32); }, {"[eye]", "{3}"});
  expect_msg([&] { bitcast(t, DType::f64); }, {"[bitcast]", "f32", "f64"});
  expect_msg([&] { (void)t.item<float>(); }, {"[item]", "{3}"});
  EXPECT_THROW(as_type(Tensor(), DType::f32), Error);
  // Reads of a default-constructed tensor throw instead of touching a null storage.
  const Tensor empty;
  expect_msg([&] { (void)empty.to_bytes(); }, {"[to_bytes]", "default-constructed"});
  expect_msg([&] { (void)empty.item<float>(); }, {"[item]", "default-constructed"});
  std::vector<std::byte> buffer(empty.nbytes());
  expect_msg([&] { empty.read_into(buffer); }, {"[read_into]", "default-constructed"});
  EXPECT_THROW(vulkan(1000000), NoDevice);
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{1, 2, 3}));
}

TEST(Tensor, AsTypeSaturatesAndWraps) {
  Tensor f = from_vector<double>({-1e10, -1.5, 0.5, 1e10, std::nan("")});
  EXPECT_EQ(as_type(f, DType::s32).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{INT32_MIN, -1, 0, INT32_MAX, 0}));
  Tensor i = from_vector<std::int64_t>({-1, 256, 65537});
  EXPECT_EQ(as_type(i, DType::u8).to_vector<std::uint8_t>(),
            (std::vector<std::uint8_t>{255, 0, 1}));
  Tensor h = as_type(from_vector<float>({1.0f / 3, 65536.0f}), DType::f16);
  EXPECT_TRUE(
      testing::tensors_close(as_type(h, DType::f32), from_vector<float>({0.33325195f, INFINITY})));
}

}  // namespace
}  // namespace vkt
