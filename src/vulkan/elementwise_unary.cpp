// Elementwise unary ops on the device (shaders/elementwise_unary.comp). Float functions
// arrive with float inputs only (the core converts integers to f32 first).
#include <string>

#include "vulkan/backend.h"
#include "vulkan/elementwise_specialise.h"

namespace vkt::vk {
namespace {

// The shader's op codes are positions in VKT_UNARY_OPS (OP_ABS = 23, OP_IMAG = 36).
std::uint32_t op_code(Op op) {
  return static_cast<std::uint32_t>(op) - static_cast<std::uint32_t>(Op::exp);
}
static_assert(static_cast<int>(Op::abs) - static_cast<int>(Op::exp) == 23);
static_assert(static_cast<int>(Op::imag) - static_cast<int>(Op::exp) == 36);

// f64 ops the shader computes in f64 (exactly, or the exp/log family to a few ulp with
// shaders/elementwise_math_f64.glsl); GLSL.std.450 has no f64 transcendentals, so the
// rest (trig, erf, pow, atan2...) fall back rather than run at f32 precision.
bool f64_native(Op op) {
  switch (op) {
    case Op::exp:
    case Op::expm1:
    case Op::log:
    case Op::log1p:
    case Op::sigmoid:
    case Op::cosh:
    case Op::sinh:
    case Op::tanh:
    case Op::acosh:
    case Op::asinh:
    case Op::atanh:
    case Op::cbrt:
    case Op::atan:
    case Op::sin:
    case Op::cos:
    case Op::tan:
    case Op::asin:
    case Op::acos:
    case Op::sqrt:
    case Op::rsqrt:
    case Op::abs:
    case Op::ceil:
    case Op::floor:
    case Op::round:
    case Op::negate:
    case Op::sign:
    case Op::is_nan:
    case Op::is_infinity:
    case Op::conjugate:
    case Op::real:
    case Op::imag:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool unary_supported(const VulkanBackend& b, const OpCall& call) {
  if (call.inputs.size() != 1) return false;
  const DType d = call.inputs[0].dtype();
  if (!b.dtype_supported(d)) return false;
  const bool predicate = call.op == Op::is_nan || call.op == Op::is_infinity;
  if (call.out_dtype != (predicate ? DType::u8 : d)) return false;
  // The ops before abs in VKT_UNARY_OPS are float functions (the core casts integers to
  // f32 first); bit ops are integer-only. supports() stays exact even so.
  const bool float_function =
      static_cast<std::uint32_t>(call.op) < static_cast<std::uint32_t>(Op::abs);
  const bool integer_only = call.op == Op::bitwise_not || call.op == Op::count_leading_zeros ||
                            call.op == Op::population_count;
  if ((float_function && !is_float(d)) || (integer_only && !is_integer(d))) return false;
  return d != DType::f64 || f64_native(call.op);
}

Tensor run_unary(VulkanBackend& b, const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  Tensor out = b.make_output(call);
  const std::uint64_t n = static_cast<std::uint64_t>(out.size());
  if (n == 0) return out;
  const struct { std::uint32_t n, op; } push{static_cast<std::uint32_t>(n), op_code(call.op)};
  const Pipeline p = b.pipelines().get(
      b.variant("elementwise_unary", {in.dtype()}), 2,
      {specialise_elementwise(b) ? push.op : kDynamic, static_cast<std::uint32_t>(in.dtype())});
  // Four elements per invocation (grid-stride loop in the shader).
  b.dispatch(p, {{&in, false}, {&out, true}}, &push, sizeof(push), grid_stride_threads(n));
  return out;
}

}  // namespace vkt::vk
