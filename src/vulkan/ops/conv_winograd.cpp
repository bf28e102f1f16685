// conv by Winograd's minimal filtering (conv_winograd.h): which convs take it, and the
// passes. The transform domain holds 16 values per 2 x 2 tile where the data has 4, so its
// scratch is chunked over the images (or, for a kernel cotangent, over the contracted
// images) to stay within the operands' size; each chunk is an input pass, dot's batched
// GEMM over the 16 points, and an output pass.
#include "vulkan/ops/conv_winograd.h"

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "common/settings.h"
#include "vulkan/ops/linalg_gemm.h"

namespace vkt::vk {
namespace {

constexpr std::int64_t kPoints = 16;  // the 4 x 4 transform domain
constexpr std::uint64_t kMinScratchBytes = std::uint64_t{64} << 20;
std::atomic<std::int64_t> g_forced_chunk{0};
std::atomic<bool> g_recompute{true};

// out [P0, P1, OH, OW] = conv(input [P0, C, H, W], kernel [P1, C, KH, KW]).
struct Geometry {
  std::int64_t p0, c, h, w, p1, kh, kw, oh, ow, pad_h, pad_w;
};

Geometry geometry(const OpCall& call) {
  const Shape& in = call.inputs[0].shape();
  const Shape& k = call.inputs[1].shape();
  const ConvParams& p = call.get<ConvParams>();
  return {in[0],
          in[1],
          in[2],
          in[3],
          k[0],
          k[2],
          k[3],
          call.out_shape[2],
          call.out_shape[3],
          p.padding[0].first,
          p.padding[1].first};
}

// An f32 2-d conv of stride 1 without dilation or groups, with at least one channel.
bool plain(const OpCall& call) {
  if (call.out_dtype != DType::f32 || call.out_shape.size() != 4) return false;
  if (call.inputs[0].dtype() != DType::f32 || call.inputs[1].dtype() != DType::f32) return false;
  const ConvParams& p = call.get<ConvParams>();
  if (p.feature_groups != 1 || p.batch_groups != 1) return false;
  for (std::size_t a = 0; a < 2; ++a) {
    if (p.strides[a] != 1 || p.input_dilation[a] != 1 || p.kernel_dilation[a] != 1) return false;
  }
  return call.inputs[0].shape()[1] > 0 && numel(call.out_shape) > 0;
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// Tiles of the transform domain per (p0, p1) plane pair, and scratch elements per chunked
// item (an image of the output, or a contracted image): its transformed operands and
// GEMM result.
std::int64_t tiles(const Geometry& g, WinogradKind kind) {
  return kind == WinogradKind::small_kernel ? ceil_div(g.oh, 2) * ceil_div(g.ow, 2)
                                            : ceil_div(g.kh, 2) * ceil_div(g.kw, 2);
}
std::int64_t scratch_per_item(const Geometry& g, WinogradKind kind) {
  return kPoints * (kind == WinogradKind::small_kernel ? g.c + g.p1 : g.p0 + g.p1) * tiles(g, kind);
}

// Items per chunk: as many as the scratch budget (the operands' bytes, at least 64 MiB)
// holds, then spread evenly over the chunks that needs.
std::int64_t items_per_chunk(const VulkanBackend& b, const OpCall& call, const Geometry& g,
                             WinogradKind kind) {
  const std::int64_t items = kind == WinogradKind::small_kernel ? g.p0 : g.c;
  const std::uint64_t operands =
      4 * static_cast<std::uint64_t>(numel(call.inputs[0].shape()) + numel(call.inputs[1].shape()) +
                                     numel(call.out_shape));
  const std::uint64_t limit =
      std::min<std::uint64_t>({std::max(operands, kMinScratchBytes) / 4,
                               b.context().limits().max_storage_range / 4, std::uint64_t{1} << 31});
  const auto per = static_cast<std::uint64_t>(scratch_per_item(g, kind));
  const auto fit = static_cast<std::int64_t>(std::max<std::uint64_t>(limit / per, 1));
  if (const std::int64_t forced = g_forced_chunk.load(); forced > 0) {
    return std::min({forced, fit, items});
  }
  const std::int64_t chunks = ceil_div(items, std::min(fit, items));
  return ceil_div(items, chunks);
}

// Every index the passes and the GEMM form fits 32 bits, and one item's scratch one binding.
bool fits(const VulkanBackend& b, const OpCall& call, const Geometry& g, WinogradKind kind) {
  constexpr std::int64_t kLimit = std::int64_t{1} << 31;
  const std::int64_t per = scratch_per_item(g, kind);
  const auto range = static_cast<std::int64_t>(
      std::min<std::uint64_t>(b.context().limits().max_storage_range, std::uint64_t{1} << 62));
  // The transformed kernel (F(2x2, 3x3)) or the GEMM's result (F(3x3, 2x2)), made once.
  const std::int64_t fixed = kPoints * g.p1 * (kind == WinogradKind::small_kernel ? g.c : g.p0);
  return numel(call.inputs[0].shape()) < kLimit && numel(call.inputs[1].shape()) < kLimit &&
         numel(call.out_shape) < kLimit && per < kLimit && per * 4 <= range && fixed < kLimit &&
         fixed * 4 <= range;
}

// The rule. A kernel cotangent (3 x 3 outputs over a kernel of at least 8 x 8 taps): its
// direct sum walks a long K for few outputs; here K shrinks by 2.25 and the GEMM's split
// fills the device. A 3 x 3 kernel over at least 64 input and output channels: the direct
// sum's 18 C flops per output against 8 C and 32 C / O + 32 bytes of transform traffic.
bool rule(const Geometry& g, WinogradKind kind) {
  if (kind == WinogradKind::small_output) return g.kh * g.kw >= 64;
  return g.c >= 64 && g.p1 >= 64;
}

struct InPush {
  std::uint32_t p0n, p1n, p0_begin, p1_begin, src_p0, src_p1;
  std::uint32_t h, w, tiles_h, tiles_w, step;
  std::int32_t pad_h, pad_w;
  std::uint32_t xi_stride, dst_p0, dst_p1, dst_t;
};

struct OutPush {
  std::uint32_t p0n, p1n, p0_begin, oh, ow, tiles_h, tiles_w;
  std::uint32_t xi_stride, m_p0, m_p1, m_t, accumulate, last;
  std::uint32_t c, h, w, kh, kw;
  std::int32_t pad_h, pad_w;
};
static_assert(sizeof(OutPush) <= Pipelines::kPushBytes);

std::uint32_t u32(std::int64_t x) {
  return static_cast<std::uint32_t>(x);
}

// The output pass's `last`: on the last chunk 1 (direct sums for windows of padding only),
// plus 2 (and for non-finite outputs) unless a test turned that off.
std::uint32_t recompute(bool last_chunk) {
  if (!last_chunk) return 0u;
  return g_recompute.load() ? 3u : 1u;
}

Tensor scratch(VulkanBackend& b, std::int64_t elements) {
  return b.make_output(OpCall{Op::conv, {}, NoParams{}, DType::f32, Shape{elements}});
}

// transform: 0 B^T on data patches, 1 G on 3 x 3 kernels, 2 A on 2 x 2 kernel tiles.
void transform_in(VulkanBackend& b, const Tensor& src, const Tensor& dst, std::uint32_t transform,
                  const InPush& push) {
  const auto units = static_cast<std::uint64_t>(push.p0n) * push.p1n * push.tiles_h * push.tiles_w;
  b.dispatch(b.pipelines().get("conv_winograd_in", 2, {transform}), {{&src, false}, {&dst, true}},
             &push, sizeof(push), units);
}

// transform: 0 A^T (2 x 2 outputs), 1 the 3 x 3 outputs' transform.
void transform_out(VulkanBackend& b, const Tensor& m, const Tensor& out, const OpCall& call,
                   std::uint32_t transform, const OutPush& push) {
  const auto units = static_cast<std::uint64_t>(push.p0n) * push.p1n * push.tiles_h * push.tiles_w;
  b.dispatch(b.pipelines().get("conv_winograd_out", 4, {transform}),
             {{&m, false}, {&out, true}, {&call.inputs[0], false}, {&call.inputs[1], false}}, &push,
             sizeof(push), units);
}

void run_small_kernel(VulkanBackend& b, const OpCall& call, const Geometry& g, const Tensor& out) {
  const Tensor& input = call.inputs[0];
  const std::int64_t th = ceil_div(g.oh, 2), tw = ceil_div(g.ow, 2), t = th * tw;
  // U[xi] [o, c] = G kernel G^T, once.
  const Tensor u = scratch(b, kPoints * g.p1 * g.c);
  transform_in(b, call.inputs[1], u, 1,
               {u32(g.p1), u32(g.c), 0, 0, u32(g.c * 9), 9, 3, 3, 1, 1, 0, 0, 0, u32(g.p1 * g.c),
                u32(g.c), 1, 0});
  const std::int64_t per_chunk = items_per_chunk(b, call, g, WinogradKind::small_kernel);
  for (std::int64_t n0 = 0; n0 < g.p0; n0 += per_chunk) {
    const std::int64_t images = std::min(per_chunk, g.p0 - n0), cols = images * t;
    // V[xi] [c, (n, t)], then M[xi] [o, (n, t)] = U[xi] V[xi].
    const Tensor v = scratch(b, kPoints * g.c * cols);
    transform_in(b, input, v, 0,
                 {u32(images), u32(g.c), u32(n0), 0, u32(g.c * g.h * g.w), u32(g.h * g.w), u32(g.h),
                  u32(g.w), u32(th), u32(tw), 2, static_cast<std::int32_t>(g.pad_h),
                  static_cast<std::int32_t>(g.pad_w), u32(g.c * cols), u32(t), u32(cols), 1});
    const Tensor m = scratch(b, kPoints * g.p1 * cols);
    GemmView view;
    view.batch = kPoints, view.m = g.p1, view.n = cols, view.k = g.c;
    view.a = {g.p1 * g.c, g.c, 1};
    view.b = {g.c * cols, cols, 1};
    view.c = {g.p1 * cols, cols};
    record_gemm(b, view, DType::f32, u, v, m);
    transform_out(b, m, out, call, 0,
                  {u32(images),
                   u32(g.p1),
                   u32(n0),
                   u32(g.oh),
                   u32(g.ow),
                   u32(th),
                   u32(tw),
                   u32(g.p1 * cols),
                   u32(t),
                   u32(cols),
                   1,
                   0,
                   recompute(true),
                   u32(g.c),
                   u32(g.h),
                   u32(g.w),
                   3,
                   3,
                   static_cast<std::int32_t>(g.pad_h),
                   static_cast<std::int32_t>(g.pad_w)});
  }
}

void run_small_output(VulkanBackend& b, const OpCall& call, const Geometry& g, const Tensor& out) {
  const std::int64_t th = ceil_div(g.kh, 2), tw = ceil_div(g.kw, 2), t = th * tw;
  const std::int64_t per_chunk = items_per_chunk(b, call, g, WinogradKind::small_output);
  for (std::int64_t c0 = 0; c0 < g.c; c0 += per_chunk) {
    const std::int64_t images = std::min(per_chunk, g.c - c0), k = images * t;
    // V[xi] [p0, (c, t)] from the input's 4 x 4 patches, W[xi] [p1, (c, t)] from the
    // kernel's 2 x 2 tiles, M[xi] [p0, p1] = V[xi] W[xi]^T.
    const Tensor v = scratch(b, kPoints * g.p0 * k);
    transform_in(b, call.inputs[0], v, 0,
                 {u32(g.p0), u32(images), 0, u32(c0), u32(g.c * g.h * g.w), u32(g.h * g.w),
                  u32(g.h), u32(g.w), u32(th), u32(tw), 2, static_cast<std::int32_t>(g.pad_h),
                  static_cast<std::int32_t>(g.pad_w), u32(g.p0 * k), u32(k), u32(t), 1});
    const Tensor wt = scratch(b, kPoints * g.p1 * k);
    transform_in(
        b, call.inputs[1], wt, 2,
        {u32(g.p1), u32(images), 0, u32(c0), u32(g.c * g.kh * g.kw), u32(g.kh * g.kw), u32(g.kh),
         u32(g.kw), u32(th), u32(tw), 2, 0, 0, u32(g.p1 * k), u32(k), u32(t), 1});
    const Tensor m = scratch(b, kPoints * g.p0 * g.p1);
    GemmView view;
    view.batch = kPoints, view.m = g.p0, view.n = g.p1, view.k = k;
    view.a = {g.p0 * k, k, 1};
    view.b = {g.p1 * k, 1, k};
    view.c = {g.p0 * g.p1, g.p1};
    record_gemm(b, view, DType::f32, v, wt, m);
    // Later chunks add to the output; the last recomputes its non-finite outputs.
    transform_out(b, m, out, call, 1,
                  {u32(g.p0),
                   u32(g.p1),
                   0,
                   3,
                   3,
                   1,
                   1,
                   u32(g.p0 * g.p1),
                   u32(g.p1),
                   1,
                   0,
                   c0 > 0 ? 1u : 0u,
                   recompute(c0 + images == g.c),
                   u32(g.c),
                   u32(g.h),
                   u32(g.w),
                   u32(g.kh),
                   u32(g.kw),
                   static_cast<std::int32_t>(g.pad_h),
                   static_cast<std::int32_t>(g.pad_w)});
  }
}

}  // namespace

namespace testing {
void force_winograd_chunk(std::int64_t items) {
  g_forced_chunk.store(items);
}
void set_winograd_recompute(bool on) {
  g_recompute.store(on);
}
}  // namespace testing

WinogradKind winograd_kind(const VulkanBackend& b, const OpCall& call) {
  if (!plain(call)) return WinogradKind::none;
  const Geometry g = geometry(call);
  WinogradKind kind = WinogradKind::none;
  if (g.kh == 3 && g.kw == 3) {
    kind = WinogradKind::small_kernel;
  } else if (g.oh == 3 && g.ow == 3 && g.kh >= 2 && g.kw >= 2) {
    kind = WinogradKind::small_output;
  }
  if (kind == WinogradKind::none || !fits(b, call, g, kind)) return WinogradKind::none;
  const std::shared_ptr<const Overrides> o = overrides();
  if (o->conv_winograd) return *o->conv_winograd ? kind : WinogradKind::none;
  if (o->conv_gemm.value_or(false)) return WinogradKind::none;  // im2col asked for by name
  return rule(g, kind) ? kind : WinogradKind::none;
}

Tensor run_conv_winograd(VulkanBackend& b, const OpCall& call, WinogradKind kind) {
  const Geometry g = geometry(call);
  Tensor out = b.make_output(call);
  if (kind == WinogradKind::small_kernel) {
    run_small_kernel(b, call, g, out);
  } else {
    run_small_output(b, call, g, out);
  }
  return out;
}

}  // namespace vkt::vk
