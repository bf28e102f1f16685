#include "fuzz/generate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

#include "fuzz/builder.h"
#include "fuzz/draw.h"
#include "fuzz/generate_complex.h"
#include "fuzz/generate_linalg.h"
#include "fuzz/rng.h"

namespace vkt::fuzz {
namespace {

const std::vector<DType> kDTypes(std::begin(kRealDTypes), std::end(kRealDTypes));
const std::vector<DType> kIndexDTypes = {DType::s64, DType::s64, DType::s32, DType::u8,
                                         DType::u32, DType::s8,  DType::u64};

std::vector<Op> ops_of(OpFamily f) {
  std::vector<Op> out;
  for (Op o : all_ops()) {
    if (op_family(o) == f) out.push_back(o);
  }
  return out;
}

class Gen final : public Builder {
 public:
  explicit Gen(std::uint64_t seed)
      : rng_(seed),
        later_rng_(seed ^ kLaterStream),
        complex_rng_(seed ^ kComplexStream),
        large_rng_(seed ^ kLargeStream),
        index_type_rng_(seed ^ kIndexTypeStream),
        narrow_rng_(seed ^ kNarrowStream),
        preferred_rng_(seed ^ kPreferredStream) {
    p_.seed = seed;
  }

  Program run() {
    const int leaves = static_cast<int>(rng_.range(1, 3));
    for (int i = 0; i < leaves; ++i) leaf();
    const int ops = static_cast<int>(rng_.range(1, 8));
    for (int i = 0; i < ops && live().size() > 0; ++i) step();
    // The ops added later draw from a stream of their own and come last, so a recorded
    // (seed, index) still makes the nodes it made before, with these appended.
    std::swap(rng_, later_rng_);
    const int later = static_cast<int>(rng_.range(0, 2));
    for (int i = 0; i < later && live().size() > 0; ++i) later_step();
    std::swap(rng_, later_rng_);
    // Complex programs: a third stream, appended after both stages above.
    complex_stage(*this, complex_rng_);
    // Long rows: a fourth stream, appended last.
    std::swap(rng_, large_rng_);
    if (rng_.chance(kLargeShare)) large_stage();
    std::swap(rng_, large_rng_);
    // Narrow dtypes: a fifth stream, appended after everything above.
    std::swap(rng_, narrow_rng_);
    if (rng_.chance(kNarrowShare)) narrow_stage();
    std::swap(rng_, narrow_rng_);
    return p_;
  }

  int add(Node n) override {
    std::vector<Tensor> in;
    for (int a : n.args) in.push_back(vals_[static_cast<std::size_t>(a)]);
    Tensor t;
    try {
      t = run_node(n, in, cpu());
    } catch (const Error&) {
      // kept: the device must throw the same error type
    }
    if (t.defined() && t.size() > result_limit_) return -1;
    p_.nodes.push_back(std::move(n));
    vals_.push_back(t);
    return static_cast<int>(vals_.size()) - 1;
  }
  const Tensor& val(int i) const override { return vals_[static_cast<std::size_t>(i)]; }

 private:
  static constexpr std::uint64_t kLaterStream = 0x5deece66dull;
  static constexpr std::uint64_t kComplexStream = 0xc0ffee5eedull;
  static constexpr std::uint64_t kLargeStream = 0x6c6f6e67ull;  // "long"
  // The index dtype of argmax/argmin/argsort (their `type`), drawn apart so the main stream's
  // programs stay as recorded.
  static constexpr std::uint64_t kIndexTypeStream = 0x696478ull;  // "idx"
  // Programs with a long-rows stage: enough to reach every multi-pass path within a CI
  // run, few enough that the small programs' variety keeps most of the time.
  static constexpr double kLargeShare = 0.125;
  // s2/s4/u2/u4/f8/f8_e4m3fn: their own stream, so recorded programs replay as they were.
  static constexpr std::uint64_t kNarrowStream = 0x6e6172726f77ull;  // "narrow"
  static constexpr double kNarrowShare = 0.25;
  // dot's preferred result type (f32 for 16- and 8-bit float operands, the widening
  // product): its own stream, drawn only for such dots.
  static constexpr std::uint64_t kPreferredStream = 0x707265660aull;  // "pref"
  Rng rng_, later_rng_, complex_rng_, large_rng_, index_type_rng_, narrow_rng_, preferred_rng_;

  // s32 (the default) and s64 most often; u8 and s16 also meet axes they cannot index.
  std::int64_t index_type() {
    static const std::vector<DType> kTypes = {DType::s32, DType::s32, DType::s64,
                                              DType::s64, DType::u8,  DType::s16};
    return static_cast<std::int64_t>(index_type_rng_.pick(kTypes));
  }
  std::int64_t result_limit_ = kMaxResult;
  int next_pick_ = -1;  // pick()'s next answer when set
  Program p_;
  std::vector<Tensor> vals_;  // the cpu's results; undefined where the node threw

  std::vector<int> live() const {
    std::vector<int> out;
    for (std::size_t i = 0; i < vals_.size(); ++i) {
      // The first stage's steps take real values: the long-rows stage, which reuses them
      // after the complex stage, leaves that stage's values alone.
      if (vals_[i].defined() && !is_complex(vals_[i].dtype())) out.push_back(static_cast<int>(i));
    }
    return out;
  }
  // Recent nodes are picked more often, so programs grow chains as well as trees.
  int pick() {
    if (next_pick_ >= 0) return std::exchange(next_pick_, -1);
    const std::vector<int> l = live();
    return rng_.chance(0.5) ? l.back() : rng_.pick(l);
  }
  DType dtype() { return rng_.pick(kDTypes); }

  Shape shape(std::int64_t rank = -1) { return draw_shape(rng_, rank); }
  int values(DType d, const Shape& s) {
    Node n = make_node("values", d, s);
    n.data_seed = rng_.next() % 1000000;
    return add(n);
  }
  // Indices in [lo, hi]: clamped or skipped by the ops when out of range.
  int indices(const Shape& s, std::int64_t lo, std::int64_t hi) {
    Node n = make_node("indices", rng_.pick(kIndexDTypes), s);
    n.ints["range"] = {lo, hi};
    n.data_seed = rng_.next() % 1000000;
    return add(n);
  }
  Literal literal(DType like) {
    const double r = rng_.unit();
    if (r < 0.3 && is_float(like)) {
      const std::vector<double> f = {0.5,
                                     -0.0,
                                     1e-40,
                                     -2.5,
                                     3.4e38,
                                     1e300,
                                     std::numeric_limits<double>::infinity(),
                                     std::numeric_limits<double>::quiet_NaN(),
                                     7.25};
      const double v = rng_.pick(f);
      return {v, std::to_string(v)};
    }
    if (r < 0.4) {
      const std::uint64_t v = rng_.chance(0.5) ? std::numeric_limits<std::uint64_t>::max() : 200u;
      return {v, std::to_string(v) + "u"};
    }
    if (r < 0.5) {
      const double v = 8 * rng_.unit() - 4;
      return {v, std::to_string(v)};
    }
    const std::int64_t v =
        rng_.chance(0.1) ? std::numeric_limits<std::int64_t>::min() : rng_.range(-5, 9);
    return {v, std::to_string(v)};
  }
  std::int64_t axis(std::int64_t r) { return draw_axis(rng_, r); }
  Axes subset(std::int64_t r, double p = 0.5) { return draw_subset(rng_, r, p); }
  // A node whose shape broadcasts against `s`: s itself, s with some axes 1, a suffix of s.
  int compatible(const Shape& s, DType d) {
    for (int i : live()) {
      if (val(i).shape() == s && rng_.chance(0.3)) return i;
    }
    const Shape t = draw_broadcastable(rng_, s);
    return values(rng_.chance(0.6) ? d : dtype(), t);
  }

  void leaf() {
    const double r = rng_.unit();
    const DType d = dtype();
    if (r < 0.85) {
      values(d, shape());
    } else if (r < 0.9) {
      Node n = make_node("full", d, shape());
      n.literals.push_back(literal(d));
      add(n);
    } else if (r < 0.95) {
      Node n = make_node("iota", d, shape());
      if (rng_.chance(0.6)) n.ints["axis"] = {axis(static_cast<std::int64_t>(n.shape.size()))};
      add(n);
    } else {
      add(make_node("eye", d, shape(rng_.range(2, 4))));
    }
  }

  // One leaf of more than kMaxResult elements (kMaxLarge at most), then one to three steps,
  // the first on that leaf, with results up to kMaxLarge.
  void large_stage() {
    result_limit_ = kMaxLarge;
    const int x = values(dtype(), draw_large_shape(rng_));
    if (x >= 0 && val(x).defined()) {
      next_pick_ = x;
      const int steps = static_cast<int>(rng_.range(1, 3));
      for (int i = 0; i < steps && live().size() > 0; ++i) step();
      next_pick_ = -1;
    }
    result_limit_ = kMaxResult;
  }

  // A narrow value (drawn codes, or a conversion of a live value), then ops on it.
  void narrow_stage() {
    static const std::vector<DType> kNarrow(std::begin(kNarrowDTypes), std::end(kNarrowDTypes));
    const DType d = rng_.pick(kNarrow);
    Node cast = make_node("as_type", d, {});
    if (!rng_.chance(0.5) && !live().empty()) cast.args = {pick()};
    const int x = cast.args.empty() ? values(d, shape()) : add(std::move(cast));
    if (x < 0 || !val(x).defined()) return;
    next_pick_ = x;
    const int steps = static_cast<int>(rng_.range(1, 3));
    for (int i = 0; i < steps && live().size() > 0; ++i) step();
    next_pick_ = -1;
  }

  void step() {
    const int x = pick();
    const Tensor t = val(x);
    const std::int64_t r = t.rank();
    const DType d = t.dtype();
    Node n;
    n.args = {x};
    const int kind = static_cast<int>(rng_.range(0, 27));
    switch (kind) {
      case 0:
      case 1: {  // unary; integer-only ops on floats are mostly skipped (a TypeError)
        const Op op = rng_.pick(ops_of(OpFamily::unary));
        n.op = op_name(op);
        break;
      }
      case 2:
      case 3:
      case 4: {  // binary with a broadcast partner or a weak literal
        n.op = op_name(rng_.pick(ops_of(OpFamily::binary)));
        if (rng_.chance(0.3)) {
          n.literals.push_back(literal(d));
          n.ints["literal_left"] = {rng_.chance(0.5) ? 1 : 0};
        } else {
          const int y = compatible(t.shape(), d);
          if (y < 0) return;
          n.args = rng_.chance(0.5) ? std::vector<int>{x, y} : std::vector<int>{y, x};
        }
        break;
      }
      case 5:
        n.op = "as_type";
        n.dtype = dtype();
        break;
      case 6: {
        n.op = "bitcast";
        std::vector<DType> same;
        for (DType e : kDTypes) {
          if (itemsize(e) == itemsize(d) || rng_.chance(0.02)) same.push_back(e);
        }
        n.dtype = rng_.pick(same);
        break;
      }
      case 7: {  // reshape into a random factorisation, sometimes with -1
        n.op = "reshape";
        n.shape = refactor(t.shape());
        break;
      }
      case 8: {
        n.op = "squeeze";
        Axes ones;
        for (std::int64_t i = 0; i < r; ++i) {
          if (t.shape()[static_cast<std::size_t>(i)] == 1 && rng_.chance(0.5)) ones.push_back(i);
        }
        if (rng_.chance(0.05)) ones.push_back(axis(r));
        n.ints["axes"] = ones;
        break;
      }
      case 9: {  // broadcast: new leading axes, size-1 axes stretched
        n.op = "broadcast";
        Shape s;
        const std::int64_t extra =
            rng_.range(0, std::max<std::int64_t>(0, std::min<std::int64_t>(2, 5 - r)));
        for (std::int64_t i = 0; i < extra; ++i) s.push_back(rng_.range(0, 3));
        for (std::int64_t v : t.shape())
          s.push_back(v == 1 && rng_.chance(0.5) ? rng_.range(0, 4) : v);
        n.shape = s;
        if (rng_.chance(0.3)) {
          Axes ax(static_cast<std::size_t>(r));
          std::iota(ax.begin(), ax.end(), extra);
          n.ints["axes"] = ax;
        }
        break;
      }
      case 10: {
        n.op = "transpose";
        Axes perm(static_cast<std::size_t>(r));
        std::iota(perm.begin(), perm.end(), 0);
        for (std::size_t i = perm.size(); i > 1; --i) {
          std::swap(
              perm[i - 1],
              perm[static_cast<std::size_t>(rng_.range(0, static_cast<std::int64_t>(i) - 1))]);
        }
        if (!rng_.chance(0.15)) n.ints["perm"] = perm;
        break;
      }
      case 11: {
        n.op = "pad";
        draw_pad(rng_, r, n);
        n.literals.push_back(literal(d));
        break;
      }
      case 12:
        n.op = "reverse";
        n.ints["axes"] = subset(r);
        break;
      case 13: {
        n.op = "slice";
        std::vector<std::int64_t> st, len, strides;
        for (std::int64_t v : t.shape()) {
          st.push_back(rng_.range(0, v + 1));
          len.push_back(rng_.range(0, v));
          strides.push_back(rng_.range(1, 3));
        }
        n.ints["start"] = st;
        n.ints["lengths"] = len;
        if (rng_.chance(0.7)) n.ints["strides"] = strides;
        break;
      }
      case 14: {  // put_slice of a smaller piece (possibly another dtype)
        n.op = "put_slice";
        Shape u;
        std::vector<std::int64_t> st;
        for (std::int64_t v : t.shape()) {
          u.push_back(rng_.range(0, v));
          st.push_back(rng_.range(-1, v + 1));
        }
        const int y = values(rng_.chance(0.7) ? d : dtype(), u);
        if (y < 0) return;
        n.args = {x, y};
        n.ints["start"] = st;
        break;
      }
      case 15: {  // gather: indices [m..., k] into k axes
        if (r == 0) return;
        n.op = "gather";
        const std::int64_t k = rng_.range(1, r);
        Axes ax(static_cast<std::size_t>(k));
        std::iota(ax.begin(), ax.end(), 0);
        if (rng_.chance(0.4)) {
          ax = subset(r, 0.6);
          if (ax.empty()) ax = {0};
        }
        Shape s = shape(rng_.range(0, 2));
        s.push_back(static_cast<std::int64_t>(ax.size()));
        const int idx = indices(s, -2, 8);
        if (idx < 0) return;
        n.args = {x, idx};
        if (ax.size() != static_cast<std::size_t>(k) || rng_.chance(0.5)) n.ints["axes"] = ax;
        break;
      }
      case 16: {
        n.op = "take";
        const std::int64_t a = axis(r);
        const int idx = indices(shape(rng_.range(0, 2)), -2, 8);
        if (idx < 0) return;
        n.args = {x, idx};
        n.ints["axis"] = {a};
        break;
      }
      case 17: {
        if (r == 0) return;
        n.op = "take_along_axis";
        const std::int64_t a = rng_.range(0, r - 1);
        Shape s = t.shape();
        s[static_cast<std::size_t>(a)] = rng_.range(0, 4);
        const int idx = indices(s, -2, 8);
        if (idx < 0) return;
        n.args = {x, idx};
        n.ints["axis"] = {a};
        break;
      }
      case 18: {  // concatenate / stack with pieces of the same shape (or another axis length)
        const bool st = r == 0 || rng_.chance(0.3);
        n.op = st ? "stack" : "concatenate";
        const std::int64_t a = st ? rng_.range(0, r) : axis(r);
        Shape s = t.shape();
        if (!st && r > 0) s[static_cast<std::size_t>((a + r) % r)] = rng_.range(0, 3);
        const int parts = static_cast<int>(rng_.range(1, 3));
        for (int i = 0; i < parts; ++i) {
          const int y = rng_.chance(0.3) ? x : values(rng_.chance(0.8) ? d : dtype(), s);
          if (y < 0) return;
          n.args.push_back(y);
        }
        n.ints["axis"] = {a};
        break;
      }
      case 19: {
        n.op = "select";
        const int pr = rng_.chance(0.5)
                           ? values(DType::u8, t.shape())
                           : compatible(t.shape(), rng_.chance(0.6) ? DType::u8 : dtype());
        const int y = compatible(t.shape(), d);
        if (pr < 0 || y < 0) return;
        n.args = {pr, x, y};
        break;
      }
      case 20: {
        n.op = "clip";
        if (rng_.chance(0.5)) {
          n.literals = {literal(d), literal(d)};
        } else {
          const int lo = compatible(t.shape(), d), hi = compatible(t.shape(), d);
          if (lo < 0 || hi < 0) return;
          n.args = {x, lo, hi};
        }
        break;
      }
      case 21: {  // indexed_add / indexed_put: indices {m, k}, updates {m, rest}
        if (r == 0) return;
        n.op = rng_.chance(0.5) ? "indexed_add" : "indexed_put";
        const std::int64_t k = rng_.range(1, r), m = rng_.range(0, 5);
        Axes ax(static_cast<std::size_t>(k));
        std::iota(ax.begin(), ax.end(), 0);
        if (rng_.chance(0.3)) std::reverse(ax.begin(), ax.end());
        std::int64_t hi = 0;
        for (std::int64_t v : t.shape()) hi = std::max(hi, v);
        const int idx = indices({m, k}, -1, hi);
        Shape us = {m};
        for (std::int64_t i = 0; i < r; ++i) {
          if (std::find(ax.begin(), ax.end(), i) == ax.end())
            us.push_back(t.shape()[static_cast<std::size_t>(i)]);
        }
        const int u = values(rng_.chance(0.7) ? d : dtype(), us);
        if (idx < 0 || u < 0) return;
        n.args = {x, idx, u};
        if (rng_.chance(0.5) || ax[0] != 0) n.ints["axes"] = ax;
        break;
      }
      case 22: {
        const std::vector<std::string> names = {"all",     "any",        "sum",
                                                "product", "reduce_max", "reduce_min"};
        n.op = rng_.pick(names);
        n.ints["axes"] = subset(r);
        n.ints["keep"] = {rng_.chance(0.3) ? 1 : 0};
        break;
      }
      case 23: {
        n.op = rng_.chance(0.5) ? "argmax" : "argmin";
        if (rng_.chance(0.7)) n.ints["axis"] = {axis(r)};
        n.ints["keep"] = {rng_.chance(0.3) ? 1 : 0};
        n.ints["tie_high"] = {rng_.chance(0.3) ? 1 : 0};
        n.ints["type"] = {index_type()};
        break;
      }
      case 24: {
        const std::vector<std::string> names = {"window_sum", "window_product", "window_max",
                                                "window_min"};
        n.op = rng_.pick(names);
        draw_window(rng_, t.shape(), n);
        break;
      }
      case 25: {
        const std::vector<std::string> names = {"sort", "argsort", "top_k.values", "top_k.indices"};
        n.op = rng_.pick(names);
        if (n.op[0] == 't') {
          n.ints["k"] = {r == 0 ? 1
                                : rng_.range(0, t.shape().back() + (rng_.chance(0.05) ? 1 : 0))};
        } else {
          n.ints["axis"] = {axis(r)};
          n.ints["descending"] = {rng_.chance(0.5) ? 1 : 0};
          n.ints["type"] = {index_type()};
        }
        break;
      }
      case 26: {
        const std::vector<std::string> names = {"cumulative_sum", "cumulative_product",
                                                "cumulative_max", "cumulative_min"};
        n.op = rng_.pick(names);
        n.ints["axis"] = {axis(r)};
        n.ints["reverse"] = {rng_.chance(0.5) ? 1 : 0};
        break;
      }
      default: {
        if (!linalg(n, x)) return;
        break;
      }
    }
    if (n.op.empty()) return;
    add(n);
  }

  // dot with batch and contracting axes (b made to fit), or matmul / dot of two operands.
  bool linalg(Node& n, int x) {
    const Tensor t = val(x);
    const std::int64_t r = t.rank();
    const DType bd = rng_.chance(0.7) ? t.dtype() : dtype();
    if (rng_.chance(0.3)) {  // matmul or Nx.dot/2: b is {K, N} (or batched like a)
      const int y = values(bd, draw_matmul(rng_, t.shape(), n));
      if (y < 0) return false;
      n.args = {x, y};
      return true;
    }
    if (r >= 3 && r <= 5 && rng_.chance(0.3)) return conv(n, x, bd);
    n.op = "dot";
    Axes batch_a, contract_a;
    const std::int64_t nb = r > 1 && rng_.chance(0.3) ? 1 : 0;
    for (std::int64_t i = 0; i < nb; ++i) batch_a.push_back(i);
    for (std::int64_t i = nb; i < r; ++i) {
      if (rng_.chance(0.5)) contract_a.push_back(i);
    }
    Shape bs;
    Axes batch_b, contract_b;
    for (std::int64_t i = 0; i < nb; ++i) {
      batch_b.push_back(static_cast<std::int64_t>(bs.size()));
      bs.push_back(t.shape()[static_cast<std::size_t>(i)]);
    }
    std::vector<std::int64_t> order(contract_a.size());
    std::iota(order.begin(), order.end(), 0);
    if (order.size() > 1 && rng_.chance(0.5)) std::swap(order[0], order[1]);
    for (std::int64_t o : order) {
      contract_b.push_back(static_cast<std::int64_t>(bs.size()));
      bs.push_back(t.shape()[static_cast<std::size_t>(contract_a[static_cast<std::size_t>(o)])]);
    }
    Axes ca;
    for (std::int64_t o : order) ca.push_back(contract_a[static_cast<std::size_t>(o)]);
    const std::int64_t free = rng_.range(0, 2);
    for (std::int64_t i = 0; i < free; ++i) bs.push_back(rng_.range(0, 4));
    const int y = values(bd, bs);
    if (y < 0) return false;
    n.args = {x, y};
    n.ints["contract_a"] = ca;
    n.ints["batch_a"] = batch_a;
    n.ints["contract_b"] = contract_b;
    n.ints["batch_b"] = batch_b;
    const DType operands = promote(t.dtype(), bd);
    if (is_float(operands) && bit_width(operands) < 32 && preferred_rng_.chance(0.5)) {
      n.ints["preferred"] = {static_cast<std::int64_t>(DType::f32)};
    }
    return true;
  }

  // conv of a rank 3..5 value with a kernel made to fit (feature or batch groups where
  // the sizes divide), random strides, padding (negative too), dilations; a padded input
  // too small for the kernel throws ShapeError on both backends.
  bool conv(Node& n, int x, DType kd) {
    const Tensor t = val(x);
    const std::size_t spatial = static_cast<std::size_t>(t.rank() - 2);
    const std::int64_t batch = t.shape()[0], channels = t.shape()[1];
    std::int64_t fg = 1, bg = 1;
    if (rng_.chance(0.3) && channels % 2 == 0 && channels > 0) fg = 2;
    if (fg == 1 && rng_.chance(0.3) && batch % 2 == 0 && batch > 0) bg = 2;
    Shape ks{rng_.range(1, 3) * fg * bg, channels / fg};
    std::vector<std::int64_t> st, lo, hi, idl, kdl;
    for (std::size_t a = 0; a < spatial; ++a) {
      ks.push_back(rng_.range(1, 3));
      st.push_back(rng_.range(1, 2));
      lo.push_back(rng_.range(-1, 2));
      hi.push_back(rng_.range(0, 2));
      idl.push_back(rng_.range(1, 2));
      kdl.push_back(rng_.range(1, 2));
    }
    const int y = values(kd, ks);
    if (y < 0) return false;
    n.op = "conv";
    n.args = {x, y};
    n.ints["groups"] = {fg, bg};
    if (rng_.chance(0.5)) n.ints["strides"] = st;
    if (rng_.chance(0.5)) {
      n.ints["pad_lo"] = lo;
      n.ints["pad_hi"] = hi;
    }
    if (rng_.chance(0.3)) n.ints["input_dilation"] = idl;
    if (rng_.chance(0.3)) n.ints["kernel_dilation"] = kdl;
    return true;
  }

  // The ops the first stage does not make: conv's layouts, padding modes and larger groups,
  // window_scatter_max/min, triangular_solve, slice and put_slice with tensor starts, and
  // all_close.
  void later_step() {
    const int x = pick();
    Node n;
    bool made = false;
    switch (rng_.range(0, 5)) {
      case 0:
        made = conv_layouts(n, x);
        break;
      case 1:
        made = window_scatter(n, x);
        break;
      case 2:
        made = triangular_solve_node(*this, rng_, kDTypes, n);
        break;
      case 3:
        made = slice_at(n, x, false);
        break;
      case 4:
        made = slice_at(n, x, true);
        break;
      default:
        made = close_check(n, x);
        break;
    }
    if (made) add(n);
  }

  Axes permutation(std::int64_t r, double identity) { return draw_permutation(rng_, r, identity); }

  // conv of a rank 3..5 value (a new leaf when the picked one has another rank) through a
  // random input layout, with a kernel made to fit in a random layout of its own, a random
  // output layout, valid / same / explicit padding and feature or batch groups of 2 or 3
  // where they divide.
  bool conv_layouts(Node& n, int x) {
    if (val(x).rank() < 3 || val(x).rank() > 5) x = values(dtype(), shape(rng_.range(3, 5)));
    if (x < 0) return false;
    const Tensor t = val(x);
    const std::int64_t r = t.rank();
    const Axes in_perm = permutation(r, 0.3);
    Shape logical;
    for (std::int64_t a : in_perm) logical.push_back(t.shape()[static_cast<std::size_t>(a)]);
    const std::int64_t batch = logical[0], channels = logical[1];
    const std::int64_t size = rng_.range(2, 3);
    std::int64_t fg = 1, bg = 1;
    if (rng_.chance(0.4) && channels > 0 && channels % size == 0) fg = size;
    if (fg == 1 && rng_.chance(0.4) && batch > 0 && batch % size == 0) bg = size;
    Shape ks{rng_.range(1, 2) * fg * bg, channels / fg};
    std::vector<std::int64_t> st, lo, hi, idl, kdl;
    for (std::int64_t a = 2; a < r; ++a) {
      ks.push_back(rng_.range(1, 3));
      st.push_back(rng_.range(1, 2));
      lo.push_back(rng_.range(-1, 2));
      hi.push_back(rng_.range(0, 2));
      idl.push_back(rng_.range(1, 2));
      kdl.push_back(rng_.range(1, 3));
    }
    const Axes k_perm = permutation(r, 0.4);
    Shape physical(static_cast<std::size_t>(r));
    for (std::size_t i = 0; i < ks.size(); ++i)
      physical[static_cast<std::size_t>(k_perm[i])] = ks[i];
    const int y = values(rng_.chance(0.7) ? t.dtype() : dtype(), physical);
    if (y < 0) return false;
    n.op = "conv";
    n.args = {x, y};
    n.ints["groups"] = {fg, bg};
    n.ints["input_perm"] = in_perm;
    n.ints["kernel_perm"] = k_perm;
    n.ints["output_perm"] = permutation(r, 0.4);
    n.ints["padding_mode"] = {rng_.range(0, 2)};
    if (n.ints["padding_mode"][0] == 0 && rng_.chance(0.6)) {
      n.ints["pad_lo"] = lo;
      n.ints["pad_hi"] = hi;
    }
    if (rng_.chance(0.4)) n.ints["strides"] = st;
    if (rng_.chance(0.3)) n.ints["input_dilation"] = idl;
    if (rng_.chance(0.4)) n.ints["kernel_dilation"] = kdl;
    return true;
  }

  // window_scatter_max/min: windows as the window ops make them, a source of the window
  // output's shape (rarely another, a ShapeError on both sides), an init literal.
  bool window_scatter(Node& n, int x) {
    const Tensor t = val(x);
    std::vector<std::int64_t> w, s, dl, lo, hi;
    for (std::int64_t v : t.shape()) {
      w.push_back(rng_.range(1, std::max<std::int64_t>(1, std::min<std::int64_t>(v, 3))));
      s.push_back(rng_.range(1, 3));
      dl.push_back(rng_.range(1, 2));
      lo.push_back(rng_.range(0, 1));
      hi.push_back(rng_.range(0, 2));
    }
    n.op = rng_.chance(0.5) ? "window_scatter_max" : "window_scatter_min";
    n.ints["window"] = w;
    if (rng_.chance(0.6)) n.ints["strides"] = s;
    if (rng_.chance(0.3)) n.ints["dilations"] = dl;
    if (rng_.chance(0.4)) {
      n.ints["pad_lo"] = lo;
      n.ints["pad_hi"] = hi;
    }
    Node shape_probe = make_node("window_max", t.dtype(), {});
    shape_probe.ints = n.ints;
    Shape source_shape;
    try {
      source_shape = run_node(shape_probe, {t}, cpu()).shape();
    } catch (const Error&) {
      source_shape = t.shape();  // the window does not fit: both sides throw
    }
    if (rng_.chance(0.03) && !source_shape.empty()) source_shape.back() += 1;
    const int src = values(rng_.chance(0.7) ? t.dtype() : dtype(), source_shape);
    if (src < 0) return false;
    n.args = {x, src};
    n.literals.push_back(literal(t.dtype()));
    return true;
  }

  // slice / put_slice with one scalar integer start tensor per axis, in a range past both
  // ends (clamped like integer starts).
  bool slice_at(Node& n, int x, bool put) {
    const Tensor t = val(x);
    std::vector<std::int64_t> len, strides;
    Shape update;
    for (std::int64_t v : t.shape()) {
      len.push_back(rng_.range(0, v));
      strides.push_back(rng_.range(1, 3));
      update.push_back(rng_.range(0, v));
    }
    n.args = {x};
    if (put) {
      const int u = values(rng_.chance(0.7) ? t.dtype() : dtype(), update);
      if (u < 0) return false;
      n.args.push_back(u);
    }
    for (std::int64_t v : t.shape()) {
      const int s = indices({}, -2, v + 2);
      if (s < 0) return false;
      n.args.push_back(s);
    }
    if (rng_.chance(0.03)) {  // one start too many: an error on both sides
      const int s = indices({}, 0, 1);
      if (s < 0) return false;
      n.args.push_back(s);
    }
    n.op = put ? "put_slice_at" : "slice_at";
    if (!put) {
      n.ints["lengths"] = len;
      if (rng_.chance(0.6)) n.ints["strides"] = strides;
    }
    return true;
  }

  // all_close of a value with itself, with a nudged copy of itself, or with a broadcast
  // partner; rtol and atol from zero to large (rarely negative: an error on both sides).
  bool close_check(Node& n, int x) {
    const Tensor t = val(x);
    int y = x;
    const double r = rng_.unit();
    if (r < 0.35) {
      Node nudged = make_node("add", t.dtype(), {});
      nudged.args = {x};
      const double step = rng_.pick(std::vector<double>{1e-7, 1e-4, 1e-2, 0.5});
      nudged.literals.push_back({step, std::to_string(step)});
      nudged.ints["literal_left"] = {0};
      y = add(nudged);
    } else if (r < 0.7) {
      y = compatible(t.shape(), rng_.chance(0.7) ? t.dtype() : dtype());
    }
    if (y < 0 || !val(y).defined()) return false;
    n.op = "all_close";
    n.args = rng_.chance(0.5) ? std::vector<int>{x, y} : std::vector<int>{y, x};
    const double rtol =
        rng_.chance(0.03) ? -1.0 : rng_.pick(std::vector<double>{1e-5, 0, 1e-3, 0.5});
    const double atol = rng_.pick(std::vector<double>{1e-8, 0, 1e-3, 2});
    n.literals.push_back({rtol, std::to_string(rtol)});
    n.literals.push_back({atol, std::to_string(atol)});
    n.ints["equal_nan"] = {rng_.chance(0.5) ? 1 : 0};
    return true;
  }

  Shape refactor(const Shape& s) { return draw_refactor(rng_, s); }
};

}  // namespace

Program generate(std::uint64_t seed) {
  return Gen(seed).run();
}

}  // namespace vkt::fuzz
