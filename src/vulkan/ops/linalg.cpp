// dot on the device: a GEMM over [batch, M, K] x [batch, K, N] by one of three kernels
// (linalg_dot_choice.h says which and why: shaders/linalg_dot.comp, linalg_dot_reg.comp,
// linalg_dot_coopmat.comp). Each operand is read in place through one stride per axis group (batch,
// rows, columns), so row-major, transposed and batch-in-the-middle layouts need no copy, nor do
// free axes on both sides of K without batch axes (dot(a, b) with b of rank >= 3); other
// interleaved arrangements are not supported and the core falls back to the cpu. Every dtype the
// device can store is native: f32, f64 (shaderFloat64), f16/bf16 (f32 accumulation), integers
// (wrapping, as the cpu kernel).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "common/settings.h"
#include "vulkan/ops/linalg_dot_choice.h"
#include "vulkan/ops/linalg_gemm.h"
#include "vulkan/ops/movement_words.h"
#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/spirv.h"
#include "vulkan/spirv/coopmat_khr_spirv.h"

namespace vkt::vk {
namespace {

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

}  // namespace

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

namespace {

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

std::atomic<DotKernel> g_last_kernel{DotKernel::tiled};

}  // namespace

KSplit choose_k_split_for(std::uint64_t target_groups, std::uint64_t out_tiles,
                          std::uint64_t out_elements, std::uint64_t k, std::uint64_t word,
                          std::uint32_t bk, std::uint64_t max_range) {
  out_tiles = std::max<std::uint64_t>(out_tiles, 1);
  out_elements = std::max<std::uint64_t>(out_elements, 1);
  std::uint64_t s = std::min<std::uint64_t>((target_groups + out_tiles - 1) / out_tiles, k / 256);
  s = std::min(s, (std::uint64_t{1} << 24) / out_elements);
  s = std::min(s, max_range / (out_elements * word));
  if (s < 2) return {1, k};
  const std::uint64_t chunk = ((k + s - 1) / s + bk - 1) / bk * bk;
  return {(k + chunk - 1) / chunk, chunk};
}

// dot's GEMM aims at about 512 workgroups whatever the device.
KSplit choose_k_split(std::uint64_t out_tiles, std::uint64_t out_elements, std::uint64_t k,
                      std::uint64_t word, std::uint32_t bk, std::uint64_t max_range) {
  return choose_k_split_for(512, out_tiles, out_elements, k, word, bk, max_range);
}

GemmLaunch gemm_launch(const VulkanBackend& b, const GemmView& v, DType d) {
  const DType acc = accumulator(d);
  const DotShape shape{v.batch, v.m, v.n, v.k, v.a[0], v.a[1], v.a[2], v.b[0], v.b[1], v.b[2]};
  const DotDevice device{b.context().properties().limits.maxComputeSharedMemorySize,
                         b.context().caps().coopmat_nv || b.context().caps().coopmat_khr,
                         b.context().caps().coopmat_bf16};
  GemmLaunch l;
  l.acc = acc;
  l.choice = choose_dot_kernel(shape, d, device);
  const DotChoice& t = l.choice;
  const std::uint64_t out_tiles =
      static_cast<std::uint64_t>(v.batch) * tiles(v.m, 16 * t.tm) * tiles(v.n, 16 * t.tn);
  const KSplit split = choose_k_split(out_tiles, static_cast<std::uint64_t>(v.batch * v.m * v.n),
                                      static_cast<std::uint64_t>(v.k), itemsize(acc), t.bk,
                                      b.context().limits().max_storage_range);
  l.splits = split.splits;
  l.chunk = split.chunk;
  auto u32 = [](std::uint64_t x) { return static_cast<std::uint32_t>(x); };
  constexpr std::uint32_t kGroupM = 8;  // rows of tiles a run of workgroups walks (L2 reuse)
  l.constants = {static_cast<std::uint32_t>(d),
                 t.tm,
                 t.tn,
                 t.bk,
                 static_cast<std::uint32_t>(t.a_k_contig),
                 static_cast<std::uint32_t>(t.b_k_contig),
                 0,
                 kGroupM,
                 static_cast<std::uint32_t>(t.a_vec),
                 static_cast<std::uint32_t>(t.b_vec)};
  l.push = DotPush{u32(v.m),          u32(v.n),         u32(v.k),    u32(v.batch), u32(v.a[0]),
                   u32(v.a[1]),       u32(v.a[2]),      u32(v.b[0]), u32(v.b[1]),  u32(v.b[2]),
                   u32(split.splits), u32(split.chunk), u32(v.c[0]), u32(v.c[1])};
  // Tiles and batches past the device's grid limits are looped over inside the kernel.
  const auto& limit = b.context().limits().max_group_count;
  l.groups = {
      u32(std::min<std::uint64_t>(tiles(v.n, 16 * t.tn), limit[0])),
      u32(std::min<std::uint64_t>(tiles(v.m, 16 * t.tm), limit[1])),
      u32(std::min<std::uint64_t>(static_cast<std::uint64_t>(v.batch) * split.splits, limit[2]))};
  return l;
}

namespace {
// linalg_dot_coopmat.comp's module with KHR matrices (coopmat_khr_spirv.h), of f16 or of bf16
// operands; each made once.
const std::vector<std::uint32_t>& khr_coopmat_module(bool bf16) {
  auto make = [](bool bf16_operands) {
    for (const SpirvModule& m : embedded_spirv()) {
      if (m.name == "linalg_dot_coopmat") return coopmat_nv_to_khr(m.words, bf16_operands);
    }
    throw Error("[dot] the embedded linalg_dot_coopmat module is missing");
  };
  static const std::vector<std::uint32_t> f16 = make(false), bf16_words = make(true);
  return bf16 ? bf16_words : f16;
}

// Whether f16 takes the KHR module: KHR where the device has it (on the H200 f16 ran much
// faster on KHR matrices than on NV ones, the same module). The
// coopmat_api override (khr or nv) forces one; a path the device lacks is an error.
bool f16_on_khr(const VulkanBackend& b) {
  const DeviceCaps& caps = b.context().caps();
  const std::string api = overrides()->coopmat_api.value_or("auto");
  if (api != "auto" && api != "khr" && api != "nv") {
    throw Error("[dot] override coopmat_api='" + api + "': expected auto, khr or nv");
  }
  if ((api == "khr" && !caps.coopmat_khr) || (api == "nv" && !caps.coopmat_nv)) {
    throw Error("[dot] override coopmat_api='" + api + "': " + b.context().name() +
                " has no such cooperative matrices with 16x16x16 f16");
  }
  return api == "khr" || (api == "auto" && caps.coopmat_khr);
}
}  // namespace

Pipeline gemm_pipeline(VulkanBackend& b, const GemmLaunch& launch, DType d, std::uint32_t mode) {
  const DotChoice& t = launch.choice;
  std::vector<std::uint32_t> constants = launch.constants;
  constants.at(6) = mode;
  if (mode == 2) {  // the tiled module's pass adds any kernel's partials; its tile unused
    return b.pipelines().get(module_for(b, d), 3, add_pass_constants(launch));
  }
  if (t.kernel == DotKernel::tiled) {  // constants 1..8
    return b.pipelines().get(module_for(b, d), 3, {constants.begin(), constants.begin() + 8});
  }
  if (t.kernel == DotKernel::coopmat) {
    // Direct fragment stores need every row of C 16-byte aligned: f16 C (mode 0) by its
    // strides, the f32 partials (mode 1, contiguous [batch, splits, M, N]) by N.
    const DotPush& p = launch.push;
    const bool aligned =
        mode == 1 ? p.n % 4 == 0 : (p.batch == 1 || p.scb % 8 == 0) && p.scm % 8 == 0;
    // bf16's direct stores would round C to f16 (the module's converted fragments).
    const bool direct = t.direct_c && aligned && (mode == 1 || d != DType::bf16);
    constants.insert(constants.end(),
                     {t.wm, t.wn, t.stages, t.threads(), static_cast<std::uint32_t>(direct)});
    if (d == DType::bf16 || f16_on_khr(b)) {
      const bool bf16 = d == DType::bf16;
      return b.pipelines().get_recompiled(
          bf16 ? "linalg_dot_coopmat_bf16" : "linalg_dot_coopmat_khr", khr_coopmat_module(bf16), 3,
          constants);
    }
    return b.pipelines().get("linalg_dot_coopmat", 3, constants);
  }
  return b.pipelines().get(b.variant("linalg_dot_reg", {d}), 3, constants);
}

std::vector<std::uint32_t> add_pass_constants(const GemmLaunch& launch) {
  return {launch.constants.at(0), 4, 4, 8, 1, 0, 2, launch.constants.at(7)};
}

namespace testing {
DotKernel last_dot_kernel() {
  return g_last_kernel.load();
}
}  // namespace testing

bool linalg_supported(const VulkanBackend& b, const OpCall& call) {
  // The decompositions and solve fall back to the cpu (LAPACK); triangular_solve is native.
  if (call.op == Op::triangular_solve) {
    return !is_complex(call.out_dtype) && triangular_solve_supported(b, call);
  }
  if (call.op != Op::dot || !b.dtype_supported(call.out_dtype)) return false;
  // Both operands of C's dtype, or f16/bf16 operands of an f32 C (the core's widening product).
  const DType operands = call.inputs.at(0).dtype();
  const bool widening = call.out_dtype == DType::f32 &&
                        (operands == DType::f16 || operands == DType::bf16) &&
                        b.dtype_supported(operands);
  if (call.inputs.at(1).dtype() != operands || (operands != call.out_dtype && !widening)) {
    return false;
  }
  return gemm_view(call).has_value();
}

namespace {

// Records out = a . b for the GEMM view v, the operands read as dtype d (a complex dot passes
// its tensors read as their parts' real type) and C stored as c_type: d, or f32 for f16/bf16
// operands (the core's widening product), which takes MODE 1's unrounded f32 sums, straight
// into C when K is not split and C is contiguous, else added into C by the f32 module's pass.
// With prepare_only, creates the pipelines it would use and records nothing (a, bt and out
// unused).
void record_or_prepare_gemm(VulkanBackend& b, const GemmView& v, DType d, DType c_type,
                            const Tensor& a, const Tensor& bt, const Tensor& out,
                            bool prepare_only) {
  const GemmLaunch launch = gemm_launch(b, v, d);
  GemmLaunch add_launch = launch;
  add_launch.constants.at(0) = static_cast<std::uint32_t>(c_type);
  const bool widening = c_type != d;
  const bool c_contiguous = v.c[1] == v.n && (v.batch == 1 || v.c[0] == v.m * v.n);
  const bool one_pass = launch.splits == 1 && (!widening || c_contiguous);
  const std::uint32_t main_mode = one_pass && !widening ? 0 : 1;
  auto pipeline = [&](std::uint32_t mode) {
    return mode == 2 ? gemm_pipeline(b, add_launch, c_type, 2) : gemm_pipeline(b, launch, d, mode);
  };
  if (prepare_only) {
    (void)pipeline(main_mode);
    if (!one_pass) (void)pipeline(2);
    return;
  }
  g_last_kernel.store(launch.choice.kernel);
  const DotPush& push = launch.push;
  const std::array<std::uint32_t, 3>& groups = launch.groups;
  if (one_pass) {
    b.dispatch_groups(pipeline(main_mode), {{&a, false}, {&bt, false}, {&out, true}}, &push,
                      sizeof(push), groups);
    return;
  }
  // Partial sums per chunk into pooled scratch, then one pass adding them in chunk order.
  const std::int64_t out_elements = v.batch * v.m * v.n;
  const OpCall scratch_call{Op::dot,
                            {},
                            NoParams{},
                            launch.acc,
                            Shape{static_cast<std::int64_t>(launch.splits) * out_elements}};
  const Tensor scratch = b.make_output(scratch_call);
  b.dispatch_groups(pipeline(1), {{&a, false}, {&bt, false}, {&scratch, true}}, &push, sizeof(push),
                    groups);
  b.dispatch(pipeline(2), {{&scratch, false}, {&scratch, false}, {&out, true}}, &push, sizeof(push),
             static_cast<std::uint64_t>(out_elements));
}

// A complex dot as one real GEMM (dtype of the parts): a [M, K] complex is a real [M, 2K]
// matrix (read in place when its K stride is 1, else copied contiguous first), b becomes
// the real [2K, 2N] matrix of 2x2 blocks [[re, im], [-im, re]] (linalg_complex_expand.comp),
// and the real [M, 2N] product is the complex result, parts interleaved: re = sum(ar br -
// ai bi), im = sum(ar bi + ai br). The same real flops as a complex kernel; the tiled and
// register-blocked kernels serve it unchanged.
void record_complex_dot(VulkanBackend& b, const GemmView& v, const Tensor& a, const Tensor& bt,
                        const Tensor& out) {
  const DType cd = out.dtype();
  const DType part = to_real_type(cd);
  GemmView r = v;
  r.n = 2 * v.n;
  r.k = 2 * v.k;
  r.c = {2 * v.c[0], 2 * v.c[1]};
  // a with K stride 1 as it is; otherwise a contiguous [batch_a, M, K] copy.
  std::optional<Tensor> a_copy;
  if (v.a[2] == 1 || v.k <= 1 || a.size() == 0) {
    r.a = {2 * v.a[0], 2 * v.a[1], 1};
  } else {
    const std::int64_t batch_a = v.a[0] == 0 ? 1 : v.batch;
    a_copy = b.make_output(OpCall{Op::dot, {}, NoParams{}, cd, Shape{batch_a, v.m, v.k}});
    run_strided(b, a, *a_copy,
                collapse(StridedView{{batch_a, v.m, v.k},
                                     {v.a[0], v.a[1], v.a[2]},
                                     contiguous_strides(Shape{batch_a, v.m, v.k})}));
    r.a = {v.a[0] == 0 ? 0 : 2 * v.m * v.k, 2 * v.k, 1};
  }
  // b expanded once per batch it has (a batch stride of 0 shares one).
  const std::int64_t batch_b = v.b[0] == 0 ? 1 : v.batch;
  const Tensor b_real =
      b.make_output(OpCall{Op::dot, {}, NoParams{}, part, Shape{batch_b, 2 * v.k, 2 * v.n}});
  r.b = {v.b[0] == 0 ? 0 : 4 * v.k * v.n, 2 * v.n, 1};
  if (bt.size() > 0) {
    const struct {
      std::uint32_t n, cols, depth, sbb, sbk, sbn;
    } push{static_cast<std::uint32_t>(batch_b * v.k * v.n),
           static_cast<std::uint32_t>(v.n),
           static_cast<std::uint32_t>(v.k),
           static_cast<std::uint32_t>(v.b[0]),
           static_cast<std::uint32_t>(v.b[1]),
           static_cast<std::uint32_t>(v.b[2])};
    const Pipeline p = b.pipelines().get("linalg_complex_expand", 2, {cd == DType::c128 ? 2u : 1u});
    b.dispatch(p, {{&bt, false}, {&b_real, true}}, &push, sizeof(push),
               grid_stride_threads(push.n));
  }
  record_gemm(b, r, part, a_copy ? *a_copy : a, b_real, out);
}

}  // namespace

void record_gemm(VulkanBackend& b, const GemmView& v, DType d, const Tensor& a, const Tensor& bt,
                 const Tensor& out) {
  record_or_prepare_gemm(b, v, d, d, a, bt, out, false);
}

void prepare_linalg(VulkanBackend& b, const OpCall& call) {
  if (call.op != Op::dot || is_complex(call.out_dtype)) return;  // complex: at its first run
  const std::optional<GemmView> view = gemm_view(call);
  if (!view) return;
  record_or_prepare_gemm(b, *view, call.inputs[0].dtype(), call.out_dtype, call.inputs[0],
                         call.inputs[1], call.inputs[0], true);
}

Tensor run_linalg(VulkanBackend& b, const OpCall& call) {
  if (call.op == Op::triangular_solve) return run_triangular_solve(b, call);
  if (call.op != Op::dot) {
    throw Unsupported("[" + std::string(op_name(call.op)) + "] is not a linalg op");
  }
  const std::optional<GemmView> view = gemm_view(call);
  if (!view) throw Unsupported("[dot] operand layout has no native " + b.name() + " kernel");
  Tensor out = b.make_output(call);
  if (out.size() == 0) return out;  // K == 0 still runs: the kernel writes the zeros
  if (is_complex(call.out_dtype)) {
    record_complex_dot(b, *view, call.inputs[0], call.inputs[1], out);
  } else {
    record_or_prepare_gemm(b, *view, call.inputs[0].dtype(), call.out_dtype, call.inputs[0],
                           call.inputs[1], out, false);
  }
  return out;
}

}  // namespace vkt::vk
