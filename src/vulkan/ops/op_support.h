// The Vulkan backend's own columns of the op table (include/vkt/op_table.h holds the facts
// every backend shares): for each elementwise op, which dtypes run natively and whether the
// answer survives a device that flushes subnormals. Every other family's supports() decides
// from shapes and dtypes (ops/<family>.cpp). Header-only: the shader code generator reads it.
//
// A row is R(name, native, subnormals):
//   native      native (every real dtype the device has, f64 included; complex runs on the
//               cpu), native_complex (native, and c64 / c128 too), no_f64 (f64 runs on the
//               cpu: GLSL.std.450 has no f64 transcendentals and none is written out).
//   subnormals  kept (decided on the bits, or computed so no float operation meets a
//               subnormal: the same answer on a device that flushes them; the list "Never"
//               of docs/semantics-elementwise.md) or flushed (may give the flushed answer).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "vkt/backend/op_info.h"

namespace vkt::vk {

enum class Native : std::uint8_t { cpu_only, native, native_complex, no_f64 };
enum class Subnormals : std::uint8_t { kept, flushed };

// The rows are kept aligned by hand, one op a line.
// clang-format off
#define VKT_VULKAN_ELEMENTWISE_TABLE(R)           \
  R(exp,                 native_complex, flushed) \
  R(expm1,               native,         flushed) \
  R(log,                 native_complex, kept)    \
  R(log1p,               native,         flushed) \
  R(sigmoid,             native,         flushed) \
  R(cos,                 native,         flushed) \
  R(sin,                 native,         flushed) \
  R(tan,                 native,         flushed) \
  R(cosh,                native,         flushed) \
  R(sinh,                native,         flushed) \
  R(tanh,                native,         flushed) \
  R(acos,                native,         flushed) \
  R(asin,                native,         flushed) \
  R(atan,                native,         kept)    \
  R(acosh,               native,         flushed) \
  R(asinh,               native,         flushed) \
  R(atanh,               native,         flushed) \
  R(sqrt,                native_complex, kept)    \
  R(rsqrt,               native,         kept)    \
  R(cbrt,                native,         kept)    \
  R(erf,                 no_f64,         flushed) \
  R(erfc,                no_f64,         flushed) \
  R(erf_inv,             no_f64,         flushed) \
  R(abs,                 native_complex, kept)    \
  R(bitwise_not,         native,         kept)    \
  R(ceil,                native,         kept)    \
  R(floor,               native,         kept)    \
  R(round,               native,         kept)    \
  R(negate,              native_complex, kept)    \
  R(sign,                native,         kept)    \
  R(count_leading_zeros, native,         kept)    \
  R(population_count,    native,         kept)    \
  R(is_nan,              native_complex, kept)    \
  R(is_infinity,         native_complex, kept)    \
  R(conjugate,           native_complex, kept)    \
  R(real,                native_complex, kept)    \
  R(imag,                native_complex, kept)    \
  R(phase,               native_complex, flushed) \
  R(logical_not,         native_complex, kept)    \
  R(add,                 native_complex, flushed) \
  R(subtract,            native_complex, flushed) \
  R(multiply,            native_complex, flushed) \
  R(divide,              native_complex, kept)    \
  R(pow,                 no_f64,         kept)    \
  R(remainder,           native,         kept)    \
  R(atan2,               native,         kept)    \
  R(min,                 native,         kept)    \
  R(max,                 native,         kept)    \
  R(quotient,            native,         kept)    \
  R(bitwise_and,         native,         kept)    \
  R(bitwise_or,          native,         kept)    \
  R(bitwise_xor,         native,         kept)    \
  R(left_shift,          native,         kept)    \
  R(right_shift,         native,         kept)    \
  R(equal,               native_complex, kept)    \
  R(not_equal,           native_complex, kept)    \
  R(less,                native,         kept)    \
  R(less_equal,          native,         kept)    \
  R(greater,             native,         kept)    \
  R(greater_equal,       native,         kept)    \
  R(logical_and,         native_complex, kept)    \
  R(logical_or,          native_complex, kept)    \
  R(logical_xor,         native_complex, kept)
// clang-format on

struct VulkanOpRule {
  Native native = Native::cpu_only;
  Subnormals subnormals = Subnormals::flushed;
};

namespace rows {
struct VulkanRow {
  Op op;
  VulkanOpRule rule;
};
#define VKT_VULKAN_ROW(name, native, subnormals) \
  VulkanRow{Op::name, {Native::native, Subnormals::subnormals}},
inline constexpr VulkanRow kVulkanRows[] = {VKT_VULKAN_ELEMENTWISE_TABLE(VKT_VULKAN_ROW)};
#undef VKT_VULKAN_ROW

constexpr std::array<VulkanOpRule, kOpTable.size()> index_by_op() {
  std::array<VulkanOpRule, kOpTable.size()> rules{};
  for (const VulkanRow& row : kVulkanRows) rules[static_cast<std::size_t>(row.op)] = row.rule;
  return rules;
}
// Every elementwise op has exactly one row and nothing else has one: an op added to the
// shared table does not build until this backend says what it does with it.
constexpr bool rows_cover_elementwise_ops() {
  for (const OpInfo& info : kOpTable) {
    const bool elementwise = info.family == OpFamily::unary || info.family == OpFamily::binary;
    std::size_t rows = 0;
    for (const VulkanRow& row : kVulkanRows) rows += row.op == info.op ? 1 : 0;
    if (rows != (elementwise ? 1u : 0u)) return false;
  }
  return true;
}
static_assert(rows_cover_elementwise_ops(),
              "every unary and binary op needs one row in VKT_VULKAN_ELEMENTWISE_TABLE");
inline constexpr auto kVulkanRules = index_by_op();
}  // namespace rows

constexpr const VulkanOpRule& vulkan_rule(Op op) {
  return rows::kVulkanRules[static_cast<std::size_t>(op)];
}

// Whether elementwise op `op` runs natively on dtype d (the device must also have d):
// complex operands only on native_complex rows (shaders/elementwise_complex.glsl).
constexpr bool vulkan_native(Op op, DType d) {
  const Native n = vulkan_rule(op).native;
  if (d == DType::c64 || d == DType::c128) return n == Native::native_complex;
  return n == Native::native || n == Native::native_complex ||
         (n == Native::no_f64 && d != DType::f64);
}

// Elementwise ops whose device answer does not depend on a subnormal flush.
constexpr bool subnormals_kept(Op op) {
  return vulkan_rule(op).subnormals == Subnormals::kept;
}

// A combining rule's shader code (COMBINE_<NAME>, generated into op_codes.glsl): Combine's
// order, from 0 for sum.
constexpr std::uint32_t combine_code(Combine c) {
  return static_cast<std::uint32_t>(c) - 1;
}

}  // namespace vkt::vk
