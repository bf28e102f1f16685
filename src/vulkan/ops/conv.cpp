// conv on the device: one implicit-GEMM dispatch (shaders/conv.comp) over every group, for
// 1 to 3 spatial axes and every float dtype the device stores (f64 needs shaderFloat64).
// More spatial axes are not native: the core falls back to the cpu. One-group f16 convs on a
// device with cooperative matrices (or any one-group conv with the conv_gemm override) run as
// im2col (shaders/conv_im2col.comp; conv_im2col_vec.comp in 16-byte stores where its rows
// allow) then dot's GEMM on cooperative matrices; the two passes are marked for the device
// timer (vkt-bench conv's C_gpu_im2col_us and C_gpu_gemm_us). A conv with few output tiles
// over a long K (a kernel cotangent: 3x3 outputs of a 56x56 kernel) splits K over the
// device into f32 partial sums (f64 for f64), then adds them in a second dispatch
// (conv_split.cpp: the rule, from the device's compute units, and the adding pass). f32
// 3 x 3 kernels and kernel cotangents take Winograd's algorithms where conv_winograd.cpp's
// rule says so.
#include <algorithm>
#include <array>
#include <atomic>
#include <string>
#include <vector>

#include "common/settings.h"
#include "vulkan/ops/conv_split.h"
#include "vulkan/ops/conv_winograd.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {
namespace {

constexpr std::size_t kMaxSpatial = 3;

struct ConvPush {
  std::uint32_t cols, m, k, groups;
  std::uint32_t out_channels, positions, taps;
  std::uint32_t image_stride, group_stride, in_plane;
  std::uint32_t in_d[3];
  std::uint32_t out_d1, out_d2;
  std::uint32_t k_d1, k_d2;
  std::uint32_t stride[3];
  std::int32_t pad[3];
  std::uint32_t in_dil[3];
  std::uint32_t k_dil[3];
  std::uint32_t k_chunk, split_stride;
};
static_assert(sizeof(ConvPush) <= Pipelines::kPushBytes);

// The tile: 16*tm x 16*tn outputs per workgroup, bk K elements per step.
struct ConvTile {
  std::uint32_t tm = 4, tn = 8, bk = 16;
};

std::uint64_t shared_bytes(const ConvTile& t, std::uint64_t word) {
  // Two K steps of A [bk][16*tm/4 + 1] and B [bk][16*tn/4 + 1] vec4 rows.
  return 2 * t.bk * ((4 * t.tm + 1) + (4 * t.tn + 1)) * 4 * word;
}

// Out channels per group decide the rows: 64 rows when a group has at most 64 (a ResNet
// layer's 64), else 128; 128 columns; K steps of 16, halved until the shared tiles fit.
ConvTile choose_tile(std::int64_t group_out, std::uint64_t word, std::uint64_t shared_limit) {
  ConvTile t;
  t.tm = group_out <= 64 ? 4 : 8;
  while (shared_bytes(t, word) > shared_limit && t.bk > 4) t.bk /= 2;
  while (shared_bytes(t, word) > shared_limit && t.tn > 4) t.tn /= 2;
  while (shared_bytes(t, word) > shared_limit && t.tm > 4) t.tm /= 2;
  return t;
}

// conv as im2col + dot's GEMM: for f16 where the device has cooperative matrices, which the
// GEMM then takes (the H200's ResNet 3x3 layer: C 251.5 us, beating the implicit GEMM); f32
// keeps the implicit GEMM (350.0 against 645.9): bench_results/h200/conv{,-passes}.csv. The
// conv_gemm override forces either (tests: lavapipe has no cooperative matrices). One group
// only, the column matrix [batch, K, positions] within maxStorageBufferRange and 32-bit
// indices.
bool use_im2col_gemm(const VulkanBackend& b, const OpCall& call, std::int64_t groups,
                     std::int64_t k, std::int64_t positions) {
  const DeviceCaps& caps = b.context().caps();
  const bool wanted = overrides()->conv_gemm.value_or(call.out_dtype == DType::f16 &&
                                                      (caps.coopmat_nv || caps.coopmat_khr));
  if (!wanted || groups != 1) return false;
  const auto elements = static_cast<std::uint64_t>(call.out_shape[0] * k * positions);
  return elements < (std::uint64_t{1} << 32) &&
         elements * itemsize(call.out_dtype) <= b.context().limits().max_storage_range &&
         b.context().caps().storage8 && b.context().caps().storage16;
}

// Positions per 16-byte store of the im2col matrix (conv_im2col_vec.comp) for 2- and 4-byte
// dtypes whose rows hold whole stores, else 1 (conv_im2col.comp, one element per store).
std::int64_t im2col_vector(DType d, std::int64_t positions) {
  const auto width = static_cast<std::int64_t>(itemsize(d));
  if (width != 2 && width != 4) return 1;
  return positions % (16 / width) == 0 ? 16 / width : 1;
}

std::atomic<bool> g_last_conv_gemm{false};
std::atomic<std::uint32_t> g_last_conv_splits{1};
std::atomic<bool> g_last_conv_winograd{false};

// The shader computes each tap's position in the padded, dilated input in int32:
// out index * stride - pad lo + tap * kernel dilation, and the dilated input's extent.
// Every term below 2^29 keeps any sum of them in range; larger geometry falls back.
bool positions_fit_int32(const OpCall& call) {
  const ConvParams& p = call.get<ConvParams>();
  const Shape& in = call.inputs[0].shape();
  const Shape& k = call.inputs[1].shape();
  constexpr std::int64_t kLimit = std::int64_t{1} << 29;
  for (std::size_t a = 0; a + 2 < in.size(); ++a) {
    const std::int64_t lo = p.padding[a].first;
    if (lo <= -kLimit || lo >= kLimit) return false;
    const std::int64_t terms[] = {(call.out_shape[a + 2] - 1) * p.strides[a],
                                  std::max<std::int64_t>(k[a + 2] - 1, 0) * p.kernel_dilation[a],
                                  std::max<std::int64_t>(in[a + 2] - 1, 0) * p.input_dilation[a]};
    for (std::int64_t x : terms) {
      if (x >= kLimit) return false;
    }
  }
  return true;
}

std::uint32_t u32(std::int64_t x) {
  return static_cast<std::uint32_t>(x);
}

}  // namespace

namespace testing {
bool last_conv_took_gemm() {
  return g_last_conv_gemm.load();
}
std::uint32_t last_conv_splits() {
  return g_last_conv_splits.load();
}
bool last_conv_winograd() {
  return g_last_conv_winograd.load();
}
}  // namespace testing

bool conv_supported(const VulkanBackend& b, const OpCall& call) {
  if (call.op != Op::conv || !is_float(call.out_dtype) || !b.dtype_supported(call.out_dtype)) {
    return false;
  }
  const std::size_t spatial = call.out_shape.size() - 2;
  if (spatial < 1 || spatial > kMaxSpatial) return false;
  if (!positions_fit_int32(call)) return false;
  const std::uint64_t word = call.out_dtype == DType::f64 ? 8 : 4;
  const ConvTile t = choose_tile(call.out_shape[1], word,
                                 b.context().properties().limits.maxComputeSharedMemorySize);
  return shared_bytes(t, word) <= b.context().properties().limits.maxComputeSharedMemorySize;
}

Tensor run_conv(VulkanBackend& b, const OpCall& call) {
  if (!conv_supported(b, call)) {
    throw Unsupported("[conv] " + std::string(dtype_name(call.out_dtype)) + " with " +
                      std::to_string(call.out_shape.size() - 2) + " spatial axes has no native " +
                      b.name() + " kernel");
  }
  if (numel(call.out_shape) == 0) return b.make_output(call);
  const ConvParams& p = call.get<ConvParams>();
  const Tensor& input = call.inputs[0];
  const Tensor& kernel = call.inputs[1];
  const Shape& in = input.shape();
  const std::size_t spatial = in.size() - 2;
  const std::size_t pad_axes = kMaxSpatial - spatial;  // leading size-1 axes

  // Per axis, missing leading axes as size 1 with unit stride and dilation.
  std::array<std::int64_t, 3> in_d{1, 1, 1}, out_d{1, 1, 1}, k_d{1, 1, 1}, stride{1, 1, 1},
      pad{0, 0, 0}, in_dil{1, 1, 1}, k_dil{1, 1, 1};
  bool input_dilated = false;
  for (std::size_t a = 0; a < spatial; ++a) {
    const std::size_t i = a + pad_axes;
    in_d[i] = in[a + 2];
    out_d[i] = call.out_shape[a + 2];
    k_d[i] = kernel.shape()[a + 2];
    stride[i] = p.strides[a];
    pad[i] = p.padding[a].first;
    in_dil[i] = p.input_dilation[a];
    k_dil[i] = p.kernel_dilation[a];
    input_dilated = input_dilated || in_dil[i] > 1;
  }
  const std::int64_t groups = p.feature_groups * p.batch_groups;
  const std::int64_t out_channels = call.out_shape[1];
  const std::int64_t group_out = out_channels / groups;
  const std::int64_t positions = out_d[0] * out_d[1] * out_d[2];
  const std::int64_t taps = k_d[0] * k_d[1] * k_d[2];
  const std::int64_t in_plane = in_d[0] * in_d[1] * in_d[2];
  const std::int64_t cols = call.out_shape[0] * positions;
  const std::int64_t group_stride =
      p.batch_groups > 1 ? call.out_shape[0] * in[1] * in_plane : kernel.shape()[1] * in_plane;
  ConvPush push{u32(cols),
                u32(group_out),
                u32(kernel.shape()[1] * taps),
                u32(groups),
                u32(out_channels),
                u32(positions),
                u32(taps),
                u32(in[1] * in_plane),
                u32(group_stride),
                u32(in_plane),
                {u32(in_d[0]), u32(in_d[1]), u32(in_d[2])},
                u32(out_d[1]),
                u32(out_d[2]),
                u32(k_d[1]),
                u32(k_d[2]),
                {u32(stride[0]), u32(stride[1]), u32(stride[2])},
                {static_cast<std::int32_t>(pad[0]), static_cast<std::int32_t>(pad[1]),
                 static_cast<std::int32_t>(pad[2])},
                {u32(in_dil[0]), u32(in_dil[1]), u32(in_dil[2])},
                {u32(k_dil[0]), u32(k_dil[1]), u32(k_dil[2])},
                0,  // k_chunk and split_stride: the implicit GEMM's, set below
                0};

  const DType d = call.out_dtype;
  g_last_conv_gemm.store(false);
  g_last_conv_splits.store(1);
  const WinogradKind winograd = winograd_kind(b, call);
  g_last_conv_winograd.store(winograd != WinogradKind::none);
  if (winograd != WinogradKind::none) return run_conv_winograd(b, call, winograd);
  if (use_im2col_gemm(b, call, groups, push.k, positions)) {
    Tensor out = b.make_output(call);
    // out[n] = kernel [O, K] . cols[n] [K, positions]: the output's [n, o, pos] layout.
    const std::int64_t batch = call.out_shape[0], k = push.k;
    const Tensor cols =
        b.make_output(OpCall{Op::conv, {}, NoParams{}, d, Shape{batch, k, positions}});
    const std::string width = std::to_string(itemsize(d));
    const std::int64_t vec = im2col_vector(d, positions);
    // One invocation per column (or group of vec columns) and run of 32 (16) rows: the
    // shaders' RUN.
    const Pipeline p_im2col =
        b.pipelines().get(vec > 1 ? "conv_im2col_vec_w" + width : "conv_im2col_w" + width, 2, {});
    const std::int64_t run = vec > 1 ? 16 : 32;
    const auto units = static_cast<std::uint64_t>(batch * positions / vec * ((k + run - 1) / run));
    b.dispatch(p_im2col, {{&input, false}, {&cols, true}}, &push, sizeof(push), units);
    b.mark_device_timer();  // vkt-bench conv's per-pass device times: im2col, then the GEMM
    GemmView v;
    v.batch = batch, v.m = out_channels, v.n = positions, v.k = k;
    v.a = {0, k, 1};
    v.b = {k * positions, positions, 1};
    v.c = {out_channels * positions, positions};
    record_gemm(b, v, d, kernel, cols, out);
    g_last_conv_gemm.store(true);
    return out;
  }
  const std::uint64_t word = d == DType::f64 ? 8 : 4;
  const std::uint64_t shared_limit = b.context().properties().limits.maxComputeSharedMemorySize;
  const ConvTile t = choose_tile(group_out, word, shared_limit);
  // Loads run along K where the kernel's last axis is longer than the output's (there
  // consecutive taps are the adjacent input elements), else along the columns.
  const bool k_fastest = k_d[2] > out_d[2];
  // Tiles and groups past the device's grid limits are looped over inside the kernel.
  const auto& limit = b.context().limits().max_group_count;
  auto tiles = [](std::int64_t extent, std::uint32_t tile) {
    return static_cast<std::uint64_t>((extent + tile - 1) / tile);
  };
  // Split K (conv_split.cpp): each slice's sums, unrounded, into [splits][out] scratch.
  const DType partial = conv_partial_dtype(d);
  const auto out_elements = static_cast<std::uint64_t>(numel(call.out_shape));
  const KSplit split = conv_k_split(
      b, tiles(cols, 16 * t.tn) * tiles(group_out, 16 * t.tm) * static_cast<std::uint64_t>(groups),
      out_elements, static_cast<std::uint64_t>(push.k), itemsize(partial), t.bk);
  const bool partials = split.splits > 1;
  push.k_chunk = u32(split.chunk);
  push.split_stride = u32(partials ? out_elements : 0);
  const Tensor target =
      partials
          ? b.make_output(OpCall{Op::conv,
                                 {},
                                 NoParams{},
                                 partial,
                                 Shape{static_cast<std::int64_t>(split.splits * out_elements)}})
          : b.make_output(call);
  // Square 2-d kernels of 1, 3, 5, 7 (the common layers) get their sizes as specialization
  // constants; others share one pipeline (a compile per kernel shape costs seconds on lavapipe).
  const bool fixed = spatial == 2 && k_d[1] == k_d[2] && k_d[1] % 2 == 1 && k_d[1] <= 7;
  const Pipeline pipeline = b.pipelines().get(
      b.variant("conv", {d}), 3,
      {static_cast<std::uint32_t>(d), t.tm, t.tn, t.bk, static_cast<std::uint32_t>(input_dilated),
       fixed ? 1u : 0u, fixed ? u32(k_d[1]) : 0u, fixed ? u32(k_d[2]) : 0u, k_fastest ? 1u : 0u,
       partials ? 1u : 0u});
  const std::array<std::uint32_t, 3> grid{
      static_cast<std::uint32_t>(std::min<std::uint64_t>(tiles(cols, 16 * t.tn), limit[0])),
      static_cast<std::uint32_t>(std::min<std::uint64_t>(tiles(group_out, 16 * t.tm), limit[1])),
      static_cast<std::uint32_t>(
          std::min<std::uint64_t>(static_cast<std::uint64_t>(groups) * split.splits, limit[2]))};
  b.dispatch_groups(pipeline, {{&kernel, false}, {&input, false}, {&target, true}}, &push,
                    sizeof(push), grid);
  if (!partials) return target;
  g_last_conv_splits.store(static_cast<std::uint32_t>(split.splits));
  return add_conv_partials(b, call, target, split.splits);
}

}  // namespace vkt::vk
