#include "fuzz/check_spectrum.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>

#include "fuzz/check.h"
#include "support/compare.h"

namespace vkt::fuzz {
namespace {

// A line's sums, each scaled by the largest magnitude seen so far (f64 squares of values
// near its largest finite value would overflow).
struct Norm {
  double scale = 0, sum = 0;
  void add(double v) {
    const double a = std::fabs(v);
    if (a == 0 || !std::isfinite(a)) return;
    if (a > scale) {
      sum = sum * (scale / a) * (scale / a) + 1;
      scale = a;
    } else {
      sum += (a / scale) * (a / scale);
    }
  }
  double value() const { return scale * std::sqrt(sum); }
};

struct Line {
  Norm want, diff;
  double largest = 0;  // the largest finite part of either side
  bool want_finite = true, got_finite = true;
  std::size_t first = 0;  // its first element, for the message
};

// The transformed axes of the node, in [0, rank).
Axes transformed_axes(const Node& n, std::int64_t rank) {
  Axes axes;
  const auto it = n.ints.find("axes");
  if (it != n.ints.end()) {
    axes = it->second;
  } else {
    const auto a = n.ints.find("axis");
    axes = {a == n.ints.end() || a->second.empty() ? -1 : a->second[0]};
  }
  for (std::int64_t& a : axes) a = a < 0 ? a + rank : a;
  return axes;
}

}  // namespace

bool is_spectral(const std::string& op) {
  return op == "fft" || op == "ifft" || op == "fft2" || op == "ifft2" || op == "rfft" ||
         op == "irfft";
}

// A transform of n points in precision eps is within eps log2(n) ||y||_2 of the exact one
// (Cooley-Tukey's bound; kissfft's radices and VkFFT's Bluestein stay within it): each side
// within 8 eps max(1, log2 n) ||want|| as the FFT tests allow, per line. A line that may
// overflow somewhere (its largest part times n^2 past an eighth of the largest finite value:
// partial sums reach n times the result, Bluestein's convolution n more) is not compared; a
// non-finite line must be non-finite on both sides (where the NaN and inf land depends on
// the algorithm). Subnormal parts carry an absolute error of the smallest subnormal per
// operation (n log2 n of them), or of the smallest normal per point where the device
// flushes.
std::optional<std::string> compare_spectrum(const Node& n, const std::vector<Tensor>& inputs,
                                            const Tensor& device, const Tensor& host) {
  const Shape& shape = host.shape();
  const auto rank = static_cast<std::int64_t>(shape.size());
  const Axes axes = transformed_axes(n, rank);
  const std::size_t parts = is_complex(host.dtype()) ? 2 : 1;
  const DType part = to_real_type(host.dtype());
  double points = 1;
  for (std::int64_t a : axes) {
    const auto out_len = static_cast<double>(shape[static_cast<std::size_t>(a)]);
    double len =
        std::max(out_len, static_cast<double>(inputs.at(0).shape()[static_cast<std::size_t>(a)]));
    if (n.op == "rfft") len = std::max(len, 2 * (out_len - 1));
    points *= std::max(len, 1.0);
  }
  const double log_n = std::max(1.0, std::log2(points));
  const bool flush = flushes(part);
  const double eps = part == DType::f64 ? std::numeric_limits<double>::epsilon()
                                        : std::numeric_limits<float>::epsilon();
  const double tiny = part == DType::f64 ? std::numeric_limits<double>::denorm_min()
                                         : std::numeric_limits<float>::denorm_min();
  const double normal =
      part == DType::f64 ? std::numeric_limits<double>::min() : std::numeric_limits<float>::min();
  const double largest =
      part == DType::f64 ? std::numeric_limits<double>::max() : std::numeric_limits<float>::max();
  const std::vector<double> g = testing::as_doubles(device), c = testing::as_doubles(host);
  // Lines keyed by the flat index with the transformed coordinates set to zero.
  std::vector<std::int64_t> strides(shape.size(), 1);
  for (std::int64_t a = rank - 2; a >= 0; --a)
    strides[static_cast<std::size_t>(a)] =
        strides[static_cast<std::size_t>(a + 1)] * shape[static_cast<std::size_t>(a + 1)];
  std::map<std::int64_t, Line> lines;
  for (std::size_t e = 0; e < g.size() / parts; ++e) {
    std::int64_t key = static_cast<std::int64_t>(e);
    for (std::int64_t a : axes) {
      const std::int64_t s = strides[static_cast<std::size_t>(a)];
      key -= (static_cast<std::int64_t>(e) / s % shape[static_cast<std::size_t>(a)]) * s;
    }
    const auto found = lines.find(key);
    Line& line = found != lines.end() ? found->second : lines[key];
    if (found == lines.end()) line.first = e;
    for (std::size_t p = 0; p < parts; ++p) {
      const double gv = g[e * parts + p], cv = c[e * parts + p];
      line.want_finite = line.want_finite && std::isfinite(cv);
      line.got_finite = line.got_finite && std::isfinite(gv);
      if (std::isfinite(cv)) line.largest = std::max(line.largest, std::fabs(cv));
      if (std::isfinite(gv)) line.largest = std::max(line.largest, std::fabs(gv));
      line.want.add(cv);
      if (std::isfinite(gv) && std::isfinite(cv)) line.diff.add(gv - cv);
    }
  }
  const double floor = 8 * points * log_n * tiny + (flush ? 8 * points * normal : 0.0);
  for (const auto& [key, line] : lines) {
    if (line.largest * points * points * 8 > largest) continue;
    std::ostringstream what;
    what.precision(17);
    what << "the line through element " << line.first << " (" << points << " points): ";
    if (!line.want_finite || !line.got_finite) {
      if (line.want_finite == line.got_finite) continue;
      what << (line.want_finite ? "the device's" : "the cpu's") << " has a NaN or infinity, "
           << (line.want_finite ? "the cpu's" : "the device's") << " does not";
      return what.str();
    }
    const double bound = 8 * eps * log_n * line.want.value() + floor;
    if (line.diff.value() <= bound) continue;
    what << "||device - cpu|| = " << line.diff.value() << " > " << bound
         << " (||cpu|| = " << line.want.value() << ")";
    return what.str();
  }
  return std::nullopt;
}

}  // namespace vkt::fuzz
