// as_type (shaders/conversion.comp) and copy (the device's copy path) on the device.
#include "vulkan/runtime/backend.h"

namespace vkt::vk {

bool conversion_supported(const VulkanBackend& b, const OpCall& call) {
  if (call.op == Op::copy) return true;  // bytes only: vkCmdCopyBuffer needs no features
  if (call.op != Op::as_type) return false;
  // Complex conversions pass parts through float registers (conversion.comp): exact only
  // where f32 arithmetic keeps subnormals (the H200 differed from the cpu).
  if ((is_complex(call.out_dtype) || is_complex(call.inputs.at(0).dtype())) && b.flushes_f32()) {
    return false;
  }
  return b.dtype_supported(call.inputs.at(0).dtype()) && b.dtype_supported(call.out_dtype);
}

Tensor run_conversion(VulkanBackend& b, const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  Tensor out = b.make_output(call);
  if (out.size() == 0) return out;
  if (call.op == Op::copy) {
    copy_range(b, in, out, 0, 0, out.nbytes());
    return out;
  }
  if (call.op != Op::as_type) {
    throw Unsupported("[" + std::string(op_name(call.op)) + "] is not a conversion op");
  }
  const Pipeline p = b.pipelines().get(
      b.variant("conversion", {in.dtype(), call.out_dtype}), 2,
      {static_cast<std::uint32_t>(in.dtype()), static_cast<std::uint32_t>(call.out_dtype)});
  const std::uint32_t n = static_cast<std::uint32_t>(out.size());
  b.dispatch(p, {{&in, false}, {&out, true}}, &n, sizeof(n), grid_stride_threads(out.size()));
  return out;
}

}  // namespace vkt::vk
