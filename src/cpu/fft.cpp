// fft, ifft, rfft, irfft on the cpu over every line along the axis, lines in parallel: powers
// of two by Radix4Fft (fft_radix4.h), other lengths by kissfft (BSD-3, Debian's
// libkissfft-dev; its C++ template header, so c128 runs in double), lengths with a large
// prime factor by Bluestein's algorithm (fft_bluestein.h), lines past L2 by the threaded
// four-step split (fft_four_step.h). Each line is read in place where it is
// contiguous and of the transform's type, else gathered into a contiguous buffer
// (zero-padded or cropped, converted to complex; strided lines a few at a time) and its
// result scattered back. One plan per length, kept for later calls (fft_plans.h).
#include <algorithm>
#include <complex>
#include <kissfft/kissfft.hh>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "cpu/fft_bluestein.h"
#include "cpu/fft_four_step.h"
#include "cpu/fft_plans.h"
#include "cpu/fft_radix4.h"
#include "cpu/kernels.h"
#include "vkt/cast.h"

namespace vkt::cpu_kernels {
namespace {

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

// Moves lines between the tensors and contiguous buffers: gather converts to complex, pads
// or crops (irfft: reads n / 2 + 1 points and mirrors the rest), scatter scales (the
// inverse's 1 / n) and writes (irfft: the real parts). Where a line already is n contiguous
// points of the transform's type, the transform reads (or writes) it in place.
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
  R scale() const { return scale_; }
  // Points a scatter writes per line.
  std::int64_t out_points() const { return real_out_ ? n_ : lines_.out_size; }
  const C* direct_input(std::int64_t line) const {
    if constexpr (std::is_same_v<In, C>) {
      if (!real_out_ && lines_.inner == 1 && take_ == n_) return in_ + lines_.in_base(line);
    }
    return nullptr;
  }
  // Unscaled: the caller applies scale() where it writes here.
  C* direct_output(std::int64_t line) const {
    if (real_out_ || lines_.inner != 1 || lines_.out_size != n_) return nullptr;
    return static_cast<C*>(out_) + lines_.out_base(line);
  }
  // Points [begin, end) of `count` adjacent lines (same outer block, consecutive inner
  // positions) into buf[b n + k]: one strided row read serves them all.
  void gather(std::int64_t line, std::int64_t count, C* buf, std::int64_t begin,
              std::int64_t end) const {
    const In* src = in_ + lines_.in_base(line);
    const std::int64_t inner = lines_.inner;
    for (std::int64_t k = begin; k < std::min(end, take_); ++k) {
      for (std::int64_t b = 0; b < count; ++b) buf[b * n_ + k] = convert<C>(src[k * inner + b]);
    }
    if (real_out_) {
      // irfft ignores the imaginary parts of the zero and (even n) middle points, as
      // NumPy: a NaN or infinity there would otherwise reach every output through 0 * inf.
      for (std::int64_t k : {std::int64_t{0}, n_ % 2 == 0 ? n_ / 2 : std::int64_t{-1}}) {
        if (k < begin || k >= std::min(end, take_)) continue;
        for (std::int64_t b = 0; b < count; ++b) buf[b * n_ + k].imag(0);
      }
    }
    for (std::int64_t b = 0; b < count; ++b) {
      for (std::int64_t k = std::max(begin, take_); k < std::min(end, stored_); ++k) {
        buf[b * n_ + k] = C(0);
      }
      // The mirrored half, from the source (another thread may own buf[n - k]).
      for (std::int64_t k = std::max(begin, stored_); k < end; ++k) {
        const std::int64_t from = n_ - k;
        buf[b * n_ + k] = from < take_ ? std::conj(convert<C>(src[from * inner + b])) : C(0);
      }
    }
  }
  // Points [begin, end) of out_points() of `count` adjacent lines from res[b n + k].
  void scatter(std::int64_t line, std::int64_t count, const C* res, std::int64_t begin,
               std::int64_t end) const {
    const std::int64_t base = lines_.out_base(line), inner = lines_.inner;
    if (real_out_) {
      R* dst = static_cast<R*>(out_) + base;
      for (std::int64_t k = begin; k < end; ++k) {
        for (std::int64_t b = 0; b < count; ++b)
          dst[k * inner + b] = res[b * n_ + k].real() * scale_;
      }
    } else {
      C* dst = static_cast<C*>(out_) + base;
      for (std::int64_t k = begin; k < end; ++k) {
        for (std::int64_t b = 0; b < count; ++b) dst[k * inner + b] = res[b * n_ + k] * scale_;
      }
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

// Lines past the four-step's bound (fft_four_step.h). Lines that fit in L2, at least one per
// thread, run side by side, each split on its own thread (the passes' parallel_for runs on
// the calling thread inside a parallel region); others one at a time, every pass (and the
// gather and scatter, where the line is not used in place) over every thread.
template <class R, class In>
void transform_long_lines(const LineIo<R, In>& io, const Lines& lines, std::int64_t n,
                          bool inverse) {
  using C = std::complex<R>;
  const bool in_place_out = io.direct_output(0) != nullptr;
  const FourStepFft<R> fft(n, inverse, in_place_out ? static_cast<double>(io.scale()) : 1.0);
  const std::int64_t grain = stream_grain(2 * static_cast<std::int64_t>(sizeof(C)));
  auto run = [&](std::int64_t begin, std::int64_t end) {
    std::unique_ptr<R[]> buf_storage, res_storage;  // uninitialised: every point is written
    for (std::int64_t line = begin; line < end; ++line) {
      const C* src = io.direct_input(line);
      if (src == nullptr) {
        if (!buf_storage) buf_storage.reset(new R[static_cast<std::size_t>(2 * n)]);
        C* buf = reinterpret_cast<C*>(buf_storage.get());
        parallel_for(n, grain,
                     [&](std::int64_t b, std::int64_t e) { io.gather(line, 1, buf, b, e); });
        src = buf;
      }
      C* dst = io.direct_output(line);
      if (dst != nullptr) {
        fft.transform(src, dst);
        continue;
      }
      if (!res_storage) res_storage.reset(new R[static_cast<std::size_t>(2 * n)]);
      C* res = reinterpret_cast<C*>(res_storage.get());
      fft.transform(src, res);
      parallel_for(io.out_points(), grain,
                   [&](std::int64_t b, std::int64_t e) { io.scatter(line, 1, res, b, e); });
    }
  };
  const bool side_by_side = lines.count() >= max_threads() &&
                            n * static_cast<std::int64_t>(sizeof(C)) <= l2_cache_bytes();
  if (side_by_side) {
    parallel_for(lines.count(), 1, run);
  } else {
    run(0, lines.count());
  }
}

// R: the precision the transform runs in; In: the input's value type.
template <class R, class In>
void transform_lines(const OpCall& call, const Lines& lines, void* out_data) {
  using C = std::complex<R>;
  const std::int64_t n = call.get<FftParams>().length;
  const bool inverse = call.op == Op::ifft || call.op == Op::irfft;
  const LineIo<R, In> io(call, lines, out_data);
  const bool bluestein = largest_prime_factor(n) > kBluesteinPrime;
  if (!bluestein &&
      (four_step_pays(n, sizeof(C)) || four_step_spreads(n, lines.count(), max_threads()))) {
    transform_long_lines(io, lines, n, inverse);
    return;
  }
  // One of: Bluestein (a large prime factor), Radix4Fft (powers of two), kissfft.
  std::unique_ptr<const Bluestein<R>> blue;
  std::shared_ptr<const Radix4Fft<R>> radix4;
  std::shared_ptr<const kissfft<R>> shared;
  if (bluestein) {
    blue = std::make_unique<const Bluestein<R>>(n, inverse);
  } else if (Radix4Fft<R>::handles(n)) {
    radix4 = fft_plan<Radix4Fft<R>>(n, inverse);
  } else {
    shared = fft_plan<kissfft<R>>(n, inverse);
  }
  const bool own_kiss = shared && !kissfft_plan_shareable(n);
  // Strided lines (inner > 1) move a few adjacent ones per row read: two cache lines of
  // points, fewer where that many lines would not fit in L2 together.
  const std::int64_t line_bytes = n * static_cast<std::int64_t>(sizeof(C));
  const std::int64_t group =
      lines.inner == 1 ? 1
                       : std::clamp<std::int64_t>(l2_cache_bytes() / (2 * line_bytes), 1,
                                                  std::max<std::int64_t>(1, 128 / sizeof(C)));
  const std::int64_t grain = std::max<std::int64_t>(1, kGrain / n);
  parallel_for(lines.count(), grain, [&](std::int64_t begin, std::int64_t end) {
    std::unique_ptr<kissfft<R>> own;
    if (own_kiss) own = std::make_unique<kissfft<R>>(*shared);
    const kissfft<R>* fft = own_kiss ? own.get() : shared.get();
    std::vector<C> buf(static_cast<std::size_t>(n * group)), res(buf.size());
    std::size_t scratch = 0;
    if (bluestein) scratch = static_cast<std::size_t>(blue->scratch_size());
    if (radix4) scratch = static_cast<std::size_t>(n);
    std::vector<C> a(scratch), fa(bluestein ? scratch : 0), work(bluestein ? scratch : 0);
    auto run = [&](const C* in, C* out) {
      if (bluestein) {
        blue->transform(in, out, a.data(), fa.data(), work.data());
      } else if (radix4) {
        radix4->transform(in, out, a.data());
      } else {
        fft->transform(in, out);
      }
    };
    for (std::int64_t line = begin; line < end;) {
      const C* src = io.direct_input(line);
      C* dst = io.direct_output(line);
      if (src != nullptr && dst != nullptr) {
        run(src, dst);
        if (io.scale() != R(1)) {
          for (std::int64_t k = 0; k < n; ++k) dst[k] *= io.scale();
        }
        ++line;
        continue;
      }
      // Adjacent lines: consecutive inner positions of one outer block.
      const std::int64_t count = std::min({group, end - line, lines.inner - line % lines.inner});
      io.gather(line, count, buf.data(), 0, n);
      for (std::int64_t b = 0; b < count; ++b) run(buf.data() + b * n, res.data() + b * n);
      io.scatter(line, count, res.data(), 0, io.out_points());
      line += count;
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
