#include "vulkan/runtime/pinned_reads.h"

#include <algorithm>
#include <limits>

#include "common/settings.h"
#include "core/size_class.h"
#include "vkt/error.h"

namespace vkt::vk {
namespace {

constexpr VkMemoryPropertyFlags kPinned =
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;

// VKT_VK_PINNED_MB, else 2 GiB: reads past the cap still take the pinned path, but their
// buffers are freed instead of kept.
std::size_t pinned_cap() {
  if (const auto mb = settings().pinned_mb) {
    constexpr std::uint64_t kMaxMib = std::numeric_limits<std::size_t>::max() >> 20;
    return *mb > kMaxMib ? std::numeric_limits<std::size_t>::max()
                         : static_cast<std::size_t>(*mb) << 20;
  }
  return std::size_t{2} << 30;
}

}  // namespace

PinnedPool::PinnedPool(const Context& ctx) : ctx_(ctx), cap_(pinned_cap()) {
  const VkPhysicalDeviceMemoryProperties& mem = ctx.memory();
  for (std::uint32_t i = 0; i < mem.memoryTypeCount; ++i) {
    if ((mem.memoryTypes[i].propertyFlags & kPinned) == kPinned) available_ = true;
  }
}

std::unique_ptr<OwnedBuffer> PinnedPool::take(std::size_t nbytes) {
  const std::size_t capacity = detail::size_class_bytes(nbytes, 4096);
  {
    std::lock_guard lock(mutex_);
    for (auto it = free_.rbegin(); it != free_.rend(); ++it) {
      if ((*it)->size != capacity) continue;
      std::unique_ptr<OwnedBuffer> b = std::move(*it);
      free_.erase(std::next(it).base());
      cached_ -= capacity;
      return b;
    }
  }
  auto create = [&] {
    return std::make_unique<OwnedBuffer>(
        create_buffer(ctx_, capacity, VK_BUFFER_USAGE_TRANSFER_DST_BIT, kPinned));
  };
  try {
    return create();
  } catch (const OutOfMemory&) {
    trim();  // cached buffers of other sizes may be what stands in the way
  }
  try {
    return create();
  } catch (const OutOfMemory&) {
    return nullptr;  // the caller reads through the staging ring instead
  }
}

void PinnedPool::give(std::unique_ptr<OwnedBuffer> buffer) {
  std::deque<std::unique_ptr<OwnedBuffer>> evicted;
  std::lock_guard lock(mutex_);
  cached_ += buffer->size;
  free_.push_back(std::move(buffer));
  while (cached_ > cap_ && !free_.empty()) {
    cached_ -= free_.front()->size;
    evicted.push_back(std::move(free_.front()));
    free_.pop_front();
  }
}

void PinnedPool::trim() {
  std::deque<std::unique_ptr<OwnedBuffer>> evicted;
  std::lock_guard lock(mutex_);
  evicted.swap(free_);
  cached_ = 0;
}

std::size_t PinnedPool::cached_bytes() const {
  std::lock_guard lock(mutex_);
  return cached_;
}

}  // namespace vkt::vk
