// The op table's rows as constexpr data for backend implementers, the core, vkt::compile and
// the tests: every column of op_table.h (which says what each means) and the shader op code
// of every op. Header-only so the build-time shader constant generator
// (src/vulkan/tools/gen_op_codes.cpp) reads the same rows without linking the library.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "vkt/dtype.h"
#include "vkt/op.h"

namespace vkt {

enum class OpKind : std::uint8_t {
  none,
  // unary
  float_function,
  keeps_type,
  predicate,
  imaginary_part,
  // binary
  arithmetic,
  to_float,
  comparison,
  logical
};
enum class OpDTypes : std::uint8_t { any, real, integer, to_real };
// Reductions, windows, scans and window scatters: how elements combine (the cpu's rules and
// the shaders' COMBINE_<NAME> codes both follow this order).
enum class Combine : std::uint8_t { none, sum, product, max, min, all, any, argmax, argmin };
inline constexpr std::string_view kCombineNames[] = {"none", "sum", "product", "max",   "min",
                                                     "all",  "any", "argmax",  "argmin"};
enum class Fusion : std::uint8_t { none, elementwise, reduction, dot };
enum class Grad : std::uint8_t { diff, zero, none };
enum class Accuracy : std::uint8_t {
  bits,
  exact,
  ulps,
  sum_order,
  product_order,
  substitution,
  factorization,
  spectrum
};

struct OpInfo {
  Op op;
  std::string_view name;
  OpFamily family;
  OpKind kind;
  OpDTypes dtypes;
  Combine combine;
  Fusion fuse;
  Grad grad;
  Accuracy accuracy;
  // The op's position in its family's list: the OP_<NAME> constant the shaders read.
  std::uint32_t shader_code = 0;
};

namespace detail {
#define VKT_OP_INFO_ROW(X, name, family, kind, dtypes, combine, fuse, grad, accuracy)           \
  OpInfo{Op::name,         #name,        OpFamily::family, OpKind::kind,      OpDTypes::dtypes, \
         Combine::combine, Fusion::fuse, Grad::grad,       Accuracy::accuracy},
inline constexpr OpInfo kOpRows[] = {VKT_OP_TABLE(VKT_OP_INFO_ROW, _)};
#undef VKT_OP_INFO_ROW

constexpr std::array<OpInfo, std::size(kOpRows)> number_op_table() {
  std::array<OpInfo, std::size(kOpRows)> table{};
  std::array<std::uint32_t, 16> next_code{};
  for (std::size_t i = 0; i < table.size(); ++i) {
    table[i] = kOpRows[i];
    table[i].shader_code = next_code[static_cast<std::size_t>(table[i].family)]++;
  }
  return table;
}
}  // namespace detail

// Indexed by Op: row i is the op whose enum value is i (both come from VKT_OP_TABLE).
inline constexpr auto kOpTable = detail::number_op_table();

constexpr const OpInfo& op_info(Op op) {
  return kOpTable[static_cast<std::size_t>(op)];
}
constexpr OpKind op_kind(Op op) {
  return op_info(op).kind;
}
constexpr std::uint32_t shader_op_code(Op op) {
  return op_info(op).shader_code;
}
constexpr Combine op_combine(Op op) {
  return op_info(op).combine;
}
constexpr Fusion op_fusion(Op op) {
  return op_info(op).fuse;
}
// Elementwise ops whose result is u8 whatever the input dtype.
constexpr bool writes_u8(Op op) {
  const OpKind k = op_kind(op);
  return k == OpKind::predicate || k == OpKind::comparison || k == OpKind::logical;
}
namespace detail {
constexpr bool real_float(DType d) {
  return d == DType::f16 || d == DType::bf16 || d == DType::f32 || d == DType::f64 ||
         d == DType::f8 || d == DType::f8_e4m3fn;
}
constexpr bool complex_dtype(DType d) {
  return d == DType::c64 || d == DType::c128;
}
}  // namespace detail

// Ops that only move their operands' words (movement and indexing ops whose result words
// are input words, clip aside, which compares them): narrow dtypes run them on their codes.
constexpr bool moves_words_only(Op op) {
  const OpInfo& info = op_info(op);
  return info.accuracy == Accuracy::bits && op != Op::clip &&
         (info.family == OpFamily::movement || info.family == OpFamily::indexing);
}

// Whether the op accepts operands of dtype d (the core's TypeError otherwise).
constexpr bool op_accepts(Op op, DType d) {
  switch (op_info(op).dtypes) {
    case OpDTypes::real:
      return !detail::complex_dtype(d);
    case OpDTypes::integer:
      return !detail::complex_dtype(d) && !detail::real_float(d);
    case OpDTypes::any:
    case OpDTypes::to_real:
      break;
  }
  return true;
}
// The dtypes an elementwise kernel is handed: float functions and to_float ops see floats
// and complex only (the core converts integers first); integer ops see integers only.
constexpr bool kernel_takes(Op op, DType d) {
  const OpInfo& info = op_info(op);
  if (info.kind == OpKind::float_function || info.kind == OpKind::to_float) {
    return op_accepts(op, d) && (detail::real_float(d) || detail::complex_dtype(d));
  }
  return op_accepts(op, d);
}

}  // namespace vkt
