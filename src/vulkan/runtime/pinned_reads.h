// Reads that land in pinned host memory: a device result read to the cpu is copied by the
// device's copy engine straight into a HOST_CACHED buffer, which then is the cpu tensor's
// storage. No second host copy and no page faults: the buffers are pooled by size class
// (core/size_class.h), kept up to a cap, and reused, as PyTorch's pinned-memory
// caching allocator keeps its host buffers.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>

#include "vkt/backend.h"
#include "vulkan/runtime/memory.h"

namespace vkt::vk {

class PinnedPool {
 public:
  // Reads at least this large take the pinned path; smaller ones go through the staging
  // ring into the host pool (each pinned buffer is its own vkAllocateMemory, and devices
  // allow a few thousand).
  static constexpr std::size_t kMinBytes = std::size_t{256} << 10;

  explicit PinnedPool(const Context& ctx);
  PinnedPool(const PinnedPool&) = delete;
  PinnedPool& operator=(const PinnedPool&) = delete;

  // False where the device has no host-visible, host-cached memory type for copies.
  bool available() const { return available_; }
  // A buffer of at least `nbytes`, from the pool or new; nullptr when allocation fails.
  std::unique_ptr<OwnedBuffer> take(std::size_t nbytes);
  void give(std::unique_ptr<OwnedBuffer> buffer);
  void trim();
  std::size_t cached_bytes() const;

 private:
  const Context& ctx_;
  bool available_ = false;
  std::size_t cap_;
  mutable std::mutex mutex_;
  std::deque<std::unique_ptr<OwnedBuffer>> free_;  // oldest first
  std::size_t cached_ = 0;
};

// A cpu tensor's storage held in a pinned buffer; goes back to its pool when released.
class PinnedStorage final : public Storage {
 public:
  PinnedStorage(Backend& host, std::size_t nbytes, PinnedPool& pool,
                std::unique_ptr<OwnedBuffer> buffer)
      : Storage(host, nbytes), pool_(pool), buffer_(std::move(buffer)), mapped_(buffer_->mapped) {}
  ~PinnedStorage() override {
    if (!bytes_released()) release_bytes();
  }
  const void* host_data() const override { return mapped_; }
  const OwnedBuffer& buffer() const { return *buffer_; }

 protected:
  void release_bytes() noexcept override { pool_.give(std::move(buffer_)); }

 private:
  PinnedPool& pool_;
  std::unique_ptr<OwnedBuffer> buffer_;
  std::byte* mapped_;  // kept past release_bytes, so host_data() never reads buffer_ then
};

}  // namespace vkt::vk
