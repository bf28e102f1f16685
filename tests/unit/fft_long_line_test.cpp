// The cpu fft's long-line path (the four-step split, src/cpu/fft_four_step.h) and its
// strided and in-place line moves: against the direct transform of the same line (kissfft,
// or Radix4Fft for powers of two; the four-step forced off), against analytic transforms
// (a delta, one complex exponential) that involve no FFT code at all, and in round trips;
// c64 and c128. Radix4Fft against a direct DFT: fft_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <numbers>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/settings.h"
#include "core/host_parallel.h"
#include "cpu/fft_four_step.h"
#include "support/fft_check.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::complex_tensor;
using testing::complex_values;
using testing::random_pairs;
using testing::spectra_close;
using Cd = std::complex<double>;

// Forces the four-step choice for one scope ("off", a byte bound, or "" for the rule).
class FourStepMode {
 public:
  explicit FourStepMode(const char* value) : scope_(std::string("cpu_fft_four_step=") + value) {}

 private:
  OverrideScope scope_;
};

// A bound for the rule that sends every line above 256 points through the four-step, its
// sub-lines above 256 points too (the nested split), whatever the host's caches.
constexpr const char* kEveryLine = "4096";

std::string trace(DType d, std::int64_t n) {
  return std::string(dtype_name(d)) + " n=" + std::to_string(n);
}

// The four-step (forced at every level) against kissfft's direct transform in the same
// precision, forward and inverse, and the round trip.
TEST(FftLongLine, FourStepMatchesDirectTransform) {
  for (DType d : {DType::c64, DType::c128}) {
    for (std::int64_t n :
         {std::int64_t{1} << 16, std::int64_t{1} << 20, 3 * (std::int64_t{1} << 18),
          std::int64_t{1000000}, std::int64_t{7 * 11 * 13 * 64}}) {
      SCOPED_TRACE(trace(d, n));
      const Tensor x = complex_tensor(random_pairs(n, static_cast<std::uint32_t>(n)), d, {n});
      std::vector<Cd> direct_fwd, direct_inv, split_fwd, split_inv, back;
      {
        const FourStepMode off("off");
        direct_fwd = complex_values(fft(x));
        direct_inv = complex_values(ifft(x));
      }
      {
        const FourStepMode every(kEveryLine);
        split_fwd = complex_values(fft(x));
        split_inv = complex_values(ifft(x));
        back = complex_values(ifft(fft(x)));
      }
      EXPECT_TRUE(spectra_close(split_fwd, direct_fwd, d, n));
      EXPECT_TRUE(spectra_close(split_inv, direct_inv, d, n));
      EXPECT_TRUE(spectra_close(back, complex_values(x), d, n));
    }
  }
}

// Analytic: fft of a delta at p is exp(-2 pi i p k / n); fft of exp(2 pi i f j / n) is n at
// k = f and 0 elsewhere. The host's own rule (no override), so the long lines here take
// whichever path this host's caches pick; with the override, the four-step at every level.
TEST(FftLongLine, AnalyticTransforms) {
  // Host rule: a power of two, and 2^10 * 1009 (Bluestein, its 2^21-point transforms split);
  // forced: 3 * 2^18 and 10^6 (radices 3 and 5 in the sub-lines, nested splits).
  const std::vector<std::pair<const char*, std::vector<std::int64_t>>> runs = {
      {nullptr, {std::int64_t{1} << 20, std::int64_t{1024 * 1009}}},
      {kEveryLine, {3 * (std::int64_t{1} << 18), std::int64_t{1000000}}}};
  for (const auto& run : runs) {
    const char* mode = run.first;
    std::optional<FourStepMode> forced;
    if (mode != nullptr) forced.emplace(mode);
    for (DType d : {DType::c64, DType::c128}) {
      for (std::int64_t n : run.second) {
        SCOPED_TRACE(trace(d, n) + (mode ? " forced" : ""));
        const std::int64_t p = n / 3 + 1, f = n / 7 + 5;
        std::vector<double> delta(static_cast<std::size_t>(2 * n), 0.0), wave(delta.size());
        delta[static_cast<std::size_t>(2 * p)] = 1.0;
        std::vector<Cd> delta_want(static_cast<std::size_t>(n)), wave_want(delta_want.size());
        for (std::int64_t j = 0; j < n; ++j) {
          const auto u = static_cast<std::size_t>(j);
          const double dn = static_cast<double>(n);
          const double a = 2.0 * std::numbers::pi * static_cast<double>((f * j) % n) / dn;
          wave[2 * u] = std::cos(a);
          wave[2 * u + 1] = std::sin(a);
          const double b = -2.0 * std::numbers::pi * static_cast<double>((p * j) % n) / dn;
          delta_want[u] = Cd(std::cos(b), std::sin(b));
        }
        wave_want[static_cast<std::size_t>(f)] = Cd(static_cast<double>(n), 0.0);
        EXPECT_TRUE(
            spectra_close(complex_values(fft(complex_tensor(delta, d, {n}))), delta_want, d, n));
        EXPECT_TRUE(
            spectra_close(complex_values(fft(complex_tensor(wave, d, {n}))), wave_want, d, n));
        // ifft(n delta_f) is the wave again, scaled by 1 / n on the way.
        std::vector<double> spike(static_cast<std::size_t>(2 * n), 0.0);
        spike[static_cast<std::size_t>(2 * f)] = static_cast<double>(n);
        EXPECT_TRUE(spectra_close(complex_values(ifft(complex_tensor(spike, d, {n}))),
                                  complex_values(complex_tensor(wave, DType::c128, {n})), d, n));
      }
    }
  }
}

// The line moves around the four-step: real input (converted), padding and cropping, rfft
// (half the points out), irfft (mirrored in, real parts out), and several lines on an inner
// axis (strided gather and scatter); each against the direct transform.
TEST(FftLongLine, GatheredLinesMatchDirectTransform) {
  const std::int64_t n = 3 * 4096;
  const std::vector<double> p = random_pairs(2 * n, 5);
  std::vector<double> re(p.begin(), p.begin() + 2 * n);
  const Tensor real = from_vector(re, {2, n});
  const Tensor real_t = transpose(real);  // {n, 2}: the lines on axis 0
  const Tensor c = complex_tensor(p, DType::c64, {2, n});
  auto all = [&] {
    std::vector<std::vector<Cd>> r;
    r.push_back(complex_values(fft(real)));
    r.push_back(complex_values(fft(real, n + 1000)));
    r.push_back(complex_values(fft(c, n - 4000)));
    r.push_back(complex_values(ifft(c, 2 * n)));
    r.push_back(complex_values(rfft(real)));
    r.push_back(complex_values(irfft(rfft(real), n)));
    r.push_back(complex_values(irfft(c, 2 * n - 1)));
    r.push_back(complex_values(fft(real_t, std::nullopt, 0)));
    r.push_back(complex_values(ifft(fft(real_t, std::nullopt, 0), std::nullopt, 0)));
    return r;
  };
  std::vector<std::vector<Cd>> direct, split;
  {
    const FourStepMode off("off");
    direct = all();
  }
  {
    const FourStepMode every(kEveryLine);
    split = all();
  }
  // Each case's precision: c64 input runs in float, real f64 input in double.
  const std::vector<DType> precision = {DType::c128, DType::c128, DType::c64,
                                        DType::c64,  DType::c128, DType::c128,
                                        DType::c64,  DType::c128, DType::c128};
  ASSERT_EQ(direct.size(), precision.size());
  ASSERT_EQ(split.size(), precision.size());
  for (std::size_t i = 0; i < direct.size(); ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    EXPECT_TRUE(spectra_close(split[i], direct[i], precision[i], 2 * n));
  }
  EXPECT_TRUE(spectra_close(split[5], complex_values(real), DType::f64, n));
}

// More lines than threads, each split on its own thread (lines inside L2), contiguous and on
// an inner axis, forward and inverse: the same as the direct transform of each line.
TEST(FftLongLine, ManySplitLinesMatchDirectTransform) {
  const std::int64_t lines = 2 * std::max(host::max_threads(), 2) + 1, n = 4096;
  for (DType d : {DType::c64, DType::c128}) {
    SCOPED_TRACE(trace(d, n));
    const Tensor x = complex_tensor(random_pairs(lines * n, 13), d, {lines, n});
    const Tensor x_t = complex_tensor(random_pairs(lines * n, 13), d, {n, lines});
    auto all = [&] {
      return std::vector<std::vector<Cd>>{complex_values(fft(x)), complex_values(ifft(x)),
                                          complex_values(fft(x_t, std::nullopt, 0))};
    };
    std::vector<std::vector<Cd>> direct, split;
    {
      const FourStepMode off("off");
      direct = all();
    }
    {
      const FourStepMode every(kEveryLine);
      split = all();
    }
    for (std::size_t i = 0; i < direct.size(); ++i) {
      EXPECT_TRUE(spectra_close(split[i], direct[i], d, n)) << "case " << i;
    }
  }
}

// Lines on a middle axis: adjacent lines move together up to an outer block's end; each
// equals the same line transformed alone.
TEST(FftLongLine, StridedGroupsMatchOneByOne) {
  const std::int64_t outer = 3, n = 24, inner = 37;
  const std::vector<double> p = random_pairs(outer * n * inner, 9);
  const Tensor x = complex_tensor(p, DType::c128, {outer, n, inner});
  const std::vector<Cd> all = complex_values(fft(x, std::nullopt, 1));
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i = 0; i < inner; ++i) {
      std::vector<double> line;
      for (std::int64_t k = 0; k < n; ++k) {
        const auto at = static_cast<std::size_t>(2 * ((o * n + k) * inner + i));
        line.push_back(p[at]);
        line.push_back(p[at + 1]);
      }
      const std::vector<Cd> one = complex_values(fft(complex_tensor(line, DType::c128, {n})));
      for (std::int64_t k = 0; k < n; ++k) {
        ASSERT_EQ(all[static_cast<std::size_t>((o * n + k) * inner + i)],
                  one[static_cast<std::size_t>(k)])
            << "o=" << o << " i=" << i << " k=" << k;
      }
    }
  }
}

// One long line inside L2 is split over the threads only where there are many idle ones.
TEST(FftFourStepRule, SpreadsALineOnlyOverManyIdleThreads) {
  FourStepMode unset("");
  EXPECT_TRUE(cpu_kernels::four_step_spreads(16384, 1, 16));
  EXPECT_TRUE(cpu_kernels::four_step_spreads(1 << 20, 8, 16));
  EXPECT_FALSE(cpu_kernels::four_step_spreads(1 << 20, 9, 16));  // most threads have a line
  EXPECT_FALSE(cpu_kernels::four_step_spreads(16384, 1, 2));     // the split's passes cost more
  EXPECT_FALSE(cpu_kernels::four_step_spreads(4096, 1, 16));     // too short to share
  FourStepMode off("off");
  EXPECT_FALSE(cpu_kernels::four_step_spreads(1 << 20, 1, 16));
}

}  // namespace
}  // namespace vkt
