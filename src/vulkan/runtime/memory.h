// Working memory: a pool of device buffer ranges. Size classes (powers of two from 256 B)
// are carved from 64 MiB blocks (one VkBuffer per block; a range is buffer + offset);
// larger tensors get a dedicated allocation. Freed ranges are reused (in queue order, while
// batches may still read them, where only the device touches the pool); vkAllocateMemory
// happens only for a new block or a dedicated allocation (and is counted in the ledger).
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "vulkan/runtime/context.h"
#include "vulkan/runtime/handle.h"

namespace vkt::vk {

struct BufferRange {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize size = 0;        // the capacity (size class), >= the bytes asked for
  std::byte* mapped = nullptr;  // host address when working memory is host-visible+cached
  // Host address of a small-upload range (MemoryPool::Kind::small_uploads): device-local
  // memory the host writes once and never reads (uncached), so reads take the staging path.
  std::byte* write_mapped = nullptr;
  std::uint32_t owner = 0;  // block index, or dedicated slot when `dedicated`
  std::uint8_t size_class = 0;
  bool dedicated = false;
};

// A buffer with its own memory (dedicated working buffers, staging chunks).
struct OwnedBuffer {
  Owned<VkBuffer> buffer;
  Owned<VkDeviceMemory> memory;
  std::byte* mapped = nullptr;
  VkDeviceSize size = 0;
  bool coherent = true;
};

// Finds a memory type with all of `required` (preferring `preferred` too, and avoiding
// `avoid`) among `type_bits`; -1 when none.
int find_memory_type(const VkPhysicalDeviceMemoryProperties& mem, std::uint32_t type_bits,
                     VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred = 0,
                     VkMemoryPropertyFlags avoid = 0);

// Creates a buffer of `size` bytes bound to fresh memory of the given properties, mapped when
// host-visible. Records a ledger allocation. Throws OutOfMemory/Error naming the call.
OwnedBuffer create_buffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage,
                          VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred = 0,
                          VkMemoryPropertyFlags avoid = 0);

// The recorder's side of a queue-ordered pool's reuse (Recorder keeps one): a range the
// pending batch used since its last barrier is reused only after the next barrier, so reuse
// never adds a barrier (one waits for all earlier work) between ops that could overlap.
struct ReuseClock {
  std::atomic<std::uint64_t> barriers{0};  // barriers recorded and batches submitted
  std::atomic<bool> batch_open{false};
  // Whether a range released when `barriers` read `at` is free of hazards for the next
  // command: no batch is open (the next opens with a barrier), or a barrier came since.
  bool past(std::uint64_t at) const { return !batch_open.load() || barriers.load() > at; }
};

class MemoryPool {
 public:
  static constexpr VkDeviceSize kMinClass = 256;
  static constexpr VkDeviceSize kBlockSize = VkDeviceSize{64} << 20;
  // Released dedicated buffers kept for reuse, at most this many bytes.
  static constexpr VkDeviceSize kIdleDedicatedCap = VkDeviceSize{2} << 30;

  // working: tensors' memory. small_uploads: small tensors uploaded from the host, written
  // by a memcpy into device-local, host-visible memory (no copy command and no barrier),
  // carved from blocks of kSmallUploadBlock.
  enum class Kind { working, small_uploads };
  static constexpr VkDeviceSize kSmallUploadBlock = VkDeviceSize{1} << 20;
  // Whether the device has memory for Kind::small_uploads.
  static bool small_uploads_possible(const Context& ctx);

  explicit MemoryPool(const Context& ctx, Kind kind = Kind::working);
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  // A range of at least `nbytes` (at least one byte is always reserved). Throws OutOfMemory
  // past maxMemoryAllocationSize or the pool cap.
  BufferRange allocate(std::size_t nbytes);
  void release(const BufferRange& range);
  // True when only commands on the device's queue touch this pool's ranges (working memory
  // the host never maps): a released range may then be handed out again while earlier
  // batches still use it, since later device work is ordered after them by the batch
  // barriers and the recorder's hazard barriers. The batches keep the memory under the
  // range alive instead (memory_of), so it is not freed while in flight.
  bool queue_ordered() const { return kind_ == Kind::working && !host_mapped_; }
  // The allocation under `range` (its block or dedicated buffer), shared with whatever
  // must keep it alive.
  std::shared_ptr<const void> memory_of(const BufferRange& range) const;
  // The recorder's clock: a queue-ordered pool hands a released range out again only once
  // it is past a barrier (ReuseClock::past). Unset: at once.
  void set_reuse_clock(const ReuseClock* clock) { clock_ = clock; }
  // Frees every block none of whose ranges is in use.
  void trim();

  // True when working memory is DEVICE_LOCAL|HOST_VISIBLE|HOST_CACHED|HOST_COHERENT, mapped
  // (lavapipe, integrated GPUs): uploads and reads are plain memcpy. VKT_VK_STAGING=1 (or
  // Overrides::staging, read when the pool is made) turns it off.
  bool host_mapped() const { return host_mapped_; }
  VkDeviceSize allocated_bytes() const;
  // Ranges handed out and reserved bytes, now and at their most since reset_peaks().
  struct Usage {
    VkDeviceSize in_use = 0, reserved = 0, peak_in_use = 0, peak_reserved = 0;
  };
  Usage usage() const;
  void reset_peaks();
  VkDeviceSize cap() const { return cap_; }
  void set_cap(VkDeviceSize cap);
  // "heap 0 (2048 MiB, device-local) of <device>": where working memory comes from, for errors.
  std::string heap_str() const;

 private:
  struct Block {
    OwnedBuffer storage;
    VkDeviceSize bump = 0;   // bytes carved so far
    std::uint64_t live = 0;  // ranges handed out and not yet released
  };
  struct FreeRange {
    std::uint32_t block;
    VkDeviceSize offset;
    std::uint64_t released_at = 0;  // the barrier clock when released
  };
  bool past_barrier(std::uint64_t at) const { return clock_ == nullptr || clock_->past(at); }
  std::uint64_t clock_now() const { return clock_ != nullptr ? clock_->barriers.load() : 0; }

  OwnedBuffer create_working(VkDeviceSize size);
  // Sets r's host address (mapped, or write_mapped for small uploads) from its block's.
  void map_range(BufferRange& r, std::byte* block_mapped, VkDeviceSize offset) const;
  BufferRange carve(std::uint8_t size_class, VkDeviceSize block_bytes);
  VkDeviceSize block_bytes() const;
  void ensure_room(VkDeviceSize bytes);
  BufferRange dedicated_range(std::uint32_t slot) const;
  void free_dedicated(std::uint32_t slot);

  const Context& ctx_;
  Kind kind_ = Kind::working;
  bool host_mapped_ = false;
  VkDeviceSize block_size_ = kBlockSize;  // the default size of new blocks
  std::uint8_t max_classes_ = 0;          // pooled size classes any block size allows
  VkDeviceSize cap_ = 0;
  std::uint32_t heap_ = 0;  // the largest device-local heap, which the cap is taken from
  VkDeviceSize allocated_ = 0;
  VkDeviceSize in_use_ = 0, peak_in_use_ = 0, peak_allocated_ = 0;
  // After a range is handed out: the usage and the peaks it may have raised.
  void count_handed_out(VkDeviceSize bytes);
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<Block>> blocks_;           // null where trimmed
  std::uint32_t current_ = UINT32_MAX;                   // the block being carved
  std::vector<std::deque<FreeRange>> free_;              // per size class
  std::vector<std::shared_ptr<OwnedBuffer>> dedicated_;  // null where released
  std::vector<std::uint32_t> idle_dedicated_;            // released, kept for reuse
  std::vector<std::uint64_t> dedicated_released_at_;     // per slot, the barrier clock
  const ReuseClock* clock_ = nullptr;
  VkDeviceSize idle_bytes_ = 0;
};

}  // namespace vkt::vk
