// check_gradients: vkt::grad of a rewritten fuzz program against central differences.
#include "fuzz/grad_check.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "fuzz/rng.h"
#include "support/compare.h"
#include "vkt/grad.h"

namespace vkt::fuzz {
namespace {

constexpr double kStepCoarse = 1e-5;
constexpr double kStepFine = 2.5e-6;
constexpr double kAgree = 1e-6;      // the two step sizes, relative to max(1, |value|)
constexpr double kTolerance = 1e-5;  // analytic against numeric, the same scale
// A primal-dependent value this large loses a 1e-5 step to rounding (x + 1e300 - 1e300 is
// 0): both steps then agree on a wrong derivative, so such programs are skipped.
constexpr double kLarge = 1e8;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// remainder(x, y) is a sawtooth of period |y|: with |y| near the step, the differences
// alias (both steps agree on about 0 where the derivative is 1).
constexpr double kFineRemainder = 1e-3;
constexpr std::uint64_t kDataStream = 0x67726164ull;    // "grad": primal data
constexpr std::uint64_t kWeightStream = 0x77656967ull;  // loss weights

// Leaf data tame enough for finite differences: the fuzzer's specials (inf, NaN, the
// largest finite values) and magnitudes across the range make derivatives meaningless.
std::vector<std::byte> tame_values(DType d, std::int64_t count, std::uint64_t seed) {
  Rng rng(seed ^ kDataStream);
  std::vector<double> v(static_cast<std::size_t>(count));
  for (double& x : v) {
    if (is_float(d)) {
      // Away from 0, where 1/x, log and sqrt have derivatives finite differences miss.
      x = (rng.chance(0.5) ? -1 : 1) * (0.25 + 1.75 * rng.unit());
    } else {
      x = static_cast<double>(rng.range(is_unsigned_integer(d) ? 0 : -8, 8));
    }
  }
  return as_type(from_vector(v, Shape{count}, &cpu()), d).to_bytes();  // f64 for floats
}

struct Rewritten {
  Program q;
  std::vector<Tensor> values;   // q's nodes on the cpu
  std::vector<int> primals;     // node indices of q
  std::string skip;             // a reason to skip, or empty
  std::string failing_op;       // for "rewrite_throws"
  bool cut_at_complex = false;  // the nodes from the first complex one on were left out
};

// Drops the nodes that fail on the cpu (the generator's invalid arguments: no live node
// depends on them), then rewrites floats to f64 and leaf data to tame values.
Rewritten rewrite(const Program& p, const GradCheckOptions& o) {
  Rewritten r;
  r.q.seed = p.seed;
  std::vector<Tensor> vals(p.nodes.size());
  std::vector<int> map(p.nodes.size(), -1);
  std::int64_t primal_elements = 0, largest = 0;
  const auto push = [&r, &largest](Node m, const Tensor& t) {
    largest = std::max(largest, t.size());
    r.q.nodes.push_back(std::move(m));
    r.values.push_back(t);
    return static_cast<int>(r.q.nodes.size()) - 1;
  };
  for (std::size_t i = 0; i < p.nodes.size(); ++i) {
    const Node& n = p.nodes[i];
    vals[i] = run_node_or_empty(n, vals, cpu());
    // The generator appends its complex stage last: the real program before it is checked
    // (central differences here move real values only).
    if (is_complex(n.dtype) || (vals[i].defined() && is_complex(vals[i].dtype()))) {
      r.cut_at_complex = true;
      break;
    }
    if (!vals[i].defined()) continue;
    if (n.op == "bitcast") {
      r.skip = "bitcast";
      return r;
    }
    Node m = n;
    for (int& a : m.args) a = map[static_cast<std::size_t>(a)];
    const bool primal = m.op == "values" && is_float(n.dtype) && numel(n.shape) > 0;
    if (is_float(m.dtype)) {
      if (m.op == "const")
        m.bytes = as_type(from_bytes(m.bytes, m.dtype, m.shape, &cpu()), DType::f64).to_bytes();
      m.dtype = DType::f64;
    }
    if (m.op == "values") {
      m.op = "const";
      m.ints.erase("specials");
      m.bytes = tame_values(m.dtype, numel(m.shape), n.data_seed);
    }
    const Tensor t = run_node_or_empty(m, r.values, cpu());
    if (!t.defined()) {
      r.skip = "rewrite_throws";
      r.failing_op = m.op;
      return r;
    }
    map[i] = push(m, t);
    if (primal) {
      r.primals.push_back(map[i]);
      primal_elements += t.size();
    }
    // Float functions of integers compute in f32: widened here, or the differences taken
    // through them would see f32's rounding.
    if (is_float(t.dtype()) && t.dtype() != DType::f64) {
      Node w = make_node("as_type", DType::f64, t.shape());
      w.args = {map[i]};
      map[i] = push(w, as_type(t, DType::f64));
    }
  }
  if (r.primals.empty()) {
    r.skip = "no_float_leaf";
  } else if (primal_elements > o.max_primal_elements || largest > o.max_node_elements) {
    r.skip = "too_many_elements";
  }
  return r;
}

// "[grad] sin: its derivative ..." -> "sin"; other messages by their "[...]" prefix.
std::string unsupported_op(const std::string& what) {
  const std::string prefix = "[grad] ";
  if (what.rfind(prefix, 0) == 0) {
    const std::size_t end = what.find_first_of(": ", prefix.size());
    return what.substr(prefix.size(), end - prefix.size());
  }
  return what.substr(0, what.find(']') == std::string::npos ? 0 : what.find(']') + 1);
}

bool all_finite(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
}

// The rewritten program's values on the cpu and the loss built over them.
class Harness {
 public:
  explicit Harness(Rewritten r)
      : q_(std::move(r.q)), primals_(std::move(r.primals)), base_(std::move(r.values)) {
    const std::size_t count = q_.nodes.size();
    depends_.assign(primals_.size(), std::vector<char>(count, 0));
    for (std::size_t p = 0; p < primals_.size(); ++p) {
      std::vector<char>& dep = depends_[p];
      dep[static_cast<std::size_t>(primals_[p])] = 1;
      for (std::size_t k = 0; k < count; ++k) {
        for (int a : q_.nodes[k].args) dep[k] = dep[k] || dep[static_cast<std::size_t>(a)];
      }
    }
  }

  const Program& program() const { return q_; }
  const std::vector<int>& primals() const { return primals_; }

  // Picks the loss terms: float op nodes that depend on a primal and are finite at the
  // base point (a NaN term would make the loss NaN). Empty reason when usable.
  std::string choose_loss() {
    Rng rng(q_.seed ^ kWeightStream);
    for (std::size_t k = 0; k < q_.nodes.size(); ++k) {
      const Node& n = q_.nodes[k];
      for (const Literal& l : n.literals)
        nonfinite_ = nonfinite_ || !std::isfinite(l.value.as_double());
      if (!is_float(base_[k].dtype())) continue;
      const std::vector<double> v = testing::as_doubles(base_[k]);
      nonfinite_ = nonfinite_ || !all_finite(v);
      if (!depends_on_any(k)) continue;
      for (double x : v) {
        if (std::isfinite(x) && std::fabs(x) > kLarge) return "large_values";
      }
      if (n.args.empty() || v.empty() || !all_finite(v)) continue;
      std::vector<double> w(v.size());
      for (double& x : w) x = (rng.chance(0.5) ? -1 : 1) * (0.5 + rng.unit());
      terms_ += w.size();
      loss_.push_back({k, std::move(w)});
    }
    for (const Node& n : q_.nodes) {
      if (n.op == "remainder" && min_magnitude(divisor(n)) < kFineRemainder)
        return "fine_remainder";
      singular_ = singular_ || at_singular_point(n);
    }
    return loss_.empty() ? "no_loss_node" : "";
  }

  // The loss over traced tensors: leaves that are not primals become trace constants.
  TensorFunction loss_function(Backend& where) const {
    return [this, &where](const std::vector<Tensor>& prim) {
      std::vector<Tensor> t(q_.nodes.size());
      for (std::size_t p = 0; p < primals_.size(); ++p)
        t[static_cast<std::size_t>(primals_[p])] = prim[p];
      for (std::size_t k = 0; k < q_.nodes.size(); ++k) {
        if (t[k].defined()) continue;
        std::vector<Tensor> in;
        for (int a : q_.nodes[k].args) in.push_back(t[static_cast<std::size_t>(a)]);
        t[k] = run_node(q_.nodes[k], in, where);
      }
      Tensor loss;
      for (const auto& [k, w] : loss_) {
        const Tensor term = sum(multiply(t[k], from_vector(w, base_[k].shape(), &where)));
        loss = loss.defined() ? add(loss, term) : term;
      }
      return std::vector<Tensor>{loss};
    };
  }

  std::vector<Tensor> primal_values(Backend& where) const {
    std::vector<Tensor> out;
    for (int p : primals_) out.push_back(copy(base_[static_cast<std::size_t>(p)], where));
    return out;
  }

  // d loss / d primal p's element e by a central difference with step h; the differences
  // are taken per element before the weighted sum, so one large term does not swamp them.
  double central_difference(std::size_t p, std::int64_t e, double h) const {
    const std::vector<double> up = values_with(p, e, h), down = values_with(p, e, -h);
    double d = 0;
    std::size_t at = 0;
    for (const auto& [k, w] : loss_) {
      for (std::size_t i = 0; i < w.size(); ++i) d += w[i] * (up[at + i] - down[at + i]);
      at += w.size();
    }
    return d / (2 * h);
  }

  // True when a float value or literal of the program is NaN or infinite, or an op's input
  // sits where its derivative is infinite (sqrt(0)): a chain of rules may then give NaN
  // where the derivative exists (0 * inf, as in JAX), which no rule can avoid.
  bool nonfinite_expected() const { return nonfinite_ || singular_; }
  std::string listing() const { return fuzz::listing(q_, base_); }

 private:
  Program q_;
  std::vector<int> primals_;
  std::vector<std::vector<char>> depends_;  // [primal][node]
  std::vector<Tensor> base_;
  std::vector<std::pair<std::size_t, std::vector<double>>> loss_;  // node, weights
  std::size_t terms_ = 0;                                          // elements of all loss terms
  bool nonfinite_ = false;
  bool singular_ = false;

  std::vector<double> arg_values(const Node& n, std::size_t a) const {
    return testing::as_doubles(base_[static_cast<std::size_t>(n.args.at(a))]);
  }

  // remainder's divisor: the second operand, or the literal on the right.
  std::vector<double> divisor(const Node& n) const {
    if (n.literals.empty()) return arg_values(n, 1);
    if (literal_left(n)) return arg_values(n, 0);
    return {n.literals[0].value.as_double()};
  }

  static bool literal_left(const Node& n) {
    const auto it = n.ints.find("literal_left");
    return !n.literals.empty() && it != n.ints.end() && !it->second.empty() && it->second[0] != 0;
  }

  static double min_magnitude(const std::vector<double>& v) {
    double m = std::numeric_limits<double>::infinity();
    for (double x : v) m = std::min(m, std::fabs(x));
    return m;
  }

  // A primal-dependent input where the op's derivative is infinite: sqrt, cbrt, rsqrt, log
  // and pow's base at 0; asin, acos, atanh and erf_inv at +-1; atan2 at (0, 0).
  bool at_singular_point(const Node& n) const {
    const bool moves = std::any_of(n.args.begin(), n.args.end(), [this](int a) {
      const auto k = static_cast<std::size_t>(a);
      return depends_on_any(k) && is_float(base_[k].dtype());
    });
    if (!moves) return false;
    const auto has = [](const std::vector<double>& v, auto pred) {
      return std::any_of(v.begin(), v.end(), pred);
    };
    const auto zero = [](double x) { return x == 0; };
    if (n.op == "atan2") {
      const std::vector<double> other = n.literals.empty()
                                            ? arg_values(n, 1)
                                            : std::vector<double>{n.literals[0].value.as_double()};
      return has(arg_values(n, 0), zero) && has(other, zero);
    }
    // pow's base only when it moves: a constant 0 base gives 0^b, whose derivative is 0.
    const bool base_moves = depends_on_any(static_cast<std::size_t>(n.args[0]));
    if (n.op == "sqrt" || n.op == "cbrt" || n.op == "rsqrt" || n.op == "log" ||
        (n.op == "pow" && !literal_left(n) && base_moves))
      return has(arg_values(n, 0), zero);
    if (n.op == "asin" || n.op == "acos" || n.op == "atanh" || n.op == "erf_inv")
      return has(arg_values(n, 0), [](double x) { return std::fabs(x) == 1; });
    return false;
  }

  bool depends_on_any(std::size_t k) const {
    return std::any_of(depends_.begin(), depends_.end(),
                       [k](const std::vector<char>& d) { return d[k] != 0; });
  }

  // The loss terms' values, concatenated, with primal p's element e moved by h; only the
  // nodes that depend on p are run again.
  std::vector<double> values_with(std::size_t p, std::int64_t e, double h) const {
    std::vector<Tensor> vals = base_;
    const std::size_t at = static_cast<std::size_t>(primals_[p]);
    std::vector<double> x = testing::as_doubles(base_[at]);
    x[static_cast<std::size_t>(e)] += h;
    vals[at] = from_vector(x, base_[at].shape(), &cpu());
    for (std::size_t k = at + 1; k < q_.nodes.size(); ++k) {
      if (!depends_[p][k]) continue;
      // A node that throws at a moved point (none seen so far) gives NaN: no comparison.
      vals[k] = run_node_or_empty(q_.nodes[k], vals, cpu());
    }
    std::vector<double> out;
    for (const auto& [k, w] : loss_) {
      if (!vals[k].defined()) return std::vector<double>(terms_, kNaN);
      const std::vector<double> v = testing::as_doubles(vals[k]);
      out.insert(out.end(), v.begin(), v.end());
    }
    return out;
  }
};

}  // namespace

std::string GradMismatch::describe() const {
  std::ostringstream s;
  s.precision(17);
  s << "gradient mismatch, program seed " << seed << ": ";
  if (!what.empty()) {
    s << "vkt::grad threw: " << what;
  } else {
    s << "d loss / d %" << primal << "[" << element << "]: analytic " << analytic << ", numeric "
      << numeric << " (h = 1e-5: " << numeric_coarse << ")";
  }
  s << "\nloss = sum over float op nodes k of sum(%k * w_k), w_k fixed; program (f64):\n"
    << listing;
  return s.str();
}

std::string GradStats::summary() const {
  std::ostringstream s;
  s << "grad fuzz: " << programs << " programs, " << checked << " checked, " << mismatches
    << " mismatching; elements compared " << elements_compared << ", kinked " << elements_kinked
    << ", nonfinite " << elements_nonfinite << "; " << cut_at_complex
    << " cut at their first complex node\n  skipped:";
  for (const auto& [reason, n] : skipped) s << " " << reason << " " << n << ";";
  s << "\n  Unsupported by op:";
  for (const auto& [op, n] : unsupported) s << " " << op << " " << n << ";";
  s << "\n  throwing on f64 by op:";
  for (const auto& [op, n] : rewrite_throws) s << " " << op << " " << n << ";";
  return s.str();
}

std::optional<GradMismatch> check_gradients(const Program& p, GradStats& stats,
                                            const GradCheckOptions& options) {
  ++stats.programs;
  Rewritten r = rewrite(p, options);
  if (r.cut_at_complex) ++stats.cut_at_complex;
  if (!r.skip.empty()) {
    ++stats.skipped[r.skip];
    if (!r.failing_op.empty()) ++stats.rewrite_throws[r.failing_op];
    return std::nullopt;
  }
  Harness h(std::move(r));
  if (const std::string why = h.choose_loss(); !why.empty()) {
    ++stats.skipped[why];
    return std::nullopt;
  }
  GradMismatch m;
  m.seed = p.seed;
  std::vector<Tensor> grads;
  try {
    Backend& where = options.device != nullptr ? *options.device : cpu();
    grads = grad(h.loss_function(where), h.primal_values(where));
  } catch (const Unsupported& e) {
    ++stats.skipped["unsupported"];
    ++stats.unsupported[unsupported_op(e.what())];
    return std::nullopt;
  } catch (const std::exception& e) {
    ++stats.mismatches;
    m.what = e.what();
    m.listing = h.listing();
    return m;
  }
  ++stats.checked;
  for (std::size_t pr = 0; pr < grads.size(); ++pr) {
    const std::vector<double> analytic = testing::as_doubles(grads[pr]);
    for (std::size_t e = 0; e < analytic.size(); ++e) {
      const auto el = static_cast<std::int64_t>(e);
      const double coarse = h.central_difference(pr, el, kStepCoarse);
      const double fine = h.central_difference(pr, el, kStepFine);
      if (!std::isfinite(coarse) || !std::isfinite(fine) ||
          std::fabs(coarse - fine) > kAgree * std::max(1.0, std::fabs(fine))) {
        ++stats.elements_kinked;  // a kink, a jump or rounding: the difference means nothing
        continue;
      }
      const double a =
          options.corrupt_analytic ? options.corrupt_analytic(analytic[e]) : analytic[e];
      if (!std::isfinite(a) && h.nonfinite_expected()) {
        ++stats.elements_nonfinite;
        continue;
      }
      ++stats.elements_compared;
      if (!(std::fabs(a - fine) <= kTolerance * std::max(1.0, std::fabs(fine)))) {
        ++stats.mismatches;
        m.primal = h.primals()[pr];
        m.element = el;
        m.analytic = a;
        m.numeric = fine;
        m.numeric_coarse = coarse;
        m.listing = h.listing();
        return m;
      }
    }
  }
  return std::nullopt;
}

Program shrink_gradient_mismatch(const Program& p, const GradCheckOptions& options) {
  GradStats scratch;
  const std::optional<GradMismatch> first = check_gradients(p, scratch, options);
  if (!first) return p;
  // Keep the kind of failure (a throw or a wrong value) while nodes go.
  const bool threw = !first->what.empty();
  Program best = p;
  for (bool progress = true; progress;) {
    progress = false;
    for (std::size_t i = best.nodes.size(); i-- > 0;) {
      const Program q = without(best, i);
      const std::optional<GradMismatch> m = check_gradients(q, scratch, options);
      if (m && m->what.empty() != threw) {
        best = q;
        progress = true;
        break;
      }
    }
  }
  return best;
}

}  // namespace vkt::fuzz
