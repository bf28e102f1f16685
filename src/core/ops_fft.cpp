// fft, ifft, rfft, irfft (numpy.fft's semantics, Nx.fft / Nx.ifft) and fft2 / ifft2 as two
// one-axis transforms: validation, the out shape and dtype, the OpCall.
#include <optional>
#include <string>

#include "core/checks.h"
#include "core/dispatch.h"
#include "vkt/ops.h"

namespace vkt {
namespace {

struct Line {
  std::int64_t axis = 0;
  std::int64_t length = 1;  // the transform's length n
};

// The axis and transform length; `default_length` is used when no length is given.
Line resolve(const std::string& op, const Tensor& t, std::optional<std::int64_t> length,
             std::int64_t axis, std::int64_t (*default_length)(std::int64_t)) {
  detail::check_defined(op, t);
  if (t.rank() == 0) {
    detail::fail<ShapeError>(op, "needs a tensor of rank >= 1, got " + detail::describe(t));
  }
  const std::int64_t a = normalize_axis(op.c_str(), axis, t.rank());
  const std::int64_t size = t.shape()[static_cast<std::size_t>(a)];
  const std::int64_t n = length ? *length : default_length(size);
  if (n < 1) {
    detail::fail<ShapeError>(op, length ? "length " + std::to_string(n) + " must be >= 1"
                                        : "axis " + std::to_string(axis) + " of " +
                                              detail::describe(t) + " gives " + std::to_string(n) +
                                              " points; give a length >= 1");
  }
  return {a, n};
}

std::int64_t same_length(std::int64_t size) {
  return size;
}
std::int64_t irfft_length(std::int64_t size) {
  return 2 * (size - 1);
}

Shape with_axis(Shape s, std::int64_t axis, std::int64_t n) {
  s[static_cast<std::size_t>(axis)] = n;
  return s;
}

Tensor complex_transform(Op op, const Tensor& t, std::optional<std::int64_t> length,
                         std::int64_t axis) {
  const std::string name(op_name(op));
  const Line line = resolve(name, t, length, axis, same_length);
  // Padding, cropping and the conversion to complex happen in the kernels (the cpu's while it
  // gathers lines; a device's as its supports() says, the rest by fallback).
  return detail::dispatch(OpCall{op,
                                 {t},
                                 FftParams{line.axis, line.length},
                                 to_complex_type(t.dtype()),
                                 with_axis(t.shape(), line.axis, line.length)});
}

// fft2 / ifft2: the one-axis transform on axes[1], then on axes[0] (numpy.fft.fftn's order).
Tensor two_axes(const char* op,
                Tensor (*one)(const Tensor&, std::optional<std::int64_t>, std::int64_t),
                const Tensor& t, const std::vector<std::int64_t>& lengths, const Axes& axes) {
  detail::check_defined(op, t);
  if (axes.size() != 2) {
    detail::fail<AxisError>(op, "axes " + shape_str(axes) + " must name 2 axes");
  }
  if (!lengths.empty() && lengths.size() != 2) {
    detail::fail<ShapeError>(op, "lengths " + shape_str(lengths) + " must be empty or 2 entries");
  }
  if (t.rank() < 2) {
    detail::fail<ShapeError>(op, "needs a tensor of rank >= 2, got " + detail::describe(t));
  }
  normalize_axes(op, axes, t.rank());  // throws on an out-of-range or repeated axis
  std::optional<std::int64_t> len[2];
  for (std::size_t i = 0; i < 2; ++i) {
    const std::int64_t a = normalize_axis(op, axes[i], t.rank());
    const std::int64_t n = lengths.empty() ? t.shape()[static_cast<std::size_t>(a)] : lengths[i];
    if (n < 1) {
      detail::fail<ShapeError>(op, "length " + std::to_string(n) + " on axis " +
                                       std::to_string(axes[i]) + " of " + detail::describe(t) +
                                       " must be >= 1");
    }
    len[i] = n;
  }
  return one(one(t, len[1], axes[1]), len[0], axes[0]);
}

}  // namespace

Tensor fft(const Tensor& t, std::optional<std::int64_t> length, std::int64_t axis) {
  return complex_transform(Op::fft, t, length, axis);
}

Tensor ifft(const Tensor& t, std::optional<std::int64_t> length, std::int64_t axis) {
  return complex_transform(Op::ifft, t, length, axis);
}

Tensor fft2(const Tensor& t, const std::vector<std::int64_t>& lengths, const Axes& axes) {
  return two_axes("fft2", fft, t, lengths, axes);
}

Tensor ifft2(const Tensor& t, const std::vector<std::int64_t>& lengths, const Axes& axes) {
  return two_axes("ifft2", ifft, t, lengths, axes);
}

Tensor rfft(const Tensor& t, std::optional<std::int64_t> length, std::int64_t axis) {
  const std::string name = "rfft";
  detail::check_defined(name, t);
  detail::check_not_complex(name, t);
  const Line line = resolve(name, t, length, axis, same_length);
  const std::int64_t half = line.length / 2 + 1;
  return detail::dispatch(OpCall{Op::rfft,
                                 {t},
                                 FftParams{line.axis, line.length},
                                 to_complex_type(t.dtype()),
                                 with_axis(t.shape(), line.axis, half)});
}

Tensor irfft(const Tensor& t, std::optional<std::int64_t> length, std::int64_t axis) {
  const Line line = resolve("irfft", t, length, axis, irfft_length);
  return detail::dispatch(OpCall{Op::irfft,
                                 {t},
                                 FftParams{line.axis, line.length},
                                 to_real_type(to_complex_type(t.dtype())),
                                 with_axis(t.shape(), line.axis, line.length)});
}

}  // namespace vkt
