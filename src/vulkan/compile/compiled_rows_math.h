// The row kernels' per-element arithmetic that uses what the row already knows
// (compiled_rows.cpp; the GLSL is shaders/compiled_rows_math.glsl): a divide by a per-row
// value with the divisor decoded once per row, exp of x - max(x) without its overflow test,
// exp's scaling on the exponent bits. Each is the function eager calls, so results keep
// eager's bits; the row variant's divide= and exp= keys choose them.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "compile/fused_group.h"
#include "vulkan/compile/compiled_rows_variant.h"

namespace vkt::vk {

// True when value k is a 32-bit float family divide of a per-element value by a per-row one
// and the variant decodes the divisor once per row.
bool divides_by_row(const detail::FusedGroup& g, std::size_t k, const RowVariant& variant);
// The per-row declaration that divides_by_row's value k reads (its divisor named by arg).
std::string row_divisor_statement(const detail::FusedGroup& g, std::size_t k,
                                  const std::function<std::string(int)>& arg);

// divides_by_row's value k as its fast quotient, setting the bool named `slow` where that
// is not div_f32's (rare=once: the caller redoes those elements with eager's divide).
std::string row_divide_fast_expression(const detail::FusedGroup& g, std::size_t k,
                                       const std::function<std::string(int)>& arg,
                                       const std::string& slow);

// True when value k's argument is x - reduce_max(x) over the row (so <= 0 or NaN).
bool exp_of_shifted_row(const detail::FusedGroup& g, std::size_t k);

// Value k's expression where the variant computes it differently from eager's function
// (with the same bits), else "".
std::string row_math_expression(const detail::FusedGroup& g, std::size_t k,
                                const RowVariant& variant,
                                const std::function<std::string(int)>& arg);

}  // namespace vkt::vk
