// GLSL generation shared by vkt::compile's Vulkan kernels: elementwise groups and prologues
// (compiled.cpp) and row groups (compiled_rows.cpp).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "compile/fused_group.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk::fused_glsl {

// The holding type of a value of dtype d (float for f16/bf16, uint for u8...), or nullptr.
const char* glsl_type(DType d);
// The element type of a buffer holding dtype d.
const char* buffer_type(DType d);
// A computed value brought back to what dtype d holds (eager's store and reload).
std::string narrowed(DType d, const std::string& e);
// A buffer element as its holding type, and a holding-type value as a buffer element.
std::string load(DType d, const std::string& e);
std::string store(DType d, const std::string& e);
// An inline literal with exactly the element's bits (hidden behind the push constant zero).
std::string literal(DType d, const std::vector<std::byte>& bytes);
// Index into a leaf of shape `leaf` broadcast to `out`, for element `index` of `out`.
std::string leaf_index(const Shape& leaf, const Shape& out, const std::string& index);
bool needs_i64(const detail::FusedGroup& g);
bool needs_f64(const detail::FusedGroup& g);
extern const char* const kElementwiseIncludes;
// "#define VKT_ONLY_OPS" and one VKT_KEEP_OP_<NAME> per op the group calls: the shared op
// functions then keep only those cases (a driver inlines every case it is given).
std::string kept_ops(const detail::FusedGroup& g);
// The leaf buffers' declarations, bound from `first` on.
std::string leaf_buffers(const detail::FusedGroup& g, std::size_t first);
// Not zero on the bits (floats: -0 is false, NaN true), as eager's select.
std::string nonzero(DType d, const std::string& x);
// The expression of value k with operands named by arg_name and leaves read at `index`;
// a statement it needs first is appended to `pre`.
std::string value_expression(const detail::FusedGroup& g, std::size_t k,
                             const std::function<std::string(int)>& arg_name,
                             const std::string& index, std::string& pre);
// True when eager would run every op of the group natively here.
bool natively_supported(VulkanBackend& b, const detail::FusedGroup& g);
// A tensor of this dtype and shape with no device memory (for `supports` and planning).
Tensor placeholder(VulkanBackend& b, DType d, const Shape& shape);

}  // namespace vkt::vk::fused_glsl

namespace vkt::vk {

// Dot groups (FusedGroup::dot): eager's dot kernel applying the epilogue (compiled_dot.cpp);
// nullptr where eager's dot splits K or takes cooperative matrices.
std::unique_ptr<detail::FusedKernel> compile_dot(VulkanBackend& b, const detail::FusedGroup& group);

}  // namespace vkt::vk
