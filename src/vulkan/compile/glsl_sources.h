// The shaders/*.glsl include files, embedded at build time (embed_glsl.cmake) for kernels
// generated at run time (compiled.cpp).
#pragma once

#include <string_view>
#include <vector>

namespace vkt::vk {

struct GlslSource {
  std::string_view name;  // file name, as an #include names it
  std::string_view text;
};
const std::vector<GlslSource>& embedded_glsl();

}  // namespace vkt::vk
