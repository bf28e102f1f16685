// sort, argsort, top_k on the device. Every line along the axis is a segment of (key, index)
// items sorted ascending by key then index (shaders/sort_key.glsl: src/cpu/sort_keys.h's
// order, inverted for descending; top_k is the descending sort's first k indices), so the
// result is the cpu's stable one, bit for bit. Two paths, chosen by line length:
//   - lines of at most `local_cap` elements (2048..4096, what shared memory holds): one
//     workgroup sorts one or several whole lines in shared memory (shaders/sort_local.comp,
//     bitonic): one dispatch, no global temporaries;
//   - longer lines: a segmented LSD radix sort on 4-bit digits (shaders/sort_radix*.comp):
//     keys, then per digit a count, a three-dispatch scan and a stable scatter, then the
//     result — a fixed number of passes over memory that does not grow with log(len).
// Keys are words (no 64-bit types), so every dtype sorts on any device with 8/16-bit storage.
#include <algorithm>
#include <bit>

#include "vulkan/backend.h"

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
  for (std::size_t d = a + 1; d < shape.size(); ++d) g.inner *= static_cast<std::uint64_t>(shape[d]);
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
constexpr std::uint64_t kTile = 16 * Pipelines::kWorkgroupSize;  // sort_radix.comp's TILE
constexpr std::uint64_t kScanBlock = 16 * Pipelines::kWorkgroupSize;  // sort_scan.comp's BLOCK
constexpr std::uint64_t kDigits = 16;
// sort_radix.comp's shared memory: counts [16][256], digit starts, the scan buffer.
constexpr std::uint64_t kRadixSharedBytes = (kDigits * 256 + kDigits + 1 + 256) * 4;

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

RadixSizes radix_sizes(const Geometry& g) {
  const std::uint64_t tpl = (g.len + kTile - 1) / kTile;
  const std::uint64_t hist = g.lines * tpl * kDigits;
  return {tpl, hist, (hist + kScanBlock - 1) / kScanBlock};
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
  const Pipeline p = b.pipelines().get(
      "sort_local", 2,
      {static_cast<std::uint32_t>(d), g.descending ? 1u : 0u, g.mode, u32(cap),
       wide(d) ? u32(cap) : 1u});
  const std::uint32_t push[6] = {u32(g.lines), u32(g.len),  u32(g.inner),
                                 u32(g.k),     u32(p2), u32(std::countr_zero(p2))};
  b.dispatch(p, {{&in, false}, {&out, true}}, push, sizeof(push),
             groups * Pipelines::kWorkgroupSize);
}

void run_radix(VulkanBackend& b, const OpCall& call, const Geometry& g, const Tensor& out) {
  const Tensor& in = call.inputs.at(0);
  const DType d = in.dtype();
  const std::uint64_t words = wide(d) ? 2 : 1;
  const std::uint64_t n = g.lines * g.len;
  const RadixSizes s = radix_sizes(g);
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
  const Pipeline count = b.pipelines().get("sort_radix", 5, {0u, u32(words)});
  const Pipeline scatter = b.pipelines().get("sort_radix", 5, {1u, u32(words)});
  const Pipeline reduce = b.pipelines().get("sort_scan", 2, {0u});
  const Pipeline blocks = b.pipelines().get("sort_scan", 2, {1u});
  const Pipeline apply = b.pipelines().get("sort_scan", 2, {2u});
  const std::uint64_t tile_threads = g.lines * s.tiles_per_line * Pipelines::kWorkgroupSize;
  const std::uint64_t block_threads = s.blocks * Pipelines::kWorkgroupSize;
  const std::uint32_t scan_push[2] = {u32(s.hist), u32(s.blocks)};
  // Read-write bindings are marked written: the validation layer counts them so.
  for (std::uint32_t shift = 0; shift < key_bits(d); shift += 4) {
    const std::uint32_t push[4] = {u32(g.lines), u32(g.len), u32(s.tiles_per_line), shift};
    b.dispatch(count, {{&keys, false}, {&vals, false}, {&hist, true}, {&keys2, true}, {&vals2, true}},
               push, sizeof(push), tile_threads);
    b.dispatch(reduce, {{&hist, true}, {&sums, true}}, scan_push, sizeof(scan_push), block_threads);
    b.dispatch(blocks, {{&hist, true}, {&sums, true}}, scan_push, sizeof(scan_push),
               Pipelines::kWorkgroupSize);
    b.dispatch(apply, {{&hist, true}, {&sums, true}}, scan_push, sizeof(scan_push), block_threads);
    b.dispatch(scatter,
               {{&keys, false}, {&vals, false}, {&hist, true}, {&keys2, true}, {&vals2, true}}, push,
               sizeof(push), tile_threads);
    std::swap(keys, keys2);
    std::swap(vals, vals2);
  }
  b.dispatch(b.pipelines().get("sort_radix_emit", 3, {dtype_code, desc, g.mode}),
             {{&in, false}, {&vals, false}, {&out, true}}, geometry_push, sizeof(geometry_push), n);
}

}  // namespace

bool sort_supported(const VulkanBackend& b, const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  // The shaders read and write words of 1, 2 and 4 bytes only.
  if (!b.dtype_supported(DType::u8)) return false;
  const Geometry g = geometry(call);
  if (use_local(b, g, in.dtype()) || in.size() == 0) return true;
  // The radix path: its workgroup's shared memory, and temporaries within one descriptor
  // range each and 32-bit indexing.
  if (b.context().limits().max_shared_bytes < kRadixSharedBytes) return false;
  const std::uint64_t n = g.lines * g.len, words = wide(in.dtype()) ? 2 : 1;
  const RadixSizes s = radix_sizes(g);
  const std::uint64_t limit = b.context().limits().max_storage_range;
  return n * words * 4 <= limit && s.hist * 4 <= limit && s.hist < (std::uint64_t{1} << 31) &&
         (g.lines * s.tiles_per_line) * Pipelines::kWorkgroupSize < (std::uint64_t{1} << 32);
}

Tensor run_sort(VulkanBackend& b, const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  Tensor out = b.make_output(call);
  if (out.size() == 0 || in.size() == 0) return out;
  const Geometry g = geometry(call);
  if (use_local(b, g, in.dtype())) {
    run_local(b, call, g, out);
  } else {
    run_radix(b, call, g, out);
  }
  return out;
}

}  // namespace vkt::vk
