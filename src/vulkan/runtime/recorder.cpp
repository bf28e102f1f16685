#include "vulkan/runtime/recorder.h"

#include <string>

#include "vkt/error.h"
#include "vkt/ledger.h"
#include "vulkan/runtime/check.h"
#include "vulkan/runtime/storage.h"

namespace vkt::vk {
namespace {

constexpr VkPipelineStageFlags kDeviceStages =
    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
constexpr VkAccessFlags kDeviceWrites = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
constexpr VkAccessFlags kDeviceAccess =
    kDeviceWrites | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;

bool overlaps(const Access& a, const Access& b) {
  return a.buffer == b.buffer && a.offset < b.offset + b.size && b.offset < a.offset + a.size;
}

// A blocking wait wakes the host some tens of us after the device signals, longer than a
// small op takes on a GPU, and a host asleep lets the device idle and drop its clocks: on
// the H200, polling for up to 20 ms instead of 200 us lowered both the wall clock and the
// device time of every op. Not on cpu devices (lavapipe): there polling takes a core from
// the driver's own threads.
std::chrono::microseconds spin_budget(const Context& ctx) {
  const bool cpu = !is_gpu(ctx);
  return std::chrono::microseconds(cpu ? 0 : 20000);
}

// Ops per submitted piece of a batch on GPUs: 4 (on the H200 a 16-op chain cost less per
// extra op than with no pieces, 8 or 16). On cpu devices (lavapipe) 0, no pieces: the
// "device" runs on the host's own cores, so a piece gains nothing.
std::uint32_t flush_ops_for(const Context& ctx) {
  constexpr std::uint32_t kGpuFlushOps = 4;
  return is_gpu(ctx) ? kGpuFlushOps : 0;
}

}  // namespace

Recorder::Recorder(const Context& ctx)
    : ctx_(ctx), spin_(spin_budget(ctx)), flush_ops_(flush_ops_for(ctx)) {
  VkDevice dev = ctx.device();
  VkCommandPoolCreateInfo pinfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pinfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pinfo.queueFamilyIndex = ctx.queue_family();
  VkCommandPool pool = VK_NULL_HANDLE;
  VKT_VK(vkCreateCommandPool, dev, &pinfo, nullptr, &pool);
  pool_ = Owned<VkCommandPool>(dev, pool, vkDestroyCommandPool);
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  VkSemaphoreCreateInfo sinfo{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  sinfo.pNext = &type;
  VkSemaphore sem = VK_NULL_HANDLE;
  VKT_VK(vkCreateSemaphore, dev, &sinfo, nullptr, &sem);
  timeline_ = Owned<VkSemaphore>(dev, sem, vkDestroySemaphore);
}

void Recorder::check_alive() const {
  if (abandoned_) {
    throw DeviceLost("[vulkan] the device " + ctx_.name() + " was lost; its work was dropped");
  }
}

void Recorder::abandon() {
  // On a really lost device this returns (VK_ERROR_DEVICE_LOST) without waiting; after an
  // injected loss the work in flight is real and must end before its buffers are reused.
  (void)vkDeviceWaitIdle(ctx_.device());
  abandoned_ = true;
  open_ = false;
  reuse_clock_.batch_open.store(false);
  pending_ = Batch{};  // its command buffer and descriptor pool go with their pools
  in_flight_.clear();  // releases the storages the batches held
  written_.clear();
  read_.clear();
}

void Recorder::open_batch() {
  if (open_) return;
  check_alive();
  recycle_completed();
  if (spare_.empty()) {
    VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    info.commandPool = pool_.get();
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VKT_VK(vkAllocateCommandBuffers, ctx_.device(), &info, &cmd);
    spare_.push_back(cmd);
  }
  pending_.cmd = spare_.back();
  spare_.pop_back();
  pending_.commands = 0;
  pending_.ops = 0;
  pending_.value = next_value_;
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VKT_VK(vkBeginCommandBuffer, pending_.cmd, &begin);
  // Submissions are not ordered with each other: order this batch after all earlier device
  // work (one global barrier per batch, not per command; Vulkan asks for it even when the
  // host has seen the earlier batches complete).
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  mb.srcAccessMask = kDeviceWrites;
  mb.dstAccessMask = kDeviceAccess;
  vkCmdPipelineBarrier(pending_.cmd, kDeviceStages, kDeviceStages, 0, 1, &mb, 0, nullptr, 0,
                       nullptr);
  reuse_clock_.barriers.fetch_add(1);
  reuse_clock_.batch_open.store(true);
  written_.clear();
  read_.clear();
  since_barrier_stages_ = 0;
  open_ = true;
}

namespace {
VkAccessFlags writes_of(VkPipelineStageFlags stages) {
  return ((stages & VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT) != 0 ? VK_ACCESS_SHADER_WRITE_BIT : 0) |
         ((stages & VK_PIPELINE_STAGE_TRANSFER_BIT) != 0 ? VK_ACCESS_TRANSFER_WRITE_BIT : 0);
}
}  // namespace

void Recorder::barrier_if_hazard(const Access* begin, const Access* end,
                                 VkPipelineStageFlags stage) {
  bool hazard = false;
  for (const Access* a = begin; a != end && !hazard; ++a) {
    for (const Access& w : written_) hazard = hazard || overlaps(*a, w);
    if (a->write) {
      for (const Access& r : read_) hazard = hazard || overlaps(*a, r);
    }
  }
  if (hazard) {
    // Make every write of the batch so far visible; the execution dependency also covers
    // write-after-read on the ranges only read. It waits only on the stages that ran since
    // the last barrier (a chain of dispatches: compute alone); its second scope stays every
    // stage, since the ranges it covers are not tracked after it.
    const VkPipelineStageFlags src = since_barrier_stages_ & kDeviceStages;
    std::vector<VkBufferMemoryBarrier>& barriers = barrier_scratch_;
    barriers.clear();
    for (const Access& w : written_) {
      VkBufferMemoryBarrier b{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
      b.srcAccessMask = writes_of(src);
      b.dstAccessMask = kDeviceAccess;
      b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      b.buffer = w.buffer;
      b.offset = w.offset;
      b.size = w.size;
      barriers.push_back(b);
    }
    vkCmdPipelineBarrier(pending_.cmd, src, kDeviceStages, 0, 0, nullptr,
                         static_cast<std::uint32_t>(barriers.size()), barriers.data(), 0, nullptr);
    hazard_barriers_ += 1;
    reuse_clock_.barriers.fetch_add(1);
    written_.clear();
    read_.clear();
    since_barrier_stages_ = 0;
  }
  since_barrier_stages_ |= stage;
  for (const Access* a = begin; a != end; ++a) (a->write ? written_ : read_).push_back(*a);
}

VkCommandBuffer Recorder::begin_command(std::initializer_list<Access> accesses,
                                        VkPipelineStageFlags stage) {
  open_batch();
  barrier_if_hazard(accesses.begin(), accesses.end(), stage);
  return pending_.cmd;
}

VkCommandBuffer Recorder::begin_command(const std::vector<Access>& accesses,
                                        VkPipelineStageFlags stage) {
  open_batch();
  barrier_if_hazard(accesses.data(), accesses.data() + accesses.size(), stage);
  return pending_.cmd;
}

void Recorder::hold(std::shared_ptr<const Storage> s) {
  open_batch();
  // Queue-ordered memory: the batch keeps the allocation alive, not the tensor's range,
  // which later commands may reuse behind barriers (a training step's peak is its live
  // tensors, not every tensor its batches touched).
  // Elsewhere it keeps the range's lease, which vkt::deallocate cannot free under it.
  const auto* v = dynamic_cast<const VulkanStorage*>(s.get());
  std::shared_ptr<const void> keep = std::move(s);
  if (v != nullptr && v->memory()) {
    keep = v->memory();
  } else if (v != nullptr && v->lease()) {
    keep = v->lease();
  }
  if (pending_.held.empty() || pending_.held.back() != keep) {
    pending_.held.push_back(std::move(keep));
  }
}

void Recorder::end_command() {
  pending_.commands += 1;
  if (pending_.commands >= kMaxCommands) submit();
}

void Recorder::end_op() {
  if (!open_) return;  // the op recorded nothing, or its last command filled the batch
  pending_.ops += 1;
  if (flush_ops_ != 0 && pending_.ops >= flush_ops_) submit();
}

std::uint64_t Recorder::submit() {
  check_alive();
  if (!open_) return next_value_ - 1;
  // The next command follows the next batch's opening barrier.
  reuse_clock_.barriers.fetch_add(1);
  reuse_clock_.batch_open.store(false);
  // Device writes become visible to host reads once the timeline value is reached.
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  mb.srcAccessMask = kDeviceWrites;
  mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  const std::uint64_t value = next_value_;
  vkCmdPipelineBarrier(pending_.cmd, kDeviceStages, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0,
                       nullptr, 0, nullptr);
  VKT_VK(vkEndCommandBuffer, pending_.cmd);
  VkTimelineSemaphoreSubmitInfo tinfo{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  tinfo.signalSemaphoreValueCount = 1;
  tinfo.pSignalSemaphoreValues = &value;
  VkSemaphore sem = timeline_.get();
  VkSubmitInfo sinfo{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  sinfo.commandBufferCount = 1;
  sinfo.pCommandBuffers = &pending_.cmd;
  sinfo.pNext = &tinfo;
  sinfo.signalSemaphoreCount = 1;
  sinfo.pSignalSemaphores = &sem;
  check(driver([&] { return vkQueueSubmit(ctx_.queue(), 1, &sinfo, VK_NULL_HANDLE); }),
        "vkQueueSubmit");
  ledger::record_submit();
  in_flight_.push_back(std::move(pending_));
  pending_ = Batch{};
  open_ = false;
  next_value_ += 1;
  return value;
}

void Recorder::recycle_completed() {
  if (in_flight_.empty()) return;
  const std::uint64_t done = completed_value();
  while (!in_flight_.empty() && in_flight_.front().value <= done) {
    Batch& b = in_flight_.front();
    // No vkResetCommandBuffer: vkBeginCommandBuffer resets it implicitly (the pool allows
    // it), which saves one driver call on the path of every op's wait.
    spare_.push_back(b.cmd);
    if (b.descriptors != VK_NULL_HANDLE) {
      VKT_VK(vkResetDescriptorPool, ctx_.device(), b.descriptors, 0);
      spare_pools_.push_back(b.descriptors);
    }
    in_flight_.pop_front();  // releases the storages the batch held
  }
}

VkDescriptorSet Recorder::allocate_set(VkDescriptorSetLayout layout) {
  open_batch();
  if (pending_.descriptors == VK_NULL_HANDLE) {
    if (spare_pools_.empty()) {
      const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      kMaxCommands * kMaxBindings};
      VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
      info.maxSets = kMaxCommands;
      info.poolSizeCount = 1;
      info.pPoolSizes = &size;
      VkDescriptorPool pool = VK_NULL_HANDLE;
      VKT_VK(vkCreateDescriptorPool, ctx_.device(), &info, nullptr, &pool);
      descriptor_pools_.emplace_back(ctx_.device(), pool, vkDestroyDescriptorPool);
      spare_pools_.push_back(pool);
    }
    pending_.descriptors = spare_pools_.back();
    spare_pools_.pop_back();
  }
  VkDescriptorSetAllocateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  info.descriptorPool = pending_.descriptors;
  info.descriptorSetCount = 1;
  info.pSetLayouts = &layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  VKT_VK(vkAllocateDescriptorSets, ctx_.device(), &info, &set);
  return set;
}

bool Recorder::busy() {
  recycle_completed();
  return open_ || !in_flight_.empty();
}

}  // namespace vkt::vk
