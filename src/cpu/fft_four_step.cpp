// The four-step FFT of one long line (fft_four_step.h), every pass split over the threads.
#include "cpu/fft_four_step.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <kissfft/kissfft.hh>
#include <numbers>
#include <string>
#include <vector>

#include "common/settings.h"
#include "common/word_choice.h"
#include "cpu/fft_radix4.h"
#include "cpu/kernels.h"

namespace vkt::cpu_kernels {
namespace {

// Columns moved per gather: two cache lines of points, so each strided row read fills whole
// lines (and the adjacent-line prefetch) instead of one point per line.
template <class C>
constexpr std::int64_t kBlock = std::max<std::int64_t>(1, 128 / sizeof(C));

// Distance between gathered columns: `rows` points and one cache line more, so the columns
// written side by side do not all map to the same L1 set (power-of-two rows would).
template <class C>
std::int64_t column_pitch(std::int64_t rows) {
  return rows + std::max<std::int64_t>(1, 64 / sizeof(C));
}

// buf[b pitch + r] = src[r stride + b] for b < width: `width` adjacent points per row read.
template <class C>
void gather_columns(const C* src, std::int64_t stride, std::int64_t rows, std::int64_t width,
                    C* buf) {
  const std::int64_t pitch = column_pitch<C>(rows);
  for (std::int64_t r = 0; r < rows; ++r) {
    const C* row = src + r * stride;
    for (std::int64_t b = 0; b < width; ++b) buf[b * pitch + r] = row[b];
  }
}

// exp(sign 2 pi i m / n) * scale for any m in [0, n) as hi[m >> shift] * lo[m & mask]: two
// tables of about sqrt(n) entries from sin/cos of exact integers (no recurrence), the product
// in double (a few ulp of double, below float's rounding for c64).
class Twiddles {
 public:
  Twiddles(std::int64_t n, bool inverse, double scale) : n_(n) {
    while ((std::int64_t{1} << (2 * shift_)) < n) ++shift_;
    const std::int64_t lo_count = std::int64_t{1} << shift_;
    mask_ = lo_count - 1;
    const double sign = inverse ? 1.0 : -1.0;
    auto unit = [&](std::int64_t m) {
      const double angle =
          sign * 2.0 * std::numbers::pi * static_cast<double>(m) / static_cast<double>(n);
      return std::complex<double>(std::cos(angle), std::sin(angle));
    };
    for (std::int64_t l = 0; l < lo_count; ++l) lo_.push_back(unit(l) * scale);
    for (std::int64_t h = 0; (h << shift_) < n; ++h) hi_.push_back(unit(h << shift_));
  }
  std::int64_t size() const { return n_; }
  // dst[k] = src[k] * w(j k mod n), k in [0, count).
  template <class R>
  void apply(std::int64_t j, const std::complex<R>* src, std::complex<R>* dst,
             std::int64_t count) const {
    std::int64_t m = 0;
    for (std::int64_t k = 0; k < count; ++k) {
      const std::complex<double> h = hi_[static_cast<std::size_t>(m >> shift_)];
      const std::complex<double> l = lo_[static_cast<std::size_t>(m & mask_)];
      // Written out: std::complex's operator* adds a NaN-recovery branch per product.
      const auto wr = static_cast<R>(h.real() * l.real() - h.imag() * l.imag());
      const auto wi = static_cast<R>(h.real() * l.imag() + h.imag() * l.real());
      const R xr = src[k].real(), xi = src[k].imag();
      dst[k] = std::complex<R>(xr * wr - xi * wi, xr * wi + xi * wr);
      m += j;
      if (m >= n_) m -= n_;
    }
  }

 private:
  std::int64_t n_, shift_ = 0, mask_ = 0;
  std::vector<std::complex<double>> lo_, hi_;
};

}  // namespace

std::int64_t l2_cache_bytes() {
  static const std::int64_t bytes = [] {
    const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return l2 > 0 ? static_cast<std::int64_t>(l2) : std::int64_t{256} << 10;
  }();
  return bytes;
}

bool kissfft_plan_shareable(std::int64_t n) {
  for (std::int64_t p : {2, 3, 5}) {
    while (n % p == 0) n /= p;
  }
  return n == 1;
}

std::int64_t four_step_split(std::int64_t n) {
  std::int64_t best = 1;
  for (std::int64_t d = 2; d * d <= n; ++d) {
    if (n % d == 0) best = d;
  }
  return best;
}

// Tests force the choice (Overrides::cpu_fft_four_step): "off", or a count of bytes that
// replaces the L2 bound of four_step_pays, so long-line paths run on a small host.
static bool four_step_off() {
  return overrides()->cpu_fft_four_step == std::optional<std::string>("off");
}

// A direct transform keeps its input, output and scratch (3 n points) in L2 while they fit:
// each of its passes (log4 n for Radix4Fft) then reads L2, not memory. Past L2 the four-step,
// whose sub-lines stay in L1 and whose two passes alone stream, wins. On the 2-core VM (1 MiB
// L2, one thread) the direct transform led up to 3 n point bytes of 768 KiB (c64 32K points
// within a sixth, c128 16K points well ahead) and fell far behind past L2 (c128 32K points).
// The bound is the host's L2, not a length tuned here; the H200 run's sweep
// (scripts/run-gpu-benches.sh fft) checks it on 16 cores.
bool four_step_pays(std::int64_t n, std::int64_t point_bytes) {
  std::int64_t bound = l2_cache_bytes();
  if (four_step_off()) return false;
  if (const std::optional<std::string> forced = overrides()->cpu_fft_four_step) {
    bound = static_cast<std::int64_t>(
        *common::word_count(*forced, "cpu_fft_four_step", 0, INT64_MAX, "fft"));
  }
  return n >= 256 && four_step_split(n) >= 16 && 3 * n * point_bytes > bound;
}

// A line inside L2 that would run alone on one thread while most of the host's idle: the
// split spreads its passes over them. On the H200's 16 cores one line of c64 ran much faster
// split than direct at 16K and 64K points (a sweep of the split there); with 2 threads the
// split's extra passes eat the gain (the VM's measurement above), hence at least 4 threads
// and more than twice the lines.
bool four_step_spreads(std::int64_t n, std::int64_t lines, std::int64_t threads) {
  if (four_step_off()) return false;
  return n >= 16384 && four_step_split(n) >= 16 && threads >= 4 && 2 * lines <= threads;
}

// A transform of one sub-length: Radix4Fft (powers of two), kissfft (other lengths), or,
// where the sub-line itself is past the bound, a nested four-step (which then runs on the calling
// thread: it is called inside the outer passes).
template <class R>
class SubTransform {
 public:
  using C = std::complex<R>;
  SubTransform(std::int64_t n, bool inverse) : n_(n) {
    if (four_step_pays(n, sizeof(C))) {
      nested_ = std::make_unique<FourStepFft<R>>(n, inverse, 1.0);
    } else if (Radix4Fft<R>::handles(n)) {
      radix4_ = std::make_unique<Radix4Fft<R>>(n, inverse);
    } else {
      kiss_ = std::make_unique<kissfft<R>>(static_cast<std::size_t>(n), inverse);
      shareable_ = kissfft_plan_shareable(n);
    }
  }
  // One per thread: its scratch, and a copy of a kissfft plan that writes its own.
  class User {
   public:
    explicit User(const SubTransform& t) : t_(t) {
      if (t.kiss_ && !t.shareable_) own_ = std::make_unique<kissfft<R>>(*t.kiss_);
      if (t.radix4_) work_.resize(static_cast<std::size_t>(t.n_));
    }
    void run(const C* in, C* out) {
      if (t_.nested_) {
        t_.nested_->transform(in, out);
      } else if (t_.radix4_) {
        t_.radix4_->transform(in, out, work_.data());
      } else {
        (own_ ? own_.get() : t_.kiss_.get())->transform(in, out);
      }
    }

   private:
    const SubTransform& t_;
    std::unique_ptr<kissfft<R>> own_;
    std::vector<C> work_;
  };

 private:
  std::int64_t n_;
  std::unique_ptr<Radix4Fft<R>> radix4_;
  std::unique_ptr<kissfft<R>> kiss_;
  std::unique_ptr<FourStepFft<R>> nested_;
  bool shareable_ = false;
};

template <class R>
struct FourStepFft<R>::Impl {
  Impl(std::int64_t n, bool inverse, double scale)
      : n1(four_step_split(n)),
        n2(n / n1),
        columns(n2, inverse),
        rows(n1, inverse),
        twiddles(n, inverse, scale) {}
  std::int64_t n1, n2;
  SubTransform<R> columns;  // n2 points: over j2, one per j1
  SubTransform<R> rows;     // n1 points: over j1, one per k2
  Twiddles twiddles;
};

template <class R>
FourStepFft<R>::FourStepFft(std::int64_t n, bool inverse, double scale)
    : impl_(std::make_unique<Impl>(n, inverse, scale)) {}

template <class R>
FourStepFft<R>::~FourStepFft() = default;

template <class R>
void FourStepFft<R>::transform(const C* in, C* out) const {
  const Impl& s = *impl_;
  const std::int64_t n1 = s.n1, n2 = s.n2, block = kBlock<C>;
  // mid[j1 n2 + k2], left uninitialised (std::complex's constructor would zero it on one
  // thread); its pages are first touched by the threads that write them.
  const std::unique_ptr<R[]> mid_storage(new R[static_cast<std::size_t>(2 * n1 * n2)]);
  C* const mid = reinterpret_cast<C*>(mid_storage.get());
  // Pass 1: columns j1 (stride n1 in `in`), `block` at a time; results twiddled into rows of mid.
  parallel_for((n1 + block - 1) / block, 1, [&](std::int64_t begin, std::int64_t end) {
    typename SubTransform<R>::User fft(s.columns);
    const std::int64_t pitch = column_pitch<C>(n2);
    std::vector<C> buf(static_cast<std::size_t>(block * pitch)), res(static_cast<std::size_t>(n2));
    for (std::int64_t blk = begin; blk < end; ++blk) {
      const std::int64_t c0 = blk * block, width = std::min(block, n1 - c0);
      gather_columns(in + c0, n1, n2, width, buf.data());
      for (std::int64_t b = 0; b < width; ++b) {
        fft.run(buf.data() + b * pitch, res.data());
        s.twiddles.apply(c0 + b, res.data(), mid + (c0 + b) * n2, n2);
      }
    }
  });
  // Pass 2: columns k2 of mid (stride n2), `block` at a time; results to out[k2 + n2 k1].
  parallel_for((n2 + block - 1) / block, 1, [&](std::int64_t begin, std::int64_t end) {
    typename SubTransform<R>::User fft(s.rows);
    const std::int64_t pitch = column_pitch<C>(n1);
    std::vector<C> buf(static_cast<std::size_t>(block * pitch)), res(buf.size());
    for (std::int64_t blk = begin; blk < end; ++blk) {
      const std::int64_t r0 = blk * block, width = std::min(block, n2 - r0);
      gather_columns(mid + r0, n2, n1, width, buf.data());
      for (std::int64_t b = 0; b < width; ++b)
        fft.run(buf.data() + b * pitch, res.data() + b * pitch);
      for (std::int64_t k1 = 0; k1 < n1; ++k1) {
        C* row = out + k1 * n2 + r0;
        for (std::int64_t b = 0; b < width; ++b)
          row[b] = res[static_cast<std::size_t>(b * pitch + k1)];
      }
    }
  });
}

template class FourStepFft<float>;
template class FourStepFft<double>;

}  // namespace vkt::cpu_kernels
