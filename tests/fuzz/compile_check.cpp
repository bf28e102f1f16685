// check_compiled: a fuzz program as one vkt::compile function against the same nodes run
// eagerly on the same backend, bit for bit.
#include "fuzz/compile_check.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "fuzz/generate.h"
#include "fuzz/rng.h"
#include "vkt/compile.h"

namespace vkt::fuzz {
namespace {

constexpr std::uint64_t kOutputStream = 0x636f6d70ull;  // "comp": which values are returned
// Each value that feeds a later node is also returned with this chance: a fused group then
// has to write an inner value too, besides its last (the sinks are always returned).
constexpr double kInnerOutput = 0.25;

// Random data and captured bytes become arguments; creation ops are traced where the
// function has an argument whose backend they can name.
bool is_data_leaf(const Node& n) {
  return n.op == "values" || n.op == "indices" || n.op == "const" || n.op == "triangle";
}
bool is_creation(const Node& n) {
  return n.op == "full" || n.op == "iota" || n.op == "eye";
}

struct EagerRun {
  std::vector<Tensor> results;  // undefined where the node (or an input) threw
};

EagerRun run_eager(const Program& p, Backend& where) {
  EagerRun e;
  e.results.resize(p.nodes.size());
  // A node that threw (the generator's invalid arguments) is left out of the function.
  for (std::size_t i = 0; i < p.nodes.size(); ++i) {
    e.results[i] = run_node_or_empty(p.nodes[i], e.results, where);
  }
  return e;
}

// How the compiled function is made from the nodes that ran eagerly.
struct Layout {
  std::vector<int> arguments;  // nodes passed in, in order
  std::vector<int> traced;     // nodes recorded in the trace, in program order
  std::vector<int> outputs;    // nodes returned, in program order
};

Layout lay_out(const Program& p, const EagerRun& e) {
  Layout l;
  const std::size_t count = p.nodes.size();
  std::vector<bool> used(count, false);
  for (std::size_t i = 0; i < count; ++i) {
    if (!e.results[i].defined()) continue;
    for (int a : p.nodes[i].args) used[static_cast<std::size_t>(a)] = true;
  }
  bool any_data = false;
  for (std::size_t i = 0; i < count; ++i)
    any_data = any_data || (e.results[i].defined() && is_data_leaf(p.nodes[i]));
  Rng rng(p.seed ^ kOutputStream);
  for (std::size_t i = 0; i < count; ++i) {
    if (!e.results[i].defined()) continue;
    const Node& n = p.nodes[i];
    const int k = static_cast<int>(i);
    // Without a data argument there is no traced backend to make creation ops on.
    if (is_data_leaf(n) || (is_creation(n) && !any_data)) {
      l.arguments.push_back(k);
      continue;
    }
    l.traced.push_back(k);
    if (!used[i] || rng.chance(kInnerOutput)) l.outputs.push_back(k);
  }
  return l;
}

std::string hex(const std::byte* b, std::size_t n) {
  std::string s;
  char digits[3];
  for (std::size_t i = n; i-- > 0;) {
    std::snprintf(digits, sizeof digits, "%02x", static_cast<unsigned>(b[i]));
    s += digits;
  }
  return s;
}

// Whether the `width`-byte float at b (little-endian) is a NaN: exponent all ones and a
// non-zero fraction, for f16, bf16, f32 and f64 (a bf16 shares f16's width: `brain`).
// Whether the element's bits are a NaN of `part` (a real float dtype).
bool nan_bits(const std::byte* b, DType part) {
  const std::size_t width = itemsize(part);
  const bool brain = part == DType::bf16;
  std::uint64_t v = 0;
  std::memcpy(&v, b, width);
  if (width == 1) return std::isnan(narrow_to_double(part, static_cast<std::uint8_t>(v)));
  if (width == 2) {
    const std::uint64_t exp = brain ? 0x7f80 : 0x7c00, frac = brain ? 0x7f : 0x3ff;
    return (v & exp) == exp && (v & frac) != 0;
  }
  if (width == 4) return (v & 0x7f800000u) == 0x7f800000u && (v & 0x7fffffu) != 0;
  return (v & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (v & 0xfffffffffffffull) != 0;
}

}  // namespace

std::string compiled_difference(const Tensor& want, const Tensor& got,
                                const CompileCheckOptions& o) {
  if (got.dtype() != want.dtype() || got.shape() != want.shape()) {
    return std::string("compiled ") + std::string(dtype_name(got.dtype())) +
           shape_str(got.shape()) + ", eager " + std::string(dtype_name(want.dtype())) +
           shape_str(want.shape());
  }
  const std::vector<std::byte> w = want.to_bytes();
  std::vector<std::byte> g = got.to_bytes();
  if (o.corrupt_compiled) o.corrupt_compiled(g);
  if (w.size() != g.size()) {
    return "compiled " + std::to_string(g.size()) + " bytes, eager " + std::to_string(w.size());
  }
  const std::size_t width = itemsize(want.dtype());
  const DType part = to_real_type(want.dtype());
  const bool floats = is_float(want.dtype()) || is_complex(want.dtype());
  const std::size_t part_width = floats ? itemsize(part) : width;
  const auto same = [&](std::size_t at) {
    for (std::size_t p = at; p < at + width; p += part_width) {
      if (std::memcmp(w.data() + p, g.data() + p, part_width) == 0) continue;
      if (!floats || !nan_bits(w.data() + p, part) || !nan_bits(g.data() + p, part)) {
        return false;
      }
    }
    return true;
  };
  for (std::size_t at = 0; at < w.size(); at += width) {
    if (!same(at)) {
      return "element " + std::to_string(at / width) + " of " +
             std::string(dtype_name(want.dtype())) + shape_str(want.shape()) +
             ": compiled bits 0x" + hex(g.data() + at, width) + ", eager 0x" +
             hex(w.data() + at, width);
    }
  }
  return "";
}

CompileStats& CompileStats::operator+=(const CompileStats& o) {
  programs += o.programs;
  compiled += o.compiled;
  outputs_compared += o.outputs_compared;
  traced_ops += o.traced_ops;
  traced_creation += o.traced_creation;
  for (const auto& [k, v] : o.skipped) skipped[k] += v;
  mismatches += o.mismatches;
  return *this;
}

std::string CompileStats::summary() const {
  std::ostringstream s;
  s << "compiled: " << compiled << " of " << programs << " programs, " << traced_ops
    << " traced ops (" << traced_creation << " creation), " << outputs_compared
    << " outputs compared, " << mismatches << " mismatches";
  for (const auto& [reason, n] : skipped) s << "; skipped " << reason << " " << n;
  return s.str();
}

std::string CompileMismatch::describe() const {
  std::ostringstream s;
  s << "compiled result differs from eager (seed " << seed << ") at %" << node << " " << op << ": "
    << what << "\nprogram:\n"
    << listing << "plan:\n"
    << plan;
  return s.str();
}

std::optional<CompileMismatch> check_compiled(const Program& p, Backend& where, CompileStats& stats,
                                              const CompileCheckOptions& options) {
  ++stats.programs;
  const EagerRun eager = run_eager(p, where);
  const Layout layout = lay_out(p, eager);
  if (layout.outputs.empty()) {
    ++stats.skipped["no_ops"];
    return std::nullopt;
  }
  const std::size_t count = p.nodes.size();
  int tracing = -1;  // the node being traced, for a report when the trace throws
  auto fn = vkt::compile([&](const std::vector<Tensor>& args) {
    std::vector<Tensor> values(count);
    for (std::size_t j = 0; j < layout.arguments.size(); ++j) {
      values[static_cast<std::size_t>(layout.arguments[j])] = args[j];
    }
    for (int k : layout.traced) {
      tracing = k;
      const Node& n = p.nodes[static_cast<std::size_t>(k)];
      std::vector<Tensor> in;
      for (int a : n.args) in.push_back(values[static_cast<std::size_t>(a)]);
      // Creation ops name the traced backend (a symbolic argument's), so they join the plan.
      values[static_cast<std::size_t>(k)] = run_node(n, in, args.front().backend());
    }
    tracing = -1;
    std::vector<Tensor> out;
    for (int k : layout.outputs) out.push_back(values[static_cast<std::size_t>(k)]);
    return out;
  });
  std::vector<Tensor> args;
  for (int k : layout.arguments) args.push_back(eager.results[static_cast<std::size_t>(k)]);
  const auto report = [&](int node, const std::string& what) {
    ++stats.mismatches;
    CompileMismatch m;
    m.seed = p.seed;
    m.node = node;
    m.op = node >= 0 ? p.nodes[static_cast<std::size_t>(node)].op : "call";
    m.what = what;
    m.listing = fuzz::listing(p, eager.results);
    m.plan = fn.describe();
    return m;
  };
  for (int call = 0; call < 2; ++call) {
    std::vector<Tensor> got;
    try {
      got = fn(args);
    } catch (const std::exception& e) {
      return report(tracing, std::string(call == 0 ? "the first" : "the second") +
                                 " call threw: " + e.what());
    }
    // The second call replays the plan: the function's one signature, traced once. (The
    // ledger's trace count is the process's: other threads' programs trace meanwhile.)
    if (fn.plans() != 1) {
      return report(-1, "after call " + std::to_string(call + 1) + " the function has " +
                            std::to_string(fn.plans()) + " plans, not 1");
    }
    if (got.size() != layout.outputs.size()) {
      return report(-1, "returned " + std::to_string(got.size()) + " tensors for " +
                            std::to_string(layout.outputs.size()));
    }
    for (std::size_t o = 0; o < got.size(); ++o) {
      const int k = layout.outputs[o];
      const std::string d =
          compiled_difference(eager.results[static_cast<std::size_t>(k)], got[o], options);
      if (!d.empty()) return report(k, (call == 0 ? "first call: " : "replay: ") + d);
    }
  }
  ++stats.compiled;
  stats.outputs_compared += static_cast<std::int64_t>(layout.outputs.size());
  for (int k : layout.traced) {
    const Node& n = p.nodes[static_cast<std::size_t>(k)];
    ++(is_creation(n) ? stats.traced_creation : stats.traced_ops);
  }
  return std::nullopt;
}

CompileStats check_compiled_programs(
    std::uint64_t seed, std::int64_t count, Backend& where,
    const std::function<void(std::int64_t, const std::string&)>& report, int reports) {
  CompileStats stats;
  for (std::int64_t i = 0; i < count; ++i) {
    const Program p = generate(mix(seed, static_cast<std::uint64_t>(i)));
    const std::optional<CompileMismatch> m = check_compiled(p, where, stats);
    if (m && reports-- > 0) {
      CompileStats scratch;
      const auto small = check_compiled(shrink_compile_mismatch(p, where), where, scratch);
      report(i, (small ? small : m)->describe());
    }
  }
  return stats;
}

Program shrink_compile_mismatch(const Program& p, Backend& where,
                                const CompileCheckOptions& options) {
  CompileStats scratch;
  const std::optional<CompileMismatch> first = check_compiled(p, where, scratch, options);
  if (!first) return p;
  const auto still = [&](const Program& q) {
    CompileStats s;
    const auto m = check_compiled(q, where, s, options);
    return m && m->op == first->op;
  };
  Program best = p;
  for (std::size_t i = best.nodes.size(); i-- > 0;) {
    if (i >= best.nodes.size()) continue;
    const Program q = without(best, i);
    if (!q.nodes.empty() && still(q)) best = q;
  }
  return best;
}

}  // namespace vkt::fuzz
