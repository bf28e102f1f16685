#include "fuzz/check.h"

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

#include "conformance/flush.h"
#include "fuzz/check_spectrum.h"
#include "support/op_tolerance.h"

namespace vkt::fuzz {
namespace {

// bits: the same words (NaN payloads included). exact: the same value and sign of zero,
// any NaN. elementwise: the per-op tolerance. accumulate / product: tolerances for a
// different summation (multiplication) order, from the magnitudes the op saw. solve: a
// triangular substitution in another order, bounded by a solve on the magnitudes.
enum class Rule { bits, exact, elementwise, accumulate, product, solve };

std::int64_t int0_of(const Node& n, const std::string& key) {
  const auto it = n.ints.find(key);
  return it == n.ints.end() || it->second.empty() ? 0 : it->second[0];
}

// How the device's answer may differ from the cpu's: the op table's accuracy column for its
// ops; the fuzzer's own composite nodes say it here.
const std::map<std::string, Accuracy> kCompositeAccuracy = {
    {"values", Accuracy::bits},         {"indices", Accuracy::bits},
    {"const", Accuracy::bits},          {"reshape", Accuracy::bits},
    {"squeeze", Accuracy::bits},        {"stack", Accuracy::bits},
    {"slice_at", Accuracy::bits},       {"put_slice_at", Accuracy::bits},
    {"triangle", Accuracy::bits},       {"top_k.values", Accuracy::bits},
    {"top_k.indices", Accuracy::exact}, {"dot2", Accuracy::sum_order},
    {"matmul", Accuracy::sum_order},    {"all_close", Accuracy::exact}};

// The table's op of that name, if the node is one.
std::optional<Op> table_op(const std::string& name) {
  for (Op o : all_ops()) {
    if (op_name(o) == name) return o;
  }
  return std::nullopt;
}

Accuracy accuracy_of(const Node& n) {
  if (const auto it = kCompositeAccuracy.find(n.op); it != kCompositeAccuracy.end()) {
    return it->second;
  }
  if (const std::optional<Op> op = table_op(n.op)) return op_info(*op).accuracy;
  throw Error("[vkt_fuzz] no accuracy rule for node '" + n.op + "'");
}

bool elementwise(Op op) {
  return op_family(op) == OpFamily::unary || op_family(op) == OpFamily::binary;
}

bool any_complex(const std::vector<Tensor>& inputs) {
  for (const Tensor& t : inputs) {
    if (is_complex(t.dtype())) return true;
  }
  return false;
}

Rule rule_for(const Node& n, const std::vector<Tensor>& inputs, DType out) {
  if (!is_float(out) && !is_complex(out)) return Rule::bits;
  switch (accuracy_of(n)) {
    case Accuracy::bits:
      // A move that converts (promoted inputs, a pad value) gives the same value, maybe not
      // the same NaN payload.
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (is_data_arg(n, i) && inputs[i].dtype() != out) return Rule::exact;
      }
      return n.literals.empty() ? Rule::bits : Rule::exact;
    case Accuracy::exact: {
      // sign and abs of a complex: z / |z| and hypot, rounded.
      const std::optional<Op> op = table_op(n.op);
      const bool complex = is_complex(out) || any_complex(inputs);
      return op && (*op == Op::sign || *op == Op::abs) && complex ? Rule::elementwise : Rule::exact;
    }
    case Accuracy::ulps:
      return Rule::elementwise;
    case Accuracy::sum_order:
      return Rule::accumulate;
    case Accuracy::product_order:
      return Rule::product;
    case Accuracy::substitution:
      return Rule::solve;
    case Accuracy::factorization:
    case Accuracy::spectrum:  // compared by compare_spectrum before any rule
      break;
  }
  throw Error("[vkt_fuzz] no element-wise rule for node '" + n.op + "'");
}

// docs/semantics-elementwise.md, "Ops that may differ under a flush": float arithmetic may;
// decisions on the bits, copies, conversions, sorts and selections may not.
bool may_flush(const Node& n) {
  const std::optional<Op> op = table_op(n.op);
  if (op && elementwise(*op)) return !testing::exact_under_flush(*op);
  const Accuracy a = accuracy_of(n);
  return a == Accuracy::sum_order || a == Accuracy::product_order || a == Accuracy::substitution ||
         n.op == "all_close";
}

// A complex dtype's bounds are its parts'.
double max_finite(DType d) {
  switch (to_real_type(d)) {
    case DType::f16:
      return 65504.0;
    case DType::f64:
      return std::numeric_limits<double>::max();
    default:
      return static_cast<double>(std::numeric_limits<float>::max());
  }
}
double min_normal(DType d) {
  switch (to_real_type(d)) {
    case DType::f16:
      return 6.103515625e-05;
    case DType::f64:
      return std::numeric_limits<double>::min();
    default:
      return static_cast<double>(std::numeric_limits<float>::min());
  }
}
double eps_of(DType d) {
  return to_real_type(d) == DType::f64 ? 2.2e-16 : 1.2e-7;
}

// The node on the cpu with each float data input as f64 magnitudes: `mode` 0 gives |x|
// (non-finite: 0), 1 max(|x|, 1) and 2 min(|x|, 1) (non-finite and zeros: 1). A complex
// input gives |z| (a NaN or infinite part: non-finite).
std::vector<double> magnitudes(const Node& n, const std::vector<Tensor>& inputs, int mode) {
  std::vector<Tensor> m;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!is_data_arg(n, i)) {
      m.push_back(inputs[i]);
      continue;
    }
    const Tensor f = as_type(inputs[i], is_complex(inputs[i].dtype()) ? DType::c128 : DType::f64);
    Tensor bad = logical_or(is_nan(f), is_infinity(f));
    Tensor a = abs(f);  // f64 for a complex f too
    if (mode == 1) a = max(a, 1.0);
    if (mode == 2) {
      bad = logical_or(bad, equal(f, 0.0));
      a = min(a, 1.0);
    }
    m.push_back(select(bad, full(f.shape(), mode == 0 ? 0 : 1, DType::f64, &cpu()), a));
  }
  Node abs_node = n;  // a literal summed with the data (window_scatter's init) counts by size
  abs_node.ints.erase("preferred");  // dot's f32 cannot hold the f64 magnitudes: theirs
  for (Literal& l : abs_node.literals) {
    const double v = std::fabs(l.value.as_double());
    l.value = std::isfinite(v) ? v : 0.0;
  }
  return testing::as_doubles(run_node(abs_node, m, cpu()));
}

// triangular_solve op(a) x = b (or x op(a) = b) by substitution: with M = |diag a| - |the rest
// of a's triangle| and D = |diag a|, m = M^-1 |b| bounds |x| and each partial sum / a_ii, and
// a substitution in any order is within (n + 1) eps M^-1 |a| M^-1 |b| <= 2 (n + 1) eps M^-1 D m
// of the exact x (Higham, Accuracy and Stability, 8.1). Returns M^-1 D m per element, in
// f64 on the cpu with the node's own options (side, triangle, transform).
std::vector<double> solve_magnitudes(const Node& n, const std::vector<Tensor>& inputs) {
  const Tensor a = as_type(inputs[0], DType::f64), b = as_type(inputs[1], DType::f64);
  const std::int64_t r = a.rank();
  const Tensor diag =
      equal(iota(a.shape(), DType::s64, r - 2, &cpu()), iota(a.shape(), DType::s64, r - 1, &cpu()));
  const Tensor abs_a = abs(a);
  const Tensor m_matrix = select(diag, abs_a, negate(abs_a));
  const Tensor d = sum(multiply(abs_a, as_type(diag, DType::f64)), {r - 1});  // [..., n]
  const Tensor bad = logical_or(is_nan(b), is_infinity(b));
  const Tensor abs_b = select(bad, full(b.shape(), 0, DType::f64, &cpu()), abs(b));
  const std::vector<Tensor> first = {m_matrix, abs_b};
  const Tensor m = run_node(n, first, cpu());
  // D scales the axis the substitution runs along: b's rows on the left, its columns on the
  // right, a vector's only axis.
  Shape ds = d.shape();
  if (b.rank() == r) {
    if (int0_of(n, "left") != 0) {
      ds.push_back(1);
    } else {
      ds.insert(ds.end() - 1, 1);
    }
  }
  const std::vector<Tensor> second = {m_matrix, multiply(m, reshape(d, ds))};
  return testing::as_doubles(run_node(n, second, cpu()));
}

// Element e of values read `parts` per element (2 for complex: real, imaginary).
std::string element_text(const std::vector<double>& v, std::size_t e, std::size_t parts) {
  std::ostringstream s;
  s.precision(17);
  if (parts == 1) {
    s << v[e];
  } else {
    s << "(" << v[2 * e] << ", " << v[2 * e + 1] << ")";
  }
  return s.str();
}

// Element by element against one expected tensor: ok[e], and what differs at the first
// element that is not.
struct Elements {
  std::vector<bool> ok;
  std::string first;
};

Elements against(Rule rule, const Node& n, const std::vector<Tensor>& inputs, const Tensor& device,
                 const Tensor& host, double flush_atol) {
  const DType d = host.dtype();
  const DType part = to_real_type(d);
  // A complex element is two parts: every rule below compares both, and a NaN in either
  // part of one side matches a NaN in either part of the other (NumPy prints both as nan).
  const std::size_t parts = is_complex(d) ? 2 : 1;
  const std::vector<double> g = testing::as_doubles(device), c = testing::as_doubles(host);
  const std::size_t count = g.size() / parts;
  Elements out{std::vector<bool>(count, true), {}};
  auto fail = [&](std::size_t e, const std::string& extra) {
    out.ok[e] = false;
    if (out.first.empty()) {
      out.first = "element " + std::to_string(e) + ": device " + element_text(g, e, parts) +
                  ", cpu " + element_text(c, e, parts) + extra;
    }
  };
  auto has_nan = [&](const std::vector<double>& v, std::size_t e) {
    for (std::size_t p = 0; p < parts; ++p) {
      if (std::isnan(v[e * parts + p])) return true;
    }
    return false;
  };
  // |expected element|: a complex one's magnitude from its finite parts.
  auto scale = [&](std::size_t e) {
    if (parts == 1) return std::fabs(c[e]);
    auto finite = [](double v) { return std::isfinite(v) ? v : 0.0; };
    return std::hypot(finite(c[2 * e]), finite(c[2 * e + 1]));
  };
  // Rounded ops (overflow_rtol > 0): near the overflow threshold the rounding decides, so a
  // finite part within the op's tolerance of the largest finite value matches an infinity of
  // its sign (|z| of parts near the f32 maximum: the cpu's hypotf gave inf, the device FLT_MAX).
  auto at_overflow = [&](double inf_side, double finite_side, double overflow_rtol) {
    return overflow_rtol > 0 && std::isinf(inf_side) && std::isfinite(finite_side) &&
           std::signbit(inf_side) == std::signbit(finite_side) &&
           std::fabs(finite_side) * (1 + 2 * overflow_rtol) >= max_finite(part);
  };
  auto close_part = [&](std::size_t i, double bound, double overflow_rtol) {
    return (std::isnan(g[i]) && std::isnan(c[i])) || g[i] == c[i] ||
           (std::isfinite(g[i]) && std::isfinite(c[i]) && std::fabs(g[i] - c[i]) <= bound) ||
           at_overflow(c[i], g[i], overflow_rtol) || at_overflow(g[i], c[i], overflow_rtol);
  };
  auto finite = [&](const std::vector<double>& v, std::size_t e) {
    for (std::size_t p = 0; p < parts; ++p) {
      if (!std::isfinite(v[e * parts + p])) return false;
    }
    return true;
  };
  // Complex sums and products: where the NaN and the infinity land in a non-finite element
  // depends on the formula (BLAS scales a dot by alpha = 1 + 0i, so (inf, inf) becomes
  // (NaN, NaN) through 0 * inf): non-finite on one side only needs non-finite on the other.
  const bool any_non_finite = parts == 2 && (rule == Rule::accumulate || rule == Rule::product);
  auto close = [&](std::size_t e, double bound, double overflow_rtol = 0) {
    if (any_non_finite && (!finite(g, e) || !finite(c, e))) return !finite(g, e) && !finite(c, e);
    if (parts == 2 && (has_nan(g, e) || has_nan(c, e))) return has_nan(g, e) && has_nan(c, e);
    for (std::size_t p = 0; p < parts; ++p) {
      if (!close_part(e * parts + p, bound, overflow_rtol)) return false;
    }
    return true;
  };
  if (rule == Rule::bits || rule == Rule::exact) {
    // A narrow dtype's codes, a byte each (to_bytes would give Nx's packed binary).
    const auto codes = [](const Tensor& t) {
      return is_narrow(t.dtype()) ? Tensor(DType::u8, t.shape(), t.storage()) : t;
    };
    const std::vector<std::byte> gb = codes(device).to_bytes(), cb = codes(host).to_bytes();
    const std::size_t w = itemsize(d);
    for (std::size_t e = 0; e < count; ++e) {
      if (std::memcmp(gb.data() + e * w, cb.data() + e * w, w) == 0) continue;
      if (rule == Rule::exact && has_nan(g, e) && has_nan(c, e)) continue;
      fail(e, rule == Rule::bits ? " (bits differ)" : " (not the same value)");
    }
    return out;
  }
  if (rule == Rule::elementwise) {
    testing::Tolerance e = testing::elementwise_tolerance(d);
    double atol = std::max(e.atol, testing::special_tolerance(d).atol) + flush_atol;
    if (parts == 2) {
      e = testing::complex_tolerance(d);
      atol = e.atol + flush_atol;
    }
    for (std::size_t k = 0; k < count; ++k) {
      if (!close(k, atol + e.rtol * scale(k), e.rtol)) fail(k, "");
    }
    return out;
  }
  // Sums and products: the rounding of a different order, bounded by the magnitudes; an
  // element whose partial results may overflow (or, for products, underflow) in some order
  // is not compared.
  std::int64_t len = 1;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (is_data_arg(n, i)) len = std::max(len, inputs[i].size());
  }
  const double root = std::sqrt(static_cast<double>(len));
  const double floor_atol = testing::special_tolerance(part).atol + flush_atol;
  if (rule == Rule::solve) {
    const std::vector<double> m = solve_magnitudes(n, inputs);
    const auto order = static_cast<double>(inputs[0].rank() > 0 ? inputs[0].shape().back() : 1);
    // Each side within the bound of the exact x, so twice it apart; twice again for margin.
    const double coef = 8 * (order + 1) * eps_of(d), rtol = testing::default_tolerance(d).rtol;
    for (std::size_t i = 0; i < count; ++i) {
      // Partial sums reach 3 m; near the largest finite value another order may overflow.
      if (!(m[i] <= max_finite(d) / 8)) continue;
      if (!close(i, rtol * scale(i) + coef * m[i] + floor_atol)) {
        fail(i, ", magnitude " + std::to_string(m[i]));
      }
    }
    return out;
  }
  if (rule == Rule::accumulate) {
    const std::vector<double> m = magnitudes(n, inputs, 0);
    const double rtol = testing::default_tolerance(d).rtol + 8 * eps_of(d) * root;
    const double coef = (part == DType::f64 ? 2e-15 : 1e-6) * root;
    for (std::size_t i = 0; i < count; ++i) {
      if (!(m[i] <= max_finite(d) / 4)) continue;
      if (!close(i, rtol * scale(i) + coef * m[i] + floor_atol)) {
        fail(i, ", magnitude " + std::to_string(m[i]));
      }
    }
    return out;
  }
  // A complex multiply rounds up to about twice as much as a real one (relative to |z|).
  const std::vector<double> hi = magnitudes(n, inputs, 1), lo = magnitudes(n, inputs, 2);
  const double rtol = testing::default_tolerance(d).rtol +
                      2 * static_cast<double>(parts) * eps_of(d) * static_cast<double>(len);
  for (std::size_t i = 0; i < count; ++i) {
    if (!(hi[i] <= max_finite(d) / 4) || !(lo[i] >= 4 * min_normal(d))) continue;
    if (!close(i, rtol * scale(i) + floor_atol)) fail(i, "");
  }
  return out;
}

// all_close decides |a - b| <= atol + rtol |b| with elementwise ops the device may round
// within their tolerance: another answer is accepted when the cpu gives it too with rtol and
// atol moved by that tolerance one way or the other (the data sit on the boundary).
bool all_close_on_boundary(const Node& n, const std::vector<Tensor>& inputs, const Tensor& device) {
  const DType d = subtract(inputs[0], inputs[1]).dtype();
  if (!is_float(d)) return false;
  const double r = 4 * testing::default_tolerance(d).rtol;
  for (double f : {1 - r, 1 + r}) {
    Node moved = n;
    moved.literals.at(0).value = n.literals.at(0).value.as_double() * f;
    moved.literals.at(1).value = n.literals.at(1).value.as_double() * f;
    if (run_node(moved, inputs, cpu()).to_bytes() == device.to_bytes()) return true;
  }
  return false;
}

// The node with its float literals as a flushing kernel reads them: one below the smallest
// normal of the type it computes in is a signed zero (an H100 gave 0 for a bf16 tensor times
// a literal that is a bf16 subnormal; the model flushed only tensor inputs: fuzz seed 40).
Node with_flushed_literals(const Node& n, DType d) {
  // f16 and bf16 compute in f32, where f16's subnormals are normal numbers.
  const bool wide = d == DType::f64 || d == DType::c128;
  const double tiny = min_normal(wide ? DType::f64 : DType::f32);
  auto flush = [tiny](double v) { return std::fabs(v) < tiny ? std::copysign(0.0, v) : v; };
  Node out = n;
  for (Literal& l : out.literals) {
    if (l.value.is_complex()) {
      const std::complex<double> c = l.value.as_complex();
      l.value = Scalar(std::complex<double>(flush(c.real()), flush(c.imag())));
    } else if (l.value.is_float()) {
      l.value = Scalar(flush(l.value.as_double()));
    }
  }
  return out;
}

// A narrow float result is a wide result rounded to 8 bits: where the backends' wide
// results differ by an ulp across a rounding boundary, their codes are one step apart.
std::vector<bool> within_one_step(const Tensor& device, const Tensor& host) {
  const std::vector<std::uint64_t> a = testing::as_bits(device), b = testing::as_bits(host);
  const auto ordinal = [](std::uint64_t c) {
    const auto magnitude = static_cast<std::int64_t>(c & 0x7f);
    return (c & 0x80) != 0 ? -magnitude : magnitude;
  };
  std::vector<bool> ok(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double va = narrow_to_double(host.dtype(), static_cast<std::uint8_t>(a[i]));
    const double vb = narrow_to_double(host.dtype(), static_cast<std::uint8_t>(b[i]));
    ok[i] = !std::isnan(va) && !std::isnan(vb) && std::abs(ordinal(a[i]) - ordinal(b[i])) <= 1;
  }
  return ok;
}

}  // namespace

bool flushes(DType d) {
  if (is_complex(d)) d = to_real_type(d);  // a complex kernel computes in its parts' type
  if (d == DType::f16 || !is_float(d)) return false;
  // device_flushes probes once per process (static locals: safe from the fuzzer's threads).
  return testing::device_flushes(d == DType::f64 ? DType::f64 : DType::f32);
}

std::optional<std::string> compare(const Node& n, const std::vector<Tensor>& inputs,
                                   const Tensor& device, const Tensor& host) {
  if (device.dtype() != host.dtype() || device.shape() != host.shape()) {
    return "device gives " + std::string(dtype_name(device.dtype())) + shape_str(device.shape()) +
           ", cpu " + std::string(dtype_name(host.dtype())) + shape_str(host.shape());
  }
  if (is_spectral(n.op)) return compare_spectrum(n, inputs, device, host);
  const Rule rule = rule_for(n, inputs, host.dtype());
  bool flush = false;
  if (may_flush(n)) {
    flush = flushes(host.dtype());
    for (const Tensor& t : inputs) flush = flush || flushes(t.dtype());
  }
  // Under a flush sums may also lose subnormal partial results: up to one smallest normal
  // per element summed.
  double flush_atol = 0;
  if (flush && (rule == Rule::accumulate || rule == Rule::product)) {
    std::int64_t len = 1;
    for (const Tensor& t : inputs) len = std::max(len, t.size());
    flush_atol = static_cast<double>(len) * min_normal(host.dtype());
  }
  const Elements plain = against(rule, n, inputs, device, host, flush_atol);
  if (plain.first.empty()) return std::nullopt;
  if (is_narrow(host.dtype()) && is_float(host.dtype()) && rule != Rule::bits &&
      rule != Rule::exact) {
    const std::vector<bool> step = within_one_step(device, host);
    bool all = true;
    for (std::size_t i = 0; i < plain.ok.size(); ++i) all = all && (plain.ok[i] || step[i]);
    if (all) return std::nullopt;
  }
  if (n.op == "all_close" && all_close_on_boundary(n, inputs, device)) return std::nullopt;
  if (!flush) return plain.first;
  // The flushed answer: the cpu's result for subnormal inputs read as zeros, then flushed.
  // Element by element, either answer is accepted.
  std::vector<Tensor> flushed_inputs;
  for (const Tensor& t : inputs)
    flushed_inputs.push_back(flushes(t.dtype()) ? testing::flushed(t) : t);
  Tensor alt = run_node(with_flushed_literals(n, host.dtype()), flushed_inputs, cpu());
  if (flushes(alt.dtype())) alt = testing::flushed(alt);
  const Elements other = against(rule, n, inputs, device, alt, flush_atol);
  for (std::size_t i = 0; i < plain.ok.size(); ++i) {
    if (!plain.ok[i] && !other.ok[i]) return plain.first + "; the flushed answer differs too";
  }
  return std::nullopt;
}

}  // namespace vkt::fuzz
