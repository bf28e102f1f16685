// SPIR-V for kernels generated at run time (vkt::compile): compiled from GLSL in-process
// with shaderc, cached in memory and on disk. The key hashes the source, the device and its
// driver version; a disk entry carries a checksum and is rebuilt, never trusted, when it
// does not match.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vulkan/runtime/context.h"

namespace vkt::vk {

struct KernelBinary {
  std::string key;  // hex hash of source + device + driver
  std::vector<std::uint32_t> words;
};

// Counts a compile or a memory/disk hit in the ledger. Throws Error with the
// compiler's log when the source does not compile. `optimised`: spirv-opt's performance
// passes, as glslc -O gives the embedded modules (a rebuild of one must compute as it does:
// the driver's float contractions follow the module's shape).
KernelBinary kernel_binary(const Context& ctx, const std::string& source, bool optimised = false);

// Forgets the in-memory entries (tests of the disk cache).
void clear_kernel_memory_cache();
// Starts shaderc once per process on a background thread (a trivial compile): its first
// compile builds glslang's built-in tables, a start-up a first call would otherwise pay.
void warm_up_shader_compiler();

// GLSL with every #include "x.glsl" replaced by the embedded file (glsl_sources.h).
std::string expand_includes(const std::string& source);

namespace testing {
// A generated kernel's SPIR-V, compiled with or without pruning (glsl_prune.h), never
// checked against the other (Overrides::prune_check).
std::vector<std::uint32_t> compile_generated(const std::string& source, bool prune);
}  // namespace testing

}  // namespace vkt::vk
