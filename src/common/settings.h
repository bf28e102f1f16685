// The library's environment, read once: the variables a user may set (README, "What you can
// set") parsed into one typed struct at first use, through word_choice.h, so a bad value is a
// vkt::Error naming the variable and every later use throws it again. Everything else that
// chooses between implementations is a rule in code; tests and vkt-bench force the other
// side through Overrides, which the environment never reaches.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "vkt/backend.h"

namespace vkt {

enum class DefaultBackend { cpu, vulkan };
enum class IsaCap { sse2, avx2, avx512 };

struct Settings {
  DefaultBackend backend = DefaultBackend::cpu;     // VKT_BACKEND=cpu|vulkan
  std::string device;                               // VKT_DEVICE: an index or a name substring
  FallbackPolicy fallback = FallbackPolicy::allow;  // VKT_FALLBACK=allow|warn|error
  bool validation = false;                          // VKT_VALIDATION=1: Khronos validation layer
  // VKT_POISON=1|0: fill new device outputs and reused host buffers with 0xFF bytes (unset:
  // host buffers in debug builds only).
  std::optional<bool> poison;
  // VKT_CACHE_DIR=off|DIR, else $XDG_CACHE_HOME/vktensor or $HOME/.cache/vktensor; empty: off.
  std::string cache_dir;
  bool compile_dump = false;                    // VKT_COMPILE_DUMP=1: traced graphs and shaders
  bool pipeline_stats = false;                  // VKT_VK_PIPELINE_STATS=1: the driver's statistics
  bool staging = false;                         // VKT_VK_STAGING=1: never map working memory
  bool no_push_descriptor = false;              // VKT_VK_NO_PUSH_DESCRIPTOR=1: descriptor pools
  std::optional<std::uint64_t> host_pool_mb;    // VKT_HOST_POOL_MB: the host pool's cap
  std::optional<std::uint64_t> device_pool_mb;  // VKT_VK_POOL_CAP_MB: device memory's cap
  std::optional<std::uint64_t> pinned_mb;       // VKT_VK_PINNED_MB: pinned read buffers' cap
  std::string blas_library;                     // VKT_BLAS_LIBRARY: the OpenBLAS to load
  std::string openblas_coretype;    // OPENBLAS_CORETYPE, OpenBLAS's own (honoured, not a switch)
  IsaCap isa_cap = IsaCap::avx512;  // VKT_CPU_ISA=sse2|avx2|avx512
};

// Parses the settings from `lookup` (a variable's value, empty where unset). Pure, for tests.
Settings parse_settings(const std::function<std::string_view(const char*)>& lookup);

// The process's settings, parsed from the environment at first use. Throws the parse error
// (naming the variable) at every call while the environment is wrong.
const Settings& settings();

// The other side of a rule, forced by tests (so lavapipe runs both) and by vkt-bench's
// variants. Unset fields leave the rule in charge.
struct Overrides {
  std::optional<std::string> cache_dir;  // replaces Settings::cache_dir ("": off)
  std::optional<bool> staging;           // replaces Settings::staging for backends made now
  // Vulkan movement and indexing.
  std::optional<bool> one_pass_movement;  // concatenate / put_slice in one gather dispatch
  std::optional<bool> fused_put;          // indexed_put of a few rows in one pass
  // Vulkan reductions and sort.
  std::optional<bool> reduce_vec4;             // rows passes over f32 read vec4s
  std::optional<std::uint32_t> reduce_groups;  // workgroups a split rows pass aims for
  std::optional<bool> arg_locate;           // argmax/argmin of split f32 rows by value, then place
  std::optional<unsigned> sort_digit_bits;  // 8 or 4
  std::optional<bool> sort_reorder;         // stage each radix tile in sorted order
  // Vulkan elementwise.
  std::optional<bool> specialise;  // pipelines specialised per op
  // Vulkan dot and conv.
  std::optional<std::string> dot_kernel;    // auto|tiled|reg
  std::optional<std::string> dot_tile;      // <BM>x<BN>x<BK> of the register-blocked kernel
  std::optional<bool> dot_vec;              // wide global reads and direct stores to C
  std::optional<bool> coopmat;              // f16/bf16 dot on cooperative matrices
  std::optional<std::string> coopmat_api;   // auto|khr|nv
  std::optional<std::string> coopmat_tile;  // <BM>x<BN>x<BK>:<WM>x<WN>[:<stages>]
  std::optional<bool> conv_gemm;            // conv as im2col, then dot's GEMM
  std::optional<bool> conv_winograd;        // Winograd's algorithms wherever they apply
  // Vulkan memory and transfers.
  std::optional<std::uint64_t> block_mb;     // the pool's block size
  std::optional<bool> small_uploads_mapped;  // small host tensors by memcpy (backends made now)
  // cpu.
  std::optional<std::string> cpu_conv_split;     // tiles|images
  std::optional<std::string> cpu_fft_four_step;  // off, or a line's byte bound
  // vkt::compile: check that pruned and whole generated kernels give the same SPIR-V.
  bool prune_check = false;
};

// The overrides in force (a snapshot: cheap to take, safe from any thread).
std::shared_ptr<const Overrides> overrides();

// Sets `name` (an Overrides field's name, e.g. "dot_kernel", "block_mb", "coopmat") to `value`
// ("" clears it). vkt-bench's variants and tests: an unknown name or a bad value is a
// vkt::Error naming it.
void set_override(Overrides& o, std::string_view name, std::string_view value);

// Replaces the overrides until destroyed (tests and vkt-bench; scopes nest).
class OverrideScope {
 public:
  explicit OverrideScope(Overrides o);
  // The current overrides with "name=value,name=value" applied (set_override).
  explicit OverrideScope(std::string_view assignments);
  ~OverrideScope();
  OverrideScope(const OverrideScope&) = delete;
  OverrideScope& operator=(const OverrideScope&) = delete;

 private:
  std::shared_ptr<const Overrides> previous_;
};

}  // namespace vkt
