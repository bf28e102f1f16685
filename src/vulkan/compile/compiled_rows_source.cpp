// The row kernels' GLSL generator (compiled_rows_source.h): one invocation group per row
// holding its elements in registers, reductions combined in eager's order through subgroup
// shuffles and shared memory, the values after them evaluated and written.
#include "vulkan/compile/compiled_rows_source.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "vkt/backend.h"
#include "vkt/compile.h"
#include "vkt/error.h"
#include "vkt/ops.h"
#include "vkt/tensor.h"
#include "vulkan/compile/compiled_glsl.h"
#include "vulkan/compile/compiled_rows_math.h"
#include "vulkan/compile/compiled_rows_variant.h"
#include "vulkan/runtime/context.h"

namespace vkt::vk::row_kernel {
namespace {

using namespace fused_glsl;

Geometry geometry(const Shape& s, const RowVariant& variant, std::uint32_t subgroup_size,
                  std::uint32_t max_invocations) {
  Geometry g;
  g.len = s.back();
  g.rows = numel(s) / g.len;
  if (g.len >= kRowsFrom) {
    g.lanes = 32;
    while (g.lanes < kEagerGroup && g.lanes * 8 < g.len) g.lanes *= 2;
  }
  g.per = static_cast<std::uint32_t>((g.len + g.lanes - 1) / g.lanes);
  g.invocations = std::min({g.lanes, variant.max_lanes, variant.workgroup});
  // Where eager's lanes fill whole subgroups (its butterfly), the invocations must too.
  if (subgroup_size > 0 && g.lanes % subgroup_size == 0)
    g.invocations = std::max(g.invocations, subgroup_size);
  g.pack = g.lanes / g.invocations;
  // split=2 where each part gets whole steps of four, every lane's elements are in the row
  // and the parts' subgroups hold whole subgroups of eager's lanes (its butterfly).
  if (variant.split > 1 && g.pack == 1 && g.invocations == g.lanes && g.len % g.lanes == 0 &&
      g.per % (4 * variant.split) == 0 && subgroup_size > 0 && g.lanes % subgroup_size == 0 &&
      g.lanes * variant.split <= max_invocations) {
    g.parts = variant.split;
    g.invocations = g.lanes * g.parts;
  }
  g.workgroup = std::max(variant.workgroup, g.invocations);
  g.per_group = g.workgroup / g.invocations;
  return g;
}

std::string u(std::int64_t v) {
  return std::to_string(v) + "u";
}

// The identity, its bits hidden behind p.zero as literals are (no folding of 0 + x).
std::string identity(Op op, const std::string& acc) {
  if (op == Op::any) return "(0u ^ p.zero)";
  if (op == Op::all) return "(1u ^ p.zero)";
  const bool dbl = acc == "double";
  std::uint32_t hi = 0;
  if (op == Op::product) hi = dbl ? 0x3ff00000u : 0x3f800000u;
  if (op == Op::reduce_max) hi = dbl ? 0xfff00000u : 0xff800000u;
  if (op == Op::reduce_min) hi = dbl ? 0x7ff00000u : 0x7f800000u;
  if (dbl) return "packDouble2x32(uvec2(p.zero, " + u(hi) + "))";
  return "uintBitsToFloat(" + u(hi) + " ^ p.zero)";
}

// reduce_acc.glsl's combine: max/min keep the first NaN and order -0 below +0.
std::string combine_function(int k, Op op, const std::string& acc) {
  std::ostringstream s;
  s << acc << " combine" << k << "(" << acc << " a, " << acc << " b) {\n";
  const std::string order = acc == "double" ? "f64_order_less" : "f32_order_less";
  // precise: NVIDIA contracted a sum of a fused d * d into fused multiply-adds although the
  // product was precise (f64 layer norm on the H200); eager's operand is a load.
  const std::string keep = acc == "double" || acc == "float" ? "precise " : "";
  switch (op) {
    case Op::sum:
      s << "  " << keep << acc << " r = a + b;\n  return r;\n";
      break;
    case Op::product:
      s << "  " << keep << acc << " r = a * b;\n  return r;\n";
      break;
    case Op::any:
      s << "  return a | b;\n";
      break;
    case Op::all:
      s << "  return a & b;\n";
      break;
    default:
      s << "  if (isnan(a)) return a;\n  if (isnan(b)) return b;\n  return "
        << (op == Op::reduce_max ? order + "(a, b) ? b : a" : order + "(b, a) ? b : a") << ";\n";
      break;
  }
  s << "}\n";
  return s.str();
}

std::vector<int> levels(const detail::FusedGroup& g) {
  std::vector<int> level(g.values.size(), 0);
  for (std::size_t k = 0; k < g.values.size(); ++k) {
    const detail::FusedValue& v = g.values[k];
    for (int a : v.args) level[k] = std::max(level[k], level[static_cast<std::size_t>(a)]);
    if (v.kind == detail::FusedValue::Kind::op && detail::reduction_op(v.op)) ++level[k];
  }
  return level;
}

class RowSource {
 public:
  // subgroup_size: the device's where rows that fit one subgroup are combined by shuffles
  // alone, else 0. shared_hold: held values in shared memory, not the invocation's arrays.
  RowSource(const detail::FusedGroup& g, std::vector<RowReduction> reductions, Geometry geo,
            const RowVariant& variant, std::uint32_t subgroup_size, bool shared_hold)
      : g_(g),
        geo_(geo),
        level_(levels(g)),
        reductions_(std::move(reductions)),
        variant_(variant),
        unrolled_(variant.unrolled),
        subgroup_size_(subgroup_size),
        shared_hold_(shared_hold),
        static_rows_(variant.static_bounds && geo.whole_rows()),
        static_columns_(variant.static_bounds && geo.whole_columns()),
        kept_(g.values.size(), false) {
    // A per-element value is held (an array per invocation) only where a reduction or a
    // later phase reads it; its own phase's loop reads its temporary.
    for (std::size_t c = 0; c < g.values.size(); ++c) {
      const detail::FusedValue& v = g.values[c];
      const bool reduces = v.kind == detail::FusedValue::Kind::op && detail::reduction_op(v.op);
      for (int a : v.args) {
        const auto k = static_cast<std::size_t>(a);
        if (!g.values[k].per_row && (reduces || level_[c] != level_[k])) kept_[k] = true;
      }
    }
  }

  std::string text() const {
    std::ostringstream s;
    s << "#version 450\n// vkt::compile row group: " << g_.values.size() << " values over rows of "
      << shape_str(g_.shape) << ", " << geo_.lanes << " lanes per row as " << geo_.invocations
      << " invocations" << (split() ? " (" + std::to_string(geo_.parts) + " per lane)" : "") << ", "
      << geo_.per_group << " rows per workgroup, " << (unrolled_ ? "unrolled" : "rolled") << "\n";
    if (needs_i64(g_)) s << "#define VKT_I64\n";
    if (needs_f64(g_)) s << "#define VKT_F64\n";
    s << "#extension GL_EXT_control_flow_attributes : require\n";
    if (any_subgroups()) {
      s << "#extension GL_KHR_shader_subgroup_basic : require\n"
        << "#extension GL_KHR_shader_subgroup_shuffle : require\n";
    }
    s << kept_ops(g_)
      << "#include \"common.glsl\"\n#include \"dtype_value.glsl\"\n#include \"float_bits.glsl\"\n"
      << kElementwiseIncludes << "#include \"compiled_rows_math.glsl\"\n"
      << leaf_buffers(g_, 0)
      << "layout(push_constant) uniform Push { uint zero; } p;  // 0: see literal()\n";
    for (std::size_t k = 0; k < g_.outputs.size(); ++k) {
      s << "layout(binding = " << g_.leaf_dtypes.size() + k << ") writeonly buffer Out" << k
        << " { " << buffer_type(value(g_.outputs[k]).dtype) << " v[]; } out" << k << ";\n";
    }
    if (variant_.rare_flag) {
      s << "layout(binding = " << g_.leaf_dtypes.size() + g_.outputs.size()
        << ") writeonly buffer RareFlag { uint v[]; } rare_flag_;  // 1: a rare path was met\n";
    }
    for (const RowReduction& r : reductions_) {
      if (geo_.lanes > 1)
        s << "shared " << r.acc << " red" << r.value << "[" << geo_.workgroup << "];\n";
      if (split()) s << "shared " << r.acc << " xch" << r.value << "[" << geo_.workgroup << "];\n";
      s << combine_function(r.value, value(r.value).op, r.acc);
    }
    for (std::size_t k = 0; k < g_.values.size() && shared_hold_; ++k) {
      if (kept_[k]) {
        s << "shared " << glsl_type(g_.values[k].dtype) << " h" << k << "["
          << geo_.workgroup * geo_.held() << "];\n";
      }
    }
    s << "\nvoid main() {\n"
      << "  const uint group_ = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;\n"
      << "  if (group_ >= " << u((geo_.rows + geo_.per_group - 1) / geo_.per_group)
      << ") return;  // whole workgroups of a larger grid\n"
      << "  const uint lid_ = gl_LocalInvocationID.x, lane_ = lid_ % " << u(geo_.invocations)
      << ";\n  const uint row_ = group_ * " << u(geo_.per_group) << " + lid_ / "
      << u(geo_.invocations) << ";\n  const bool valid_ = "
      << (static_rows_ ? "true;  // every row of the grid exists" : "row_ < " + u(geo_.rows) + ";")
      << "\n";
    if (variant_.rare_flag) s << "  bool rare_ = false;  // first_rare=flag: results not eager's\n";
    if (split()) {
      s << "  const uint part_ = lane_ / " << u(geo_.lanes) << ", elane_ = lane_ % "
        << u(geo_.lanes) << ";  // eager's lane and this invocation's part of it\n";
    }
    for (std::size_t k = 0; k < g_.values.size(); ++k) {
      const detail::FusedValue& v = g_.values[k];
      if (!v.per_row && (!kept_[k] || shared_hold_)) continue;
      s << "  " << (is_float(v.dtype) ? "precise " : "") << glsl_type(v.dtype) << " v" << k;
      if (!v.per_row) s << "[" << geo_.held() << "]";
      s << ";\n";
    }
    const int last = level_.empty() ? 0 : *std::max_element(level_.begin(), level_.end());
    for (int phase = 0; phase <= last; ++phase) {
      for (const RowReduction& r : reductions_) {
        if (level_[static_cast<std::size_t>(r.value)] == phase) s << finish(r);
      }
      s << per_row_section(phase) << element_loop(phase);
    }
    if (variant_.rare_flag) s << "  if (rare_) rare_flag_.v[0] = 1u;\n";
    s << "}\n";
    return s.str();
  }

  std::size_t shared_bytes() const {
    std::size_t bytes = 0;
    for (const RowReduction& r : reductions_) {
      const std::size_t acc_bytes = std::string(r.acc) == "double" ? 8 : 4;
      if (geo_.lanes > 1) bytes += geo_.workgroup * acc_bytes;
      if (split()) bytes += geo_.workgroup * acc_bytes;
    }
    for (std::size_t k = 0; k < g_.values.size() && shared_hold_; ++k) {
      const DType d = g_.values[k].dtype;  // held as float, int, uint or their 64-bit kin
      const std::size_t item = d == DType::f64 || d == DType::s64 || d == DType::u64 ? 8 : 4;
      if (kept_[k]) bytes += std::size_t{geo_.workgroup} * geo_.held() * item;
    }
    return bytes;
  }

 private:
  const detail::FusedValue& value(int k) const { return g_.values[static_cast<std::size_t>(k)]; }
  bool any_subgroups() const {
    for (const RowReduction& r : reductions_) {
      if (r.subgroups && geo_.lanes > 1) return true;
    }
    return false;
  }
  bool element_output(std::size_t k) const { return numel(g_.output_shapes[k]) == numel(g_.shape); }
  // Value k in the element loop of `phase`: per row, its temporary there, or held.
  std::string element_name(int k, int phase) const {
    if (value(k).per_row) return "v" + std::to_string(k);
    if (level_[static_cast<std::size_t>(k)] == phase) return "t" + std::to_string(k);
    return held_at(k, "j");
  }
  // Held element `index` (an expression) of value k: the invocation's array, or its slots
  // of the shared one (index-major, so an index's slots are consecutive words).
  std::string held_at(int k, const std::string& index) const {
    if (!shared_hold_) return "v" + std::to_string(k) + "[" + index + "]";
    return "h" + std::to_string(k) + "[(" + index + ") * " + u(geo_.workgroup) + " + lid_]";
  }
  const char* loop_attribute() const { return unrolled_ ? "[[unroll]]" : "[[dont_unroll]]"; }
  bool split() const { return geo_.parts > 1; }
  // The row's column of this invocation's held element j (an expression).
  std::string column(const std::string& j) const {
    if (!split()) return "lane_ + " + j + " * " + u(geo_.invocations);
    return "elane_ + (part_ * " + u(geo_.held()) + " + " + j + ") * " + u(geo_.lanes);
  }
  // Elements of one of eager's lanes this invocation folds.
  std::uint32_t lane_elements() const { return geo_.per / geo_.parts; }

  // Per-row values of this level (leaves read at the row's first element) and their stores.
  std::string per_row_section(int phase) const {
    std::ostringstream s;
    for (std::size_t k = 0; k < g_.values.size(); ++k) {
      const detail::FusedValue& v = g_.values[k];
      if (!v.per_row || level_[k] != phase) continue;
      if (v.kind == detail::FusedValue::Kind::op && detail::reduction_op(v.op)) continue;
      std::string pre;
      const std::string e = value_expression(
          g_, k, [](int a) { return "v" + std::to_string(a); }, "row_ * " + u(geo_.len), pre);
      s << pre << "    v" << k << " = " << e << ";\n";
    }
    for (std::size_t k = 0; k < g_.outputs.size(); ++k) {
      const int o = g_.outputs[k];
      if (element_output(k) || level_[static_cast<std::size_t>(o)] != phase) continue;
      s << "    if (lane_ == 0u) out" << k
        << ".v[row_] = " << store(value(o).dtype, "v" + std::to_string(o)) << ";\n";
    }
    const std::string body = s.str();
    return body.empty() ? "" : "  if (valid_) {\n" + body + "  }\n";
  }

  // Per-element values of this level, each invocation over its elements, and their stores.
  std::string element_loop(int phase) const {
    std::ostringstream s, before;
    const auto name = [this, phase](int a) { return element_name(a, phase); };
    std::vector<std::size_t> deferred;
    for (std::size_t k = 0; k < g_.values.size(); ++k) {
      const detail::FusedValue& v = g_.values[k];
      if (v.per_row || level_[k] != phase) continue;
      if (divides_by_row(g_, k, variant_)) before << row_divisor_statement(g_, k, name);
      std::string pre, e, flag;
      if (deferred_divide(k, phase)) {
        flag = "s" + std::to_string(k) + "_";
        if (!variant_.rare_flag) {
          deferred.push_back(k);
          before << "  uint " << slow_mask(k) << " = 0u;\n";
        }
        s << "      bool " << flag << ";\n";
        e = row_divide_fast_expression(g_, k, name, flag);
      } else {
        e = row_math_expression(g_, k, variant_, name);
        if (e.empty()) e = value_expression(g_, k, name, "i", pre);
      }
      s << pre << "      " << (is_float(v.dtype) ? "precise " : "") << glsl_type(v.dtype) << " t"
        << k << " = " << e << ";\n";
      if (!flag.empty()) {
        s << "      if (" << flag << ") "
          << (variant_.rare_flag ? std::string("rare_ = true") : slow_mask(k) + " |= 1u << j")
          << ";\n";
      }
      if (kept_[k]) s << "      " << held_at(static_cast<int>(k), "j") << " = t" << k << ";\n";
    }
    s << element_stores(phase, name, "      ");
    const std::string body = s.str();
    if (body.empty()) return "";
    return before.str() + "  " + loop_attribute() + " for (uint j = 0u; j < " + u(geo_.held()) +
           "; ++j) {\n    const uint c = " + column("j") + ";\n    " + guarded(in_row("c")) +
           "{\n      const uint i = row_ * " + u(geo_.len) + " + c;\n" + body + "    }\n  }\n" +
           fix_up(phase, deferred);
  }

  std::string element_stores(int phase, const std::function<std::string(int)>& name,
                             const std::string& indent) const {
    std::ostringstream s;
    for (std::size_t k = 0; k < g_.outputs.size(); ++k) {
      const int o = g_.outputs[k];
      if (!element_output(k) || level_[static_cast<std::size_t>(o)] != phase) continue;
      s << indent << "out" << k << ".v[i] = " << store(value(o).dtype, name(o)) << ";\n";
    }
    return s.str();
  }

  // rare=once: a row divide's slow operands are redone after its loop rather than inlined
  // once per held element. Only in the last phase (no later phase reads a value of it, so
  // redoing the element's values and stores is all), unrolled, with a bit per element.
  bool deferred_divide(std::size_t k, int phase) const {
    return variant_.rare_once && unrolled_ && phase == last_phase() && geo_.held() <= 32 &&
           divides_by_row(g_, k, variant_);
  }
  int last_phase() const {
    return level_.empty() ? 0 : *std::max_element(level_.begin(), level_.end());
  }
  static std::string slow_mask(std::size_t k) { return "slow" + std::to_string(k) + "_"; }

  // The elements whose divides were slow, one at a time in a rolled loop: the phase's values
  // again with eager's divide, and the stores again (the same invocation's later store wins).
  // Held values are picked by constant indices (a register array indexed by a variable would
  // go to local memory for the whole kernel).
  std::string fix_up(int phase, const std::vector<std::size_t>& deferred) const {
    if (deferred.empty()) return "";
    std::vector<bool> picked(g_.values.size(), false);
    const auto name = [&](int a) -> std::string {
      const auto k = static_cast<std::size_t>(a);
      if (value(a).per_row || level_[k] == phase) return element_name(a, phase);
      if (shared_hold_) return held_at(a, "j");
      picked[k] = true;
      return "h" + std::to_string(a) + "_";
    };
    std::ostringstream body;
    for (std::size_t k = 0; k < g_.values.size(); ++k) {
      const detail::FusedValue& v = g_.values[k];
      if (v.per_row || level_[k] != phase) continue;
      std::string pre, e;
      const bool redo = std::find(deferred.begin(), deferred.end(), k) != deferred.end();
      if (!redo) e = row_math_expression(g_, k, variant_, name);
      if (e.empty()) e = value_expression(g_, k, name, "i", pre);
      body << pre << "        " << (is_float(v.dtype) ? "precise " : "") << glsl_type(v.dtype)
           << " t" << k << " = " << e << ";\n";
    }
    body << element_stores(phase, name, "        ");
    std::ostringstream picks;
    for (std::size_t k = 0; k < g_.values.size(); ++k) {
      if (!picked[k]) continue;
      const std::string h = "h" + std::to_string(k) + "_", held = "v" + std::to_string(k);
      picks << "        " << (is_float(value(static_cast<int>(k)).dtype) ? "precise " : "")
            << glsl_type(value(static_cast<int>(k)).dtype) << " " << h << " = " << held
            << "[0u];\n";
      for (std::uint32_t j = 1; j < geo_.held(); ++j)
        picks << "        if (j == " << u(j) << ") " << h << " = " << held << "[" << u(j) << "];\n";
    }
    std::string mask;
    for (std::size_t k : deferred) mask += (mask.empty() ? "" : " | ") + slow_mask(k);
    std::ostringstream s;
    s << "  [[dont_flatten]] if ((" << mask << ") != 0u) {\n"
      << "    [[dont_unroll]] for (uint m_ = " << mask << "; m_ != 0u; m_ &= m_ - 1u) {\n"
      << "      const uint j = uint(findLSB(m_));\n      const uint c = " << column("j")
      << ";\n      {\n        const uint i = row_ * " << u(geo_.len) << " + c;\n"
      << picks.str() << body.str() << "      }\n    }\n  }\n";
    return s.str();
  }

  // The test that column c (an expression) of this invocation's row exists: left out where
  // the grid and the lanes divide the rows evenly (bounds=static).
  std::string in_row(const std::string& c) const {
    return both(row_test(), static_columns_ ? "" : c + " < " + u(geo_.len));
  }

  // The held element `index` (an expression) as an accumulator operand.
  std::string operand(const RowReduction& r, const std::string& index) const {
    const detail::FusedValue& v = value(r.value);
    const int a = v.args.at(0);
    const std::string x = value(a).per_row ? "v" + std::to_string(a) : held_at(a, index);
    if (v.op == Op::any || v.op == Op::all) return "(" + nonzero(value(a).dtype, x) + " ? 1u : 0u)";
    return std::string(r.acc) + "(" + x + ")";
  }

  // Where eager's lane t of this invocation holds element `sub` of step q: at
  // t + (4 q + sub) pack of its arrays.
  std::string held_index(std::uint32_t t, const std::string& q, std::uint32_t sub) const {
    return "(" + u(t) + " + (" + q + " * 4u + " + u(sub) + ") * " + u(geo_.pack) + ")";
  }
  // The test that this element is in the row ("" where every element is: bounds=static).
  std::string present(std::uint32_t t, const std::string& q, std::uint32_t sub) const {
    if (static_columns_) return "";
    return "lane_ + " + held_index(t, q, sub) + " * " + u(geo_.invocations) + " < " + u(geo_.len);
  }
  static std::string both(const std::string& a, const std::string& b) {
    return a.empty() ? b : b.empty() ? a : a + " && " + b;
  }
  static std::string guarded(const std::string& test) {
    return test.empty() ? "" : "if (" + test + ") ";
  }
  std::string row_test() const { return static_rows_ ? "" : "valid_"; }

  // One step of eager's lane `t` of this invocation: its elements 4 q .. 4 q + 3 (held at
  // t + (4 q + s) pack) combined as a quad when all are in the row, else one by one.
  // `q` is a number (unrolled) or the loop's variable; the step has `in_step` elements (a
  // last one may have fewer).
  std::string step(const RowReduction& r, std::uint32_t t, const std::string& q,
                   std::uint32_t in_step) const {
    const std::string acc = "a" + std::to_string(r.value) + "_" + std::to_string(t),
                      comb = "combine" + std::to_string(r.value);
    auto x = [&](std::uint32_t sub) { return operand(r, held_index(t, q, sub)); };
    std::ostringstream s;
    std::string tail;
    for (std::uint32_t sub = 0; sub < in_step; ++sub) {
      tail += "    " + guarded(present(t, q, sub)) + acc + " = " + comb + "(" + acc + ", " +
              x(sub) + ");\n";
    }
    const std::string row = row_test();
    if (in_step == 4) {
      const std::string quad = acc + " = " + comb + "(" + acc + ", " + comb + "(" + comb + "(" +
                               x(0) + ", " + x(1) + "), " + comb + "(" + x(2) + ", " + x(3) +
                               ")));";
      s << "  " << guarded(both(row, present(t, q, 3))) << "{\n    " << quad << "\n  }";
      if (!static_columns_) s << " else " << guarded(row) << "{\n" << tail << "  }";
      s << "\n";
    } else {
      s << "  " << guarded(row) << "{\n" << tail << "  }\n";
    }
    return s.str();
  }

  // One step of eager's lane t on the bits (max=bits): its present elements' bits into the
  // lane's signed highest and lowest and unsigned highest.
  std::string key_step(const RowReduction& r, std::uint32_t t, const std::string& q,
                       std::uint32_t in_step) const {
    const std::string id = std::to_string(r.value) + "_" + std::to_string(t);
    std::ostringstream s;
    for (std::uint32_t sub = 0; sub < in_step; ++sub) {
      s << "  " << guarded(both(row_test(), present(t, q, sub)))
        << "{ const int e_ = floatBitsToInt(" << operand(r, held_index(t, q, sub)) << "); hi" << id
        << " = max(hi" << id << ", e_); lo" << id << " = min(lo" << id << ", e_); hu" << id
        << " = max(hu" << id << ", uint(e_)); }\n";
    }
    return s.str();
  }

  // `one(t, q, in_step)` for every step of eager's lanes ts: unrolled, or whole steps in a
  // loop and a shorter last step after it (its reads stay in the array).
  template <typename StepText>
  std::string over_steps(const std::vector<std::uint32_t>& ts, StepText one) const {
    std::ostringstream s;
    const std::uint32_t per = lane_elements(), steps = (per + 3) / 4,
                        last_in_step = per - (steps - 1) * 4;
    if (unrolled_) {
      for (std::uint32_t q = 0; q < steps; ++q) {
        for (std::uint32_t t : ts) s << one(t, u(q), q + 1 < steps ? 4 : last_in_step);
      }
      return s.str();
    }
    const std::uint32_t looped = last_in_step == 4 ? steps : steps - 1;
    if (looped > 0) {
      s << "  [[dont_unroll]] for (uint q_ = 0u; q_ < " << u(looped) << "; ++q_) {\n";
      for (std::uint32_t t : ts) s << one(t, "q_", 4);
      s << "  }\n";
    }
    if (looped < steps) {
      for (std::uint32_t t : ts) s << one(t, u(looped), last_in_step);
    }
    return s.str();
  }

  // max=bits applies to float max and min: without a NaN their combine is the order's
  // extreme whatever the order (equal bits are equal elements).
  bool on_bits(const RowReduction& r) const {
    const Op op = value(r.value).op;
    return variant_.bits_minmax && std::string(r.acc) == "float" &&
           (op == Op::reduce_max || op == Op::reduce_min);
  }

  // Each of eager's lanes over its elements: in eager's order, or from the extremes of their
  // bits, eager's order redone by a lane that met a NaN (which NaN wins depends on it).
  std::string lane_accumulation(const RowReduction& r) const {
    std::vector<std::uint32_t> all;
    for (std::uint32_t t = 0; t < geo_.pack; ++t) all.push_back(t);
    const auto eager_step = [this, &r](std::uint32_t t, const std::string& q, std::uint32_t n) {
      return step(r, t, q, n);
    };
    if (!on_bits(r)) return over_steps(all, eager_step);
    const std::string k = std::to_string(r.value);
    std::ostringstream s;
    for (std::uint32_t t : all) {
      const std::string id = k + "_" + std::to_string(t);
      s << "  int hi" << id << " = floatBitsToInt(a" << id << "), lo" << id << " = hi" << id
        << ";\n  uint hu" << id << " = uint(hi" << id << ");\n";
    }
    s << over_steps(all, [this, &r](std::uint32_t t, const std::string& q, std::uint32_t n) {
      return key_step(r, t, q, n);
    });
    const bool highest = value(r.value).op == Op::reduce_max;
    for (std::uint32_t t : all) {
      const std::string id = k + "_" + std::to_string(t);
      const std::string extreme =
          highest ? "bits_max(hi" + id + ", lo" + id + ")" : "bits_min(lo" + id + ", hu" + id + ")";
      if (variant_.rare_once && unrolled_ && variant_.rare_flag) {
        s << "  a" << id << " = " << extreme << ";\n  if (bits_hold_nan(hi" << id << ", hu" << id
          << ")) rare_ = true;\n";
        continue;
      }
      if (variant_.rare_once && unrolled_) {
        s << "  a" << id << " = " << extreme << ";\n  [[dont_flatten]] if (bits_hold_nan(hi" << id
          << ", hu" << id << ")) {\n"
          << first_nan(r, t) << "  }\n";
        continue;
      }
      s << "  [[dont_flatten]] if (bits_hold_nan(hi" << id << ", hu" << id << ")) {\n"
        << over_steps({t}, eager_step) << "  } else {\n    a" << id << " = " << extreme
        << ";\n  }\n";
    }
    return s.str();
  }

  // split=2|4: each part folds its steps of eager's lane, part h after part h - 1 (through
  // shared memory, one barrier apart), so the last holds the lane's value. Max, min, any and
  // all combine in any grouping (max/min: the first NaN, else the extreme), so the parts fold
  // at once and each takes the previous one's value first; a sum or product's part h folds on
  // from part h - 1's.
  std::string split_lane_accumulation(const RowReduction& r) const {
    const Op op = value(r.value).op;
    const std::string a = "a" + std::to_string(r.value) + "_0", x = "xch" + std::to_string(r.value),
                      comb = "combine" + std::to_string(r.value),
                      previous = x + "[lid_ - " + u(geo_.lanes) + "]";
    const bool any_grouping =
        op == Op::reduce_max || op == Op::reduce_min || op == Op::any || op == Op::all;
    std::ostringstream s;
    if (any_grouping) s << lane_accumulation(r);
    for (std::uint32_t h = 0; h < geo_.parts; ++h) {
      if (h > 0) s << "  barrier();\n";
      s << "  if (part_ == " << u(h) << ") {\n";
      if (h > 0) {
        s << "    " << a << " = "
          << (any_grouping ? comb + "(" + previous + ", " + a + ")" : previous) << ";\n";
      }
      if (!any_grouping) s << lane_accumulation(r);
      if (h + 1 < geo_.parts) s << "    " << x << "[lid_] = " << a << ";\n";
      s << "  }\n";
    }
    return s.str();
  }

  // Eager's max/min combine keeps the first NaN of the two, so a lane that holds a NaN ends
  // with its first NaN in eager's order: found here by selects from the last element back.
  std::string first_nan(const RowReduction& r, std::uint32_t t) const {
    const std::string acc = "a" + std::to_string(r.value) + "_" + std::to_string(t);
    const std::uint32_t per = lane_elements(), steps = (per + 3) / 4,
                        last_in_step = per - (steps - 1) * 4;
    std::ostringstream s;
    for (std::uint32_t q = steps; q-- > 0;) {
      for (std::uint32_t sub = q + 1 < steps ? 4 : last_in_step; sub-- > 0;) {
        const std::string x = operand(r, held_index(t, u(q), sub));
        s << "    if (" << both(both(row_test(), present(t, u(q), sub)), "isnan(" + x + ")") << ") "
          << acc << " = " << x << ";\n";
      }
    }
    return s.str();
  }

  // Reduction r over the row: each of eager's lanes over its elements in eager's order
  // (steps of four, then the tail), then eager's butterfly and tree over the lanes (those an
  // invocation holds combined in registers at the tree's levels that pair them); every
  // invocation gets the result.
  std::string finish(const RowReduction& r) const {
    const detail::FusedValue& v = value(r.value);
    const std::string k = std::to_string(r.value), comb = "combine" + k;
    auto acc = [&](std::uint32_t t) { return "a" + k + "_" + std::to_string(t); };
    std::ostringstream s;
    for (std::uint32_t t = 0; t < geo_.pack; ++t)
      s << "  " << r.acc << " " << acc(t) << " = " << identity(v.op, r.acc) << ";\n";
    s << (split() ? split_lane_accumulation(r) : lane_accumulation(r));
    if (geo_.lanes > 1) {
      // Split, the tree runs over eager's lanes, their values in the last part's invocations.
      const std::string red = "red" + k, n = u(split() ? geo_.lanes : geo_.invocations);
      const std::string row_lane = split() ? "elane_" : "lane_";
      const std::string lane_slot =
          split() ? "(lid_ / " + u(geo_.invocations) + " * " + n + " + elane_)" : "lid_";
      s << "  {\n    uint parts = " << n << ", slot = " << lane_slot << ";\n    bool writer = "
        << (split() ? "part_ == " + u(geo_.parts - 1) : std::string("true")) << ";\n";
      if (r.subgroups) {
        s << "    if (" << n << " % gl_SubgroupSize == 0u) {\n";
        for (std::uint32_t t = 0; t < geo_.pack; ++t) {
          s << "      for (uint o = gl_SubgroupSize / 2u; o > 0u; o >>= 1u) " << acc(t) << " = "
            << comb << "(" << acc(t) << ", subgroupShuffleXor(" << acc(t) << ", o));\n";
        }
        s << "      parts = " << n << " / gl_SubgroupSize;\n"
          << "      slot = " << lane_slot << " / gl_SubgroupSize;\n"
          << "      writer = writer && gl_SubgroupInvocationID == 0u;\n"
          << "    }\n";
      }
      // The tree's first levels pair slots t and t + h of one invocation's lanes.
      for (std::uint32_t h = geo_.pack / 2; h > 0; h /= 2) {
        for (std::uint32_t t = 0; t < h; ++t)
          s << "    " << acc(t) << " = " << comb << "(" << acc(t) << ", " << acc(t + h) << ");\n";
      }
      const std::string a = acc(0);
      std::ostringstream tree;
      const std::string tree_test =
          split() ? "part_ == " + u(geo_.parts - 1) + " && elane_ < h" : "lane_ < h";
      tree << "    const uint base = lid_ / " << u(geo_.invocations) << " * parts;\n"
           << "    if (writer) " << red << "[slot] = " << a << ";\n    barrier();\n"
           << "    for (uint h = parts / 2u; h > 0u; h >>= 1u) {\n"
           << "      if (" << tree_test << ") " << red << "[base + " << row_lane << "] = " << comb
           << "(" << red << "[base + " << row_lane << "], " << red << "[base + " << row_lane
           << " + h]);\n      barrier();\n    }\n"
           << "    " << a << " = " << red << "[base];\n";
      if (r.subgroups && geo_.invocations == subgroup_size_) {
        // A row in one subgroup: its first invocation's value (eager's writer), no barrier.
        s << "    if (parts == 1u && " << n << " == gl_SubgroupSize) {\n      " << a
          << " = subgroupShuffle(" << a << ", 0u);\n    } else {\n"
          << tree.str() << "    }\n";
      } else {
        s << tree.str();
      }
      s << "  }\n";
    }
    const std::string result =
        v.op == Op::any || v.op == Op::all ? acc(0) : narrowed(v.dtype, acc(0));
    s << "  v" << k << " = " << result << ";\n";
    return s.str();
  }

  const detail::FusedGroup& g_;
  Geometry geo_;
  std::vector<int> level_;
  std::vector<RowReduction> reductions_;
  RowVariant variant_;
  bool unrolled_ = true;
  std::uint32_t subgroup_size_ = 0;
  bool shared_hold_ = false;
  bool static_rows_ = false, static_columns_ = false;  // bounds=static where they hold
  std::vector<bool> kept_;                             // per value: kept in an array across phases
};

}  // namespace

const char* acc_type(Op op, DType in) {
  if (op == Op::any || op == Op::all) return "uint";
  return in == DType::f64 ? "double" : "float";
}

// The variant within the device's workgroup limits (a larger workgroup falls back to eager's).
RowVariant device_variant(const Context& ctx) {
  RowVariant v = row_variant();
  const VkPhysicalDeviceLimits& l = ctx.properties().limits;
  if (v.workgroup > l.maxComputeWorkGroupSize[0] || v.workgroup > l.maxComputeWorkGroupInvocations)
    v.workgroup = kEagerGroup;
  return v;
}

std::optional<RowBuild> build_rows(const VulkanBackend& b, const detail::FusedGroup& g,
                                   const std::vector<RowReduction>& reductions,
                                   const RowVariant& variant) {
  const std::uint32_t subgroup_size = b.context().caps().subgroup_size;
  const VkPhysicalDeviceLimits& limits = b.context().properties().limits;
  const Geometry geo =
      geometry(g.shape, variant, subgroup_size,
               std::min(limits.maxComputeWorkGroupSize[0], limits.maxComputeWorkGroupInvocations));
  const std::uint32_t shuffle_size = variant.shuffle_only ? subgroup_size : 0;
  const std::size_t max_shared = b.context().limits().max_shared_bytes;
  auto source_of = [&](bool shared_hold) {
    return RowSource(g, reductions, geo, variant, shuffle_size, shared_hold);
  };
  // Held values past the device's shared memory stay in the invocations' arrays.
  const bool shared_hold = variant.hold_shared && source_of(true).shared_bytes() <= max_shared;
  const RowSource row_source = source_of(shared_hold);
  if (row_source.shared_bytes() > max_shared) return std::nullopt;
  RowBuild built{geo, row_source.text(), variant.rare_flag};
  // A flag that nothing sets (no rare path in this graph) would only cost the host's check.
  if (built.rare_flag && built.source.find("rare_ = true") == std::string::npos &&
      built.source.find("_flagged(") == std::string::npos) {
    RowVariant exact = variant;
    exact.rare_flag = false;
    return build_rows(b, g, reductions, exact);
  }
  return built;
}

}  // namespace vkt::vk::row_kernel
