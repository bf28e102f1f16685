// Ops on narrow dtypes (s2, s4, u2, u4, f8, f8_e4m3fn): the core's rewrite, so that backends
// see them only in as_type, copy and ops that move words, by their one-byte codes.
#include "core/narrow.h"

#include <string>

#include "core/dispatch.h"
#include "vkt/backend.h"
#include "vkt/backend/op_info.h"
#include "vkt/ops.h"

namespace vkt::detail {
namespace {

// The same storage read as another one-byte dtype (bitcast's alias, without its checks).
Tensor alias(const Tensor& t, DType dtype) {
  return Tensor(dtype, t.shape(), t.storage());
}

std::uint8_t narrow_code(const Scalar& s, DType d) {
  if (s.is_float() || s.is_complex()) return narrow_from_double(d, s.as_double());
  if (s.kind() == Scalar::Kind::unsigned_int) {
    const auto u = s.as<std::uint64_t>();
    return is_float(d) ? narrow_from_double(d, static_cast<double>(u))
                       : narrow_from_int(d, static_cast<std::int64_t>(u));
  }
  return narrow_from_int(d, s.as<std::int64_t>());
}

// Ops that only move words: their operands of the result's dtype move as u8 codes. A
// select's predicate is read as a value (an f8 -0 is false), so it widens like an index.
Tensor dispatch_words(OpCall call, DType out) {
  for (std::size_t i = 0; i < call.inputs.size(); ++i) {
    Tensor& t = call.inputs[i];
    if (!t.defined() || !is_narrow(t.dtype())) continue;
    const bool predicate = call.op == Op::select && i == 0;
    t = t.dtype() == out && !predicate ? alias(t, DType::u8) : as_type(t, wide_type(t.dtype()));
  }
  if (!is_narrow(out)) return dispatch(std::move(call));
  if (auto* pad = std::get_if<PadParams>(&call.params)) {
    pad->value = Scalar(static_cast<std::uint64_t>(narrow_code(pad->value, out)));
  }
  call.out_dtype = DType::u8;
  return alias(dispatch(std::move(call)), out);
}

// count_leading_zeros and population_count count the narrow width's bits: the operand
// widens zero-extended (as its unsigned twin), and leading zeros lose the extra 8 - bits.
Tensor dispatch_bit_count(const OpCall& call) {
  const Tensor& t = call.inputs.at(0);
  const DType unsigned_twin = bit_width(t.dtype()) == 2 ? DType::u2 : DType::u4;
  Tensor wide = as_type(alias(t, unsigned_twin), DType::u8);
  Tensor counted = dispatch({call.op, {wide}, call.params, DType::u8, call.out_shape});
  if (call.op == Op::count_leading_zeros) counted = subtract(counted, 8 - bit_width(t.dtype()));
  return as_type(counted, call.out_dtype);
}

// vkt::compile and vkt::grad record through a tracer: a u8 view there would hide an 8-bit
// float from the gradient rules (a move of u8 words has none), so traced f8 moves widen.
bool traced_float_move(const OpCall& call, DType out) {
  if (!is_float(out)) return false;
  for (const Tensor& t : call.inputs) {
    if (t.defined() && t.backend().captures_device_tensors()) return true;
  }
  return false;
}

}  // namespace

bool needs_narrow_rewrite(const OpCall& call) {
  if (call.op == Op::as_type || call.op == Op::copy) return false;
  if (is_narrow(call.out_dtype)) return true;
  for (const Tensor& t : call.inputs) {
    if (t.defined() && is_narrow(t.dtype())) return true;
  }
  return false;
}

Tensor dispatch_narrow(OpCall call) {
  const DType out = call.out_dtype;
  if (moves_words_only(call.op) && !traced_float_move(call, out)) {
    return dispatch_words(std::move(call), out);
  }
  if (call.op == Op::full) {  // the literal becomes its code at once: one rounding
    const std::uint8_t code = narrow_code(call.get<FullParams>().value, out);
    call.params = FullParams{Scalar(static_cast<std::uint64_t>(code))};
    call.out_dtype = DType::u8;
    return alias(dispatch(std::move(call)), out);
  }
  if ((call.op == Op::count_leading_zeros || call.op == Op::population_count) &&
      is_integer(call.inputs.at(0).dtype())) {
    return dispatch_bit_count(call);
  }
  for (Tensor& t : call.inputs) {
    if (t.defined() && is_narrow(t.dtype())) t = as_type(t, wide_type(t.dtype()));
  }
  call.out_dtype = wide_type(out);
  Tensor wide = dispatch(std::move(call));
  return is_narrow(out) ? as_type(wide, out) : wide;
}

}  // namespace vkt::detail
