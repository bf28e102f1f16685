#include "fuzz/program.h"

#include <cstdlib>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "fuzz/data.h"
#include "support/compare.h"

namespace vkt::fuzz {
namespace {

const std::vector<std::int64_t>& ints(const Node& n, const std::string& key) {
  static const std::vector<std::int64_t> none;
  const auto it = n.ints.find(key);
  return it == n.ints.end() ? none : it->second;
}
std::int64_t int0(const Node& n, const std::string& key, std::int64_t fallback = 0) {
  const auto& v = ints(n, key);
  return v.empty() ? fallback : v[0];
}
// argmax/argmin/argsort's index dtype; a program recorded before it was drawn made s64.
DType index_type(const Node& n) {
  return static_cast<DType>(int0(n, "type", static_cast<std::int64_t>(DType::s64)));
}

std::optional<std::int64_t> maybe(const Node& n, const std::string& key) {
  const auto& v = ints(n, key);
  return v.empty() ? std::nullopt : std::optional<std::int64_t>(v[0]);
}

Tensor binary_literal(Op op, const Tensor& t, Scalar lit, bool literal_left) {
#define VKT_FUZZ_BINARY(name) \
  if (op == Op::name) return literal_left ? vkt::name(lit, t) : vkt::name(t, lit);
  VKT_BINARY_OPS(VKT_FUZZ_BINARY)
#undef VKT_FUZZ_BINARY
  throw std::logic_error("not a binary op");
}

Tensor reduce(const std::string& op, const Tensor& t, const Axes& axes, bool keep) {
  if (op == "all") return all(t, axes, keep);
  if (op == "any") return any(t, axes, keep);
  if (op == "sum") return sum(t, axes, keep);
  if (op == "product") return product(t, axes, keep);
  if (op == "reduce_max") return reduce_max(t, axes, keep);
  return reduce_min(t, axes, keep);
}

WindowOptions window_options(const Node& n) {
  WindowOptions o;
  o.strides = ints(n, "strides");
  o.dilations = ints(n, "dilations");
  const auto &lo = ints(n, "pad_lo"), &hi = ints(n, "pad_hi");
  for (std::size_t i = 0; i < lo.size() && i < hi.size(); ++i) o.padding.push_back({lo[i], hi[i]});
  return o;
}

Tensor window(const std::string& op, const Tensor& t, const Node& n) {
  const Shape w = ints(n, "window");
  const WindowOptions o = window_options(n);
  if (op == "window_sum") return window_sum(t, w, o);
  if (op == "window_product") return window_product(t, w, o);
  if (op == "window_max") return window_max(t, w, o);
  return window_min(t, w, o);
}

Tensor scan(const std::string& op, const Tensor& t, std::int64_t axis, bool rev) {
  if (op == "cumulative_sum") return cumulative_sum(t, axis, rev);
  if (op == "cumulative_product") return cumulative_product(t, axis, rev);
  if (op == "cumulative_max") return cumulative_max(t, axis, rev);
  return cumulative_min(t, axis, rev);
}

bool is_family(const std::string& op, OpFamily f) {
  for (Op o : all_ops()) {
    if (op_name(o) == op) return op_family(o) == f;
  }
  return false;
}

}  // namespace

std::int64_t program_count_from_env(const char* name, std::int64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const long long n = std::strtoll(v, &end, 10);
  if (*end != '\0' || n < 1) {
    throw Error(std::string("[fuzz] ") + name + "='" + v + "': expected a positive count");
  }
  return n;
}

Tensor run_node_or_empty(const Node& n, const std::vector<Tensor>& values, Backend& where) {
  std::vector<Tensor> in;
  for (int a : n.args) {
    const Tensor& t = values[static_cast<std::size_t>(a)];
    if (!t.defined()) return {};
    in.push_back(t);
  }
  try {
    return run_node(n, in, where);
  } catch (const Error&) {
    return {};
  }
}

Tensor run_node(const Node& n, const std::vector<Tensor>& in, Backend& where) {
  const std::string& op = n.op;
  const auto x = [&](std::size_t i) -> const Tensor& { return in.at(i); };
  if (op == "values") {
    // "specials" (per mille) overrides the share of special values: tame lines for the FFT.
    const double rate = static_cast<double>(int0(n, "specials", 200)) / 1000;
    return from_bytes(make_values(n.dtype, numel(n.shape), n.data_seed, rate), n.dtype, n.shape,
                      &where);
  }
  if (op == "indices") {
    const auto& r = ints(n, "range");
    return from_bytes(make_indices(n.dtype, numel(n.shape), n.data_seed, r.at(0), r.at(1)), n.dtype,
                      n.shape, &where);
  }
  if (op == "const") return from_bytes(n.bytes, n.dtype, n.shape, &where);
  if (op == "full") return full(n.shape, n.literals.at(0).value, n.dtype, &where);
  if (op == "iota") return iota(n.shape, n.dtype, maybe(n, "axis"), &where);
  if (op == "eye") return eye(n.shape, n.dtype, &where);
  if (op == "triangle") {
    return from_bytes(make_triangle(n.dtype, n.shape, int0(n, "lower") != 0, n.data_seed), n.dtype,
                      n.shape, &where);
  }
  if (is_family(op, OpFamily::unary)) return unary(op_from_name(op), x(0));
  if (is_family(op, OpFamily::binary)) {
    if (!n.literals.empty()) {
      return binary_literal(op_from_name(op), x(0), n.literals[0].value,
                            int0(n, "literal_left") != 0);
    }
    return binary(op_from_name(op), x(0), x(1));
  }
  if (op == "as_type") return as_type(x(0), n.dtype);
  if (op == "bitcast") return bitcast(x(0), n.dtype);
  if (op == "reshape") return reshape(x(0), n.shape);
  if (op == "squeeze") return squeeze(x(0), ints(n, "axes"));
  if (op == "broadcast") return broadcast(x(0), n.shape, ints(n, "axes"));
  if (op == "transpose") return transpose(x(0), ints(n, "perm"));
  if (op == "pad") {
    std::vector<PadAxis> config;
    const auto &lo = ints(n, "lo"), &hi = ints(n, "hi"), &inner = ints(n, "interior");
    for (std::size_t i = 0; i < lo.size(); ++i) config.push_back({lo[i], hi.at(i), inner.at(i)});
    return pad(x(0), n.literals.at(0).value, config);
  }
  if (op == "reverse") return reverse(x(0), ints(n, "axes"));
  if (op == "slice") return slice(x(0), ints(n, "start"), ints(n, "lengths"), ints(n, "strides"));
  if (op == "put_slice") return put_slice(x(0), ints(n, "start"), x(1));
  if (op == "gather") return gather(x(0), x(1), ints(n, "axes"));
  if (op == "take") return take(x(0), x(1), int0(n, "axis"));
  if (op == "take_along_axis") return take_along_axis(x(0), x(1), int0(n, "axis"));
  if (op == "concatenate") return concatenate(in, int0(n, "axis"));
  if (op == "stack") return stack(in, int0(n, "axis"));
  if (op == "select") return select(x(0), x(1), x(2));
  if (op == "clip") {
    if (n.literals.size() == 2) return clip(x(0), n.literals[0].value, n.literals[1].value);
    return clip(x(0), x(1), x(2));
  }
  if (op == "indexed_add") return indexed_add(x(0), x(1), x(2), ints(n, "axes"));
  if (op == "indexed_put") return indexed_put(x(0), x(1), x(2), ints(n, "axes"));
  if (is_family(op, OpFamily::reduce))
    return reduce(op, x(0), ints(n, "axes"), int0(n, "keep") != 0);
  if (op == "argmax" || op == "argmin") {
    const auto axis = maybe(n, "axis");
    const bool keep = int0(n, "keep") != 0;
    const TieBreak tie = int0(n, "tie_high") != 0 ? TieBreak::high : TieBreak::low;
    const DType type = index_type(n);
    return op == "argmax" ? argmax(x(0), axis, keep, tie, type)
                          : argmin(x(0), axis, keep, tie, type);
  }
  if (is_family(op, OpFamily::window)) return window(op, x(0), n);
  if (op == "sort" || op == "argsort") {
    const Direction dir = int0(n, "descending") != 0 ? Direction::desc : Direction::asc;
    return op == "sort" ? sort(x(0), int0(n, "axis"), dir)
                        : argsort(x(0), int0(n, "axis"), dir, index_type(n));
  }
  if (op == "top_k.values") return top_k(x(0), int0(n, "k")).first;
  if (op == "top_k.indices") return top_k(x(0), int0(n, "k")).second;
  if (is_family(op, OpFamily::cumulative))
    return scan(op, x(0), int0(n, "axis"), int0(n, "reverse") != 0);
  if (op == "dot") {
    const auto preferred = maybe(n, "preferred");  // JAX's preferred_element_type
    return dot(x(0), ints(n, "contract_a"), ints(n, "batch_a"), x(1), ints(n, "contract_b"),
               ints(n, "batch_b"),
               preferred ? std::optional<DType>(static_cast<DType>(*preferred)) : std::nullopt);
  }
  if (op == "conv") {
    ConvOptions o;
    o.strides = ints(n, "strides");
    const auto& lo = ints(n, "pad_lo");
    const auto& hi = ints(n, "pad_hi");
    for (std::size_t i = 0; i < lo.size(); ++i) o.padding.emplace_back(lo[i], hi.at(i));
    o.input_dilation = ints(n, "input_dilation");
    o.kernel_dilation = ints(n, "kernel_dilation");
    o.feature_group_size = ints(n, "groups").at(0);
    o.batch_group_size = ints(n, "groups").at(1);
    o.padding_mode = static_cast<ConvPadding>(int0(n, "padding_mode", 0));
    o.input_permutation = ints(n, "input_perm");
    o.kernel_permutation = ints(n, "kernel_perm");
    o.output_permutation = ints(n, "output_perm");
    return conv(x(0), x(1), o);
  }
  if (op == "window_scatter_max" || op == "window_scatter_min") {
    const Scalar init = n.literals.at(0).value;
    const WindowOptions o = window_options(n);
    return op == "window_scatter_max" ? window_scatter_max(x(0), x(1), init, ints(n, "window"), o)
                                      : window_scatter_min(x(0), x(1), init, ints(n, "window"), o);
  }
  if (op == "triangular_solve") {
    TriangularSolveOptions o;
    o.left_side = int0(n, "left") != 0;
    o.lower = int0(n, "lower") != 0;
    o.transform_a = static_cast<TriangularTransform>(int0(n, "transform"));
    return triangular_solve(x(0), x(1), o);
  }
  if (op == "slice_at") {
    return slice(x(0), StartTensors(std::vector<Tensor>(in.begin() + 1, in.end())),
                 ints(n, "lengths"), ints(n, "strides"));
  }
  if (op == "put_slice_at") {
    return put_slice(x(0), StartTensors(std::vector<Tensor>(in.begin() + 2, in.end())), x(1));
  }
  if (op == "all_close") {
    AllCloseOptions o;
    o.rtol = n.literals.at(0).value.as_double();
    o.atol = n.literals.at(1).value.as_double();
    o.equal_nan = int0(n, "equal_nan") != 0;
    return all_close(x(0), x(1), o);
  }
  if (op == "fft" || op == "ifft" || op == "rfft" || op == "irfft") {
    const auto length = maybe(n, "length");
    const std::int64_t axis = int0(n, "axis", -1);
    if (op == "fft") return fft(x(0), length, axis);
    if (op == "ifft") return ifft(x(0), length, axis);
    return op == "rfft" ? rfft(x(0), length, axis) : irfft(x(0), length, axis);
  }
  if (op == "fft2") return fft2(x(0), ints(n, "lengths"), ints(n, "axes"));
  if (op == "ifft2") return ifft2(x(0), ints(n, "lengths"), ints(n, "axes"));
  if (op == "dot2") return dot(x(0), x(1));
  if (op == "matmul") return matmul(x(0), x(1));
  throw std::logic_error("fuzz: unknown node op " + op);
}

bool is_data_arg(const Node& n, std::size_t arg) {
  if (n.op == "indexed_add" || n.op == "indexed_put") return arg != 1;
  if (n.op == "gather" || n.op == "take" || n.op == "take_along_axis") return arg == 0;
  // Start tensors are indices; window_scatter's first operand is only compared, never summed.
  if (n.op == "slice_at") return arg == 0;
  if (n.op == "put_slice_at") return arg < 2;
  if (n.op == "window_scatter_max" || n.op == "window_scatter_min") return arg != 0;
  return true;
}

std::string listing(const Program& p, const std::vector<Tensor>& results) {
  std::ostringstream s;
  for (std::size_t i = 0; i < p.nodes.size(); ++i) {
    const Node& n = p.nodes[i];
    s << "  %" << i << " = " << n.op << "(";
    for (std::size_t a = 0; a < n.args.size(); ++a) s << (a ? ", %" : "%") << n.args[a];
    s << ")";
    const bool leaf = n.args.empty();
    if (leaf || n.op == "as_type" || n.op == "bitcast") s << " dtype=" << dtype_name(n.dtype);
    if (leaf || n.op == "reshape" || n.op == "broadcast") s << " shape=" << shape_str(n.shape);
    if (n.op == "values" || n.op == "indices" || n.op == "triangle")
      s << " data_seed=" << n.data_seed;
    for (const auto& [k, v] : n.ints) s << " " << k << "=" << shape_str(v);
    for (const Literal& l : n.literals) s << " literal=" << l.text;
    if (n.op == "const" && n.bytes.size() <= 64 * 8) {
      const Tensor t = from_bytes(n.bytes, n.dtype, n.shape, &cpu());
      s << " values=[";
      const std::vector<double> v = testing::as_doubles(t);
      for (std::size_t e = 0; e < v.size(); ++e) s << (e ? " " : "") << v[e];
      s << "]";
    }
    if (i < results.size() && results[i].defined()) {
      s << " -> " << dtype_name(results[i].dtype()) << shape_str(results[i].shape());
    }
    s << "\n";
  }
  return s.str();
}

Program without(const Program& p, std::size_t i) {
  Program q;
  q.seed = p.seed;
  std::vector<int> map(p.nodes.size(), -1);
  for (std::size_t k = 0; k < p.nodes.size(); ++k) {
    if (k == i) continue;
    Node n = p.nodes[k];
    bool alive = true;
    for (int& a : n.args) {
      a = map[static_cast<std::size_t>(a)];
      alive = alive && a >= 0;
    }
    if (!alive) continue;
    map[k] = static_cast<int>(q.nodes.size());
    q.nodes.push_back(std::move(n));
  }
  return q;
}

}  // namespace vkt::fuzz
