// The API gaps on Vulkan: window_scatter_max/min (native for 32-bit dtypes, else by
// fallback) against the cpu; reduce / window_reduce with a function run by host fallback
// (result on the cpu, one fallback in the ledger, the cpu's numbers);
// all_close, to_batched and tensor-start slices stay on the device without reads; partial
// reads and inspect read only the bytes they show; to_pointer refuses device tensors.
#include <array>
#include <cmath>
#include <complex>
#include <random>

#include "conformance/fixture.h"
#include "support/compare.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

class ApiGaps : public VulkanTest {};

Tensor data(const Shape& shape, DType dtype) {
  // Few distinct values, so windows hold ties.
  return as_type(remainder(iota(shape, DType::s32, std::nullopt, &cpu()), 5), dtype);
}

// The device's answer for a window_scatter call, native for 32-bit dtypes (f32, s32, u32)
// and by fallback otherwise, against the cpu's.
void check_scatter(Backend& gpu, bool max, const Tensor& t, const Tensor& src, Scalar init,
                   const Shape& window, const WindowOptions& o, const std::string& what) {
  auto run = [&](const Tensor& a, const Tensor& b) {
    return max ? window_scatter_max(a, b, init, window, o)
               : window_scatter_min(a, b, init, window, o);
  };
  const Tensor expected = run(t, src);
  const Tensor dt = transfer(t, gpu), ds = transfer(src, gpu);
  LedgerScope scope;
  const Tensor got = run(dt, ds);
  const LedgerCounts delta = scope.delta();
  auto word = [](DType d) { return d == DType::f32 || d == DType::s32 || d == DType::u32; };
  const bool native = word(t.dtype()) && word(expected.dtype());
  EXPECT_EQ(delta.fallbacks, native ? 0u : 1u) << what << " " << delta.to_string();
  EXPECT_EQ(&got.backend(), native ? &gpu : &cpu()) << what;
  EXPECT_EQ(got.dtype(), expected.dtype()) << what;
  EXPECT_TRUE(tensors_close(got, expected)) << what;
}

TEST_F(ApiGaps, WindowScatterMatchesTheCpu) {
  const WindowOptions padded{{2, 2}, {{1, 0}, {0, 1}}, {}};
  for (DType d : {DType::f32, DType::s32, DType::u32, DType::f16, DType::u8, DType::f64}) {
    const Tensor t = data({6, 7}, d);
    const Tensor src = as_type(iota({3, 3}, DType::s32, std::nullopt, &cpu()), d);
    for (bool max : {true, false}) {
      const std::string what = std::string(max ? "max " : "min ") + std::string(dtype_name(d));
      check_scatter(gpu(), max, t, src, 1, {2, 3}, padded, what + " padded");
      // Overlapping windows (stride 1): collisions sum in window order.
      check_scatter(gpu(), max, t, as_type(iota({5, 6}, DType::s32, std::nullopt, &cpu()), d), 0,
                    {2, 2}, {}, what + " overlapping");
      // Dilated windows, rank 3, windows in padding only.
      const Tensor t3 = data({3, 4, 5}, d);
      const WindowOptions dilated{{1, 1, 2}, {{2, 0}, {0, 1}, {1, 1}}, {1, 2, 2}};
      const Shape windows = window_sum(t3, {1, 2, 2}, dilated).shape();
      check_scatter(gpu(), max, t3, as_type(iota(windows, DType::s32, std::nullopt, &cpu()), d), 2,
                    {1, 2, 2}, dilated, what + " dilated");
    }
  }
  // A float init with an integer source gives f32 (native); rank 0; no windows at all.
  check_scatter(gpu(), true, data({4, 4}, DType::s32),
                iota({2, 2}, DType::s32, std::nullopt, &cpu()), 0.5, {2, 2}, {{2, 2}, {}, {}},
                "s32 with f32 out");
  check_scatter(gpu(), true, scalar_tensor(3.0, DType::f32, &cpu()),
                scalar_tensor(2.0, DType::f32, &cpu()), 1, {}, {}, "rank 0");
  check_scatter(gpu(), false, data({2, 3}, DType::f32), full({0, 2}, 1, DType::f32, &cpu()), 7,
                {3, 2}, {}, "no windows");
}

// Nx's tensor-valued pad value and window_scatter init, with everything on the device: the
// composed ops run natively (f32 scatters), nothing is read back, and the numbers are the cpu's.
TEST_F(ApiGaps, TensorValuedPadAndScatterInitStayOnTheDevice) {
  const Tensor t = data({6, 7}, DType::s32);
  const Tensor value = scalar_tensor(-0.0, DType::f32, &cpu());
  const std::vector<PadAxis> config = {{2, -1, 1}, {-3, 2, 0}};
  const Tensor src = as_type(iota({3, 3}, DType::s32, std::nullopt, &cpu()), DType::f32);
  const WindowOptions o{{2, 2}, {{1, 0}, {0, 1}}, {}};
  const Tensor expected_pad = pad(t, value, config);
  const Tensor expected_scatter = window_scatter_min(as_type(t, DType::f32), src, value, {2, 3}, o);
  const Tensor dt = transfer(t, gpu()), dv = transfer(value, gpu()), ds = transfer(src, gpu());
  const Tensor dtf = as_type(dt, DType::f32);
  LedgerScope scope;
  const Tensor padded = pad(dt, dv, config);
  const Tensor scattered = window_scatter_min(dtf, ds, dv, {2, 3}, o);
  const LedgerCounts delta = scope.delta();
  EXPECT_EQ(delta.fallbacks, 0u) << delta.to_string();
  EXPECT_EQ(delta.downloads, 0u) << delta.to_string();
  EXPECT_EQ(delta.uploads, 0u) << delta.to_string();
  EXPECT_EQ(&padded.backend(), &gpu());
  EXPECT_EQ(&scattered.backend(), &gpu());
  EXPECT_EQ(padded.dtype(), DType::f32);
  // Bit for bit: the -0 value keeps its sign where it landed.
  EXPECT_EQ(padded.to_bytes(), expected_pad.to_bytes());
  EXPECT_EQ(scattered.to_bytes(), expected_scatter.to_bytes());
}

TEST_F(ApiGaps, WindowScatterSpecialValues) {
  // NaN first, NaN later, +-0 ties, infinities, subnormals: the cpu's choices exactly.
  const std::vector<float> v = {NAN,  1.0f,   -0.0f,   0.0f, INFINITY, -INFINITY,
                                2.0f, 1e-40f, -1e-40f, NAN,  2.0f,     0.0f};
  const Tensor t = from_vector<float>(v, {3, 4}, &cpu());
  for (bool max : {true, false}) {
    check_scatter(gpu(), max, t, full({2, 3}, 1.5, DType::f32, &cpu()), 0, {2, 2}, {},
                  max ? "max specials" : "min specials");
    check_scatter(gpu(), max, t, full({3, 2}, 1.5, DType::f32, &cpu()), -1, {2, 3},
                  {{1, 1}, {{0, 1}, {0, 0}}, {}},
                  max ? "max specials strided" : "min specials strided");
  }
}

TEST_F(ApiGaps, WindowScatterRandomGeometries) {
  // Ranks 1 to 4, windows, strides, padding and dilations drawn from a fixed seed; values
  // with many ties (and NaN, +-0 for f32).
  std::mt19937 rng(20261201);
  auto draw = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int checked = 0;
  for (int i = 0; i < 60; ++i) {
    const DType d = std::array{DType::f32, DType::s32, DType::u32}[static_cast<std::size_t>(i % 3)];
    const int rank = draw(1, 4);
    Shape shape, window;
    WindowOptions o;
    for (int a = 0; a < rank; ++a) {
      shape.push_back(draw(1, 6));
      window.push_back(draw(1, 3));
      o.strides.push_back(draw(1, 3));
      o.dilations.push_back(draw(1, 2));
      o.padding.emplace_back(draw(0, 2), draw(0, 2));
    }
    Tensor t = as_type(remainder(iota(shape, DType::s32, std::nullopt, &cpu()), draw(2, 4)), d);
    if (d == DType::f32 && i % 2 == 0) {  // 0 -> NaN, 1 -> -0, 2 -> +0
      const Tensor f32_scalar_nan = scalar_tensor(NAN, DType::f32, &cpu());
      const Tensor minus_zero = scalar_tensor(-0.0, DType::f32, &cpu());
      t = select(equal(t, 0), f32_scalar_nan,
                 select(equal(t, 1), minus_zero, select(equal(t, 2), multiply(t, 0.0), t)));
    }
    const Shape windows = window_sum(t, window, o).shape();
    const Tensor src = as_type(iota(windows, DType::s32, std::nullopt, &cpu()), d);
    check_scatter(gpu(), i % 2 == 0, t, src, draw(0, 2), window, o,
                  "random geometry " + std::to_string(i) + " " + shape_str(shape));
    ++checked;
  }
  EXPECT_EQ(checked, 60);
}

TEST_F(ApiGaps, WindowScatterForcedFallbackStaysOnCpu) {
  const Tensor t = transfer(data({4, 4}, DType::f32), gpu());
  const Tensor src = transfer(full({2, 2}, 1, DType::f32, &cpu()), gpu());
  vk::testing::set_native_disabled(Op::window_scatter_max, true);
  LedgerScope scope;
  const Tensor r = window_scatter_max(t, src, 0, {2, 2}, {{2, 2}, {}, {}});
  vk::testing::set_native_disabled(Op::window_scatter_max, false);
  EXPECT_EQ(scope.delta().fallbacks_by_op.at("window_scatter_max"), 1u);
  EXPECT_EQ(&r.backend(), &cpu());
  EXPECT_TRUE(
      tensors_close(r, window_scatter_max(t.to_cpu(), src.to_cpu(), 0, {2, 2}, {{2, 2}, {}, {}})));
}

TEST_F(ApiGaps, ReduceWithFunctionFallsBackWithTheCpuResult) {
  const Tensor t = data({5, 6}, DType::f32);
  auto fn = [](Scalar x, Scalar acc) { return acc.as_double() * 0.5 + x.as_double(); };
  const Tensor expected = reduce(t, 1.0, fn, {1});
  const Tensor dev = transfer(t, gpu());
  LedgerScope scope;
  const Tensor got = reduce(dev, 1.0, fn, {1});
  LedgerCounts delta = scope.delta();
  EXPECT_EQ(delta.fallbacks_by_op.at("reduce"), 1u) << delta.to_string();
  EXPECT_EQ(delta.downloads, 1u) << delta.to_string();
  EXPECT_EQ(delta.uploads, 0u) << delta.to_string();
  EXPECT_EQ(&got.backend(), &cpu());
  EXPECT_EQ(as_bits(got), as_bits(expected));
  LedgerScope window_scope;
  const Tensor w = window_reduce_typed<float>(dev, 0.0f, {2, 2}, {{1, 2}, {{1, 1}, {0, 0}}, {}},
                                              [](float x, float a) { return std::fmax(x, a); });
  delta = window_scope.delta();
  EXPECT_EQ(delta.fallbacks_by_op.at("window_reduce"), 1u) << delta.to_string();
  EXPECT_EQ(&w.backend(), &cpu());
  EXPECT_EQ(as_bits(w),
            as_bits(window_reduce_typed<float>(t, 0.0f, {2, 2}, {{1, 2}, {{1, 1}, {0, 0}}, {}},
                                               [](float x, float a) { return std::fmax(x, a); })));
  // A complex tensor on the device: the same fallback, the fold in c64.
  const Tensor c = add(as_type(t, DType::c64), Scalar(std::complex<float>(0, 1)));
  auto rotate_add = [](Scalar x, Scalar acc) {
    return acc.as_complex() * std::complex<double>(0, 1) + x.as_complex();
  };
  const Tensor c_dev = transfer(c, gpu());
  LedgerScope complex_scope;
  const Tensor folded = reduce(c_dev, 1.0, rotate_add, {0});
  delta = complex_scope.delta();
  EXPECT_EQ(delta.fallbacks_by_op.at("reduce"), 1u) << delta.to_string();
  EXPECT_EQ(&folded.backend(), &cpu());
  EXPECT_EQ(folded.dtype(), DType::c64);
  EXPECT_EQ(as_bits(folded), as_bits(reduce(c, 1.0, rotate_add, {0})));
}

TEST_F(ApiGaps, AllCloseAndToBatchedStayOnTheDevice) {
  const Tensor a = transfer(from_vector<float>({1, INFINITY, NAN, 4}, &cpu()), gpu());
  const Tensor b = transfer(from_vector<float>({1.000001f, INFINITY, NAN, 4}, &cpu()), gpu());
  LedgerScope scope;
  const Tensor plain = all_close(a, b);
  const Tensor nan_ok = all_close(a, b, {1e-5, 1e-8, true});
  const std::vector<Tensor> batches = to_batched(reshape(a, {4, 1}), 3);
  LedgerCounts delta = scope.delta();
  EXPECT_EQ(delta.fallbacks, 0u) << delta.to_string();
  EXPECT_EQ(delta.downloads, 0u) << delta.to_string();
  EXPECT_EQ(&plain.backend(), &gpu());
  EXPECT_EQ(plain.item<int>(), 0);
  EXPECT_EQ(nan_ok.item<int>(), 1);
  ASSERT_EQ(batches.size(), 2u);
  EXPECT_EQ(&batches[1].backend(), &gpu());
  const std::vector<float> last = batches[1].to_vector<float>();
  EXPECT_EQ(last[0], 4.0f);
  ASSERT_EQ(last.size(), 3u);  // the tail (4), then the head again (1, inf)
  EXPECT_EQ(last[1], 1.0f);
  EXPECT_TRUE(std::isinf(last[2]));
}

TEST_F(ApiGaps, DeviceStartsAreNotRead) {
  const Tensor host = iota({5, 6}, DType::f32, std::nullopt, &cpu());
  const Tensor t = transfer(host, gpu());
  const Tensor row = transfer(scalar_tensor(3, DType::s32, &cpu()), gpu());
  const Tensor col = transfer(scalar_tensor(-2, DType::s64, &cpu()), gpu());
  const Tensor update = transfer(full({2, 4}, -1, DType::f32, &cpu()), gpu());
  LedgerScope scope;
  const Tensor s = slice(t, {row, col}, {3, 2}, {1, 2});
  const Tensor p = put_slice(t, {row, col}, update);
  const LedgerCounts delta = scope.delta();
  EXPECT_EQ(delta.downloads, 0u) << delta.to_string();
  EXPECT_EQ(delta.fallbacks, 0u) << delta.to_string();
  EXPECT_EQ(&s.backend(), &gpu());
  EXPECT_EQ(s.to_vector<float>(),
            slice(host, std::vector<std::int64_t>{3, -2}, {3, 2}, {1, 2}).to_vector<float>());
  EXPECT_EQ(p.to_vector<float>(),
            put_slice(host, std::vector<std::int64_t>{3, -2}, update.to_cpu()).to_vector<float>());
  // Starts past the end clamp as integer starts do.
  const Tensor far = transfer(scalar_tensor(100, DType::u8, &cpu()), gpu());
  EXPECT_EQ(slice(t, {far, far}, {2, 2}).to_vector<float>(),
            slice(host, std::vector<std::int64_t>{100, 100}, {2, 2}).to_vector<float>());
  // Starts on the cpu with a tensor on the device: read on the host, the slice native.
  LedgerScope cpu_starts;
  const Tensor c = slice(
      t, {scalar_tensor(1, DType::s64, &cpu()), scalar_tensor(1, DType::s64, &cpu())}, {2, 2});
  EXPECT_EQ(cpu_starts.delta().downloads, 0u);
  EXPECT_EQ(&c.backend(), &gpu());
}

TEST_F(ApiGaps, PartialReadAndInspectReadOnlyWhatTheyShow) {
  const Tensor host = iota({1000}, DType::f32, std::nullopt, &cpu());
  const Tensor t = transfer(host, gpu());
  vulkan().synchronize();
  LedgerScope scope;
  const std::vector<std::byte> b = t.to_bytes(10);
  LedgerCounts delta = scope.delta();
  EXPECT_EQ(b.size(), 40u);
  EXPECT_EQ(delta.downloads, 1u);
  EXPECT_EQ(delta.download_bytes, 40u) << delta.to_string();
  EXPECT_TRUE(b == host.to_bytes(10));
  LedgerScope inspect_scope;
  const std::string on_cpu = inspect(host), on_device = inspect(t);
  const std::string backend_line = "\n  vktensor.Backend<" + gpu().name() + ">";
  const std::size_t after_shape = on_cpu.find("f32[1000]") + 9;
  EXPECT_EQ(on_device, on_cpu.substr(0, after_shape) + backend_line + on_cpu.substr(after_shape));
  delta = inspect_scope.delta();
  EXPECT_EQ(delta.download_bytes, 51u * 4) << delta.to_string();  // limit 50, plus one
  EXPECT_THROW(to_pointer(t), Unsupported);
  EXPECT_EQ(to_pointer(t.to_cpu()) != nullptr, true);
}

TEST_F(ApiGaps, FromPointerUploadsOnTransfer) {
  std::vector<float> memory = {1, 2, 3};
  const Tensor t = from_pointer(memory.data(), DType::f32, {3});
  LedgerScope scope;
  const Tensor dev = transfer(t, gpu());
  EXPECT_EQ(scope.delta().upload_bytes, 12u);
  EXPECT_EQ(exp(dev).to_vector<float>(), exp(t).to_vector<float>());
}

}  // namespace
}  // namespace vkt::testing
