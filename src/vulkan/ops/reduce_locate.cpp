// argmax/argmin of split f32 rows by value, then place (reduce_locate.h). The first pass
// moves the bits through two integer min/max per element; the arg scan it replaces compares
// an ordered key and carries an index per element (shaders/reduce_main.glsl, arg_element).
#include "vulkan/ops/reduce_locate.h"

#include <atomic>

#include "common/settings.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {
namespace {

struct LocatePush {
  std::uint32_t outer, len, chunk, splits, parts;
};

// Elements a locate workgroup scans: LOCATE_STEPS (4) vec4 per invocation.
constexpr std::uint64_t kLocateSpan = 4 * 4 * Pipelines::kWorkgroupSize;

std::atomic<std::uint64_t> g_locate_runs{0};

}  // namespace

namespace testing {
std::uint64_t arg_locate_runs() {
  return g_locate_runs.load();
}
}  // namespace testing

bool arg_locate_allowed(const VulkanBackend& b) {
  return vkt::overrides()->arg_locate.value_or(is_gpu(b.context()));
}

void record_arg_locate(VulkanBackend& b, bool is_max, bool tie_high, const LocateRows& rows,
                       const Tensor& src, const Tensor& partials, const Tensor& dst,
                       bool prepare_only) {
  const std::uint32_t max_flag = is_max ? 1 : 0, tie_flag = tie_high ? 1 : 0;
  const Pipeline extreme = b.pipelines().get("reduce_locate", 3, {0u, max_flag, tie_flag});
  const Pipeline locate = b.pipelines().get("reduce_locate", 3, {1u, max_flag, tie_flag});
  if (prepare_only) return;
  const std::uint64_t parts = (rows.chunk + kLocateSpan - 1) / kLocateSpan;
  const LocatePush push{static_cast<std::uint32_t>(rows.outer),
                        static_cast<std::uint32_t>(rows.len),
                        static_cast<std::uint32_t>(rows.chunk),
                        static_cast<std::uint32_t>(rows.splits), static_cast<std::uint32_t>(parts)};
  // The partials binding is writable in the module, so both passes declare it written.
  const std::vector<std::pair<const Tensor*, bool>> buffers = {
      {&src, false}, {&partials, true}, {&dst, true}};
  b.dispatch(extreme, buffers, &push, sizeof(push),
             rows.outer * rows.splits * Pipelines::kWorkgroupSize);
  b.dispatch(locate, buffers, &push, sizeof(push), rows.outer * parts * Pipelines::kWorkgroupSize);
  g_locate_runs.fetch_add(1);
}

}  // namespace vkt::vk
