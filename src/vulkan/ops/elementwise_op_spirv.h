// VKT_VK_OP_SPIRV=1: the elementwise families' pipelines from their shader source compiled at
// first use with only the call's op (VKT_ONLY_OPS, as vkt::compile's kernels keep theirs). A
// GPU driver compiles the whole module per pipeline: the uber-shader's every op cost 70-100
// ms per (op, dtype) on the H200; one op's module is a fraction of that.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vkt/op.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {

// The GLSL of `family`'s shader ("elementwise_unary", "elementwise_binary") for `op` on `d`:
// the embedded variant's defines (VKT_I64, VKT_F64) plus VKT_ONLY_OPS and VKT_KEEP_OP_<OP>.
std::string op_spirv_source(const VulkanBackend& b, const std::string& family, Op op, DType d);

// The pipeline of op_spirv_source (compiled through the kernel cache: memory and disk), with
// the specialization constants and bindings the embedded module's pipeline would take.
Pipeline op_spirv_pipeline(VulkanBackend& b, const std::string& family, Op op, DType d,
                           std::uint32_t bindings, const std::vector<std::uint32_t>& constants);

}  // namespace vkt::vk
