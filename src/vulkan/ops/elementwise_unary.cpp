// Elementwise unary ops on the device (shaders/elementwise_unary.comp). Float functions
// arrive with float or complex inputs only (the core converts integers to f32 first). Which op runs
// on which dtype, and its shader op code, come from the op table (vkt/backend/op_info.h).
#include <string>

#include "vulkan/ops/elementwise_specialise.h"
#include "vulkan/ops/op_support.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {

bool unary_supported(const VulkanBackend& b, const OpCall& call) {
  if (call.inputs.size() != 1) return false;
  const DType d = call.inputs[0].dtype();
  if (!b.dtype_supported(d)) return false;
  // Complex abs, real and imag give the parts' real type (the table's to_real rows).
  const bool to_real = is_complex(d) && op_info(call.op).dtypes == OpDTypes::to_real;
  const DType out = writes_u8(call.op) ? DType::u8 : to_real ? to_real_type(d) : d;
  if (call.out_dtype != out) return false;
  if (d == DType::c64 && b.flushes_f32() && !c64_native_where_f32_flushes(call.op)) return false;
  // Exact even for calls the core never makes (an f64 erf, an integer exp).
  return kernel_takes(call.op, d) && vulkan_native(call.op, d);
}

Pipeline unary_pipeline(VulkanBackend& b, const OpCall& call) {
  const DType d = call.inputs.at(0).dtype();
  static const std::array<std::string, 3> names{"elementwise_unary", "elementwise_unary_i64",
                                                "elementwise_unary_i64_f64"};
  static const std::vector<std::string> op_modules =
      op_module_names("elementwise_unary", OpFamily::unary);
  const bool fixed = specialise_elementwise(b);
  return b.pipelines().get(
      elementwise_module(names, op_modules, fixed, call.op, d), 2,
      {fixed ? shader_op_code(call.op) : kDynamic, static_cast<std::uint32_t>(d)});
}

Tensor run_unary(VulkanBackend& b, const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  Tensor out = b.make_output(call);
  const std::uint64_t n = static_cast<std::uint64_t>(out.size());
  if (n == 0) return out;
  const struct {
    std::uint32_t n, op;
  } push{static_cast<std::uint32_t>(n), shader_op_code(call.op)};
  const Pipeline p = unary_pipeline(b, call);
  // Four elements per invocation (grid-stride loop in the shader).
  b.dispatch(p, {{&in, false}, {&out, true}}, &push, sizeof(push), grid_stride_threads(n));
  return out;
}

}  // namespace vkt::vk
