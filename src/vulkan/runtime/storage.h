// VulkanStorage: a tensor's bytes in a pooled device buffer range. host_data() is nullptr,
// so the core treats it as device memory and reads it through Backend::to_host.
#pragma once

#include "vkt/backend.h"
#include "vulkan/runtime/memory.h"

namespace vkt::vk {

class VulkanStorage final : public Storage {
 public:
  VulkanStorage(Backend& owner, std::size_t nbytes, MemoryPool& pool)
      : Storage(owner, nbytes), pool_(pool), range_(pool.allocate(nbytes)) {}
  ~VulkanStorage() override { pool_.release(range_); }
  const BufferRange& range() const { return range_; }

 private:
  MemoryPool& pool_;
  BufferRange range_;
};

inline const VulkanStorage& vulkan_storage(const Storage& s) {
  return static_cast<const VulkanStorage&>(s);
}

}  // namespace vkt::vk
