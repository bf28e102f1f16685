// top_k by selection (sort_select.h): each workgroup reduces a segment — a tile of a line, or
// a whole short line, several to a workgroup — to its first k items (key, index) in shared
// memory (shaders/sort_select.comp); a line cut into several tiles leaves k candidates per
// tile, which the next dispatch selects from the same way, until one tile is left per line.
// The order is sort.cpp's (sort_key.glsl's descending keys, then the index), so the indices
// are the cpu's, bit for bit.
// Chosen over a radix select on the key's high bits: that needs a histogram pass and a scan
// per digit over the whole line (the passes the radix sort pays), where a tile's top k is
// found with one read of it; and over per-invocation candidate lists: k of them per
// invocation do not fit registers for k in the tens, while one shared buffer per workgroup
// serves every k up to its rule's bound.
#include "vulkan/ops/sort_select.h"

#include <algorithm>
#include <atomic>
#include <bit>

#include "vulkan/runtime/backend.h"

namespace vkt::vk {
namespace {

std::atomic<bool> g_disabled{false};

constexpr std::uint64_t kThreads = Pipelines::kWorkgroupSize;

bool wide(DType d) {
  return itemsize(d) == 8;
}

// Shared memory sort_select.comp takes for `cap` items: low key words and indices, high key
// words for 64-bit keys, the fill counter.
std::uint64_t select_bytes(std::uint64_t cap, DType d) {
  return cap * 8 + (wide(d) ? cap * 4 : 4) + 4;
}

// Items one workgroup holds: the largest power of two whose items fit shared memory, at most
// 16 per invocation (4096), as sort_local.comp: more shared memory a workgroup leaves fewer
// workgroups per core to hide the reads behind.
std::uint64_t select_cap(const VulkanBackend& b, DType d) {
  std::uint64_t cap = 16 * kThreads;
  while (cap > 1 && select_bytes(cap, d) > b.context().limits().max_shared_bytes) cap /= 2;
  return cap;
}

// A tile is 16 fills of the buffer: its first fill is reduced in full, the rest mostly costs a
// read and a comparison per item (the threshold), so longer tiles spread that first
// reduction over more items; 16 keeps it under 1/16 of a tile's items while a line of 2^24
// still splits into at least 256 workgroups (2^24 / (16 * 4096)).
constexpr std::uint64_t kFillsPerTile = 16;

// The rule: select where K2 <= cap / 16, else sort. Three reasons for the bound: after a
// reduction the buffer must take a chunk of cap / 2 (K2 <= cap / 2); on shuffled data a
// chunk then lets about K2 / (items seen) of its items through, which is what makes the
// streamed part cheap, so K2 must be small against a fill; and a line of len <= cap costs the
// selection about log2(K2)(log2(K2)+1)/2 + log2(len/K2)(log2(K2)+1) bitonic steps (a halving
// share of the items after the first sort) against the local sort's log2(len)(log2(len)+1)/2
// on every item: with K2 = len / 16, 36 + 36 on shrinking shares against 78 at len 4096, so
// past cap / 16 the saving is gone and the full sort (one dispatch, or the radix sort's fixed
// passes) is kept. The bound follows the device's shared memory, not a device model: 128 on
// lavapipe (32 KiB), 256 for 32-bit keys with 48 KiB.
constexpr std::uint64_t kMinFillsPerK = 16;

std::uint32_t u32(std::uint64_t v) {
  return static_cast<std::uint32_t>(v);
}

std::uint64_t candidate_words(DType d) {
  return wide(d) ? 3 : 2;  // key words, then the index
}

}  // namespace

namespace testing {
void set_top_k_select_disabled(bool disabled) {
  g_disabled = disabled;
}
}  // namespace testing

SelectPlan top_k_select_plan(const VulkanBackend& b, const OpCall& call) {
  SelectPlan plan;
  if (call.op != Op::top_k || g_disabled) return plan;
  const Tensor& in = call.inputs.at(0);
  const DType d = in.dtype();
  const Shape& shape = in.shape();
  if (shape.empty()) return plan;
  const auto k = static_cast<std::uint64_t>(call.get<TopKParams>().k);
  const auto len = static_cast<std::uint64_t>(shape.back());
  const std::uint64_t lines = len == 0 ? 0 : static_cast<std::uint64_t>(in.size()) / len;
  plan.cap = select_cap(b, d);
  plan.tile = kFillsPerTile * plan.cap;
  plan.k2 = std::bit_ceil(std::max<std::uint64_t>(k, 1));
  if (plan.k2 * kMinFillsPerK > plan.cap) return plan;
  // Indices are 32-bit in the shader (row * len + j; ~0 marks padding), and every buffer
  // lies within one descriptor range.
  const DeviceLimits& lim = b.context().limits();
  const std::uint64_t range = lim.max_storage_range;
  if (lines * len >= (std::uint64_t{1} << 32) || in.size() * itemsize(d) > range ||
      lines * k * 8 > range)
    return plan;
  const std::uint64_t tile = plan.tile;
  std::uint64_t line_len = std::max<std::uint64_t>(len, 1);
  std::vector<SelectLevel> levels;
  for (;;) {
    SelectLevel level;
    level.len = line_len;
    level.tiles = line_len > tile ? (line_len + tile - 1) / tile : 1;
    level.tile_len = level.tiles > 1 ? tile : line_len;
    level.p =
        level.tile_len >= plan.cap ? plan.cap : std::max(plan.k2, std::bit_ceil(level.tile_len));
    levels.push_back(level);
    if (level.tiles == 1) break;
    if (lines * level.tiles * k * candidate_words(d) * 4 > range) return plan;
    // Each level shrinks a line at least tile / k >= 256-fold: few levels.
    line_len = level.tiles * k;
  }
  plan.levels = std::move(levels);
  return plan;
}

void run_top_k_select(VulkanBackend& b, const OpCall& call, const SelectPlan& plan,
                      const Tensor& out) {
  const Tensor& in = call.inputs.at(0);
  const DType d = in.dtype();
  const auto k = static_cast<std::uint64_t>(call.get<TopKParams>().k);
  const std::uint64_t lines = static_cast<std::uint64_t>(in.size()) / plan.levels.front().len;
  auto candidates = [&](std::uint64_t tiles) {
    OpCall c = call;
    c.out_dtype = DType::u32;
    c.out_shape = {static_cast<std::int64_t>(lines * tiles * k * candidate_words(d))};
    return b.make_output(c);
  };
  Tensor src = in;
  for (std::size_t i = 0; i < plan.levels.size(); ++i) {
    const SelectLevel& level = plan.levels[i];
    const bool from_candidates = i > 0, to_candidates = level.tiles > 1;
    const Pipeline pipe =
        b.pipelines().get("sort_select", 2,
                          {static_cast<std::uint32_t>(d), 1u, from_candidates ? 1u : 0u,
                           to_candidates ? 1u : 0u, u32(plan.cap), wide(d) ? u32(plan.cap) : 1u});
    const std::uint32_t push[9] = {u32(lines),
                                   u32(level.len),
                                   u32(level.tiles),
                                   u32(level.tile_len),
                                   u32(k),
                                   u32(plan.k2),
                                   u32(std::countr_zero(plan.k2)),
                                   u32(level.p),
                                   u32(std::countr_zero(level.p))};
    const std::uint64_t per_group = plan.cap / level.p;
    const std::uint64_t groups = (lines * level.tiles + per_group - 1) / per_group;
    const Tensor dst = to_candidates ? candidates(level.tiles) : out;
    b.dispatch(pipe, {{&src, false}, {&dst, true}}, push, sizeof(push), groups * kThreads);
    src = dst;
  }
}

}  // namespace vkt::vk
