// Cooperative matrices (tensor cores through Vulkan): the shapes a device offers under
// VK_NV_cooperative_matrix and VK_KHR_cooperative_matrix, for `vkt info` and for choosing
// dot's f16 and bf16 kernels. Debian 12's glslc (shaderc 2023.2) compiles
// GL_NV_cooperative_matrix but not GL_KHR_cooperative_matrix: the kernel is built NV and
// rewritten at run time to KHR matrices (coopmat_khr_spirv.h), of f16 where the device has
// VK_KHR_cooperative_matrix (f16's default there, linalg.cpp) and of bf16 where it also has
// VK_KHR_shader_bfloat16.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace vkt::vk {

struct CoopmatShape {
  std::uint32_t m = 0, n = 0, k = 0;
  std::uint32_t a = 0, b = 0, c = 0, result = 0;  // VkComponentTypeNV/KHR values
  std::uint32_t scope = 0;                        // VkScopeNV/KHR values (3: subgroup)
  bool saturating = false;                        // KHR only
};

bool has_device_extension(VkPhysicalDevice pd, const char* name);
// Empty where the extension is absent.
std::vector<CoopmatShape> coopmat_nv_shapes(VkPhysicalDevice pd);
std::vector<CoopmatShape> coopmat_khr_shapes(VkPhysicalDevice pd);
// The shape linalg_dot_coopmat.comp uses: 16 x 16 x 16, f16 A and B, f32 C and result,
// subgroup scope.
bool has_f16_16x16x16(const std::vector<CoopmatShape>& shapes);
// The bf16 kernel's: 16 x 16 x 16, bf16 A and B, f32 C and result, subgroup scope.
bool has_bf16_16x16x16(const std::vector<CoopmatShape>& shapes);

// VK_KHR_cooperative_matrix's and VK_KHR_shader_bfloat16's feature structures, which
// postdate Debian 12's Vulkan headers (1.3.239), as the Vulkan registry defines them.
struct KhrCoopmatFeatures {
  VkStructureType sType = static_cast<VkStructureType>(1000506000);
  void* pNext = nullptr;
  VkBool32 cooperativeMatrix = VK_FALSE, cooperativeMatrixRobustBufferAccess = VK_FALSE;
};
struct Bfloat16Features {
  VkStructureType sType = static_cast<VkStructureType>(1000141000);
  void* pNext = nullptr;
  VkBool32 shaderBFloat16Type = VK_FALSE, shaderBFloat16DotProduct = VK_FALSE,
           shaderBFloat16CooperativeMatrix = VK_FALSE;
};
inline constexpr const char* kKhrCoopmatExtension = "VK_KHR_cooperative_matrix";
inline constexpr const char* kBfloat16Extension = "VK_KHR_shader_bfloat16";
// The first Vulkan headers that know each extension (a validation layer older than them
// reports its structures and SPIR-V as errors).
inline constexpr std::uint32_t kKhrCoopmatHeaderVersion = VK_MAKE_API_VERSION(0, 1, 3, 255);
inline constexpr std::uint32_t kBfloat16HeaderVersion = VK_MAKE_API_VERSION(0, 1, 4, 311);
// Lines "  cooperative matrix NV: 16x16x16 f16*f16+f32->f32 subgroup; ..." (none: "absent").
std::string coopmat_report(VkPhysicalDevice pd);

}  // namespace vkt::vk
