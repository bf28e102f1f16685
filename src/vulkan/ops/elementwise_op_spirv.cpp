#include "vulkan/ops/elementwise_op_spirv.h"

#include <cctype>

#include "vkt/error.h"
#include "vulkan/compile/glsl_sources.h"
#include "vulkan/compile/kernel_cache.h"

namespace vkt::vk {

std::string op_spirv_source(const VulkanBackend& b, const std::string& family, Op op, DType d) {
  const std::string file = family + ".comp";
  const GlslSource* shader = nullptr;
  for (const GlslSource& s : embedded_glsl()) {
    if (s.name == file) shader = &s;
  }
  if (shader == nullptr) throw Error("[vulkan] no embedded GLSL source named '" + file + "'");
  // The defines go after #version, which must stay the first line.
  const std::string_view version = "#version 450\n";
  if (!shader->text.starts_with(version)) {
    throw Error("[vulkan] " + file + " does not start with '#version 450'");
  }
  const std::string variant = b.variant(family, {d});
  std::string name(op_name(op));
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string source(version);
  if (variant.find("_i64") != std::string::npos) source += "#define VKT_I64\n";
  if (variant.find("_f64") != std::string::npos) source += "#define VKT_F64\n";
  source += "#define VKT_ONLY_OPS\n#define VKT_KEEP_OP_" + name + "\n";
  source += shader->text.substr(version.size());
  return source;
}

Pipeline op_spirv_pipeline(VulkanBackend& b, const std::string& family, Op op, DType d,
                           std::uint32_t bindings, const std::vector<std::uint32_t>& constants) {
  // Optimised as glslc -O builds the embedded module, so the results match it bit for bit.
  const KernelBinary bin =
      kernel_binary(b.context(), op_spirv_source(b, family, op, d), /*optimised=*/true);
  return b.pipelines().get_recompiled(bin.key, bin.words, bindings, constants);
}

}  // namespace vkt::vk
