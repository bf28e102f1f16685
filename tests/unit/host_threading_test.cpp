// The cpu backend's threading and wide-ISA loops change speed, never results: every op
// run with one thread and with every thread gives the same bits (integer and movement ops,
// and float elementwise ops), float reductions agree to rounding; the AVX2/AVX-512 loops
// give the baseline build's bits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/host_parallel.h"
#include "cpu/wide_loops.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

// Runs `f` with the per-thread minimum forced, then restores the measured one.
std::vector<std::byte> with_grain(std::int64_t bytes, const std::function<Tensor()>& f) {
  host::set_min_bytes_per_thread(bytes);
  std::vector<std::byte> out = f().to_bytes();
  host::set_min_bytes_per_thread(0);
  return out;
}

constexpr std::int64_t kOneThread = std::int64_t{1} << 60;
constexpr std::int64_t kEveryThread = 1;

Tensor data_f32(const Shape& shape) {
  const std::int64_t n = numel(shape);
  // Non-trivial values with a sign change and a spread of exponents.
  return reshape(multiply(subtract(iota({n}, DType::f32), n / 3), 0.37), shape);
}

Tensor data_s32(const Shape& shape) {
  return reshape(subtract(multiply(iota({numel(shape)}, DType::s32), 7919), 1 << 20), shape);
}

TEST(HostThreading, EveryThreadCountGivesTheSameBits) {
  // Odd sizes, so ranges split unevenly and rows straddle thread boundaries.
  const Tensor f = data_f32({1001, 257});
  const Tensor i = data_s32({1001, 257});
  const Tensor idx = as_type(multiply(iota({4099, 1}, DType::s64), 61), DType::s64);
  const std::vector<std::pair<std::string, std::function<Tensor()>>> cases = {
      {"add s32", [&] { return add(i, i); }},
      {"add broadcast",
       [&] {
         return add(f, slice(f, {0, 0}, {1, 257}));
       }},
      {"multiply f32", [&] { return multiply(f, f); }},
      {"divide f32", [&] { return divide(f, 3.0); }},
      {"exp f32", [&] { return exp(f); }},
      {"tanh f32", [&] { return tanh(f); }},
      {"less", [&] { return less(f, 1.0); }},
      {"as_type", [&] { return as_type(f, DType::s16); }},
      {"concatenate 0",
       [&] {
         return concatenate({f, f}, 0);
       }},
      {"concatenate 1",
       [&] {
         return concatenate({i, i, i}, 1);
       }},
      {"pad",
       [&] {
         return pad(f, 2.5, {{1, 2, 1}, {-3, 4, 0}});
       }},
      {"broadcast scalar",
       [&] {
         return broadcast(full({}, 3, DType::s32), {777, 1001});
       }},
      {"broadcast rows",
       [&] {
         return broadcast(slice(i, {0, 0}, {1, 257}), {2001, 257});
       }},
      {"transpose",
       [&] {
         return transpose(i, {1, 0});
       }},
      {"slice strided",
       [&] {
         return slice(f, {3, 1}, {300, 100}, {3, 2});
       }},
      {"put_slice",
       [&] {
         return put_slice(i, {500, 7}, slice(i, {0, 0}, {300, 200}));
       }},
      {"reverse",
       [&] {
         return reverse(i, {0, 1});
       }},
      {"gather", [&] { return gather(reshape(f, {1001 * 257}), idx); }},
      {"take", [&] { return take(i, as_type(iota({700}, DType::s64), DType::s64), 0); }},
      {"sum s64", [&] { return sum(as_type(i, DType::s64), {1}); }},
      {"argmax", [&] { return argmax(f, 1); }},
      {"cumulative_sum s32", [&] { return cumulative_sum(i, 1); }},
      {"iota",
       [&] {
         return iota({1001, 257}, DType::s32, 1);
       }},
  };
  for (const auto& [name, f_op] : cases) {
    EXPECT_TRUE(with_grain(kOneThread, f_op) == with_grain(kEveryThread, f_op)) << name;
  }
}

TEST(HostThreading, FloatReductionsAgreeToRounding) {
  const Tensor f = data_f32({3, 300001});
  const auto one = with_grain(kOneThread, [&] { return sum(f, {1}); });
  const auto all = with_grain(kEveryThread, [&] { return sum(f, {1}); });
  ASSERT_EQ(one.size(), all.size());
  for (std::size_t k = 0; k < one.size() / 4; ++k) {
    float a, b;
    std::memcpy(&a, one.data() + 4 * k, 4);
    std::memcpy(&b, all.data() + 4 * k, 4);
    EXPECT_NEAR(a, b, 1e-5 * std::abs(a));
  }
}

TEST(HostThreading, CalibrationIsSane) {
  const host::Tuning& t = host::tuning();
  EXPECT_GE(t.threads, 1);
  EXPECT_GT(host::min_bytes_per_thread(), 0);
  if (t.threads > 1) {
    EXPECT_GT(t.fork_join_us, 0.0);
    EXPECT_GT(t.copy_bytes_per_us, 0.0);
  }
  host::set_min_bytes_per_thread(12345);
  EXPECT_EQ(host::min_bytes_per_thread(), 12345);
  host::set_min_bytes_per_thread(0);
  EXPECT_EQ(host::min_bytes_per_thread(), t.min_bytes_per_thread);
}

TEST(HostThreading, ParallelMemcpyCopiesEveryByte) {
  for (std::int64_t n : {0, 1, 63, 65, 4097, (1 << 20) + 3}) {
    std::vector<unsigned char> src(static_cast<std::size_t>(n)), dst(src.size() + 1, 0xAB);
    for (std::size_t k = 0; k < src.size(); ++k) src[k] = static_cast<unsigned char>(k * 31 + 7);
    host::set_min_bytes_per_thread(kEveryThread);
    host::parallel_memcpy(dst.data(), src.data(), n);
    host::set_min_bytes_per_thread(0);
    EXPECT_TRUE(std::equal(src.begin(), src.end(), dst.begin())) << n;
    EXPECT_EQ(dst.back(), 0xAB) << n;  // nothing written past the end
  }
}

// Specials, subnormals, values near overflow, and a sweep of ordinary ones.
template <class T>
Tensor float_inputs(DType dtype) {
  std::vector<T> v = {T(0),
                      -T(0),
                      std::numeric_limits<T>::infinity(),
                      -std::numeric_limits<T>::infinity(),
                      std::numeric_limits<T>::quiet_NaN(),
                      std::numeric_limits<T>::denorm_min(),
                      std::numeric_limits<T>::min(),
                      std::numeric_limits<T>::max(),
                      T(88.7),
                      T(-103.9),
                      T(709.7),
                      T(-745.1)};
  for (int k = -3000; k <= 3000; ++k) v.push_back(static_cast<T>(k) * T(0.0137));
  (void)dtype;
  return from_vector(v, Shape{static_cast<std::int64_t>(v.size())}, &cpu());
}

// Distance in units in the last place between two floats of one dtype (0 for equal bits,
// and for two NaNs).
template <class T, class Bits>
std::int64_t ulps_apart(T a, T b) {
  if (std::isnan(a) && std::isnan(b)) return 0;
  auto key = [](T v) {
    Bits u;
    std::memcpy(&u, &v, sizeof u);
    const Bits sign = Bits{1} << (8 * sizeof(Bits) - 1);
    return (u & sign) != 0 ? -static_cast<std::int64_t>(u & ~sign) : static_cast<std::int64_t>(u);
  };
  const std::int64_t d = key(a) - key(b);
  return d < 0 ? -d : d;
}

// AVX2 and AVX-512 fuse the same multiply-adds, so they give the same bits; the SSE2
// baseline (no FMA) stays within two ulps of the dtype of them (sigmoid reaches two).
TEST(HostThreading, WideIsaLoopsAgreeWithEachOtherAndWithTheBaseline) {
  using cpu_kernels::VectorIsa;
  const std::vector<Op> ops = {Op::exp, Op::expm1, Op::log,  Op::log1p,  Op::sigmoid,
                               Op::sin, Op::cos,   Op::tanh, Op::sqrt,   Op::rsqrt,
                               Op::erf, Op::atan,  Op::cbrt, Op::erf_inv};
  for (DType d : {DType::f32, DType::f64, DType::bf16}) {
    const Tensor x =
        d == DType::f64 ? float_inputs<double>(d) : as_type(float_inputs<float>(DType::f32), d);
    // Apart in the dtype's own ulps (a bf16 ulp is 2^16 f32 ulps).
    auto apart = [&](double p, double q) {
      if (d == DType::f64) return ulps_apart<double, std::uint64_t>(p, q);
      const std::int64_t f32_ulps =
          ulps_apart<float, std::uint32_t>(static_cast<float>(p), static_cast<float>(q));
      return d == DType::bf16 ? f32_ulps >> 16 : f32_ulps;
    };
    for (Op op : ops) {
      auto run = [&](VectorIsa isa) {
        cpu_kernels::vector_isa_limit = isa;
        return as_type(unary(op, x), DType::f64).to_vector<double>();
      };
      const std::vector<double> base = run(VectorIsa::baseline);
      const std::vector<double> avx2 = run(VectorIsa::avx2);
      const std::vector<double> avx512 = run(VectorIsa::avx512);
      for (std::size_t i = 0; i < base.size(); ++i) {
        ASSERT_EQ(apart(avx2[i], avx512[i]), 0) << op_name(op) << " " << dtype_name(d) << " " << i;
        ASSERT_LE(apart(base[i], avx512[i]), 2) << op_name(op) << " " << dtype_name(d) << " " << i;
      }
    }
  }
  cpu_kernels::vector_isa_limit = VectorIsa::avx512;
}

// Float add, subtract, multiply and divide round once, so their AVX2/AVX-512 rows give the
// baseline's bits exactly: same shapes, a scalar on either side, a row broadcast along the
// inner axis, over signed zeros, infinities, NaN, subnormals and a spread of values.
TEST(HostThreading, WideBinaryArithmeticGivesTheBaselineBits) {
  using cpu_kernels::VectorIsa;
  for (DType d : {DType::f32, DType::f64}) {
    const Tensor x = d == DType::f64 ? float_inputs<double>(d) : float_inputs<float>(d);
    const std::int64_t n = x.size();
    const Tensor y = reverse(x, {0});
    const Tensor rows = reshape(slice(x, {0}, {n - n % 7}), {(n - n % 7) / 7, 7});
    const Tensor row = slice(y, {5}, {7});
    for (Op op : {Op::add, Op::subtract, Op::multiply, Op::divide}) {
      const std::vector<std::function<Tensor()>> cases = {
          [&] { return binary(op, x, y); },
          [&] { return binary(op, x, full({}, Scalar(0.37), d)); },
          [&] { return binary(op, full({}, Scalar(-3.5), d), y); },
          [&] { return binary(op, rows, row); },
          [&] {
            return binary(op, reshape(row, {7, 1}), reshape(x, {1, n}));
          }};
      for (std::size_t c = 0; c < cases.size(); ++c) {
        auto run = [&](VectorIsa isa) {
          cpu_kernels::vector_isa_limit = isa;
          return cases[c]().to_bytes();
        };
        const std::vector<std::byte> base = run(VectorIsa::baseline);
        EXPECT_EQ(run(VectorIsa::avx2), base) << op_name(op) << " " << dtype_name(d) << " " << c;
        EXPECT_EQ(run(VectorIsa::avx512), base) << op_name(op) << " " << dtype_name(d) << " " << c;
      }
    }
  }
  cpu_kernels::vector_isa_limit = VectorIsa::avx512;
}

}  // namespace
}  // namespace vkt
