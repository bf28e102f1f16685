#include "vulkan/compile/compiled_rows_math.h"

#include "vulkan/compile/compiled_glsl.h"

namespace vkt::vk {
namespace {

// Values held as GLSL float: eager's float_function and float_binary compute them.
bool float_held(DType d) {
  return d == DType::f32 || d == DType::f16 || d == DType::bf16;
}

const detail::FusedValue& value(const detail::FusedGroup& g, int k) {
  return g.values[static_cast<std::size_t>(k)];
}

bool is_op(const detail::FusedValue& v, Op op) {
  return v.kind == detail::FusedValue::Kind::op && v.op == op;
}

std::string divisor_name(std::size_t k) {
  return "d" + std::to_string(k);
}

}  // namespace

bool divides_by_row(const detail::FusedGroup& g, std::size_t k, const RowVariant& variant) {
  const detail::FusedValue& v = g.values[k];
  if (!variant.row_divisor || v.per_row || !is_op(v, Op::divide)) return false;
  const detail::FusedValue &a = value(g, v.args[0]), &b = value(g, v.args[1]);
  return float_held(a.dtype) && float_held(b.dtype) && !a.per_row && b.per_row;
}

std::string row_divisor_statement(const detail::FusedGroup& g, std::size_t k,
                                  const std::function<std::string(int)>& arg) {
  return "  const RowDivisor " + divisor_name(k) + " = row_divisor(" + arg(g.values[k].args[1]) +
         ");\n";
}

bool exp_of_shifted_row(const detail::FusedGroup& g, std::size_t k) {
  const detail::FusedValue& v = g.values[k];
  if (!is_op(v, Op::exp)) return false;
  const detail::FusedValue& shifted = value(g, v.args[0]);
  if (!is_op(shifted, Op::subtract) || shifted.per_row || !float_held(shifted.dtype)) return false;
  // a - max(a) with a's own row maximum: a <= max, and rounding keeps the difference <= 0.
  const detail::FusedValue& top = value(g, shifted.args[1]);
  return is_op(top, Op::reduce_max) && top.per_row && top.args[0] == shifted.args[0] &&
         float_held(value(g, shifted.args[0]).dtype);
}

std::string row_divide_fast_expression(const detail::FusedGroup& g, std::size_t k,
                                       const std::function<std::string(int)>& arg,
                                       const std::string& slow) {
  const detail::FusedValue& v = g.values[k];
  return fused_glsl::narrowed(
      v.dtype, "div_f32_row_fast(" + arg(v.args[0]) + ", " + divisor_name(k) + ", " + slow + ")");
}

std::string row_math_expression(const detail::FusedGroup& g, std::size_t k,
                                const RowVariant& variant,
                                const std::function<std::string(int)>& arg) {
  const detail::FusedValue& v = g.values[k];
  if (divides_by_row(g, k, variant))
    return fused_glsl::narrowed(v.dtype,
                                "div_f32_row(" + arg(v.args[0]) + ", " + divisor_name(k) + ")");
  if (is_op(v, Op::exp) && !v.per_row && float_held(value(g, v.args[0]).dtype) &&
      variant.exp != RowVariant::Exp::plain) {
    const bool proven = variant.exp == RowVariant::Exp::proven && exp_of_shifted_row(g, k);
    if (proven && variant.rare_once && variant.rare_flag) {  // main's rare_ (compiled_rows.cpp)
      return fused_glsl::narrowed(v.dtype,
                                  "exp_f32_nonpositive_flagged(" + arg(v.args[0]) + ", rare_)");
    }
    const char* f = !proven             ? "exp_f32_bits("
                    : variant.rare_once ? "exp_f32_nonpositive_flat("
                                        : "exp_f32_nonpositive(";
    return fused_glsl::narrowed(v.dtype, std::string(f) + arg(v.args[0]) + ")");
  }
  return "";
}

}  // namespace vkt::vk
