// Drops from preprocessed GLSL the functions that main() never reaches. A generated kernel
// includes whole shared headers and calls a few of their functions; glslang parses every
// function and then leaves the unreached ones out of the SPIR-V, so the pruned text compiles
// to the same module in less time (kernel_cache.cpp says how much).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace vkt::vk {

// `preprocessed`: GLSL after the preprocessor (directives other than #version, #extension,
// #line and #pragma resolved). Returns the text with every function definition that main
// does not reach, directly or through other functions or a global initialiser, blanked to
// its newlines (line numbers unchanged). Overloads share a name and are kept together.
// nullopt where the text's shape is not understood (unbalanced braces or comments, no main):
// the caller compiles it whole.
std::optional<std::string> prune_unreached_functions(std::string_view preprocessed);

}  // namespace vkt::vk
