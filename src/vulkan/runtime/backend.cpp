#include "vulkan/runtime/backend.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#include "common/settings.h"
#include "vkt/error.h"
#include "vkt/ledger.h"
#include "vulkan/compile/kernel_cache.h"
#include "vulkan/ops/fft.h"
#include "vulkan/runtime/shader_limits.h"
#include "vulkan/runtime/testing.h"

namespace vkt {
namespace vk {
namespace {

constexpr std::uint64_t kNoCount = ~std::uint64_t{0};

// Small uploads by memcpy where the device has device-local, host-visible memory and working
// memory is not host-mapped anyway; tests force the command path (small_uploads_mapped=0).
std::unique_ptr<MemoryPool> small_upload_pool(const Context& ctx, const MemoryPool& working) {
  const bool mapped = overrides()->small_uploads_mapped.value_or(true);
  if (!mapped || working.host_mapped() || !MemoryPool::small_uploads_possible(ctx)) {
    return nullptr;
  }
  return std::make_unique<MemoryPool>(ctx, MemoryPool::Kind::small_uploads);
}

}  // namespace

VulkanBackend::VulkanBackend(int index)
    : ctx_(index),
      pool_(ctx_),
      small_uploads_(small_upload_pool(ctx_, pool_)),
      recorder_(ctx_),
      pipelines_(ctx_),
      transfers_(ctx_, pool_, recorder_),
      pinned_(ctx_),
      timer_(ctx_),
      profiler_(ctx_),
      copy_path_(CopyPath::transfer_command),
      poison_(settings().poison.value_or(false)),
      sort_local_max_(kNoCount) {
  pool_.set_reuse_clock(&recorder_.reuse_clock());
  detail::register_fused_compiler(*this, &compile_fused, {true, true, kMaxFusedRow, true});
  // shaderc's one-time start-up, off the first compiled call's path (kernel_cache.h).
  warm_up_shader_compiler();
  // The copy path, measured once, here (tests force one through set_copy_path).
  {
    std::lock_guard lock(mutex_);
    copy_path_ = measure_copy_path(*this, copy_path_report_, small_copy_max_);
  }
  flushes_f32_ = probed_flushes_f32_ = probe_f32_flush(*this);
}

VulkanBackend::~VulkanBackend() = default;

template <class F>
decltype(auto) VulkanBackend::guarded(F&& body) {
  std::lock_guard lock(mutex_);
  if (!lost_.empty()) {
    throw DeviceLost("[vulkan] the device " + ctx_.name() + " was lost (" + lost_ +
                     "); nothing more runs on it and its tensors cannot be read");
  }
  try {
    return body();
  } catch (const DeviceLost& e) {
    lost_ = e.what();
    recorder_.abandon();
    throw;
  }
}

std::shared_ptr<Storage> VulkanBackend::from_host(const void* data, std::size_t nbytes) {
  return guarded([&]() -> std::shared_ptr<Storage> {
    std::shared_ptr<VulkanStorage> s;
    if (small_uploads_ && nbytes > 0 && nbytes <= Transfers::kInlineBytes) {
      try {
        s = std::make_shared<VulkanStorage>(*this, nbytes, *small_uploads_);
      } catch (const OutOfMemory&) {
        // Its heap full (a 256 MiB BAR): working memory and an inline upload instead.
      }
    }
    if (!s) s = new_storage(nbytes);
    transfers_.upload(s->range(), data, nbytes);
    const bool by_memcpy = s->range().mapped != nullptr || s->range().write_mapped != nullptr;
    if (nbytes > 0 && !by_memcpy) recorder_.hold(s);
    return s;
  });
}

void VulkanBackend::to_host(const Storage& storage, std::size_t offset, void* dst,
                            std::size_t nbytes) {
  guarded([&] { transfers_.download(vulkan_storage(storage).range(), offset, dst, nbytes); });
}

std::shared_ptr<Storage> VulkanBackend::to_host_storage(const Storage& storage, std::size_t nbytes,
                                                        Backend& host) {
  // Host-mapped working memory (lavapipe, integrated GPUs) is read with one memcpy by the
  // core; small reads go through the staging ring (see PinnedPool::kMinBytes).
  if (pool_.host_mapped() || !pinned_.available() || nbytes < PinnedPool::kMinBytes) return nullptr;
  return guarded([&]() -> std::shared_ptr<Storage> {
    std::unique_ptr<OwnedBuffer> buffer = pinned_.take(nbytes);
    if (buffer == nullptr) return nullptr;
    auto out = std::make_shared<PinnedStorage>(host, nbytes, pinned_, std::move(buffer));
    transfers_.download_to_buffer(vulkan_storage(storage).range(), out->buffer(), nbytes);
    return out;
  });
}

// The working pool and the small-upload pool together (both hold tensors); peaks are
// summed, an upper bound where the two peaked at different moments.
Backend::MemoryStats VulkanBackend::memory_stats() const {
  MemoryStats m;
  const MemoryPool* const pools[] = {&pool_, small_uploads_.get()};
  for (const MemoryPool* p : pools) {
    if (p == nullptr) continue;
    const MemoryPool::Usage u = p->usage();
    m.in_use += u.in_use;
    m.reserved += u.reserved;
    m.peak_in_use += u.peak_in_use;
    m.peak_reserved += u.peak_reserved;
  }
  return m;
}

void VulkanBackend::reset_peak_memory() {
  pool_.reset_peaks();
  if (small_uploads_) small_uploads_->reset_peaks();
}

std::vector<std::pair<std::string, std::string>> VulkanBackend::properties() const {
  const VkPhysicalDeviceProperties& p = ctx_.properties();
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &driver};
  vkGetPhysicalDeviceProperties2(ctx_.physical(), &p2);
  auto version = [](std::uint32_t v) {
    return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) +
           "." + std::to_string(VK_API_VERSION_PATCH(v));
  };
  char vendor[16];
  std::snprintf(vendor, sizeof(vendor), "0x%04x", p.vendorID);
  return {
      {"device_name", p.deviceName},
      {"device_type", device_type_name(p.deviceType)},
      {"driver_version", std::string(driver.driverName) + " " + driver.driverInfo},
      {"api_version", version(p.apiVersion)},
      {"vendor_id", vendor},
      {"copy_path", copy_path_ == CopyPath::compute_shader ? "compute_shader" : "vkCmdCopyBuffer"},
      {"copy_path_chosen_by", copy_path_report_},
      {"copy_small_transfer_max_bytes", std::to_string(small_copy_max_)},
      {"small_uploads", pool_.host_mapped() ? "memcpy (working memory is host-mapped)"
                        : small_uploads_ ? "mapped (memcpy into device-local, host-visible memory)"
                                         : "command (vkCmdUpdateBuffer)"},
      {"f32_flushes_subnormals", flushes_f32_ ? "yes (probed)" : "no (probed)"},
      {"pipeline_cache", pipelines_.cache_report()}};
}

void VulkanBackend::synchronize() {
  guarded([&] { recorder_.finish(); });
}

void VulkanBackend::begin_device_timer() {
  guarded([&] { timer_.begin(recorder_); });
}

void VulkanBackend::end_device_timer() {
  guarded([&] { timer_.end(recorder_); });
}

double VulkanBackend::device_timer_us() {
  return guarded([&] {
    recorder_.finish();
    return timer_.elapsed_us();
  });
}

std::vector<double> VulkanBackend::device_timer_passes_us() {
  return guarded([&] { return timer_.passes_us(); });
}

std::shared_ptr<VulkanStorage> VulkanBackend::new_storage(std::size_t nbytes) {
  try {
    return std::make_shared<VulkanStorage>(*this, nbytes, pool_);
  } catch (const OutOfMemory&) {
    if (nbytes > ctx_.limits().max_allocation) throw;  // no amount of freeing helps
    trim_memory();
    return std::make_shared<VulkanStorage>(*this, nbytes, pool_);
  }
}

void VulkanBackend::trim_memory() {
  recorder_.quiesce();  // releases what finished batches held
  // Cached FFT plans hold work buffers from the pool: dropped, and remade when next used.
  if (fft_plans_) fft_plans_->clear();
  pool_.trim();
  if (small_uploads_) small_uploads_->trim();
}

bool VulkanBackend::dtype_supported(DType d) const {
  const DeviceCaps& c = ctx_.caps();
  if (!c.storage8 || !c.storage16) return false;
  if (d == DType::f64 || d == DType::c128) return c.float64 && c.int64;
  if (d == DType::u64 || d == DType::s64) return c.int64;
  return true;
}

std::size_t VulkanBackend::variant_index(std::initializer_list<DType> dtypes) {
  bool i64 = false, f64 = false;
  for (DType d : dtypes) {
    f64 = f64 || d == DType::f64 || d == DType::c128;
    i64 = i64 || f64 || d == DType::u64 || d == DType::s64;
  }
  return f64 ? 2 : i64 ? 1 : 0;
}

std::string VulkanBackend::variant(const std::string& family,
                                   std::initializer_list<DType> dtypes) const {
  static constexpr const char* kSuffix[] = {"", "_i64", "_i64_f64"};
  return family + kSuffix[variant_index(dtypes)];
}

bool VulkanBackend::shader_ops_ok(const OpCall& call) const {
  return within_shader_limits(call, ctx_.limits().max_storage_range);
}

namespace {
bool touches_complex(const OpCall& call) {
  if (is_complex(call.out_dtype)) return true;
  for (const Tensor& t : call.inputs) {
    if (t.defined() && is_complex(t.dtype())) return true;
  }
  return false;
}

// Families with complex kernels here; their supports() decide per op and dtype (c128 where
// the device has f64; elementwise ops by the op table's complex rule; linalg: dot only;
// reduce: sum, any, all; cumulative: cumulative_sum; window: window_sum).
// The others run complex on the cpu by the fallback rule. The FFT family (branch fft) adds
// its own line here.
bool complex_family(OpFamily family) {
  switch (family) {
    case OpFamily::creation:
    case OpFamily::conversion:
    case OpFamily::movement:
    case OpFamily::indexing:
    case OpFamily::unary:
    case OpFamily::binary:
    case OpFamily::linalg:
    case OpFamily::reduce:
    case OpFamily::cumulative:
    case OpFamily::window:
      return true;
    default:
      return false;
  }
}
}  // namespace

bool VulkanBackend::supports(const OpCall& call) const {
  std::lock_guard lock(mutex_);
  if (disabled_.count(call.op) != 0) return false;
  // The transforms are complex by nature: decided before the complex gate below.
  if (op_family(call.op) == OpFamily::fft) return shader_ops_ok(call) && fft_supported(*this, call);
  if (touches_complex(call) && !complex_family(op_family(call.op))) return false;
  switch (op_family(call.op)) {
    case OpFamily::creation:
      return shader_ops_ok(call) && creation_supported(*this, call);
    case OpFamily::conversion:
      return (call.op == Op::copy || shader_ops_ok(call)) && conversion_supported(*this, call);
    case OpFamily::movement:
      return movement_supported(*this, call);
    case OpFamily::indexing:
      return index_supported(*this, call);
    case OpFamily::unary:
      return shader_ops_ok(call) && unary_supported(*this, call);
    case OpFamily::binary:
      return shader_ops_ok(call) && binary_supported(*this, call);
    case OpFamily::linalg:
      return shader_ops_ok(call) && linalg_supported(*this, call);
    case OpFamily::conv:
      return shader_ops_ok(call) && conv_supported(*this, call);
    case OpFamily::reduce:
    case OpFamily::argreduce:
      return shader_ops_ok(call) && reduce_supported(*this, call);
    case OpFamily::cumulative:
      return shader_ops_ok(call) && cumulative_supported(*this, call);
    case OpFamily::window:
      return shader_ops_ok(call) && window_supported(*this, call);
    case OpFamily::window_scatter:
      return shader_ops_ok(call) && window_scatter_supported(*this, call);
    case OpFamily::sort:
      return shader_ops_ok(call) && sort_supported(*this, call);
    default:
      return false;
  }
}

FftPlans& VulkanBackend::fft_plans() {
  if (!fft_plans_) fft_plans_ = std::make_unique<FftPlans>(ctx_);
  return *fft_plans_;
}

void VulkanBackend::locked(const std::function<void()>& body) {
  guarded(body);
}

void VulkanBackend::locked(const std::function<void()>& body,
                           const std::function<std::string()>& label) {
  guarded([&] { profiled(body, label); });
}

Tensor VulkanBackend::execute(const OpCall& call) {
  return guarded([&] {
    Tensor out;
    profiled([&] { out = run(call); }, [&] { return op_label(call); });
    recorder_.end_op();  // may submit a piece of the batch (the flush bound)
    return out;
  });
}

void VulkanBackend::profiled(const std::function<void()>& body,
                             const std::function<std::string()>& label) {
  if (!profiler_.active()) return body();
  profiler_.op_start(recorder_);
  try {
    body();
  } catch (...) {
    profiler_.op_end(recorder_, label() + " (failed)");
    throw;
  }
  profiler_.op_end(recorder_, label());
}

void VulkanBackend::begin_op_profile() {
  guarded([&] {
    recorder_.finish();
    profiler_.begin();
  });
}

std::vector<Backend::OpTime> VulkanBackend::end_op_profile() {
  return guarded([&] {
    recorder_.finish();
    return profiler_.end();
  });
}

void VulkanBackend::prepare(const OpCall& call) {
  if (call.inputs.empty() || numel(call.out_shape) == 0 || !supports(call)) return;
  switch (op_family(call.op)) {
    case OpFamily::unary:
      (void)unary_pipeline(*this, call);
      return;
    case OpFamily::binary:
      (void)binary_pipeline(*this, call);
      return;
    case OpFamily::linalg:
      prepare_linalg(*this, call);
      return;
    case OpFamily::reduce:
    case OpFamily::argreduce:
      prepare_reduce(*this, call, nullptr);
      return;
    default:
      return;
  }
}

Tensor VulkanBackend::run(const OpCall& call) {
  switch (op_family(call.op)) {
    case OpFamily::creation:
      return run_creation(*this, call);
    case OpFamily::conversion:
      return run_conversion(*this, call);
    case OpFamily::movement:
      return run_movement(*this, call);
    case OpFamily::indexing:
      return run_index(*this, call);
    case OpFamily::unary:
      return run_unary(*this, call);
    case OpFamily::binary:
      return run_binary(*this, call);
    case OpFamily::linalg:
      return run_linalg(*this, call);
    case OpFamily::conv:
      return run_conv(*this, call);
    case OpFamily::reduce:
    case OpFamily::argreduce:
      return run_reduce(*this, call);
    case OpFamily::cumulative:
      return run_cumulative(*this, call);
    case OpFamily::window:
      return run_window(*this, call);
    case OpFamily::window_scatter:
      return run_window_scatter(*this, call);
    case OpFamily::sort:
      return run_sort(*this, call);
    case OpFamily::fft:
      return run_fft(*this, call);
    default:
      throw Unsupported("[" + std::string(op_name(call.op)) + "] has no " + name() + " kernel");
  }
}

Tensor VulkanBackend::make_output(const OpCall& call) {
  const std::size_t nbytes =
      static_cast<std::size_t>(numel(call.out_shape)) * itemsize(call.out_dtype);
  auto s = new_storage(nbytes);
  if (poison_ && nbytes > 0) {
    // Unwritten output elements then read as 0xFF bytes, which the conformance tests catch.
    const BufferRange& r = s->range();
    if (r.mapped != nullptr) {
      std::memset(r.mapped, 0xFF, r.size);
    } else {
      VkCommandBuffer cmd = recorder_.begin_command({{r.buffer, r.offset, r.size, true}});
      vkCmdFillBuffer(cmd, r.buffer, r.offset, r.size, 0xFFFFFFFFu);
      recorder_.end_command();
      recorder_.hold(s);
    }
  }
  return Tensor(call.out_dtype, call.out_shape, std::move(s));
}

void VulkanBackend::dispatch(const Pipeline& p,
                             const std::vector<std::pair<const Tensor*, bool>>& buffers,
                             const void* push, std::uint32_t push_bytes, std::uint64_t threads) {
  if (threads == 0) return;
  // A 2-D grid when one axis would pass maxComputeWorkGroupCount[0].
  const std::uint64_t groups = (threads + p.workgroup_size - 1) / p.workgroup_size;
  const std::uint64_t gx = std::min<std::uint64_t>(groups, ctx_.limits().max_group_count[0]);
  const std::uint64_t gy = (groups + gx - 1) / gx;
  if (gy > ctx_.limits().max_group_count[1]) {
    throw Unsupported("[vulkan] a dispatch of " + std::to_string(threads) +
                      " invocations exceeds maxComputeWorkGroupCount of " + ctx_.name());
  }
  dispatch_groups(p, buffers, push, push_bytes,
                  {static_cast<std::uint32_t>(gx), static_cast<std::uint32_t>(gy), 1});
}

void VulkanBackend::dispatch_groups(const Pipeline& p,
                                    const std::vector<std::pair<const Tensor*, bool>>& buffers,
                                    const void* push, std::uint32_t push_bytes,
                                    const std::array<std::uint32_t, 3>& groups) {
  if (groups[0] == 0 || groups[1] == 0 || groups[2] == 0) return;
  std::vector<Access>& accesses = dispatch_accesses_;
  std::vector<VkDescriptorBufferInfo>& infos = dispatch_infos_;
  std::vector<VkWriteDescriptorSet>& writes = dispatch_writes_;
  accesses.clear();
  infos.clear();
  for (const auto& [t, write] : buffers) {
    const BufferRange& r = vulkan_storage(*t->storage()).range();
    accesses.push_back({r.buffer, r.offset, r.size, write});
    infos.push_back({r.buffer, r.offset, r.size});
  }
  VkCommandBuffer cmd = recorder_.begin_command(accesses, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
  writes.assign(infos.size(), VkWriteDescriptorSet{});
  for (std::size_t i = 0; i < infos.size(); ++i) {
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstBinding = static_cast<std::uint32_t>(i);
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
  if (ctx_.caps().push_descriptor) {
    ctx_.push_descriptor_fn()(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0,
                              static_cast<std::uint32_t>(writes.size()), writes.data());
  } else {
    const VkDescriptorSet set = recorder_.allocate_set(p.set_layout);
    for (auto& w : writes) w.dstSet = set;
    vkUpdateDescriptorSets(ctx_.device(), static_cast<std::uint32_t>(writes.size()), writes.data(),
                           0, nullptr);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
  }
  vkCmdPushConstants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
  vkCmdDispatch(cmd, groups[0], groups[1], groups[2]);
  recorder_.end_command();
  ledger::record_dispatch();
  for (const auto& [t, write] : buffers) recorder_.hold(t->storage());
}

void VulkanBackend::inject_device_lost() {
  std::lock_guard lock(mutex_);
  recorder_.inject_device_lost();
}

bool VulkanBackend::lost() const {
  std::lock_guard lock(mutex_);
  return !lost_.empty();
}

void VulkanBackend::set_native_disabled(Op op, bool disabled) {
  std::lock_guard lock(mutex_);
  if (disabled) {
    disabled_.insert(op);
  } else {
    disabled_.erase(op);
  }
}

VulkanBackend& backend_for(int index) {
  static std::mutex mutex;
  // Backends live for the whole process (never destroyed): tensors may outlive statics.
  static std::map<int, VulkanBackend*> backends;
  std::lock_guard lock(mutex);
  const int resolved = index >= 0 ? index : default_device_index();
  auto it = backends.find(resolved);
  if (it == backends.end()) it = backends.emplace(resolved, new VulkanBackend(resolved)).first;
  return *it->second;
}

namespace testing {
std::unique_ptr<Backend> separate_backend() {
  return std::make_unique<VulkanBackend>(default_device_index());
}
void inject_device_lost(Backend& b) {
  dynamic_cast<VulkanBackend&>(b).inject_device_lost();
}
bool device_lost(const Backend& b) {
  return dynamic_cast<const VulkanBackend&>(b).lost();
}
std::uint64_t pool_cap() {
  return backend_for(-1).pool().cap();
}
void set_pool_cap(Backend& b, std::uint64_t bytes) {
  auto& vulkan = dynamic_cast<VulkanBackend&>(b);
  vulkan.synchronize();
  vulkan.pool().set_cap(bytes);
  vulkan.trim_memory();
  vulkan.reset_peak_memory();
}
void set_pool_cap(std::uint64_t bytes) {
  set_pool_cap(backend_for(-1), bytes);
}
void set_native_disabled(Op op, bool disabled) {
  backend_for(-1).set_native_disabled(op, disabled);
}
void set_storage_range_limit(std::uint64_t bytes) {
  backend_for(-1).synchronize();
  backend_for(-1).mutable_limits().max_storage_range = bytes;
}
void set_allocation_limit(std::uint64_t bytes) {
  backend_for(-1).synchronize();
  backend_for(-1).mutable_limits().max_allocation = bytes;
}
void set_copy_path(CopyPath path) {
  backend_for(-1).synchronize();
  backend_for(-1).set_copy_path(path);
}
CopyPath copy_path() {
  return backend_for(-1).copy_path();
}
std::uint64_t small_copy_max() {
  return backend_for(-1).small_copy_max();
}
void set_small_copy_max(std::uint64_t bytes) {
  backend_for(-1).synchronize();
  backend_for(-1).set_small_copy_max(bytes);
}
bool f32_flushes() {
  return backend_for(-1).flushes_f32();
}
void set_f32_flushes(std::optional<bool> flushes) {
  backend_for(-1).synchronize();
  backend_for(-1).assume_f32_flushes(flushes);
}
std::uint64_t pool_bytes() {
  return backend_for(-1).pool().allocated_bytes();
}
bool pool_queue_ordered() {
  return backend_for(-1).pool().queue_ordered();
}
void trim_pool() {
  backend_for(-1).synchronize();
  backend_for(-1).trim_memory();
  backend_for(-1).pinned_pool().trim();
}
std::uint64_t hazard_barriers() {
  return backend_for(-1).recorder().hazard_barriers();
}
std::uint32_t flush_ops() {
  return backend_for(-1).recorder().flush_ops();
}
void set_flush_ops(std::uint32_t n) {
  backend_for(-1).synchronize();
  backend_for(-1).recorder().set_flush_ops(n);
}
DeviceLimits device_limits() {
  return backend_for(-1).context().limits();
}
DeviceCaps device_caps() {
  return backend_for(-1).context().caps();
}
bool host_mapped() {
  return backend_for(-1).pool().host_mapped();
}
std::uint64_t sort_local_max() {
  return backend_for(-1).sort_local_max();
}
void set_sort_local_max(std::uint64_t n) {
  backend_for(-1).synchronize();
  backend_for(-1).set_sort_local_max(n);
}
bool sort_radix8_available() {
  return vk::sort_radix8_available(backend_for(-1));
}
}  // namespace testing

}  // namespace vk

Backend& vulkan(int index) {
  return vk::backend_for(index);
}

std::string vulkan_info() {
  return vk::device_report();
}

}  // namespace vkt
