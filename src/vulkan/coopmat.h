// Cooperative matrices (tensor cores through Vulkan): the shapes a device offers under
// VK_NV_cooperative_matrix and VK_KHR_cooperative_matrix, for `vkt info` and for choosing
// dot's f16 kernel. Only the NV extension is used by a shader: Debian 12's glslc (shaderc
// 2023.2) compiles GL_NV_cooperative_matrix but not GL_KHR_cooperative_matrix; the KHR
// properties are queried (the query needs no shader support) so a run shows what a newer
// compiler could reach, bf16 included.
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
// Lines "  cooperative matrix NV: 16x16x16 f16*f16+f32->f32 subgroup; ..." (none: "absent").
std::string coopmat_report(VkPhysicalDevice pd);

}  // namespace vkt::vk
