// VulkanStorage: a tensor's bytes in a pooled device buffer range. host_data() is nullptr,
// so the core treats it as device memory and reads it through Backend::to_host.
#pragma once

#include "vkt/backend.h"
#include "vulkan/runtime/memory.h"

namespace vkt::vk {

class VulkanStorage final : public Storage {
 public:
  VulkanStorage(Backend& owner, std::size_t nbytes, MemoryPool& pool)
      : Storage(owner, nbytes),
        pool_(pool),
        range_(pool.allocate(nbytes)),
        memory_(pool.queue_ordered() ? pool.memory_of(range_) : nullptr) {}
  ~VulkanStorage() override { pool_.release(range_); }
  const BufferRange& range() const { return range_; }
  // Set where the pool is queue-ordered (MemoryPool::queue_ordered): what a batch using the
  // range keeps alive in place of the storage, so the range returns to the pool as soon as
  // the last tensor on it goes.
  const std::shared_ptr<const void>& memory() const { return memory_; }

 private:
  MemoryPool& pool_;
  BufferRange range_;
  std::shared_ptr<const void> memory_;
};

inline const VulkanStorage& vulkan_storage(const Storage& s) {
  return static_cast<const VulkanStorage&>(s);
}

}  // namespace vkt::vk
