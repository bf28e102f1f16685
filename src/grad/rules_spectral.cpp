// Derivative rules of fft, ifft, rfft, irfft and the complex parts (conjugate, real, imag, phase).
//
// Complex values follow Nx.Defn.Grad's convention, which is JAX's: a cotangent is the transpose
// (not the adjoint) of the derivative, so for a real loss L of z = x + iy the gradient is
// dL/dx - i dL/dy (= 2 dL/dz, the conjugate of PyTorch's). Holomorphic ops need no conjugate
// (g f'(z)); an op with dw = A dz + B conj(dz) sends G to G A + conj(G B), and a real output
// with dw = re(C dz) sends its real g to g C. A real input keeps the real part of its share.
#include <complex>
#include <optional>

#include "grad/rules.h"
#include "vkt/ops.h"

namespace vkt::detail {
namespace {

using Tensors = std::vector<Tensor>;

const FftParams& fft_params(const RuleArgs& r) {
  return std::get<FftParams>(r.node.params);
}

std::int64_t size_on(const Tensor& t, std::int64_t axis) {
  return t.shape()[static_cast<std::size_t>(axis)];
}

// t zero-padded or cropped at the end of `axis` to `size` points: the transpose of the
// transforms' own padding (a shorter axis) and cropping (a longer one).
Tensor fit(const Tensor& t, std::int64_t axis, std::int64_t size) {
  const std::int64_t have = size_on(t, axis);
  if (have == size) return t;
  std::vector<PadAxis> config(static_cast<std::size_t>(t.rank()));
  config[static_cast<std::size_t>(axis)].hi = size - have;
  return pad(t, 0, config);
}

// A real input's share is the real part of the complex one (its imaginary direction is absent).
Tensor for_input(const Tensor& share, const Tensor& x) {
  return is_complex(x.dtype()) ? share : real(share);
}

// fft: y = F P x with P the padding or cropping to n points. The DFT matrix F is symmetric,
// so the transpose is fft itself (Nx and JAX alike), then P's transpose.
Tensors d_fft(const RuleArgs& r) {
  const FftParams& p = fft_params(r);
  const Tensor back = fft(r.g, std::nullopt, p.axis);
  return {for_input(fit(back, p.axis, size_on(r.in[0], p.axis)), r.in[0])};
}

// ifft: y = conj(F) P x / n, symmetric too: ifft of the cotangent.
Tensors d_ifft(const RuleArgs& r) {
  const FftParams& p = fft_params(r);
  const Tensor back = ifft(r.g, std::nullopt, p.axis);
  return {for_input(fit(back, p.axis, size_on(r.in[0], p.axis)), r.in[0])};
}

// rfft: y = S F P x for a real x, S keeping the first n / 2 + 1 points. The mirrored half was
// dropped, so the loss never saw it: its cotangent is zero, and S's transpose pads g with
// zeros to n points. The real input keeps the real part (JAX's transpose of its naive rfft).
Tensors d_rfft(const RuleArgs& r) {
  const FftParams& p = fft_params(r);
  const Tensor full_spectrum = fit(r.g, p.axis, p.length);
  const Tensor back = real(fft(full_spectrum, std::nullopt, p.axis));
  return {fit(back, p.axis, size_on(r.in[0], p.axis))};
}

// irfft: y_j = sum_k c_k re(X_k w^(jk)) / n over the kept points k < n / 2 + 1, w = e^(2 pi i / n),
// c_k = 2 for the points standing for a mirrored pair and 1 for the zero and (even n) Nyquist
// points, whose imaginary parts re() ignores. A real output with dy = re(C dX) sends g to g C:
// G_k = c_k / n sum_j g_j w^(jk) = c_k / n conj(rfft(g))_k (as JAX's irfft transpose). Points
// of X past n / 2 + 1 were never read: zero.
Tensors d_irfft(const RuleArgs& r) {
  const FftParams& p = fft_params(r);
  const std::int64_t n = p.length;
  const std::int64_t kept = n / 2 + 1;
  const Tensor spectrum = conjugate(rfft(r.g, n, p.axis));
  Shape weight_shape(static_cast<std::size_t>(r.g.rank()), 1);
  weight_shape[static_cast<std::size_t>(p.axis)] = kept;
  const Tensor k = iota(weight_shape, DType::s32, p.axis, &r.g.backend());
  Tensor single = equal(k, 0);
  if (n % 2 == 0) single = logical_or(single, equal(k, n / 2));
  const double nd = static_cast<double>(n);
  const Tensor c = select(single, scalar_like(r.g, 1.0 / nd), scalar_like(r.g, 2.0 / nd));
  const Tensor back = multiply(spectrum, c);
  return {for_input(fit(back, p.axis, size_on(r.in[0], p.axis)), r.in[0])};
}

// conjugate: dw = conj(dz), so G = conj(g) (Nx); a real input's conjugate is itself.
Tensors d_conjugate(const RuleArgs& r) {
  return {is_complex(r.in[0].dtype()) ? conjugate(r.g) : r.g};
}

// real: dw = re(dz) (C = 1): g as a complex number (Nx's real(g) for its real g).
Tensors d_real(const RuleArgs& r) {
  return {as_type(r.g, r.in[0].dtype())};
}

// imag: dw = im(dz) = re(-i dz), so G = -i g (JAX's; Nx's imag(g) of its real g is 0 and drops
// the imaginary direction). A real input's imag is the constant zero: no cotangent.
Tensors d_imag(const RuleArgs& r) {
  const Tensor& z = r.in[0];
  if (!is_complex(z.dtype())) return {Tensor()};
  return {multiply(as_type(r.g, z.dtype()), Scalar(std::complex<double>(0.0, -1.0)))};
}

// phase: d arg(z) = im(dz / z) = re(-i dz / z), so G = -i g / z; 0 at z = 0, where arg has no
// derivative (as Nx's abs there). A real input's phase is piecewise constant: no cotangent.
Tensors d_phase(const RuleArgs& r) {
  const Tensor& z = r.in[0];
  if (!is_complex(z.dtype())) return {Tensor()};
  const Tensor at_zero = equal(z, 0);
  const Tensor safe = select(at_zero, scalar_like(z, 1.0), z);
  const Tensor share =
      divide(multiply(as_type(r.g, z.dtype()), Scalar(std::complex<double>(0.0, -1.0))), safe);
  return {select(at_zero, scalar_like(z, 0.0), share)};
}

}  // namespace

Rule spectral_rule(Op op) {
  switch (op) {
    case Op::fft:
      return d_fft;
    case Op::ifft:
      return d_ifft;
    case Op::rfft:
      return d_rfft;
    case Op::irfft:
      return d_irfft;
    case Op::conjugate:
      return d_conjugate;
    case Op::real:
      return d_real;
    case Op::imag:
      return d_imag;
    case Op::phase:
      return d_phase;
    default:
      return nullptr;
  }
}

}  // namespace vkt::detail
