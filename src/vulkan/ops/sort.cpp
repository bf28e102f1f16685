// sort, argsort, top_k on the device. Every line along the axis is a segment of (key, index)
// items sorted ascending by key then index (shaders/sort_key.glsl: src/cpu/sort_keys.h's
// order, inverted for descending; top_k is the descending sort's first k indices), so the
// result is the cpu's stable one, bit for bit. Two paths, chosen by line length:
//   - lines of at most `local_cap` elements (2048..4096, what shared memory holds): one
//     workgroup sorts one or several whole lines in shared memory (shaders/sort_local.comp,
//     bitonic): one dispatch, no global temporaries;
//   - longer lines: a segmented LSD radix sort (shaders/sort_radix*.comp): keys, then per
//     digit a count, a three-dispatch scan and a stable scatter, then the result — a fixed
//     number of passes over memory that does not grow with log(len). Digits of 8 bits
//     (sort_radix8.comp, ranks by subgroup ballots: 4 passes for 32-bit keys) where the
//     device has ballots, else of 4 bits (sort_radix.comp, 8 passes); on GPUs an 8-bit
//     scatter stages its tile in sorted order in shared memory before storing it.
//     Overrides::sort_digit_bits and sort_reorder force the other sides.
// Not done, by reasoning: counting digit k+1 inside scatter k would trade one coalesced read
// of the keys for a global atomic per item; skipping a pass whose line sits in one bin needs
// the histogram on the host (a wait) or still a copy into the other buffer, so only the
// ranking is skipped (per tile, sort_radix8.comp).
// Keys are words (no 64-bit types), so every dtype sorts on any device with 8/16-bit storage.
// top_k of small k selects instead (sort_select.cpp), where top_k_select_plan() says so.
#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "common/settings.h"
#include "vkt/error.h"
#include "vulkan/ops/sort_select.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {
namespace {

enum OutMode : std::uint32_t { kSort, kArgsort, kTopK };

struct Geometry {
  std::uint64_t lines = 1, len = 1, inner = 1, k = 0;
  OutMode mode = kSort;
  bool descending = false;
};

Geometry geometry(const OpCall& call) {
  const Shape& shape = call.inputs.at(0).shape();
  Geometry g;
  std::int64_t axis = 0;
  if (call.op == Op::top_k) {
    g.mode = kTopK;
    g.descending = true;
    g.k = static_cast<std::uint64_t>(call.get<TopKParams>().k);
    axis = static_cast<std::int64_t>(shape.size()) - 1;
  } else {
    const SortParams& p = call.get<SortParams>();
    g.mode = call.op == Op::argsort ? kArgsort : kSort;
    g.descending = p.descending;
    axis = p.axis;
  }
  if (shape.empty()) return g;  // rank 0: one line of one element
  std::uint64_t outer = 1;
  const auto a = static_cast<std::size_t>(axis);
  for (std::size_t d = 0; d < a; ++d) outer *= static_cast<std::uint64_t>(shape[d]);
  for (std::size_t d = a + 1; d < shape.size(); ++d)
    g.inner *= static_cast<std::uint64_t>(shape[d]);
  g.len = static_cast<std::uint64_t>(shape[a]);
  g.lines = outer * g.inner;
  return g;
}

bool wide(DType d) {
  return itemsize(d) == 8;
}

// Bytes of shared memory sort_local.comp takes for `cap` elements: low key words and
// indices, plus high key words for 64-bit keys.
std::uint64_t local_bytes(std::uint64_t cap, DType d) {
  return cap * 8 + (wide(d) ? cap * 4 : 4);
}

constexpr std::uint64_t kMaxLocalCap = 4096;
constexpr std::uint64_t kTile = 16 * Pipelines::kWorkgroupSize;       // sort_radix.comp's TILE
constexpr std::uint64_t kScanBlock = 16 * Pipelines::kWorkgroupSize;  // sort_scan.comp's BLOCK
// sort_radix.comp's shared memory: counts [16][256], digit starts, the scan buffer.
constexpr std::uint64_t kRadixSharedBytes = (16 * 256 + 16 + 1 + 256) * 4;

// sort_radix8.comp's subgroups per workgroup (its counters' rows), where it can run: full
// subgroups with ballots and votes; 0 where it cannot.
std::uint64_t radix8_subgroups(const VulkanBackend& b) {
  const DeviceCaps& c = b.context().caps();
  const VkSubgroupFeatureFlags need =
      VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT;
  const std::uint32_t width = c.subgroup_size;
  if (!c.subgroup_compute || (c.subgroup_ops & need) != need || width == 0 || width > 128 ||
      Pipelines::kWorkgroupSize % width != 0)
    return 0;
  const std::uint64_t subgroups = Pipelines::kWorkgroupSize / width;
  // The counters ([subgroup][128] words) or the staged tile, digit starts in memory and in
  // the tile, the scan buffer, the uniform digit.
  const std::uint64_t shared_bytes = (std::max(subgroups * 128, kTile) + 3 * 256 + 1) * 4;
  return shared_bytes <= b.context().limits().max_shared_bytes ? subgroups : 0;
}

// 8-bit digits where the device allows (half the passes of 4-bit ones, each costing about
// the same); Overrides::sort_digit_bits = 4 forces 4-bit digits (the path of devices
// without ballots) where 8 would run.
bool digits_of_4_requested() {
  return vkt::overrides()->sort_digit_bits.value_or(8) == 4;
}

// sort_radix8.comp stages each tile in its sorted order in shared memory so its stores are
// runs of consecutive positions, or stores each item from its lane: the same results. Staged
// on GPUs, where a lane's store costs a 32-byte sector; from the lanes on CPU devices, where
// lavapipe pays for the extra barriers. Overrides::sort_reorder forces either.
bool reorder_requested(const VulkanBackend& b) {
  return vkt::overrides()->sort_reorder.value_or(is_gpu(b.context()));
}

// The longest line one workgroup sorts: a power of two whose items fit shared memory.
std::uint64_t local_cap(const VulkanBackend& b, DType d) {
  std::uint64_t cap = kMaxLocalCap;
  while (cap > 1 && local_bytes(cap, d) > b.context().limits().max_shared_bytes) cap /= 2;
  return cap;
}

bool use_local(const VulkanBackend& b, const Geometry& g, DType d) {
  return g.len <= std::min(local_cap(b, d), b.sort_local_max()) && local_cap(b, d) >= 2;
}

std::uint32_t key_bits(DType d) {
  return d == DType::f16 || d == DType::bf16 ? 16u : static_cast<std::uint32_t>(itemsize(d) * 8);
}

struct RadixSizes {
  std::uint64_t tiles_per_line, hist, blocks;
};

RadixSizes radix_sizes(const Geometry& g, std::uint32_t bits) {
  const std::uint64_t tpl = (g.len + kTile - 1) / kTile;
  const std::uint64_t hist = g.lines * tpl * (std::uint64_t{1} << bits);
  return {tpl, hist, (hist + kScanBlock - 1) / kScanBlock};
}

// Whether the radix sort's temporaries stay within one descriptor range each and 32-bit
// indexing.
bool radix_fits(const VulkanBackend& b, const Geometry& g, DType d, std::uint32_t bits) {
  const std::uint64_t n = g.lines * g.len, words = wide(d) ? 2 : 1;
  const RadixSizes s = radix_sizes(g, bits);
  const std::uint64_t limit = b.context().limits().max_storage_range;
  return n * words * 4 <= limit && s.hist * 4 <= limit && s.hist < (std::uint64_t{1} << 31) &&
         (g.lines * s.tiles_per_line) * Pipelines::kWorkgroupSize < (std::uint64_t{1} << 32);
}

// 8 where asked (the default), the device ranks by ballots and the (16x larger) histogram
// fits, else 4. 8: half the passes over memory, each costing about what a 4-bit one does.
std::uint32_t digit_bits(const VulkanBackend& b, const Geometry& g, DType d) {
  return !digits_of_4_requested() && radix8_subgroups(b) > 0 && radix_fits(b, g, d, 8) ? 8 : 4;
}

std::uint32_t u32(std::uint64_t v) {
  return static_cast<std::uint32_t>(v);
}

void run_local(VulkanBackend& b, const OpCall& call, const Geometry& g, const Tensor& out) {
  const Tensor& in = call.inputs.at(0);
  const DType d = in.dtype();
  const std::uint64_t cap = local_cap(b, d);
  const std::uint64_t p2 = std::bit_ceil(g.len);
  const std::uint64_t per_group = cap / p2;
  const std::uint64_t groups = (g.lines + per_group - 1) / per_group;
  const Pipeline p = b.pipelines().get("sort_local", 2,
                                       {static_cast<std::uint32_t>(d), g.descending ? 1u : 0u,
                                        g.mode, u32(cap), wide(d) ? u32(cap) : 1u});
  const std::uint32_t push[6] = {u32(g.lines), u32(g.len), u32(g.inner),
                                 u32(g.k),     u32(p2),    u32(std::countr_zero(p2))};
  b.dispatch(p, {{&in, false}, {&out, true}}, push, sizeof(push),
             groups * Pipelines::kWorkgroupSize);
}

void run_radix(VulkanBackend& b, const OpCall& call, const Geometry& g, const Tensor& out) {
  const Tensor& in = call.inputs.at(0);
  const DType d = in.dtype();
  const std::uint64_t words = wide(d) ? 2 : 1;
  const std::uint64_t n = g.lines * g.len;
  const std::uint32_t bits = digit_bits(b, g, d);
  const RadixSizes s = radix_sizes(g, bits);
  auto temporary = [&](std::uint64_t elements) {
    OpCall c = call;
    c.out_dtype = DType::u32;
    c.out_shape = {static_cast<std::int64_t>(elements)};
    return b.make_output(c);
  };
  Tensor keys = temporary(n * words), vals = temporary(n);
  Tensor keys2 = temporary(n * words), vals2 = temporary(n);
  const Tensor hist = temporary(s.hist), sums = temporary(s.blocks);
  const auto dtype_code = static_cast<std::uint32_t>(d);
  const std::uint32_t desc = g.descending ? 1u : 0u;
  const std::uint32_t geometry_push[4] = {u32(g.lines), u32(g.len), u32(g.inner), u32(g.k)};
  b.dispatch(b.pipelines().get("sort_radix_keys", 3, {dtype_code, desc}),
             {{&in, false}, {&keys, true}, {&vals, true}}, geometry_push, 12, n);
  const std::string radix = bits == 8 ? "sort_radix8" : "sort_radix";
  const bool reorder = bits == 8 && reorder_requested(b);
  // sort_radix8's count ignores REORDER: one pipeline serves both.
  auto radix_pipeline = [&](std::uint32_t phase) {
    std::vector<std::uint32_t> constants = {phase, u32(words)};
    if (bits == 8)
      constants.insert(constants.end(),
                       {u32(radix8_subgroups(b)), phase == 1 && reorder ? 1u : 0u});
    return b.pipelines().get(radix, 5, constants);
  };
  const Pipeline count = radix_pipeline(0), scatter = radix_pipeline(1);
  const Pipeline reduce = b.pipelines().get("sort_scan", 2, {0u});
  const Pipeline blocks = b.pipelines().get("sort_scan", 2, {1u});
  const Pipeline apply = b.pipelines().get("sort_scan", 2, {2u});
  const std::uint64_t tile_threads = g.lines * s.tiles_per_line * Pipelines::kWorkgroupSize;
  const std::uint64_t block_threads = s.blocks * Pipelines::kWorkgroupSize;
  const std::uint32_t scan_push[2] = {u32(s.hist), u32(s.blocks)};
  // Read-write bindings are marked written: the validation layer counts them so.
  for (std::uint32_t shift = 0; shift < key_bits(d); shift += bits) {
    const std::uint32_t push[4] = {u32(g.lines), u32(g.len), u32(s.tiles_per_line), shift};
    b.dispatch(count,
               {{&keys, false}, {&vals, false}, {&hist, true}, {&keys2, true}, {&vals2, true}},
               push, sizeof(push), tile_threads);
    b.dispatch(reduce, {{&hist, true}, {&sums, true}}, scan_push, sizeof(scan_push), block_threads);
    b.dispatch(blocks, {{&hist, true}, {&sums, true}}, scan_push, sizeof(scan_push),
               Pipelines::kWorkgroupSize);
    b.dispatch(apply, {{&hist, true}, {&sums, true}}, scan_push, sizeof(scan_push), block_threads);
    b.dispatch(scatter,
               {{&keys, false}, {&vals, false}, {&hist, true}, {&keys2, true}, {&vals2, true}},
               push, sizeof(push), tile_threads);
    std::swap(keys, keys2);
    std::swap(vals, vals2);
  }
  b.dispatch(b.pipelines().get("sort_radix_emit", 3, {dtype_code, desc, g.mode}),
             {{&in, false}, {&vals, false}, {&out, true}}, geometry_push, sizeof(geometry_push), n);
}

}  // namespace

bool sort_radix8_available(const VulkanBackend& b) {
  return radix8_subgroups(b) > 0;
}

bool sort_supported(const VulkanBackend& b, const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  // The shaders read and write words of 1, 2 and 4 bytes only.
  if (!b.dtype_supported(DType::u8)) return false;
  if (!top_k_select_plan(b, call).levels.empty()) return true;
  const Geometry g = geometry(call);
  if (use_local(b, g, in.dtype()) || in.size() == 0) return true;
  // The radix path: its workgroup's shared memory, and temporaries within one descriptor
  // range each and 32-bit indexing.
  const std::uint32_t bits = digit_bits(b, g, in.dtype());
  if (bits == 4 && b.context().limits().max_shared_bytes < kRadixSharedBytes) return false;
  return radix_fits(b, g, in.dtype(), bits);
}

Tensor run_sort(VulkanBackend& b, const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  Tensor out = b.make_output(call);
  if (out.size() == 0 || in.size() == 0) return out;
  if (const SelectPlan plan = top_k_select_plan(b, call); !plan.levels.empty()) {
    run_top_k_select(b, call, plan, out);
    return out;
  }
  const Geometry g = geometry(call);
  if (use_local(b, g, in.dtype())) {
    run_local(b, call, g, out);
  } else {
    run_radix(b, call, g, out);
  }
  return out;
}

}  // namespace vkt::vk
