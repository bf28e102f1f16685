// The Vulkan backend: one device, its pool, recorder and pipeline cache. Op families live
// in files named like src/cpu/'s (creation.cpp, conversion.cpp, movement.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "compile/fused_group.h"
#include "vkt/backend.h"
#include "vkt/backend/op_call.h"
#include "vulkan/runtime/context.h"
#include "vulkan/runtime/device_timer.h"
#include "vulkan/runtime/memory.h"
#include "vulkan/runtime/op_profiler.h"
#include "vulkan/runtime/pinned_reads.h"
#include "vulkan/runtime/pipelines.h"
#include "vulkan/runtime/recorder.h"
#include "vulkan/runtime/storage.h"
#include "vulkan/runtime/transfer.h"

namespace vkt::vk {

class FftPlans;  // fft.h

// How device-to-device copies are made on this device.
enum class CopyPath { transfer_command, compute_shader };

class VulkanBackend final : public Backend {
 public:
  explicit VulkanBackend(int index);
  ~VulkanBackend() override;

  // "vulkan:<index>:<device>", as torch's cuda:0: two devices of one model are told apart.
  std::string name() const override {
    return "vulkan:" + std::to_string(ctx_.index()) + ":" + ctx_.name();
  }
  std::shared_ptr<Storage> from_host(const void* data, std::size_t nbytes) override;
  void to_host(const Storage& storage, std::size_t offset, void* dst, std::size_t nbytes) override;
  std::shared_ptr<Storage> to_host_storage(const Storage& storage, std::size_t nbytes,
                                           Backend& host) override;
  bool supports(const OpCall& call) const override;
  Tensor execute(const OpCall& call) override;
  // Creates the pipelines of elementwise, dot and reduction calls (the large ones);
  // other families create theirs at their first run.
  void prepare(const OpCall& call) override;
  void synchronize() override;
  void begin_device_timer() override;
  void end_device_timer() override;
  double device_timer_us() override;
  std::vector<double> device_timer_passes_us() override;
  void begin_op_profile() override;
  std::vector<OpTime> end_op_profile() override;
  std::vector<std::pair<std::string, std::string>> properties() const override;
  MemoryStats memory_stats() const override;
  void reset_peak_memory() override;

  // For op families (called with the backend lock held).
  const Context& context() const { return ctx_; }
  MemoryPool& pool() { return pool_; }
  Recorder& recorder() { return recorder_; }
  Pipelines& pipelines() { return pipelines_; }
  CopyPath copy_path() const { return copy_path_; }
  // The path for a copy of `bytes`: vkCmdCopyBuffer up to small_copy_max_ (where the
  // device starts it sooner than a dispatch), else copy_path().
  CopyPath copy_path_for(std::uint64_t bytes) const {
    return bytes <= small_copy_max_ ? CopyPath::transfer_command : copy_path_;
  }
  // Whether this device's f32 arithmetic flushes subnormals (probed once when the backend
  // is made, float_flush.cpp). The real kernels decide on the bits and do not care; c64
  // arithmetic and complex conversions, written with plain float math, fall back where true.
  bool flushes_f32() const { return flushes_f32_; }
  // Waits for recorded work, drops cached FFT plans and returns unused pool blocks.
  void trim_memory();
  // A new output tensor (poisoned with 0xFF bytes when VKT_POISON=1), held by the batch.
  Tensor make_output(const OpCall& call);
  // True when shaders can read/write a dtype on this device.
  bool dtype_supported(DType d) const;
  // The shader variant ("conversion", "conversion_i64", "conversion_i64_f64") for dtypes.
  std::string variant(const std::string& family, std::initializer_list<DType> dtypes) const;
  // Which of the three variants: 0 (no 64-bit types), 1 (_i64), 2 (_i64_f64).
  static std::size_t variant_index(std::initializer_list<DType> dtypes);
  // Between begin_device_timer and end_device_timer: closes one pass of a multi-pass op
  // (device_timer_passes_us); elsewhere nothing.
  void mark_device_timer() { timer_.mark(recorder_); }
  // Records a dispatch of `threads` invocations (grid kept within maxComputeWorkGroupCount).
  void dispatch(const Pipeline& p, const std::vector<std::pair<const Tensor*, bool>>& buffers,
                const void* push, std::uint32_t push_bytes, std::uint64_t threads);
  // Records a dispatch of an explicit grid (each count within maxComputeWorkGroupCount).
  void dispatch_groups(const Pipeline& p,
                       const std::vector<std::pair<const Tensor*, bool>>& buffers, const void* push,
                       std::uint32_t push_bytes, const std::array<std::uint32_t, 3>& groups);

  // vkt::compile (compiled.cpp): runs `body` holding the backend lock, as entry points do.
  // `label` names the kernel in an op profile (begin_op_profile).
  void locked(const std::function<void()>& body);
  void locked(const std::function<void()>& body, const std::function<std::string()>& label);

  // Test hooks (testing.h).
  void set_native_disabled(Op op, bool disabled);
  // The next submit or wait reports VK_ERROR_DEVICE_LOST (see Recorder::inject_device_lost).
  void inject_device_lost();
  bool lost() const;
  // Forces `path` for copies of every size (tests).
  void set_copy_path(CopyPath path) {
    copy_path_ = path;
    small_copy_max_ = 0;
  }
  std::uint64_t small_copy_max() const { return small_copy_max_; }
  void set_small_copy_max(std::uint64_t bytes) { small_copy_max_ = bytes; }
  // Tests: the rules taken as if the flush probe had answered `flushes` (nullopt: its answer),
  // so a device that keeps subnormals also runs a flushing device's fallbacks.
  void assume_f32_flushes(std::optional<bool> flushes) {
    flushes_f32_ = flushes.value_or(probed_flushes_f32_);
  }
  DeviceLimits& mutable_limits() { return ctx_.mutable_limits(); }
  PinnedPool& pinned_pool() { return pinned_; }
  // VkFFT plans (fft.cpp), made on the first transform.
  FftPlans& fft_plans();
  // Lines longer than this take the radix sort even where one workgroup could sort them
  // (a test hook; 0: always the radix sort). Default: no limit.
  std::uint64_t sort_local_max() const { return sort_local_max_; }
  void set_sort_local_max(std::uint64_t n) { sort_local_max_ = n; }

 private:
  bool shader_ops_ok(const OpCall& call) const;
  Tensor run(const OpCall& call);
  // Runs `body` as one op of an op profile (op_profiler.h) when one is open.
  void profiled(const std::function<void()>& body, const std::function<std::string()>& label);
  // Runs an entry point's body with the lock held. On a device known to be lost: DeviceLost
  // at once. A DeviceLost from the driver (real or injected) marks the device lost for good:
  // its recorder is abandoned, and every later call and read of its tensors fails the same way.
  template <class F>
  decltype(auto) guarded(F&& body);
  // A pooled storage; on out-of-memory, waits for in-flight work, trims the pool, retries.
  std::shared_ptr<VulkanStorage> new_storage(std::size_t nbytes);

  Context ctx_;
  MemoryPool pool_;
  // Host tensors of at most Transfers::kInlineBytes uploaded by a memcpy into device-local,
  // host-visible memory; null where working memory is host-mapped anyway, where the device
  // has no such memory, or with Overrides::small_uploads_mapped off (vkCmdUpdateBuffer, a
  // command and a barrier before the op that reads it).
  std::unique_ptr<MemoryPool> small_uploads_;
  // Destroyed after the recorder, which waits for the work that uses the plans.
  std::unique_ptr<FftPlans> fft_plans_;
  Recorder recorder_;
  Pipelines pipelines_;
  Transfers transfers_;
  PinnedPool pinned_;
  DeviceTimer timer_;
  OpProfiler profiler_;
  CopyPath copy_path_;
  std::uint64_t small_copy_max_ = 0;  // see copy_path_for
  // dispatch_groups' working lists, kept to spare three heap allocations per dispatch.
  std::vector<Access> dispatch_accesses_;
  std::vector<VkDescriptorBufferInfo> dispatch_infos_;
  std::vector<VkWriteDescriptorSet> dispatch_writes_;
  bool flushes_f32_ = true;
  bool probed_flushes_f32_ = true;
  bool poison_ = false;
  std::string copy_path_report_;
  std::uint64_t sort_local_max_;
  mutable std::recursive_mutex mutex_;
  std::set<Op> disabled_;
  std::string lost_;  // the driver's report of the loss; empty while the device works
};

// Invocations to launch for a grid-stride shader over `elements` (shaders/common.glsl,
// grid_stride): four elements each.
inline std::uint64_t grid_stride_threads(std::uint64_t elements) {
  return elements < 4 ? 1 : (elements + 3) / 4;
}

// Op families (each in the file of the same name).
Tensor run_creation(VulkanBackend& b, const OpCall& call);
Tensor run_conversion(VulkanBackend& b, const OpCall& call);
Tensor run_movement(VulkanBackend& b, const OpCall& call);
Tensor run_index(VulkanBackend& b, const OpCall& call);
bool creation_supported(const VulkanBackend& b, const OpCall& call);
bool conversion_supported(const VulkanBackend& b, const OpCall& call);
bool movement_supported(const VulkanBackend& b, const OpCall& call);
bool index_supported(const VulkanBackend& b, const OpCall& call);
Tensor run_unary(VulkanBackend& b, const OpCall& call);
Tensor run_binary(VulkanBackend& b, const OpCall& call);
// The pipelines run_unary / run_binary / run_linalg use for `call`, created (prepare()).
Pipeline unary_pipeline(VulkanBackend& b, const OpCall& call);
Pipeline binary_pipeline(VulkanBackend& b, const OpCall& call);
void prepare_linalg(VulkanBackend& b, const OpCall& call);
bool unary_supported(const VulkanBackend& b, const OpCall& call);
bool binary_supported(const VulkanBackend& b, const OpCall& call);
Tensor run_linalg(VulkanBackend& b, const OpCall& call);
bool linalg_supported(const VulkanBackend& b, const OpCall& call);
Tensor run_conv(VulkanBackend& b, const OpCall& call);
bool conv_supported(const VulkanBackend& b, const OpCall& call);
// A GEMM over [batch, M, K] x [batch, K, N] read in place: sizes and each operand's (batch,
// row, column) element strides; the output's rows have unit column stride.
struct GemmView {
  std::int64_t batch = 0, m = 0, n = 0, k = 0;
  std::array<std::int64_t, 3> a{}, b{};  // a: (batch, m, k); b: (batch, k, n)
  std::array<std::int64_t, 2> c{};       // out: (batch, m); n has stride 1
};
// K in `splits` chunks of `chunk` (a multiple of the kernel's K step `bk`).
struct KSplit {
  std::uint64_t splits, chunk;
};
// Splits K when an output of `out_tiles` tiles is too few to keep a large GPU busy and K is
// long: about 512 workgroups in all, chunks of at least 256, the partial sums (`out_elements`
// per chunk, `word` bytes each) at most 2^24 elements and within `max_range`. Otherwise one
// chunk. The rule of dot's GEMM and of conv's implicit GEMM (linalg.cpp).
KSplit choose_k_split(std::uint64_t out_tiles, std::uint64_t out_elements, std::uint64_t k,
                      std::uint64_t word, std::uint32_t bk, std::uint64_t max_range);
// Records out = a . b for `v`, all read as dtype d, by dot's kernels and rule (linalg.cpp);
// conv's im2col path uses it too.
void record_gemm(VulkanBackend& b, const GemmView& v, DType d, const Tensor& a, const Tensor& bt,
                 const Tensor& out);
Tensor run_triangular_solve(VulkanBackend& b, const OpCall& call);  // linalg_triangular.cpp
bool triangular_solve_supported(const VulkanBackend& b, const OpCall& call);
Tensor run_reduce(VulkanBackend& b, const OpCall& call);
// vkt::compile's fused reductions (compiled.cpp): eager's passes for `call`, whose input is
// a placeholder (dtype and shape only, never bound) when `fused` is set: the first dispatch
// then runs a generated variant of reduce.comp (VKT_FUSED_PROLOGUE, SPIR-V `words` cached
// under `key`) that evaluates an elementwise prologue from `leaves`, bound from 4 on.
struct FusedReduceSource {
  std::string key;
  std::vector<std::uint32_t> words;
  const std::vector<Tensor>* leaves = nullptr;
};
Tensor run_fused_reduce(VulkanBackend& b, const OpCall& call, const FusedReduceSource* fused);
// Creates the pipelines run_fused_reduce(b, call, fused) will use, recording nothing; any
// thread (a plan's first call prepares its kernels in parallel). fused->leaves: stand-ins
// with the leaves' dtypes and shapes.
void prepare_reduce(VulkanBackend& b, const OpCall& call, const FusedReduceSource* fused);
// The #defines of reduce.comp's variant that eager's first pass uses for `call` (64-bit
// ones guarded, so a generated source may define them too).
std::string reduce_variant_defines(const VulkanBackend& b, const OpCall& call);
Tensor run_cumulative(VulkanBackend& b, const OpCall& call);
bool reduce_supported(const VulkanBackend& b, const OpCall& call);
bool cumulative_supported(const VulkanBackend& b, const OpCall& call);
Tensor run_window(VulkanBackend& b, const OpCall& call);
bool window_supported(const VulkanBackend& b, const OpCall& call);
Tensor run_window_scatter(VulkanBackend& b, const OpCall& call);
bool window_scatter_supported(const VulkanBackend& b, const OpCall& call);
Tensor run_sort(VulkanBackend& b, const OpCall& call);
bool sort_supported(const VulkanBackend& b, const OpCall& call);
// Whether the radix sort can take 8-bit digits here (subgroup ballots, shared memory).
bool sort_radix8_available(const VulkanBackend& b);
Tensor run_fft(VulkanBackend& b, const OpCall& call);
bool fft_supported(const VulkanBackend& b, const OpCall& call);
// vkt::compile's fused elementwise groups as generated kernels (compiled.cpp); registered
// for every Vulkan backend when it is made.
std::unique_ptr<detail::FusedKernel> compile_fused(Backend& b, const detail::FusedGroup& group);
// Row groups (FusedGroup::rows) as one generated kernel (compiled_rows.cpp), for rows of at
// most kMaxFusedRow elements: 16 per invocation of a 256-invocation workgroup.
inline constexpr std::int64_t kMaxFusedRow = 4096;
std::unique_ptr<detail::FusedKernel> compile_rows(VulkanBackend& b,
                                                  const detail::FusedGroup& group);
// Whether a row kernel's first call runs a quicker-to-create split kernel while the full one
// is created on another thread: on GPUs, not on CPU devices, whose pipelines are quick and
// where tests count compiles (testing.h set_compile_tiers forces either).
bool compile_tiers(const VulkanBackend& b);
// A device-to-device copy of `bytes` from src+src_offset to dst+dst_offset by the device's
// copy path; counted as a ledger device copy.
void copy_range(VulkanBackend& b, const Tensor& src, const Tensor& dst, std::uint64_t src_offset,
                std::uint64_t dst_offset, std::uint64_t bytes);
// The same by a given path.
void record_copy(VulkanBackend& b, CopyPath path, const Tensor& src, const Tensor& dst,
                 std::uint64_t src_offset, std::uint64_t dst_offset, std::uint64_t bytes);
// c64 elementwise ops decided on the bits (comparisons, nonzero and NaN/inf tests), so
// exact on a device that flushes f32 subnormals; the rest of c64 runs on the cpu there.
inline bool c64_native_where_f32_flushes(Op op) {
  switch (op) {
    case Op::equal:
    case Op::not_equal:
    case Op::logical_and:
    case Op::logical_or:
    case Op::logical_xor:
    case Op::logical_not:
    case Op::is_nan:
    case Op::is_infinity:
      return true;
    default:
      return false;
  }
}
// Whether f32 arithmetic flushes subnormals on this device: 1e-20 * 1e-20 (1e-40, subnormal)
// by the elementwise kernel, read back (float_flush.cpp). True when the probe cannot run.
bool probe_f32_flush(VulkanBackend& b);
// The copy path this device runs faster, measured (copy_path.cpp); `report` says how.
// `small_transfer_max`: copies up to this many bytes are faster by vkCmdCopyBuffer where
// the shader wins on large ones (the measured crossover), else 0.
CopyPath measure_copy_path(VulkanBackend& b, std::string& report,
                           std::uint64_t& small_transfer_max);

}  // namespace vkt::vk
