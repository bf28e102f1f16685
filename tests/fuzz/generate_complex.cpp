#include "fuzz/generate_complex.h"

#include <algorithm>
#include <complex>
#include <limits>
#include <map>
#include <numeric>
#include <string>

#include "fuzz/draw.h"
#include "vkt/backend/op_info.h"

namespace vkt::fuzz {
namespace {

const std::vector<DType> kComplex = {DType::c64, DType::c128};
const std::vector<DType> kReal(std::begin(kRealDTypes), std::end(kRealDTypes));
const std::vector<DType> kAny(std::begin(kValueDTypes), std::end(kValueDTypes));
const std::vector<DType> kIndexDTypes = {DType::s64, DType::s32, DType::u8,
                                         DType::u32, DType::s8,  DType::u64};

// The op table's rows that take a complex operand (dtypes any or to_real), and rfft (its
// family's real-input row, fed the stage's real results). Left out: the creation rows
// (the stage's leaves make them), copy (no public op), and the rows with no complex kernel
// on Vulkan, where both sides would run the same cpu kernel: conv, triangular_solve and
// the decompositions.
// Grouped by family, so the 30-odd elementwise rows do not crowd out the rest.
std::vector<std::vector<Op>> complex_ops() {
  std::map<OpFamily, std::vector<Op>> by_family;
  for (Op o : all_ops()) {
    const OpFamily f = op_family(o);
    if (!op_accepts(o, DType::c64) && f != OpFamily::fft) continue;
    if (f == OpFamily::creation || f == OpFamily::conv || o == Op::copy) continue;
    if (f == OpFamily::linalg && o != Op::dot) continue;
    by_family[f].push_back(o);
  }
  std::vector<std::vector<Op>> out;
  for (auto& [family, ops] : by_family) {
    // Elementwise ops count twice: promotion and literals have most cases.
    if (family == OpFamily::unary || family == OpFamily::binary) out.push_back(ops);
    out.push_back(std::move(ops));
  }
  return out;
}

std::string part_text(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  return std::to_string(v);
}

class ComplexGen {
 public:
  ComplexGen(Builder& b, Rng& rng) : b_(b), rng_(rng), ops_(complex_ops()) {}

  void run() {
    if (!rng_.chance(0.6)) return;  // most programs get a complex stage, not all
    const int leaves = static_cast<int>(rng_.range(1, 2));
    for (int i = 0; i < leaves; ++i) leaf();
    const int ops = static_cast<int>(rng_.range(1, 4));
    for (int i = 0; i < ops && !complex_.empty(); ++i) step();
  }

 private:
  Builder& b_;
  Rng& rng_;
  const std::vector<std::vector<Op>> ops_;  // by family
  std::vector<int> complex_, real_;         // this stage's nodes with complex / real results

  // Appends n, keeping its index by the dtype it gave.
  int add(Node n) {
    const int i = b_.add(std::move(n));
    if (i >= 0 && b_.val(i).defined())
      (is_complex(b_.val(i).dtype()) ? complex_ : real_).push_back(i);
    return i;
  }
  int pick(const std::vector<int>& from) {
    return rng_.chance(0.5) ? from.back() : rng_.pick(from);
  }
  const Tensor& val(int i) const { return b_.val(i); }
  DType complex_dtype() { return rng_.pick(kComplex); }
  // Mostly the same dtype, else another complex one or a real one (promotion).
  DType partner_dtype(DType d) {
    const double r = rng_.unit();
    if (r < 0.6) return d;
    return r < 0.8 ? complex_dtype() : rng_.pick(kReal);
  }

  // specials: per mille of parts drawn from the special values (data.cpp).
  int values(DType d, const Shape& s, std::int64_t specials = 200) {
    Node n = make_node("values", d, s);
    n.data_seed = rng_.next() % 1000000;
    if (specials != 200) n.ints["specials"] = {specials};
    return add(n);
  }
  int indices(const Shape& s, std::int64_t lo, std::int64_t hi) {
    Node n = make_node("indices", rng_.pick(kIndexDTypes), s);
    n.ints["range"] = {lo, hi};
    n.data_seed = rng_.next() % 1000000;
    return add(n);
  }
  Literal complex_literal() {
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<std::complex<double>> v = {
        {0.5, -2}, {-0.0, 0.0}, {0, 1},         {1e-40, 3},        {inf, 0},     {nan, 1},
        {1, -inf}, {1e300, 1},  {-7.25, 0.125}, {3.4e38, -3.4e38}, {-1.5, 2.25}, {0.0, -0.0}};
    const std::complex<double> z = rng_.pick(v);
    return {Scalar(z), "(" + part_text(z.real()) + "," + part_text(z.imag()) + ")"};
  }
  Literal real_literal() {
    if (rng_.chance(0.3)) {
      const std::int64_t v = rng_.range(-5, 9);
      return {v, std::to_string(v)};
    }
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
    return {v, part_text(v)};
  }
  Literal literal() { return rng_.chance(0.7) ? complex_literal() : real_literal(); }

  // A node whose shape broadcasts against s: one of the stage's nodes of that shape, or a
  // new leaf of s with some axes 1, or a suffix of s.
  int compatible(const Shape& s, DType d) {
    for (int i : complex_) {
      if (val(i).shape() == s && rng_.chance(0.3)) return i;
    }
    const Shape t = draw_broadcastable(rng_, s);
    return values(partner_dtype(d), t);
  }

  void leaf() {
    const DType d = complex_dtype();
    const double r = rng_.unit();
    if (r < 0.6) {
      values(d, draw_shape(rng_), rng_.chance(0.3) ? 20 : 200);
    } else if (r < 0.85) {  // a real leaf converted
      const int x = values(rng_.pick(kReal), draw_shape(rng_));
      if (x < 0) return;
      Node n = make_node("as_type", d, {});
      n.args = {x};
      add(n);
    } else if (r < 0.95) {
      Node n = make_node("full", d, draw_shape(rng_));
      n.literals.push_back(literal());
      add(n);
    } else if (rng_.chance(0.5)) {
      Node n = make_node("iota", d, draw_shape(rng_));
      if (rng_.chance(0.6))
        n.ints["axis"] = {draw_axis(rng_, static_cast<std::int64_t>(n.shape.size()))};
      add(n);
    } else {
      add(make_node("eye", d, draw_shape(rng_, rng_.range(2, 4))));
    }
  }

  void step() {
    const Op op = rng_.pick(rng_.pick(ops_));
    const int x = pick(complex_);
    const Tensor t = val(x);
    const std::int64_t r = t.rank();
    Node n;
    n.op = std::string(op_name(op));
    n.args = {x};
    bool made = true;
    switch (op_family(op)) {
      case OpFamily::unary:
        break;
      case OpFamily::binary:
        made = binary(n, x);
        break;
      case OpFamily::reduce:
        n.ints["axes"] = draw_subset(rng_, r);
        n.ints["keep"] = {rng_.chance(0.3) ? 1 : 0};
        break;
      case OpFamily::cumulative:
        n.ints["axis"] = {draw_axis(rng_, r)};
        n.ints["reverse"] = {rng_.chance(0.5) ? 1 : 0};
        break;
      case OpFamily::window:
        window(n, t);
        break;
      case OpFamily::conversion:
        conversion(n, op, t);
        break;
      case OpFamily::movement:
        made = movement(n, op, x);
        break;
      case OpFamily::indexing:
        made = indexing(n, op, x);
        break;
      case OpFamily::linalg:
        made = dot(n, x);
        break;
      case OpFamily::fft:
        made = spectral(n, op, x);
        break;
      default:
        made = false;
        break;
    }
    if (made) add(n);
  }

  // A complex or real partner tensor, or a weak literal (complex or real) on either side.
  bool binary(Node& n, int x) {
    if (rng_.chance(0.35)) {
      n.literals.push_back(literal());
      n.ints["literal_left"] = {rng_.chance(0.5) ? 1 : 0};
      return true;
    }
    const int y = compatible(val(x).shape(), val(x).dtype());
    if (y < 0) return false;
    n.args = rng_.chance(0.5) ? std::vector<int>{x, y} : std::vector<int>{y, x};
    return true;
  }

  void window(Node& n, const Tensor& t) { draw_window(rng_, t.shape(), n); }

  // as_type to any dtype; bitcast to the dtypes of the same width (rarely another: an error).
  void conversion(Node& n, Op op, const Tensor& t) {
    if (op != Op::bitcast) {
      n.op = "as_type";
      n.dtype = rng_.pick(kAny);
      return;
    }
    std::vector<DType> same;
    for (DType e : kAny) {
      if (itemsize(e) == itemsize(t.dtype()) || rng_.chance(0.02)) same.push_back(e);
    }
    n.dtype = rng_.pick(same);
  }

  bool movement(Node& n, Op op, int x) {
    const Tensor t = val(x);
    const std::int64_t r = t.rank();
    if (rng_.chance(0.15)) {  // reshape: a view, not a row of the table
      n.op = "reshape";
      n.shape = draw_refactor(rng_, t.shape());
      return true;
    }
    switch (op) {
      case Op::broadcast: {
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
        return true;
      }
      case Op::transpose:
        n.ints["perm"] = draw_permutation(rng_, r, 0.1);
        return true;
      case Op::pad: {
        draw_pad(rng_, r, n);
        n.literals.push_back(literal());
        return true;
      }
      case Op::reverse:
        n.ints["axes"] = draw_subset(rng_, r);
        return true;
      case Op::slice: {
        std::vector<std::int64_t> st, len, strides;
        for (std::int64_t v : t.shape()) {
          st.push_back(rng_.range(0, v + 1));
          len.push_back(rng_.range(0, v));
          strides.push_back(rng_.range(1, 3));
        }
        n.ints["start"] = st;
        n.ints["lengths"] = len;
        if (rng_.chance(0.7)) n.ints["strides"] = strides;
        return true;
      }
      case Op::put_slice: {
        Shape u;
        std::vector<std::int64_t> st;
        for (std::int64_t v : t.shape()) {
          u.push_back(rng_.range(0, v));
          st.push_back(rng_.range(-1, v + 1));
        }
        const int y = values(partner_dtype(t.dtype()), u);
        if (y < 0) return false;
        n.args = {x, y};
        n.ints["start"] = st;
        return true;
      }
      case Op::concatenate: {
        const std::int64_t a = draw_axis(rng_, r);
        Shape s = t.shape();
        if (r > 0) s[static_cast<std::size_t>((a % r + r) % r)] = rng_.range(0, 3);
        const int parts = static_cast<int>(rng_.range(1, 3));
        for (int i = 0; i < parts; ++i) {
          const int y = rng_.chance(0.3) ? x : values(partner_dtype(t.dtype()), s);
          if (y < 0) return false;
          n.args.push_back(y);
        }
        n.ints["axis"] = {a};
        return true;
      }
      default:
        return false;
    }
  }

  bool indexing(Node& n, Op op, int x) {
    const Tensor t = val(x);
    const std::int64_t r = t.rank();
    switch (op) {
      case Op::gather: {  // indices [m..., k] into k axes
        if (r == 0) return false;
        Axes ax = draw_subset(rng_, r, 0.6);
        if (ax.empty()) ax = {0};
        Shape s = draw_shape(rng_, rng_.range(0, 2));
        s.push_back(static_cast<std::int64_t>(ax.size()));
        const int idx = indices(s, -2, 8);
        if (idx < 0) return false;
        n.args = {x, idx};
        n.ints["axes"] = ax;
        return true;
      }
      case Op::take: {
        const std::int64_t a = draw_axis(rng_, r);
        const int idx = indices(draw_shape(rng_, rng_.range(0, 2)), -2, 8);
        if (idx < 0) return false;
        n.args = {x, idx};
        n.ints["axis"] = {a};
        return true;
      }
      case Op::take_along_axis: {
        if (r == 0) return false;
        const std::int64_t a = rng_.range(0, r - 1);
        Shape s = t.shape();
        s[static_cast<std::size_t>(a)] = rng_.range(0, 4);
        const int idx = indices(s, -2, 8);
        if (idx < 0) return false;
        n.args = {x, idx};
        n.ints["axis"] = {a};
        return true;
      }
      case Op::select: {  // a u8, complex or real predicate; a complex or real other branch
        const double p = rng_.unit();
        const int pr = p < 0.4 ? values(DType::u8, t.shape())
                               : compatible(t.shape(), p < 0.8 ? t.dtype() : rng_.pick(kReal));
        const int y = compatible(t.shape(), t.dtype());
        if (pr < 0 || y < 0) return false;
        n.args = rng_.chance(0.5) ? std::vector<int>{pr, x, y} : std::vector<int>{pr, y, x};
        return true;
      }
      case Op::indexed_add:
      case Op::indexed_put: {  // indices {m, k}, updates {m, rest}
        if (r == 0) return false;
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
        const int u = values(partner_dtype(t.dtype()), us);
        if (idx < 0 || u < 0) return false;
        n.args = {x, idx, u};
        n.ints["axes"] = ax;
        return true;
      }
      default:
        return false;
    }
  }

  // matmul, Nx.dot/2, or dot with batch and contracting axes; b complex or real.
  bool dot(Node& n, int x) {
    const Tensor t = val(x);
    const std::int64_t r = t.rank();
    const DType bd = partner_dtype(t.dtype());
    if (rng_.chance(0.4)) {
      const int y = values(bd, draw_matmul(rng_, t.shape(), n));
      if (y < 0) return false;
      n.args = {x, y};
      return true;
    }
    Axes batch_a, contract_a, batch_b, contract_b;
    Shape bs;
    const std::int64_t nb = r > 1 && rng_.chance(0.3) ? 1 : 0;
    for (std::int64_t i = 0; i < nb; ++i) {
      batch_a.push_back(i);
      batch_b.push_back(i);
      bs.push_back(t.shape()[static_cast<std::size_t>(i)]);
    }
    for (std::int64_t i = nb; i < r; ++i) {
      if (!rng_.chance(0.5)) continue;
      contract_a.push_back(i);
      contract_b.push_back(static_cast<std::int64_t>(bs.size()));
      bs.push_back(t.shape()[static_cast<std::size_t>(i)]);
    }
    for (std::int64_t i = rng_.range(0, 2); i > 0; --i) bs.push_back(rng_.range(0, 4));
    const int y = values(bd, bs);
    if (y < 0) return false;
    n.args = {x, y};
    n.ints["contract_a"] = contract_a;
    n.ints["batch_a"] = batch_a;
    n.ints["contract_b"] = contract_b;
    n.ints["batch_b"] = batch_b;
    return true;
  }

  // A transform length for an axis of v points: past both ends (pad, crop), rarely < 1.
  std::int64_t length(std::int64_t v) {
    if (rng_.chance(0.03)) return rng_.range(-1, 0);
    return rng_.range(1, 2 * std::max<std::int64_t>(v, 1) + 1);
  }

  // fft / ifft along a random axis (or fft2 / ifft2 over two), irfft, or rfft of a real
  // value; lengths that pad and crop. Half the time a new leaf with few special values,
  // so most lines stay finite.
  bool spectral(Node& n, Op op, int x) {
    int src = x;
    const std::int64_t specials = rng_.pick(std::vector<std::int64_t>{0, 0, 10});
    if (op == Op::rfft) {
      const std::vector<DType> floats = {DType::f32, DType::f64, DType::f16, DType::bf16,
                                         DType::s32};
      src = !real_.empty() && rng_.chance(0.5)
                ? pick(real_)
                : values(rng_.pick(floats), draw_shape(rng_, rng_.range(1, 3)), specials);
    } else if (rng_.chance(0.5)) {
      src = values(complex_dtype(), draw_shape(rng_, rng_.range(1, 3)), specials);
    }
    if (src < 0) return false;
    const Tensor t = val(src);
    const std::int64_t r = t.rank();
    n.args = {src};
    if ((op == Op::fft || op == Op::ifft) && r >= 2 && rng_.chance(0.3)) {
      n.op = op == Op::fft ? "fft2" : "ifft2";
      const std::int64_t a = rng_.range(0, r - 1);
      std::int64_t b = rng_.range(0, r - 2);
      if (b >= a) ++b;
      if (rng_.chance(0.03)) b = a;  // the same axis twice: an error on both sides
      n.ints["axes"] = {rng_.chance(0.3) ? a - r : a, b};
      if (rng_.chance(0.6)) {
        n.ints["lengths"] = {length(t.shape()[static_cast<std::size_t>(a)]),
                             length(t.shape()[static_cast<std::size_t>(b)])};
      }
      return true;
    }
    const std::int64_t a = draw_axis(rng_, r);
    n.ints["axis"] = {a};
    const std::int64_t v =
        a >= -r && a < r
            ? t.shape()[static_cast<std::size_t>((a + r) % std::max<std::int64_t>(r, 1))]
            : 1;
    if (rng_.chance(0.6)) n.ints["length"] = {length(v)};
    return true;
  }
};

}  // namespace

void complex_stage(Builder& b, Rng& rng) {
  ComplexGen(b, rng).run();
}

}  // namespace vkt::fuzz
