#include "vulkan/runtime/coopmat.h"

#include <cstring>
#include <sstream>

#include "vulkan/runtime/instance.h"

namespace vkt::vk {
namespace {

// VK_KHR_cooperative_matrix postdates the Vulkan headers of Debian 12 (1.3.239): its
// properties structure and query, as the Vulkan registry defines them.
constexpr auto kKhrPropertiesType = static_cast<VkStructureType>(1000506001);
struct KhrProperties {
  VkStructureType sType;
  void* pNext;
  std::uint32_t MSize, NSize, KSize;
  std::uint32_t AType, BType, CType, ResultType;
  VkBool32 saturatingAccumulation;
  std::uint32_t scope;
};
using KhrQuery = VkResult(VKAPI_PTR*)(VkPhysicalDevice, std::uint32_t*, KhrProperties*);

const char* component_name(std::uint32_t t) {
  switch (t) {
    case 0:
      return "f16";
    case 1:
      return "f32";
    case 2:
      return "f64";
    case 3:
      return "s8";
    case 4:
      return "s16";
    case 5:
      return "s32";
    case 6:
      return "s64";
    case 7:
      return "u8";
    case 8:
      return "u16";
    case 9:
      return "u32";
    case 10:
      return "u64";
    case 1000141000:
      return "bf16";
    case 1000491002:  // VK_COMPONENT_TYPE_FLOAT8_E4M3_EXT (VK_EXT_shader_float8)
      return "e4m3";
    case 1000491003:  // VK_COMPONENT_TYPE_FLOAT8_E5M2_EXT
      return "e5m2";
    default:
      return "other";
  }
}

std::string describe(const std::vector<CoopmatShape>& shapes) {
  std::ostringstream s;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const CoopmatShape& c = shapes[i];
    s << (i ? "; " : "") << c.m << "x" << c.n << "x" << c.k << " " << component_name(c.a) << "*"
      << component_name(c.b) << "+" << component_name(c.c) << "->" << component_name(c.result)
      << (c.scope == 3 ? " subgroup" : " scope" + std::to_string(c.scope))
      << (c.saturating ? " saturating" : "");
  }
  return s.str();
}

}  // namespace

bool has_device_extension(VkPhysicalDevice pd, const char* name) {
  std::uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> exts(n);
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, exts.data());
  for (const auto& e : exts) {
    if (std::strcmp(e.extensionName, name) == 0) return true;
  }
  return false;
}

std::vector<CoopmatShape> coopmat_nv_shapes(VkPhysicalDevice pd) {
  if (!has_device_extension(pd, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME)) return {};
  auto query = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV>(
      vkGetInstanceProcAddr(shared_instance(), "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV"));
  if (query == nullptr) return {};
  std::uint32_t n = 0;
  if (query(pd, &n, nullptr) != VK_SUCCESS) return {};
  std::vector<VkCooperativeMatrixPropertiesNV> props(
      n, VkCooperativeMatrixPropertiesNV{VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV});
  if (query(pd, &n, props.data()) != VK_SUCCESS) return {};
  std::vector<CoopmatShape> out;
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto& p = props[i];
    out.push_back({p.MSize, p.NSize, p.KSize, static_cast<std::uint32_t>(p.AType),
                   static_cast<std::uint32_t>(p.BType), static_cast<std::uint32_t>(p.CType),
                   static_cast<std::uint32_t>(p.DType), static_cast<std::uint32_t>(p.scope),
                   false});
  }
  return out;
}

std::vector<CoopmatShape> coopmat_khr_shapes(VkPhysicalDevice pd) {
  if (!has_device_extension(pd, kKhrCoopmatExtension)) return {};
  auto query = reinterpret_cast<KhrQuery>(vkGetInstanceProcAddr(
      shared_instance(), "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"));
  if (query == nullptr) return {};
  std::uint32_t n = 0;
  if (query(pd, &n, nullptr) != VK_SUCCESS) return {};
  KhrProperties blank{};
  blank.sType = kKhrPropertiesType;
  std::vector<KhrProperties> props(n, blank);
  if (query(pd, &n, props.data()) != VK_SUCCESS) return {};
  std::vector<CoopmatShape> out;
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto& p = props[i];
    out.push_back({p.MSize, p.NSize, p.KSize, p.AType, p.BType, p.CType, p.ResultType, p.scope,
                   p.saturatingAccumulation == VK_TRUE});
  }
  return out;
}

namespace {
constexpr std::uint32_t kF16 = 0, kF32 = 1, kBf16 = 1000141000, kSubgroup = 3;
bool has_16x16x16(const std::vector<CoopmatShape>& shapes, std::uint32_t operands) {
  for (const CoopmatShape& c : shapes) {
    if (c.m == 16 && c.n == 16 && c.k == 16 && c.a == operands && c.b == operands && c.c == kF32 &&
        c.result == kF32 && c.scope == kSubgroup) {
      return true;
    }
  }
  return false;
}
}  // namespace

bool has_f16_16x16x16(const std::vector<CoopmatShape>& shapes) {
  return has_16x16x16(shapes, kF16);
}
bool has_bf16_16x16x16(const std::vector<CoopmatShape>& shapes) {
  return has_16x16x16(shapes, kBf16);
}

std::string coopmat_report(VkPhysicalDevice pd) {
  const bool nv = has_device_extension(pd, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
  const bool khr = has_device_extension(pd, kKhrCoopmatExtension);
  std::ostringstream s;
  s << "  cooperative matrix NV: " << (nv ? describe(coopmat_nv_shapes(pd)) : "absent") << "\n";
  s << "  cooperative matrix KHR: " << (khr ? describe(coopmat_khr_shapes(pd)) : "absent") << "\n";
  s << "  " << kBfloat16Extension << ": "
    << (has_device_extension(pd, kBfloat16Extension) ? "present" : "absent") << "\n";
  // FP8 matmul on tensor cores needs both; without them f8 dots widen to f32 (exact products).
  bool fp8_shape = false;
  if (khr) {
    for (const CoopmatShape& c : coopmat_khr_shapes(pd)) fp8_shape = fp8_shape || c.a == 1000491002;
  }
  s << "  VK_EXT_shader_float8: "
    << (has_device_extension(pd, "VK_EXT_shader_float8") ? "present" : "absent")
    << "; e4m3 cooperative matrix: " << (fp8_shape ? "yes" : "no") << "\n";
  return s.str();
}

}  // namespace vkt::vk
