// fft, ifft, rfft, irfft on the cpu: kissfft (BSD-3, Debian's libkissfft-dev; its C++
// template header, so c128 runs in double) over every line along the axis, lines in
// parallel, each gathered into a contiguous buffer (zero-padded or cropped, converted to
// complex) and its result scattered back. One plan per length, kept for later calls; lengths
// with a large prime factor by Bluestein's algorithm on power-of-two plans.
#include <cmath>
#include <complex>
#include <cstdlib>
#include <kissfft/kissfft.hh>
#include <map>
#include <memory>
#include <mutex>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "cpu/kernels.h"
#include "vkt/cast.h"

namespace vkt::cpu_kernels {
namespace {

// kissfft factors a length into 4, 2, 3, 5 and then any other prime p, whose butterfly
// uses the plan's mutable scratch buffer: such plans are copied per thread.
bool shareable(std::int64_t n) {
  for (std::int64_t p : {2, 3, 5}) {
    while (n % p == 0) n /= p;
  }
  return n == 1;
}

template <class R>
std::shared_ptr<const kissfft<R>> plan(std::int64_t n, bool inverse) {
  static std::mutex mutex;
  static std::map<std::pair<std::int64_t, bool>, std::shared_ptr<const kissfft<R>>> plans;
  constexpr std::size_t kKept = 16;  // lengths kept; a plan in use outlives its eviction
  std::lock_guard lock(mutex);
  auto it = plans.find({n, inverse});
  if (it != plans.end()) return it->second;
  if (plans.size() >= kKept) plans.clear();
  auto made = std::make_shared<const kissfft<R>>(static_cast<std::size_t>(n), inverse);
  plans.emplace(std::make_pair(n, inverse), made);
  return made;
}

// Lengths with a prime factor above this go through Bluestein's algorithm (three power-of-two
// transforms of at least 2n - 1 points): kissfft's generic butterfly costs n * p there, so a
// large prime length would cost n^2.
constexpr std::int64_t kBluesteinPrime = 256;

std::int64_t largest_prime_factor(std::int64_t n) {
  std::int64_t largest = 1;
  for (std::int64_t p = 2; p * p <= n; ++p) {
    while (n % p == 0) {
      largest = p;
      n /= p;
    }
  }
  return std::max(largest, n);
}

// Bluestein: X_k = w_k * sum_j (x_j w_j) conj(w_(k-j)), w_k = exp(-+ i pi k^2 / n), the
// sum a circular convolution of m >= 2n - 1 points done by power-of-two transforms.
template <class R>
class Bluestein {
 public:
  using C = std::complex<R>;
  Bluestein(std::int64_t n, bool inverse) : n_(n) {
    while (m_ < 2 * n - 1) m_ *= 2;
    fwd_ = plan<R>(m_, false);
    inv_ = plan<R>(m_, true);
    chirp_.resize(static_cast<std::size_t>(n));
    // k^2 mod 2n by (k + 1)^2 = k^2 + 2k + 1, exact for any n.
    std::int64_t square = 0;
    const double sign = inverse ? 1.0 : -1.0;
    for (std::int64_t k = 0; k < n; ++k) {
      const double angle = std::numbers::pi * static_cast<double>(square) / static_cast<double>(n);
      chirp_[static_cast<std::size_t>(k)] =
          C(static_cast<R>(std::cos(angle)), static_cast<R>(sign * std::sin(angle)));
      square = (square + 2 * k + 1) % (2 * n);
    }
    std::vector<C> b(static_cast<std::size_t>(m_), C(0));
    b[0] = std::conj(chirp_[0]);
    for (std::int64_t k = 1; k < n; ++k) {
      b[static_cast<std::size_t>(k)] = b[static_cast<std::size_t>(m_ - k)] =
          std::conj(chirp_[static_cast<std::size_t>(k)]);
    }
    kernel_.resize(static_cast<std::size_t>(m_));
    fwd_->transform(b.data(), kernel_.data());
    for (C& v : kernel_) v /= static_cast<R>(m_);  // the inverse transform's 1/m
  }
  std::int64_t scratch_size() const { return m_; }
  // `a` and `fa`: scratch_size() points each.
  void transform(const C* in, C* out, C* a, C* fa) const {
    for (std::int64_t k = 0; k < n_; ++k) a[k] = in[k] * chirp_[static_cast<std::size_t>(k)];
    std::fill(a + n_, a + m_, C(0));
    fwd_->transform(a, fa);
    for (std::int64_t k = 0; k < m_; ++k) fa[k] *= kernel_[static_cast<std::size_t>(k)];
    inv_->transform(fa, a);
    for (std::int64_t k = 0; k < n_; ++k) out[k] = a[k] * chirp_[static_cast<std::size_t>(k)];
  }

 private:
  std::int64_t n_, m_ = 1;
  std::shared_ptr<const kissfft<R>> fwd_, inv_;  // powers of two: shareable across threads
  std::vector<C> chirp_, kernel_;
};

// One long line on many threads (the four-step algorithm): n = n1 * n2, n1 transforms of n2
// points (strided), a twiddle, n2 transforms of n1 points. For lines too few to share out.
template <class R>
class FourStep {
 public:
  using C = std::complex<R>;
  // n1: the largest divisor of n up to sqrt(n); 1 when n has none above 1.
  static std::int64_t split(std::int64_t n) {
    std::int64_t best = 1;
    for (std::int64_t d = 2; d * d <= n; ++d) {
      if (n % d == 0) best = d;
    }
    return best;
  }
  FourStep(std::int64_t n, bool inverse) : n_(n), n1_(split(n)), n2_(n / n1_), inverse_(inverse) {
    p1_ = plan<R>(n1_, inverse);
    p2_ = plan<R>(n2_, inverse);
  }
  void transform(const C* in, C* out) const {
    std::vector<C> mid(static_cast<std::size_t>(n_));
    const double sign = inverse_ ? 1.0 : -1.0;
    const double step = 2.0 * std::numbers::pi / static_cast<double>(n_);
    parallel_for(n1_, 1, [&](std::int64_t begin, std::int64_t end) {
      kissfft<R> local = *p2_;  // a copy: kissfft's generic butterfly writes scratch
      std::vector<C> col(static_cast<std::size_t>(n2_)), res(static_cast<std::size_t>(n2_));
      for (std::int64_t j1 = begin; j1 < end; ++j1) {
        for (std::int64_t j2 = 0; j2 < n2_; ++j2)
          col[static_cast<std::size_t>(j2)] = in[j1 + n1_ * j2];
        local.transform(col.data(), res.data());
        C* row = mid.data() + j1 * n2_;
        for (std::int64_t k2 = 0; k2 < n2_; ++k2) {
          const double angle = sign * step * static_cast<double>(j1 * k2);
          row[k2] = res[static_cast<std::size_t>(k2)] *
                    C(static_cast<R>(std::cos(angle)), static_cast<R>(std::sin(angle)));
        }
      }
    });
    parallel_for(n2_, 1, [&](std::int64_t begin, std::int64_t end) {
      kissfft<R> local = *p1_;
      std::vector<C> col(static_cast<std::size_t>(n1_)), res(static_cast<std::size_t>(n1_));
      for (std::int64_t k2 = begin; k2 < end; ++k2) {
        for (std::int64_t j1 = 0; j1 < n1_; ++j1) {
          col[static_cast<std::size_t>(j1)] = mid[static_cast<std::size_t>(j1 * n2_ + k2)];
        }
        local.transform(col.data(), res.data());
        for (std::int64_t k1 = 0; k1 < n1_; ++k1)
          out[k2 + n2_ * k1] = res[static_cast<std::size_t>(k1)];
      }
    });
  }

 private:
  std::int64_t n_, n1_, n2_;
  bool inverse_;
  std::shared_ptr<const kissfft<R>> p1_, p2_;
};

// Lines at least this long, fewer than the threads, run one at a time by FourStep. On the
// 2-core VM (shared) it lost to one thread per line at 64K and 1M points; it is for many-core
// hosts. VKT_CPU_FFT_FOUR_STEP=0 (read at every call) turns it off, so a run on the GPU
// host can compare both (vkt-bench fft --cpu-only).
constexpr std::int64_t kFourStepMin = std::int64_t{1} << 20;

bool four_step_allowed() {
  const char* env = std::getenv("VKT_CPU_FFT_FOUR_STEP");
  return env == nullptr || std::string(env) != "0";
}

// Where the lines are: `outer` blocks of `size` x `inner` elements, a line strided by inner.
struct Lines {
  std::int64_t outer = 1, inner = 1, in_size = 0, out_size = 0;
  std::int64_t count() const { return outer * inner; }
  std::int64_t in_base(std::int64_t line) const {
    return (line / inner) * in_size * inner + line % inner;
  }
  std::int64_t out_base(std::int64_t line) const {
    return (line / inner) * out_size * inner + line % inner;
  }
};

Lines lines_of(const OpCall& call) {
  const FftParams& p = call.get<FftParams>();
  const Shape& in = call.inputs[0].shape();
  Lines l;
  for (std::int64_t a = 0; a < p.axis; ++a) l.outer *= in[static_cast<std::size_t>(a)];
  for (std::size_t a = static_cast<std::size_t>(p.axis) + 1; a < in.size(); ++a) l.inner *= in[a];
  l.in_size = in[static_cast<std::size_t>(p.axis)];
  l.out_size = call.out_shape[static_cast<std::size_t>(p.axis)];
  return l;
}

// Moves one line between the tensors and a contiguous buffer: gather converts to complex,
// pads or crops (irfft: reads n / 2 + 1 points and mirrors the rest), scatter scales (the
// inverse's 1 / n) and writes (irfft: the real parts).
template <class R, class In>
class LineIo {
 public:
  using C = std::complex<R>;
  LineIo(const OpCall& call, const Lines& lines, void* out)
      : lines_(lines),
        in_(data<In>(call.inputs[0])),
        out_(out),
        n_(call.get<FftParams>().length),
        stored_(call.op == Op::irfft ? n_ / 2 + 1 : n_),
        take_(std::min(stored_, lines.in_size)),
        real_out_(call.op == Op::irfft),
        scale_(call.op == Op::ifft || call.op == Op::irfft ? R(1) / static_cast<R>(n_) : R(1)) {}
  void gather(std::int64_t line, C* buf) const {
    const In* src = in_ + lines_.in_base(line);
    for (std::int64_t k = 0; k < take_; ++k) buf[k] = convert<C>(src[k * lines_.inner]);
    std::fill(buf + take_, buf + stored_, C(0));
    if (real_out_) {
      // irfft ignores the imaginary parts of the zero and (even n) middle points, as
      // NumPy: a NaN or infinity there would otherwise reach every output through 0 * inf.
      buf[0].imag(0);
      if (n_ % 2 == 0) buf[n_ / 2].imag(0);
    }
    for (std::int64_t k = stored_; k < n_; ++k) buf[k] = std::conj(buf[n_ - k]);
  }
  void scatter(std::int64_t line, const C* res) const {
    const std::int64_t base = lines_.out_base(line);
    if (real_out_) {
      R* dst = static_cast<R*>(out_) + base;
      for (std::int64_t k = 0; k < n_; ++k) dst[k * lines_.inner] = res[k].real() * scale_;
    } else {
      C* dst = static_cast<C*>(out_) + base;
      for (std::int64_t k = 0; k < lines_.out_size; ++k) dst[k * lines_.inner] = res[k] * scale_;
    }
  }

 private:
  const Lines& lines_;
  const In* in_;
  void* out_;
  std::int64_t n_, stored_, take_;
  bool real_out_;
  R scale_;
};

// R: the precision the transform runs in; In: the input's value type.
template <class R, class In>
void transform_lines(const OpCall& call, const Lines& lines, void* out_data) {
  using C = std::complex<R>;
  const std::int64_t n = call.get<FftParams>().length;
  const bool inverse = call.op == Op::ifft || call.op == Op::irfft;
  const LineIo<R, In> io(call, lines, out_data);
  const bool bluestein = largest_prime_factor(n) > kBluesteinPrime;
  if (!bluestein && n >= kFourStepMin && lines.count() < max_threads() &&
      FourStep<R>::split(n) >= 16 && four_step_allowed()) {
    // Too few lines to share out: one at a time, each on every thread.
    const FourStep<R> fft(n, inverse);
    std::vector<C> buf(static_cast<std::size_t>(n)), res(static_cast<std::size_t>(n));
    for (std::int64_t line = 0; line < lines.count(); ++line) {
      io.gather(line, buf.data());
      fft.transform(buf.data(), res.data());
      io.scatter(line, res.data());
    }
    return;
  }
  std::unique_ptr<const Bluestein<R>> blue;
  std::shared_ptr<const kissfft<R>> shared;
  if (bluestein) {
    blue = std::make_unique<const Bluestein<R>>(n, inverse);
  } else {
    shared = plan<R>(n, inverse);
  }
  const bool share = bluestein || shareable(n);
  const std::int64_t grain = std::max<std::int64_t>(1, kGrain / n);
  parallel_for(lines.count(), grain, [&](std::int64_t begin, std::int64_t end) {
    std::unique_ptr<kissfft<R>> own;
    if (!share) own = std::make_unique<kissfft<R>>(*shared);
    const kissfft<R>* fft = share ? shared.get() : own.get();
    std::vector<C> buf(static_cast<std::size_t>(n)), res(static_cast<std::size_t>(n));
    const std::size_t scratch = bluestein ? static_cast<std::size_t>(blue->scratch_size()) : 0;
    std::vector<C> a(scratch), fa(scratch);
    for (std::int64_t line = begin; line < end; ++line) {
      io.gather(line, buf.data());
      if (bluestein) {
        blue->transform(buf.data(), res.data(), a.data(), fa.data());
      } else {
        fft->transform(buf.data(), res.data());
      }
      io.scatter(line, res.data());
    }
  });
}

}  // namespace

Tensor run_fft(const OpCall& call) {
  Tensor out = make_output(call);
  const Lines lines = lines_of(call);
  if (out.size() == 0) return out;
  const DType precision = to_real_type(call.out_dtype);
  void* dst = mutable_data<void>(out);
  visit_any_dtype(call.inputs[0].dtype(), [&](auto in_tag) {
    using In = typename decltype(in_tag)::type;
    if (precision == DType::f64) {
      transform_lines<double, In>(call, lines, dst);
    } else {
      transform_lines<float, In>(call, lines, dst);
    }
  });
  return out;
}

}  // namespace vkt::cpu_kernels
