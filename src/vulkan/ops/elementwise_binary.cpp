// Elementwise binary ops on the device (shaders/elementwise_binary.comp). The core has cast
// both inputs to one dtype; shapes broadcast to out_shape. Same-shape and scalar operands
// take index-free paths; other broadcasts run through per-axis strides after the host has
// dropped size-1 axes and merged axes both inputs lay out alike.
#include <array>
#include <string>

#include "common/broadcast_plan.h"
#include "vulkan/ops/elementwise_specialise.h"
#include "vulkan/ops/op_support.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {
namespace {

constexpr std::size_t kMaxRank = 8;  // what the push constants hold

struct BinaryPush {
  std::uint32_t n, rank, op, mode;
  std::array<std::uint32_t, kMaxRank> dims, a_strides, b_strides;
};
static_assert(sizeof(BinaryPush) <= Pipelines::kPushBytes);

enum class Mode : std::uint32_t { same_shape = 0, a_scalar = 1, b_scalar = 2, strided = 3 };

// The iteration plan; the strides stay empty unless mode is strided.
struct Plan : common::BroadcastPlan {
  Mode mode = Mode::same_shape;
};

Plan plan_for(const Shape& a, const Shape& b, const Shape& out) {
  const std::int64_t n = numel(out), na = numel(a), nb = numel(b);
  Plan plan;
  // An input with as many elements as the output has its (size-1-padded) shape: same layout.
  if (na == n && nb == n) return plan;
  if (na == 1 && nb == n) {
    plan.mode = Mode::a_scalar;
    return plan;
  }
  if (nb == 1 && na == n) {
    plan.mode = Mode::b_scalar;
    return plan;
  }
  plan.mode = Mode::strided;
  static_cast<common::BroadcastPlan&>(plan) = common::plan_broadcast(a, b, out);
  return plan;
}

}  // namespace

bool binary_supported(const VulkanBackend& b, const OpCall& call) {
  if (call.inputs.size() != 2) return false;
  const DType d = call.inputs[0].dtype();
  // The op table's rules, exact even for calls the core never makes (divide on integers,
  // bitwise ops on floats, an f64 pow).
  if (call.inputs[1].dtype() != d || !b.dtype_supported(d) || !kernel_takes(call.op, d) ||
      !vulkan_native(call.op, d)) {
    return false;
  }
  if (call.out_dtype != (writes_u8(call.op) ? DType::u8 : d)) return false;
  if (d == DType::c64 && b.flushes_f32() && !c64_native_where_f32_flushes(call.op)) return false;
  return plan_for(call.inputs[0].shape(), call.inputs[1].shape(), call.out_shape).dims.size() <=
         kMaxRank;
}

Pipeline binary_pipeline(VulkanBackend& b, const OpCall& call) {
  const DType d = call.inputs.at(0).dtype();
  const bool fixed = specialise_elementwise(b);
  const auto mode = static_cast<std::uint32_t>(
      plan_for(call.inputs.at(0).shape(), call.inputs.at(1).shape(), call.out_shape).mode);
  static const std::array<std::string, 3> names{"elementwise_binary", "elementwise_binary_i64",
                                                "elementwise_binary_i64_f64"};
  static const std::vector<std::string> op_modules =
      op_module_names("elementwise_binary", OpFamily::binary);
  return b.pipelines().get(elementwise_module(names, op_modules, fixed, call.op, d), 3,
                           {fixed ? shader_op_code(call.op) : kDynamic,
                            static_cast<std::uint32_t>(d), fixed ? mode : kDynamic});
}

Tensor run_binary(VulkanBackend& b, const OpCall& call) {
  const Tensor& x = call.inputs.at(0);
  const Tensor& y = call.inputs.at(1);
  Tensor out = b.make_output(call);
  const std::uint64_t n = static_cast<std::uint64_t>(out.size());
  if (n == 0) return out;
  const Plan plan = plan_for(x.shape(), y.shape(), call.out_shape);
  BinaryPush push{};
  push.n = static_cast<std::uint32_t>(n);
  push.op = shader_op_code(call.op);
  push.mode = static_cast<std::uint32_t>(plan.mode);
  push.rank = static_cast<std::uint32_t>(plan.dims.size());
  for (std::size_t k = 0; k < plan.dims.size(); ++k) {
    push.dims[k] = static_cast<std::uint32_t>(plan.dims[k]);
    push.a_strides[k] = static_cast<std::uint32_t>(plan.a_strides[k]);
    push.b_strides[k] = static_cast<std::uint32_t>(plan.b_strides[k]);
  }
  const Pipeline p = binary_pipeline(b, call);
  // Four elements per invocation (grid-stride loop in the shader).
  b.dispatch(p, {{&x, false}, {&y, false}, {&out, true}}, &push, sizeof(push),
             grid_stride_threads(n));
  return out;
}

}  // namespace vkt::vk
