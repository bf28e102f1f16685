// Batching: commands are recorded into one pending command buffer and submitted at host
// boundaries (a read, synchronize), when the batch reaches kMaxCommands, or (on GPUs) every
// few ops, so the device starts while the host records the rest. One timeline semaphore
// orders completion; each batch keeps the memory it uses alive until its value is reached
// (a tensor's range itself may be reused by later device work first: MemoryPool's
// queue_ordered). Barriers are inserted only for real hazards inside a batch.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <memory>
#include <vector>

#include "vkt/backend.h"
#include "vulkan/runtime/context.h"
#include "vulkan/runtime/handle.h"
#include "vulkan/runtime/memory.h"

namespace vkt::vk {

// One buffer range a command reads or writes.
struct Access {
  VkBuffer buffer;
  VkDeviceSize offset, size;
  bool write;
};

class Recorder {
 public:
  static constexpr std::uint32_t kMaxCommands = 256;

  explicit Recorder(const Context& ctx);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // The pending command buffer, begun, after a barrier if `accesses` conflict with earlier
  // commands of the batch (read-after-write, write-after-write, write-after-read).
  // `stage`: the pipeline stages the command runs in (a later hazard barrier waits only on
  // those of the commands before it); by default compute and transfer.
  static constexpr VkPipelineStageFlags kAnyStage =
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkCommandBuffer begin_command(std::initializer_list<Access> accesses,
                                VkPipelineStageFlags stage = kAnyStage);
  VkCommandBuffer begin_command(const std::vector<Access>& accesses,
                                VkPipelineStageFlags stage = kAnyStage);
  // Keeps `s`'s bytes alive until the pending batch completes: where its pool is
  // queue-ordered only the memory under it (VulkanStorage::memory), else its range's lease
  // (VulkanStorage::lease, which outlives a vkt::deallocate), else the storage.
  void hold(std::shared_ptr<const Storage> s);
  // Call after recording the command begin_command returned; may submit at the bound.
  void end_command();
  // Call after an op has recorded all its commands and held its storages: with a flush bound
  // N > 0 the pending batch is submitted once it holds N ops (a piece), so the device runs
  // it while the host records the next; waits still happen only at host boundaries.
  void end_op();
  // The flush bound (0: no pieces, one submit per boundary); set_flush_ops is a test hook.
  std::uint32_t flush_ops() const { return flush_ops_; }
  void set_flush_ops(std::uint32_t n) { flush_ops_ = n; }

  // Submits the pending batch if it has commands; returns the timeline value after which
  // everything recorded so far is complete.
  std::uint64_t submit();
  // Blocks until the timeline reaches `value`; counts a ledger wait unless the host already
  // waited for `value` or a later one.
  void wait(std::uint64_t value);
  // Submits and waits for all work; afterwards nothing is in flight.
  void finish();
  // finish(), and every batch recycled: the storages they held are released.
  void quiesce();
  // True when commands are pending or in flight.
  bool busy();
  // The value the pending batch will signal when submitted.
  std::uint64_t pending_value() const { return next_value_; }
  std::uint64_t completed_value();
  // Without VK_KHR_push_descriptor: a descriptor set from the pending batch's pool (reset
  // when the batch completes). A batch has at most kMaxCommands sets of kMaxBindings.
  VkDescriptorSet allocate_set(VkDescriptorSetLayout layout);
  static constexpr std::uint32_t kMaxBindings = 4;
  // Hazard barriers inserted inside batches so far (not the one barrier opening each batch).
  std::uint64_t hazard_barriers() const { return hazard_barriers_; }
  // Barriers and batch boundaries, for the pool's reuse (MemoryPool::set_reuse_clock).
  const ReuseClock& reuse_clock() const { return reuse_clock_; }

  // After the device is lost: waits until nothing runs (a lost device returns at once),
  // drops the pending and in-flight batches with the storages they held, and from then on
  // throws DeviceLost instead of touching the device.
  void abandon();
  // Test hook: the next queue submit, semaphore wait or counter query returns
  // VK_ERROR_DEVICE_LOST instead of calling the driver, as a lost device would.
  void inject_device_lost() { inject_lost_ = true; }

 private:
  struct Batch {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    std::uint64_t value = 0;
    std::uint32_t commands = 0;
    std::uint32_t ops = 0;                          // ops that ended in this batch (end_op)
    VkDescriptorPool descriptors = VK_NULL_HANDLE;  // created on first use, then recycled
    std::vector<std::shared_ptr<const void>> held;  // storages, or the memory under them
  };
  void open_batch();
  void recycle_completed();
  // Polls the timeline for up to spin_ before a blocking wait; true if `value` was reached.
  bool poll_until(std::uint64_t value);
  // Blocks until `value` is reached, past the polling.
  void block_until(std::uint64_t value);
  void barrier_if_hazard(const Access* begin, const Access* end, VkPipelineStageFlags stage);
  // Throws DeviceLost once the recorder was abandoned.
  void check_alive() const;
  // VK_ERROR_DEVICE_LOST once after inject_device_lost(), else what `call` returns.
  template <class F>
  VkResult driver(F&& call) {
    if (inject_lost_) {
      inject_lost_ = false;
      return VK_ERROR_DEVICE_LOST;
    }
    return call();
  }

  const Context& ctx_;
  Owned<VkCommandPool> pool_;
  Owned<VkSemaphore> timeline_;
  std::uint64_t next_value_ = 1;
  std::uint64_t hazard_barriers_ = 0;
  ReuseClock reuse_clock_;
  std::uint64_t waited_ = 0;  // the highest value the host has waited for
  std::chrono::microseconds spin_;
  std::uint32_t flush_ops_ = 0;
  bool open_ = false;
  Batch pending_;
  std::deque<Batch> in_flight_;
  std::vector<VkCommandBuffer> spare_;
  std::vector<Owned<VkDescriptorPool>> descriptor_pools_;  // owned; batches borrow them
  std::vector<VkDescriptorPool> spare_pools_;
  // Ranges written / read in the pending batch since its last barrier.
  std::vector<Access> written_, read_;
  // Stages of the commands recorded since the last barrier (a hazard barrier waits on those).
  VkPipelineStageFlags since_barrier_stages_ = 0;
  std::vector<VkBufferMemoryBarrier> barrier_scratch_;
  bool inject_lost_ = false;
  bool abandoned_ = false;
};

}  // namespace vkt::vk
