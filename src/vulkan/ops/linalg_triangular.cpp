// triangular_solve on the device (shaders/linalg_triangular.comp): a blocked substitution,
// one invocation per right-hand side, batched. The core hands f32 or f64 (it widens f16,
// bf16 and integers); b is a batch of matrices, never a vector.
#include "vulkan/runtime/backend.h"

namespace vkt::vk {
namespace {

struct TriangularPush {
  std::uint32_t batch, n, nrhs, k_stride, s_stride, groups_per_batch;
};

}  // namespace

bool triangular_solve_supported(const VulkanBackend& b, const OpCall& call) {
  const DType d = call.out_dtype;
  return (d == DType::f32 || d == DType::f64) && b.dtype_supported(d) &&
         call.inputs.at(0).dtype() == d && call.inputs.at(1).dtype() == d;
}

Tensor run_triangular_solve(VulkanBackend& b, const OpCall& call) {
  const TriangularSolveParams& params = call.get<TriangularSolveParams>();
  const Tensor& a = call.inputs.at(0);
  const Tensor& rhs = call.inputs.at(1);
  Tensor out = b.make_output(call);
  if (out.size() == 0) return out;
  const Shape& bs = rhs.shape();
  const auto n = static_cast<std::uint32_t>(a.shape().back());
  const auto rows = static_cast<std::uint64_t>(bs[bs.size() - 2]);
  const auto cols = static_cast<std::uint64_t>(bs.back());
  // x op(a) = b is op(a)ᵀ xᵀ = bᵀ: the right-hand sides are b's rows instead of its columns.
  // Solving with aᵀ reads the other triangle of the stored matrix, so upper becomes lower.
  const bool transposed = (params.transform_a != TriangularTransform::none) != !params.left_side;
  const bool lower = params.lower != transposed;
  const std::uint64_t nrhs = params.left_side ? cols : rows;
  const std::uint64_t groups = (nrhs + Pipelines::kWorkgroupSize - 1) / Pipelines::kWorkgroupSize;
  const auto batch = static_cast<std::uint64_t>(out.size()) / (nrhs * n);
  const TriangularPush push{
      static_cast<std::uint32_t>(batch), n,
      static_cast<std::uint32_t>(nrhs),  params.left_side ? static_cast<std::uint32_t>(cols) : 1u,
      params.left_side ? 1u : n,         static_cast<std::uint32_t>(groups)};
  const Pipeline pipeline = b.pipelines().get(b.variant("linalg_triangular", {call.out_dtype}), 3,
                                              {transposed ? 1u : 0u, lower ? 0u : 1u});
  b.dispatch(pipeline, {{&a, false}, {&rhs, false}, {&out, true}}, &push, sizeof(push),
             batch * groups * Pipelines::kWorkgroupSize);
  return out;
}

}  // namespace vkt::vk
