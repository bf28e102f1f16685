// dot on the device (shaders/linalg_dot.comp): a tiled GEMM over [batch, M, K] x [batch,
// K, N]. Each operand is read in place through one stride per axis group (batch, rows,
// columns), so row-major, transposed and batch-in-the-middle layouts need no copy, nor do
// free axes on both sides of K without batch axes (dot(a, b) with b of rank >= 3); other
// interleaved arrangements are not supported and the core falls back to the cpu. Every dtype the
// device can store is native: f32, f64 (shaderFloat64), f16/bf16 (f32 accumulation), integers
// (wrapping, as the cpu kernel).
#include <algorithm>
#include <array>
#include <cstdlib>
#include <optional>
#include <string>

#include "vulkan/backend.h"

namespace vkt::vk {
namespace {

struct DotPush {
  std::uint32_t m, n, k, batch;
  std::uint32_t sab, sam, sak;
  std::uint32_t sbb, sbk, sbn;
  std::uint32_t splits, k_chunk;
  std::uint32_t scb, scm;
};

// Tile shape: each invocation of the 16 x 16 workgroup computes a tm x tn micro-tile; K
// advances bk at a time through shared memory.
struct TileConfig {
  std::uint32_t tm, tn, bk;
};

// The stride of the combined (row-major, in `axes` order) index over `axes` in a contiguous
// tensor, when one exists: the non-unit axes must be adjacent in that order. Unit axes
// never move the index, and a group of none has stride 0.
std::optional<std::int64_t> group_stride(const Shape& shape, const Axes& axes) {
  const std::vector<std::int64_t> strides = contiguous_strides(shape);
  Axes moving;
  for (std::int64_t ax : axes) {
    if (shape[static_cast<std::size_t>(ax)] != 1) moving.push_back(ax);
  }
  if (moving.empty()) return 0;
  for (std::size_t i = 0; i + 1 < moving.size(); ++i) {
    const auto outer = static_cast<std::size_t>(moving[i]);
    const auto inner = static_cast<std::size_t>(moving[i + 1]);
    if (strides[outer] != strides[inner] * shape[inner]) return std::nullopt;
  }
  return strides[static_cast<std::size_t>(moving.back())];
}

// The GEMM view of one call: sizes and each operand's (batch, row, column) strides.
struct GemmView {
  std::int64_t batch = 0, m = 0, n = 0, k = 0;
  std::array<std::int64_t, 3> a{}, b{};  // a: (batch, m, k); b: (batch, k, n)
  std::array<std::int64_t, 2> c{};       // out: (batch, m); n has stride 1
};

Axes slice(const Axes& axes, std::size_t begin, std::size_t end) {
  return Axes(axes.begin() + static_cast<std::ptrdiff_t>(begin),
              axes.begin() + static_cast<std::ptrdiff_t>(end));
}

// With no batch axes, a free axis group that no single stride describes (b = [P, K, Q] in
// dot(a, b) with a rank-3 b; a = [P, K, Q] contracting K) can still be read in place when
// it splits into an outer part P and an inner part Q that each have one: P becomes the batch
// (the other operand's batch stride 0) and Q the free dim. For a the output is then
// [P, Q, N], the usual layout; for b it is [M, P, Q]: batch stride Q, row stride P * Q.
std::optional<GemmView> split_free_group(const Tensor& t, const Axes& free, GemmView v, bool is_a) {
  for (std::size_t i = 1; i < free.size(); ++i) {
    const Axes outer = slice(free, 0, i), inner = slice(free, i, free.size());
    const auto so = group_stride(t.shape(), outer), si = group_stride(t.shape(), inner);
    if (!so || !si) continue;
    const std::int64_t p = axes_product(t.shape(), outer), q = axes_product(t.shape(), inner);
    v.batch = p;
    if (is_a) {
      v.m = q;
      v.a[0] = *so;
      v.a[1] = *si;
      v.b[0] = 0;
      v.c = {q * v.n, v.n};
    } else {
      v.n = q;
      v.b[0] = *so;
      v.b[2] = *si;
      v.a[0] = 0;
      v.c = {q, p * q};
    }
    return v;
  }
  return std::nullopt;
}

std::optional<GemmView> gemm_view(const OpCall& call) {
  const DotParams& p = call.get<DotParams>();
  const Tensor& a = call.inputs.at(0);
  const Tensor& b = call.inputs.at(1);
  const Axes free_a = dot_free_axes(a.rank(), p.contract_a, p.batch_a);
  const Axes free_b = dot_free_axes(b.rank(), p.contract_b, p.batch_b);
  GemmView v;
  v.batch = axes_product(a.shape(), p.batch_a);
  v.m = axes_product(a.shape(), free_a);
  v.n = axes_product(b.shape(), free_b);
  v.k = axes_product(a.shape(), p.contract_a);
  v.c = {v.m * v.n, v.n};
  // An empty operand is never read (the output is empty or all zeros): any strides do.
  if (a.size() == 0 || b.size() == 0) return v;
  const auto ab = group_stride(a.shape(), p.batch_a), am = group_stride(a.shape(), free_a),
             ak = group_stride(a.shape(), p.contract_a);
  const auto bb = group_stride(b.shape(), p.batch_b), bk = group_stride(b.shape(), p.contract_b),
             bn = group_stride(b.shape(), free_b);
  if (!ak || !bk) return std::nullopt;
  v.a = {ab.value_or(0), am.value_or(0), *ak};
  v.b = {bb.value_or(0), *bk, bn.value_or(0)};
  if (ab && am && bb && bn) return v;
  if (v.batch != 1 || !ab || !bb) return std::nullopt;
  if (!am && bn) return split_free_group(a, free_a, v, true);
  if (am && !bn) return split_free_group(b, free_b, v, false);
  return std::nullopt;
}

// The accumulator: f32 for f16/bf16/f32, f64 for f64; integers wrap in u32, or u64 for the
// 64-bit dtypes (the cpu kernel's choices).
DType accumulator(DType d) {
  if (d == DType::f64) return DType::f64;
  if (is_float(d)) return DType::f32;
  return itemsize(d) == 8 ? DType::u64 : DType::u32;
}

// The shader module for dtype d (CMakeLists.txt builds the four).
std::string module_for(const VulkanBackend& b, DType d) {
  if (is_float(d)) return b.variant("linalg_dot", {d});
  return itemsize(d) == 8 ? "linalg_dot_int_i64" : "linalg_dot_int";
}

std::uint32_t tiles(std::int64_t extent, std::uint32_t tile) {
  return static_cast<std::uint32_t>((extent + tile - 1) / tile);
}

// Shared memory a configuration needs: the shader's As and Bs tiles of accumulator words,
// rows padded by one.
std::uint64_t shared_bytes(const TileConfig& t, std::uint64_t word) {
  return std::uint64_t{t.bk} * ((16 * t.tm + 1) + (16 * t.tn + 1)) * word;
}

// 128 x 128 tiles (8 x 8 per invocation: 4 FMAs per shared-memory load) where there are
// enough of them to fill a large GPU; 64 x 64 otherwise; thin 128 x 16 / 16 x 128 tiles
// for matrix-vector shapes, where a square tile would leave most invocations idle. 8-byte
// accumulators step K by 8 to keep 128 x 128 tiles near 16 KiB of shared memory. A configuration
// past the device's maxComputeSharedMemorySize becomes the 64 x 64 tile, or with K steps of 8,
// which fits the 16 KiB every device has.
TileConfig choose_tiles(const GemmView& v, std::uint64_t word, std::uint64_t shared_limit) {
  std::uint32_t deep = word == 8 ? 8 : 16;
  if (const char* bk = std::getenv("VKT_VK_DOT_BK"); bk != nullptr) {  // tuning: 8, 16 or 32
    const unsigned long v = std::strtoul(bk, nullptr, 10);
    if (v == 8 || v == 16 || v == 32) deep = static_cast<std::uint32_t>(v);
  }
  const TileConfig square{4, 4, deep};
  TileConfig t = square;
  const std::uint64_t big_tiles =
      static_cast<std::uint64_t>(v.batch) * tiles(v.m, 128) * tiles(v.n, 128);
  if (v.n <= 16 && v.m > 16) {
    t = {8, 1, 16};  // BN * BK must be a multiple of the 256 invocations
  } else if (v.m <= 16 && v.n > 16) {
    t = {1, 8, 16};
  } else if (big_tiles >= 256) {
    t = {8, 8, deep};
  }
  for (const TileConfig& c : {t, square}) {
    if (shared_bytes(c, word) <= shared_limit) return c;
  }
  return {4, 4, 8};  // 64 x 64 x 8: under 9 KiB for 8-byte words
}

// K in `splits` chunks of `chunk` (a multiple of the tile's K step).
struct KSplit {
  std::uint64_t splits, chunk;
};

// Splits K when the output has too few tiles to keep a large GPU busy and K is long: about
// 512 workgroups in all, chunks of at least 256, the scratch of partial sums at most 2^24
// elements and within maxStorageBufferRange. Otherwise one chunk.
KSplit choose_split(const GemmView& v, const TileConfig& t, std::uint64_t word,
                    std::uint64_t max_range) {
  const auto k = static_cast<std::uint64_t>(v.k);
  const std::uint64_t out_elements = static_cast<std::uint64_t>(v.batch * v.m * v.n);
  const std::uint64_t out_tiles =
      static_cast<std::uint64_t>(v.batch) * tiles(v.m, 16 * t.tm) * tiles(v.n, 16 * t.tn);
  std::uint64_t s = std::min<std::uint64_t>((512 + out_tiles - 1) / out_tiles, k / 256);
  s = std::min(s, (std::uint64_t{1} << 24) / out_elements);
  s = std::min(s, max_range / (out_elements * word));
  if (s < 2) return {1, k};
  const std::uint64_t chunk = ((k + s - 1) / s + t.bk - 1) / t.bk * t.bk;
  return {(k + chunk - 1) / chunk, chunk};
}

}  // namespace

bool linalg_supported(const VulkanBackend& b, const OpCall& call) {
  if (call.op != Op::dot || !b.dtype_supported(call.out_dtype)) return false;
  return gemm_view(call).has_value();
}

Tensor run_linalg(VulkanBackend& b, const OpCall& call) {
  if (call.op != Op::dot) {
    throw Unsupported("[" + std::string(op_name(call.op)) + "] is not a linalg op");
  }
  const std::optional<GemmView> view = gemm_view(call);
  if (!view) throw Unsupported("[dot] operand layout has no native " + b.name() + " kernel");
  const GemmView& v = *view;
  Tensor out = b.make_output(call);
  if (out.size() == 0) return out;  // K == 0 still runs: the kernel writes the zeros

  const DType d = call.out_dtype;
  const DType acc = accumulator(d);
  const TileConfig t =
      choose_tiles(v, itemsize(acc), b.context().properties().limits.maxComputeSharedMemorySize);
  // Tile loads run along k unless the other axis is the unit-stride one (a transposed
  // operand); a group of unit axes has stride 0 and never counts as unit-stride.
  const bool a_k_contig = !(v.a[1] == 1 && v.a[2] != 1);
  const bool b_k_contig = v.b[1] == 1 && v.b[2] != 1;
  const KSplit split = choose_split(v, t, itemsize(acc), b.context().limits().max_storage_range);
  auto u32 = [](std::uint64_t x) { return static_cast<std::uint32_t>(x); };
  static const std::uint32_t group_m = [] {
    const char* g = std::getenv("VKT_VK_DOT_GROUP_M");
    return g != nullptr && *g != '\0' ? std::max<std::uint32_t>(1, std::stoul(g)) : 8u;
  }();
  auto pipeline = [&](std::uint32_t mode) {
    return b.pipelines().get(
        module_for(b, d), 3,
        {static_cast<std::uint32_t>(d), t.tm, t.tn, t.bk, static_cast<std::uint32_t>(a_k_contig),
         static_cast<std::uint32_t>(b_k_contig), mode, group_m});
  };
  const DotPush push{u32(v.m),          u32(v.n),         u32(v.k),    u32(v.batch), u32(v.a[0]),
                     u32(v.a[1]),       u32(v.a[2]),      u32(v.b[0]), u32(v.b[1]),  u32(v.b[2]),
                     u32(split.splits), u32(split.chunk), u32(v.c[0]), u32(v.c[1])};
  // Tiles and batches past the device's grid limits are looped over inside the kernel.
  const auto& limit = b.context().limits().max_group_count;
  const std::array<std::uint32_t, 3> groups{
      std::min(tiles(v.n, 16 * t.tn), limit[0]), std::min(tiles(v.m, 16 * t.tm), limit[1]),
      u32(std::min<std::uint64_t>(static_cast<std::uint64_t>(v.batch) * split.splits, limit[2]))};
  const Tensor& a = call.inputs[0];
  const Tensor& bt = call.inputs[1];
  if (split.splits == 1) {
    b.dispatch_groups(pipeline(0), {{&a, false}, {&bt, false}, {&out, true}}, &push, sizeof(push),
                      groups);
    return out;
  }
  // Partial sums per chunk into pooled scratch, then one pass adding them in chunk order.
  const OpCall scratch_call{
      Op::dot, {}, NoParams{}, acc, Shape{static_cast<std::int64_t>(split.splits) * out.size()}};
  const Tensor scratch = b.make_output(scratch_call);
  b.dispatch_groups(pipeline(1), {{&a, false}, {&bt, false}, {&scratch, true}}, &push, sizeof(push),
                    groups);
  b.dispatch(pipeline(2), {{&scratch, false}, {&scratch, false}, {&out, true}}, &push, sizeof(push),
             static_cast<std::uint64_t>(out.size()));
  return out;
}

}  // namespace vkt::vk
