// fft / ifft on the device: VkFFT (MIT, Debian's libvkfft-dev; its Vulkan backend generates
// GLSL per geometry and compiles it with glslang at plan time) recorded into the backend's
// command buffer. A large output (a buffer of its own) is written by the plan directly: from
// the input's own buffer where the input needs no conversion (VkFFT's isInputFormatted: no
// copy), else in place after one conversion of the input into it; the plan rebinds to each
// call's buffers once its last batch has completed. A small output goes through the plan's
// own device tensor (copy in, transform, copy out), so those plans never rebind. Any length
// (VkFFT's Bluestein path for prime factors above 13); f32 and f64 inputs are widened to
// complex, and lines padded or cropped, by shaders/fft.comp on their way in (irfft: the
// Hermitian half mirrored), and rfft's half or irfft's real parts taken on the way out.
#define VKFFT_BACKEND 0
#include "vulkan/ops/fft.h"

#include <vkFFT.h>  // the build's patched copy (src/vulkan/CMakeLists.txt)

#include <algorithm>
#include <clocale>
#include <string>
#include <vector>

#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/check.h"
#include "vulkan/runtime/storage.h"

namespace vkt::vk {
namespace {

// VkFFT prints its shaders under the "C" locale: it keeps the pointer setlocale(LC_ALL,
// nullptr) gives, switches, and restores from that pointer, which the switch has freed
// unless the locale was "C" already (a use-after-free ASan found under Python, whose locale
// is C.UTF-8). So the switch is made here first, and undone from a copy.
class CLocaleForVkFFT {
 public:
  CLocaleForVkFFT() {
    if (const char* now = std::setlocale(LC_ALL, nullptr)) saved_ = now;
    std::setlocale(LC_ALL, "C");
  }
  ~CLocaleForVkFFT() {
    if (!saved_.empty()) std::setlocale(LC_ALL, saved_.c_str());
  }
  CLocaleForVkFFT(const CLocaleForVkFFT&) = delete;
  CLocaleForVkFFT& operator=(const CLocaleForVkFFT&) = delete;

 private:
  std::string saved_;
};

}  // namespace

struct FftPlans::Plan {
  Tensor work;  // empty for a plan that writes each call's output
  // VkFFT keeps pointers to these; it rebinds its sets when handed another pointer, so a
  // new buffer goes into the other slot. `in` is used by direct plans only.
  VkBuffer out[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
  VkBuffer in[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
  int out_slot = 0, in_slot = 0;
  bool direct = false;
  std::uint64_t buffer_size = 0;  // to the end of the data: VkFFT binds from offset 0
  std::uint64_t input_size = 0;   // a direct plan's input: a whole buffer of g.bytes()
  std::uint64_t offset = 0;       // of the data in its buffer
  std::uint64_t last_use = 0;
  OwnedBuffer temp;  // VkFFT's temporary buffer where it cannot size its own (make())
  VkBuffer temp_handle = VK_NULL_HANDLE;
  VkFFTApplication app{};
  bool initialized = false;
  Plan() = default;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan() {
    if (initialized) deleteVkFFT(&app);
  }
};

FftPlans::FftPlans(const Context& ctx)
    : ctx_(ctx), physical_(ctx.physical()), device_(ctx.device()), queue_(ctx.queue()) {
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = ctx.queue_family();
  VkCommandPool pool = VK_NULL_HANDLE;
  check(vkCreateCommandPool(ctx.device(), &pool_info, nullptr, &pool), "vkCreateCommandPool (fft)");
  pool_ = Owned<VkCommandPool>(ctx.device(), pool, vkDestroyCommandPool);
  pool_handle_ = pool;
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  check(vkCreateFence(ctx.device(), &fence_info, nullptr, &fence), "vkCreateFence (fft)");
  fence_ = Owned<VkFence>(ctx.device(), fence, vkDestroyFence);
  fence_handle_ = fence;
  // One glslang process for every plan (shaderc's use of it is counted by glslang too).
  glslang_initialize_process();
}

FftPlans::~FftPlans() {
  plans_.clear();
  glslang_finalize_process();
}

FftPlans::Plan* FftPlans::find(const FftGeometry& g) {
  auto it = plans_.find(g);
  return it == plans_.end() ? nullptr : it->second.get();
}

FftPlans::Plan& FftPlans::make(const FftGeometry& g, VkBuffer buffer, std::uint64_t offset,
                               Tensor work) {
  const CLocaleForVkFFT c_locale;
  auto plan = std::make_unique<Plan>();
  plan->out[0] = buffer;
  plan->offset = offset;
  plan->buffer_size = offset + g.bytes();
  plan->input_size = g.bytes();
  plan->direct = g.binding == FftBinding::direct;
  plan->work = std::move(work);
  VkFFTConfiguration c{};
  if (g.inner > 1) {
    // The lines are interleaved: dimension 0 (contiguous) is not transformed.
    c.FFTdim = 2;
    c.size[0] = g.inner;
    c.size[1] = g.length;
    c.omitDimension[0] = 1;
  } else {
    c.FFTdim = 1;
    c.size[0] = g.length;
  }
  c.numberBatches = g.outer;
  c.physicalDevice = &physical_;
  c.device = &device_;
  c.queue = &queue_;
  c.commandPool = &pool_handle_;
  c.fence = &fence_handle_;
  c.isCompilerInitialized = 1;
  // No buffer at plan time: VkFFT writes its descriptor sets at the first launch, once the
  // buffers it makes after them (Bluestein's) exist; written earlier they name no buffer.
  c.buffer = nullptr;
  c.bufferSize = &plan->buffer_size;
  c.bufferOffset = plan->offset;  // fixed for the plan's life: its kernels have it built in
  if (plan->direct) {
    // Both directions read the input buffer and write `buffer` (VkFFT's out-of-place mode;
    // inverseReturnToInputBuffer stays off): the input is left as it was.
    c.isInputFormatted = 1;
    c.inputBuffer = nullptr;
    c.inputBufferSize = &plan->input_size;
  }
  c.doublePrecision = g.doubles ? 1 : 0;
  c.normalize = 1;  // the inverse divides by the length (NumPy's "backward" norm)
  VkFFTResult r = initializeVkFFT(&plan->app, c);
  if (r == VKFFT_SUCCESS && plan->offset != 0 && plan->app.configuration.allocateTempBuffer) {
    // VkFFT 1.2.26 sizes some descriptors of its temporary buffer (multi-pass and Bluestein
    // plans) by the main buffer's bound range, offset included, but allocates the buffer at
    // the data's size: a plan at an offset gets a temporary buffer of the bound range.
    deleteVkFFT(&plan->app);
    plan->app = VkFFTApplication{};
    plan->temp =
        create_buffer(ctx_, plan->buffer_size,
                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                          VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    plan->temp_handle = plan->temp.buffer.get();
    c.userTempBuffer = 1;
    c.tempBuffer = &plan->temp_handle;
    c.tempBufferSize = &plan->buffer_size;
    r = initializeVkFFT(&plan->app, c);
  }
  if (r != VKFFT_SUCCESS) {
    throw Unsupported("[fft] VkFFT could not plan " + std::to_string(g.outer) + " x " +
                      std::to_string(g.length) + " x " + std::to_string(g.inner) +
                      (g.doubles ? " c128" : " c64") + " (VkFFT error " + std::to_string(r) + ")");
  }
  plan->initialized = true;
  return *plans_.emplace(g, std::move(plan)).first->second;
}

void FftPlans::clear() {
  plans_.clear();
}

const Tensor& FftPlans::work(const Plan& p) {
  return p.work;
}

bool FftPlans::rebinds(const Plan& p, VkBuffer input, VkBuffer output) {
  return output != p.out[p.out_slot] || (p.direct && input != p.in[p.in_slot]);
}

std::uint64_t FftPlans::last_use(const Plan& p) {
  return p.last_use;
}

void FftPlans::record(Plan& p, VkCommandBuffer cmd, bool inverse, VkBuffer input, VkBuffer output,
                      std::uint64_t batch_value) {
  if (output != p.out[p.out_slot]) {
    p.out_slot = 1 - p.out_slot;
    p.out[p.out_slot] = output;
  }
  if (p.direct && input != p.in[p.in_slot]) {
    p.in_slot = 1 - p.in_slot;
    p.in[p.in_slot] = input;
  }
  p.last_use = batch_value;
  VkFFTLaunchParams launch{};
  launch.commandBuffer = &cmd;
  launch.buffer = &p.out[p.out_slot];
  launch.bufferOffset = p.offset;
  if (p.direct) launch.inputBuffer = &p.in[p.in_slot];
  const VkFFTResult r = VkFFTAppend(&p.app, inverse ? 1 : -1, &launch);
  if (r != VKFFT_SUCCESS) {
    throw Error("[fft] VkFFT could not record its transform (VkFFT error " + std::to_string(r) +
                ")");
  }
}

namespace {

struct Layout {
  std::uint64_t outer = 1, inner = 1;
};

// The axis's outer and inner extents (the same for the input and the output).
Layout layout_of(const Shape& shape, std::int64_t axis) {
  Layout l;
  for (std::int64_t a = 0; a < axis; ++a) l.outer *= static_cast<std::uint64_t>(shape[a]);
  for (std::size_t a = static_cast<std::size_t>(axis) + 1; a < shape.size(); ++a) {
    l.inner *= static_cast<std::uint64_t>(shape[a]);
  }
  return l;
}

std::uint32_t words_of(DType d) {
  return static_cast<std::uint32_t>(itemsize(d) / 4);
}

// Moves lines of n_in points of `src` into lines of n_out points of `dst`: a copy by the
// device's copy path where nothing changes, else shaders/fft.comp (pads with zeros, crops,
// widens real elements to complex, takes real parts). `stored` < n_out: the points from
// `stored` on are the conjugates of points n_out - k (irfft's Hermitian spectrum).
void move_lines(VulkanBackend& b, const Tensor& src, const Tensor& dst, const Layout& l,
                std::uint64_t n_in, std::uint64_t n_out, std::uint64_t stored = 0) {
  if (stored == 0) stored = n_out;
  const std::uint64_t count = l.outer * n_out * l.inner;
  if (n_in == n_out && stored == n_out && src.dtype() == dst.dtype()) {
    copy_range(b, src, dst, 0, 0, count * itemsize(dst.dtype()));
    return;
  }
  struct Push {
    std::uint32_t count, n_in, n_out, inner, take, stored;
  };
  const Push push{static_cast<std::uint32_t>(count),
                  static_cast<std::uint32_t>(n_in),
                  static_cast<std::uint32_t>(n_out),
                  static_cast<std::uint32_t>(l.inner),
                  static_cast<std::uint32_t>(std::min(n_in, stored)),
                  static_cast<std::uint32_t>(stored)};
  const Pipeline pipeline =
      b.pipelines().get("fft", 2, {words_of(src.dtype()), words_of(dst.dtype())});
  b.dispatch(pipeline, {{&src, false}, {&dst, true}}, &push, sizeof(push),
             grid_stride_threads(count));
}

}  // namespace

// Integer and 16-bit float inputs are read as f32 (an as_type on the device first): the same
// values the cpu kernel reads while it gathers lines, and VkFFT takes f32 or f64.
DType read_dtype(DType in) {
  return in == DType::f64 || is_complex(in) ? in : DType::f32;
}

bool fft_supported(const VulkanBackend& b, const OpCall& call) {
  const DType in = call.inputs[0].dtype();
  if (!b.dtype_supported(in) || (call.op == Op::rfft && is_complex(in))) return false;
  const DType transform = to_complex_type(read_dtype(in));  // what VkFFT works in
  const DType out = call.op == Op::irfft ? to_real_type(transform) : transform;
  if (call.out_dtype != out || !b.dtype_supported(transform)) return false;
  // The transform's own buffer holds every line at full length (rfft's output is shorter).
  const FftParams& p = call.get<FftParams>();
  const Layout l = layout_of(call.out_shape, p.axis);
  const std::uint64_t elements = l.outer * static_cast<std::uint64_t>(p.length) * l.inner;
  return elements < (std::uint64_t{1} << 31) &&
         elements * itemsize(transform) <= b.context().limits().max_storage_range;
}

Tensor run_fft(VulkanBackend& b, const OpCall& call) {
  if (!fft_supported(b, call)) {
    throw Unsupported("[" + std::string(op_name(call.op)) + "] " +
                      std::string(dtype_name(call.inputs[0].dtype())) + " has no native " +
                      b.name() + " kernel for these inputs");
  }
  Tensor out = b.make_output(call);
  if (out.size() == 0) return out;
  const Tensor& in = call.inputs[0];
  const DType read = read_dtype(in.dtype());
  const Tensor x = read == in.dtype()
                       ? in
                       : run_conversion(b, OpCall{Op::as_type, {in}, NoParams{}, read, in.shape()});
  const FftParams& p = call.get<FftParams>();
  const Layout l = layout_of(x.shape(), p.axis);
  const auto n = static_cast<std::uint64_t>(p.length);
  const auto n_in = static_cast<std::uint64_t>(x.shape()[static_cast<std::size_t>(p.axis)]);
  const auto n_out = static_cast<std::uint64_t>(call.out_shape[static_cast<std::size_t>(p.axis)]);
  if (n == 1) {  // the transform of one point is that point (VkFFT refuses length 1)
    move_lines(b, x, out, l, n_in, n_out);
    return out;
  }
  const DType transform = to_complex_type(x.dtype());
  FftGeometry g;
  g.length = n;
  g.outer = l.outer;
  g.inner = l.inner;
  g.doubles = transform == DType::c128;
  const BufferRange& dst = vulkan_storage(*out.storage()).range();
  const BufferRange& src = vulkan_storage(*x.storage()).range();
  FftPlans& plans = b.fft_plans();
  // An output with a buffer of its own (offset 0) is written by the plan: straight from an
  // input that needs no conversion and has a buffer of its own too, else in place after the
  // conversion. Others (and rfft's shorter output) go through the plan's own tensor, which
  // costs a second move but never rebinds.
  const bool whole_output =
      (call.op == Op::fft || call.op == Op::ifft) && dst.dedicated && dst.offset == 0;
  const bool direct =
      whole_output && x.dtype() == transform && n_in == n && src.dedicated && src.offset == 0;
  g.binding =
      direct ? FftBinding::direct : (whole_output ? FftBinding::in_place : FftBinding::work);
  Recorder& rec = b.recorder();
  FftPlans::Plan* plan = plans.find(g);
  if (plan == nullptr) {
    // VkFFT submits its table uploads on the queue itself: nothing of ours may be pending.
    rec.finish();
    // Plans keep device memory (their tensor, VkFFT's tables): a bounded set.
    constexpr std::size_t kKeptPlans = 32;
    if (plans.size() >= kKeptPlans) plans.clear();
    if (g.binding != FftBinding::work) {
      plan = &plans.make(g, dst.buffer, 0, Tensor());
    } else {
      OpCall work_call{
          call.op, {}, NoParams{}, transform, {static_cast<std::int64_t>(g.outer * n * g.inner)}};
      Tensor work = b.make_output(work_call);
      const BufferRange& w = vulkan_storage(*work.storage()).range();
      plan = &plans.make(g, w.buffer, w.offset, std::move(work));
    }
  }
  const Tensor& target = g.binding == FftBinding::work ? FftPlans::work(*plan) : out;
  const BufferRange& t = vulkan_storage(*target.storage()).range();
  if (FftPlans::rebinds(*plan, src.buffer, t.buffer)) {
    // Rebinding rewrites descriptor sets: the batches that used them must have completed.
    const std::uint64_t used = FftPlans::last_use(*plan);
    if (used >= rec.pending_value()) rec.submit();
    if (used != 0 && rec.completed_value() < used) rec.wait(used);
  }
  // VkFFT binds buffers from offset 0: the validation layer (rightly) counts the whole bound
  // range as used, so the hazard tracking does too.
  std::vector<Access> accesses = {{t.buffer, 0, t.offset + g.bytes(), true}};
  if (direct) {
    accesses.push_back({src.buffer, 0, g.bytes(), false});
    rec.hold(x.storage());
    rec.hold(out.storage());
  } else {
    // irfft: the first n / 2 + 1 points, the rest their conjugate mirror.
    move_lines(b, x, target, l, n_in, n, call.op == Op::irfft ? n / 2 + 1 : n);
  }
  VkCommandBuffer cmd = rec.begin_command(accesses);
  FftPlans::record(*plan, cmd, call.op == Op::ifft || call.op == Op::irfft, src.buffer, t.buffer,
                   rec.pending_value());
  rec.end_command();
  if (g.binding == FftBinding::work) move_lines(b, target, out, l, n, n_out);
  return out;
}

}  // namespace vkt::vk
