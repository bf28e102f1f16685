// VulkanStorage: a tensor's bytes in a pooled device buffer range. host_data() is nullptr,
// so the core treats it as device memory and reads it through Backend::to_host.
#pragma once

#include "vkt/backend.h"
#include "vulkan/runtime/memory.h"

namespace vkt::vk {

// A range lent by a pool, given back when the last holder goes: the storage, or a batch
// still reading it after vkt::deallocate dropped the storage's hold.
struct RangeLease {
  RangeLease(MemoryPool& p, const BufferRange& r) : pool(p), range(r) {}
  ~RangeLease() { pool.release(range); }
  RangeLease(const RangeLease&) = delete;
  RangeLease& operator=(const RangeLease&) = delete;
  MemoryPool& pool;
  const BufferRange range;
};

class VulkanStorage final : public Storage {
 public:
  VulkanStorage(Backend& owner, std::size_t nbytes, MemoryPool& pool)
      : Storage(owner, nbytes),
        lease_(lease(pool, nbytes)),
        range_(lease_->range),
        memory_(pool.queue_ordered() ? pool.memory_of(range_) : nullptr) {}
  const BufferRange& range() const { return range_; }
  // Set where the pool is queue-ordered (MemoryPool::queue_ordered): what a batch using the
  // range keeps alive in place of the storage, so the range returns to the pool as soon as
  // the last tensor on it goes.
  const std::shared_ptr<const void>& memory() const { return memory_; }
  // Where the pool is not queue-ordered, what a batch keeps instead: the range itself, so
  // it returns to the pool only once that batch is done, even after vkt::deallocate.
  const std::shared_ptr<const RangeLease>& lease() const { return lease_; }

 protected:
  // vkt::deallocate: the range goes back now (a queue-ordered pool orders its reuse after
  // the batches that read it) or when the last batch holding the lease completes.
  void release_bytes() noexcept override {
    lease_.reset();
    memory_.reset();
  }

 private:
  static std::shared_ptr<const RangeLease> lease(MemoryPool& pool, std::size_t nbytes) {
    const BufferRange r = pool.allocate(nbytes);
    try {
      return std::make_shared<const RangeLease>(pool, r);
    } catch (...) {
      pool.release(r);
      throw;
    }
  }
  std::shared_ptr<const RangeLease> lease_;
  BufferRange range_;  // a copy of the lease's, still readable (never used) after release
  std::shared_ptr<const void> memory_;
};

inline const VulkanStorage& vulkan_storage(const Storage& s) {
  return static_cast<const VulkanStorage&>(s);
}

}  // namespace vkt::vk
