#include "vulkan/runtime/memory.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "common/settings.h"
#include "core/size_class.h"
#include "vkt/error.h"
#include "vkt/ledger.h"
#include "vulkan/runtime/check.h"

namespace vkt::vk {
namespace {

constexpr VkBufferUsageFlags kWorkingUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                             VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                             VK_BUFFER_USAGE_TRANSFER_DST_BIT;
constexpr VkMemoryPropertyFlags kMappedWorking =
    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
    VK_MEMORY_PROPERTY_HOST_CACHED_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
// Small uploads: device-local memory the host can write (a resizable BAR on discrete GPUs).
constexpr VkMemoryPropertyFlags kSmallUploadMemory = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

std::string mib(VkDeviceSize b) {
  return std::to_string(b >> 20) + " MiB";
}

// A size in MiB, in bytes (saturating: past 2^64 bytes is no cap at all).
VkDeviceSize bytes_of_mib(std::uint64_t mb) {
  constexpr std::uint64_t kMaxMib = ~std::uint64_t{0} >> 20;
  return mb > kMaxMib ? ~VkDeviceSize{0} : VkDeviceSize{mb} << 20;
}

}  // namespace

int find_memory_type(const VkPhysicalDeviceMemoryProperties& mem, std::uint32_t type_bits,
                     VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred,
                     VkMemoryPropertyFlags avoid) {
  int fallback = -1;
  for (std::uint32_t i = 0; i < mem.memoryTypeCount; ++i) {
    const VkMemoryPropertyFlags f = mem.memoryTypes[i].propertyFlags;
    if ((type_bits & (1u << i)) == 0 || (f & required) != required) continue;
    if ((f & preferred) == preferred && (f & avoid) == 0) return static_cast<int>(i);
    if (fallback < 0) fallback = static_cast<int>(i);
  }
  return fallback;
}

OwnedBuffer create_buffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage,
                          VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred,
                          VkMemoryPropertyFlags avoid) {
  VkDevice dev = ctx.device();
  OwnedBuffer out;
  out.size = size;
  VkBufferCreateInfo binfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  binfo.size = size;
  binfo.usage = usage;
  binfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  VKT_VK(vkCreateBuffer, dev, &binfo, nullptr, &buffer);
  out.buffer = Owned<VkBuffer>(dev, buffer, vkDestroyBuffer);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, buffer, &req);
  const int type = find_memory_type(ctx.memory(), req.memoryTypeBits, required, preferred, avoid);
  if (type < 0)
    throw Error("[vulkan] no memory type with the required properties on " + ctx.name());
  VkMemoryAllocateInfo ainfo{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  ainfo.allocationSize = req.size;
  ainfo.memoryTypeIndex = static_cast<std::uint32_t>(type);
  VkDeviceMemory memory = VK_NULL_HANDLE;
  if (const VkResult r = vkAllocateMemory(dev, &ainfo, nullptr, &memory);
      r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY) {
    // The driver's refusal, with what was asked and from which heap.
    const std::uint32_t heap = ctx.memory().memoryTypes[type].heapIndex;
    throw OutOfMemory("[vulkan] vkAllocateMemory of " + std::to_string(req.size) +
                      " bytes failed (" + result_name(r) + ") on heap " + std::to_string(heap) +
                      " (" + mib(ctx.memory().memoryHeaps[heap].size) + ") of " + ctx.name());
  } else {
    check(r, "vkAllocateMemory");
  }
  ledger::record_allocation();
  out.memory = Owned<VkDeviceMemory>(dev, memory, vkFreeMemory);
  VKT_VK(vkBindBufferMemory, dev, buffer, memory, 0);
  const VkMemoryPropertyFlags flags = ctx.memory().memoryTypes[type].propertyFlags;
  out.coherent = (flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
  if (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
    void* p = nullptr;
    VKT_VK(vkMapMemory, dev, memory, 0, VK_WHOLE_SIZE, 0, &p);  // unmapped by vkFreeMemory
    out.mapped = static_cast<std::byte*>(p);
  }
  return out;
}

bool MemoryPool::small_uploads_possible(const Context& ctx) {
  return find_memory_type(ctx.memory(), ~0u, kSmallUploadMemory) >= 0;
}

MemoryPool::MemoryPool(const Context& ctx, Kind kind) : ctx_(ctx), kind_(kind) {
  const bool force_staging = overrides()->staging.value_or(settings().staging);
  const int mapped_type = find_memory_type(ctx.memory(), ~0u, kMappedWorking);
  host_mapped_ = kind == Kind::working && !force_staging && mapped_type >= 0;
  block_size_ = std::min<VkDeviceSize>(kind == Kind::small_uploads ? kSmallUploadBlock : kBlockSize,
                                       ctx.limits().max_allocation);
  max_classes_ = 0;
  while ((kMinClass << max_classes_) <= ctx.limits().max_allocation / 4 && max_classes_ < 63) {
    ++max_classes_;
  }
  // Default cap: 90% of the largest device-local heap (VKT_VK_POOL_CAP_MB overrides).
  VkDeviceSize heap = 0;
  for (std::uint32_t h = 0; h < ctx.memory().memoryHeapCount; ++h) {
    if ((ctx.memory().memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) &&
        ctx.memory().memoryHeaps[h].size > heap) {
      heap = ctx.memory().memoryHeaps[h].size;
      heap_ = h;
    }
  }
  cap_ = heap / 10 * 9;
  if (const auto mb = settings().device_pool_mb) cap_ = bytes_of_mib(*mb);
  free_.resize(max_classes_);
}

// Overrides::block_mb, read at each allocation (a bench or test can change it between
// cases): the size of new blocks, so the size classes up to a quarter of it are carved from
// shared blocks and larger tensors get their own allocation. A diagnostic for where operands
// live (issue 9: the 4096 f32 matmul whose 64 MiB operands were dedicated allocations).
VkDeviceSize MemoryPool::block_bytes() const {
  VkDeviceSize block = block_size_;
  if (kind_ != Kind::small_uploads) {
    if (const std::optional<std::uint64_t> mb = overrides()->block_mb) {
      block =
          std::clamp<VkDeviceSize>(bytes_of_mib(*mb), kMinClass * 4, ctx_.limits().max_allocation);
    }
  }
  // At most a quarter of the cap, so a cap below the block size (VKT_VK_POOL_CAP_MB=4: a
  // small worker) leaves room for blocks and dedicated buffers rather than refusing every
  // tensor; the default cap (90% of the heap) leaves the size alone.
  return std::max<VkDeviceSize>(kMinClass * 4, std::min(block, std::bit_floor(cap_ / 4)));
}

void MemoryPool::map_range(BufferRange& r, std::byte* block_mapped, VkDeviceSize offset) const {
  std::byte* p = block_mapped != nullptr ? block_mapped + offset : nullptr;
  (kind_ == Kind::small_uploads ? r.write_mapped : r.mapped) = p;
}

OwnedBuffer MemoryPool::create_working(VkDeviceSize size) {
  if (kind_ == Kind::small_uploads) {
    return create_buffer(ctx_, size, kWorkingUsage, kSmallUploadMemory);
  }
  if (host_mapped_) {
    return create_buffer(ctx_, size, kWorkingUsage, kMappedWorking);
  }
  // Device-local, never read by the cpu: avoid host-visible (BAR) types where possible.
  OwnedBuffer b = create_buffer(ctx_, size, kWorkingUsage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0,
                                VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  b.mapped = nullptr;  // where only host-visible types exist (forced staging): not used
  return b;
}

std::string MemoryPool::heap_str() const {
  return "heap " + std::to_string(heap_) + " (" + mib(ctx_.memory().memoryHeaps[heap_].size) +
         ", device-local) of " + ctx_.name();
}

void MemoryPool::ensure_room(VkDeviceSize bytes) {
  if (bytes > ctx_.limits().max_allocation) {
    throw OutOfMemory("[vulkan] a buffer of " + std::to_string(bytes) +
                      " bytes exceeds maxMemoryAllocationSize (" +
                      std::to_string(ctx_.limits().max_allocation) + " bytes) on " + heap_str());
  }
  if (allocated_ + bytes > cap_) {
    // Free idle dedicated buffers and blocks nothing lives in, then retry.
    for (std::uint32_t slot : idle_dedicated_) free_dedicated(slot);
    idle_dedicated_.clear();
    idle_bytes_ = 0;
    for (std::uint32_t b = 0; b < blocks_.size(); ++b) {
      if (blocks_[b] && blocks_[b]->live == 0 && b != current_) {
        allocated_ -= blocks_[b]->storage.size;
        blocks_[b].reset();
      }
    }
    for (auto& list : free_) {
      std::erase_if(list, [&](const FreeRange& r) { return !blocks_[r.block]; });
    }
  }
  if (allocated_ + bytes > cap_) {
    throw OutOfMemory("[vulkan] allocating " + std::to_string(bytes) +
                      " bytes would pass the pool cap of " + mib(cap_) + " (" + mib(allocated_) +
                      " in use) on " + heap_str());
  }
}

BufferRange MemoryPool::carve(std::uint8_t size_class, VkDeviceSize block_bytes) {
  const VkDeviceSize size = kMinClass << size_class;
  if (current_ == UINT32_MAX || blocks_[current_]->bump + size > blocks_[current_]->storage.size) {
    ensure_room(block_bytes);
    auto block = std::make_shared<Block>();
    block->storage = create_working(block_bytes);
    allocated_ += block_bytes;
    current_ = static_cast<std::uint32_t>(blocks_.size());
    for (std::uint32_t b = 0; b < blocks_.size(); ++b) {
      if (!blocks_[b]) current_ = b;  // reuse a trimmed slot
    }
    if (current_ == blocks_.size()) blocks_.push_back(nullptr);
    blocks_[current_] = std::move(block);
  }
  Block& b = *blocks_[current_];
  BufferRange r;
  r.buffer = b.storage.buffer.get();
  r.offset = b.bump;
  r.size = size;
  map_range(r, b.storage.mapped, b.bump);
  r.owner = current_;
  r.size_class = size_class;
  b.bump += size;
  return r;
}

BufferRange MemoryPool::allocate(std::size_t nbytes) {
  const VkDeviceSize want = std::max<VkDeviceSize>(nbytes, 1);
  if (want > ctx_.limits().max_allocation) {
    throw OutOfMemory("[vulkan] a tensor of " + std::to_string(want) +
                      " bytes exceeds maxMemoryAllocationSize (" +
                      std::to_string(ctx_.limits().max_allocation) + " bytes) on " + heap_str());
  }
  std::lock_guard lock(mutex_);
  const VkDeviceSize rounded = std::bit_ceil(std::max(want, kMinClass));
  const auto size_class = static_cast<std::uint8_t>(std::countr_zero(rounded / kMinClass));
  const VkDeviceSize block = block_bytes();
  if (rounded <= block / 4 && size_class < free_.size()) {
    auto& list = free_[size_class];
    BufferRange r;
    // Queue-ordered: the range released longest ago, once a barrier was recorded after its
    // release (reusing one the latest commands read would cost a barrier, which waits for
    // all earlier work); the list is in release order. Else the latest: warm in a
    // host-mapped cache.
    const bool oldest = queue_ordered();
    if (!list.empty() && (!oldest || past_barrier(list.front().released_at))) {
      const FreeRange f = oldest ? list.front() : list.back();
      if (oldest) {
        list.pop_front();
      } else {
        list.pop_back();
      }
      Block& b = *blocks_[f.block];
      r.buffer = b.storage.buffer.get();
      r.offset = f.offset;
      r.size = rounded;
      map_range(r, b.storage.mapped, f.offset);
      r.owner = f.block;
      r.size_class = size_class;
    } else {
      r = carve(size_class, block);
    }
    blocks_[r.owner]->live += 1;
    count_handed_out(r.size);
    return r;
  }
  // Dedicated: by size class, so a released buffer is reused by the next tensor of about
  // the same size.
  VkDeviceSize size = detail::size_class_bytes(want, kMinClass);
  if (size > ctx_.limits().max_allocation) size = (want + kMinClass - 1) / kMinClass * kMinClass;
  for (auto it = idle_dedicated_.begin(); it != idle_dedicated_.end(); ++it) {
    if (dedicated_[*it]->size != size) continue;
    if (queue_ordered() && !past_barrier(dedicated_released_at_[*it])) continue;
    const std::uint32_t slot = *it;
    idle_dedicated_.erase(it);
    idle_bytes_ -= size;
    count_handed_out(size);
    return dedicated_range(slot);
  }
  ensure_room(size);
  auto owned = std::make_shared<OwnedBuffer>(create_working(size));
  allocated_ += size;
  std::uint32_t slot = static_cast<std::uint32_t>(dedicated_.size());
  for (std::uint32_t i = 0; i < dedicated_.size(); ++i) {
    if (!dedicated_[i]) slot = i;
  }
  if (slot == dedicated_.size()) dedicated_.push_back(nullptr);
  dedicated_[slot] = std::move(owned);
  count_handed_out(size);
  return dedicated_range(slot);
}

void MemoryPool::count_handed_out(VkDeviceSize bytes) {
  in_use_ += bytes;
  peak_in_use_ = std::max(peak_in_use_, in_use_);
  peak_allocated_ = std::max(peak_allocated_, allocated_);
}

BufferRange MemoryPool::dedicated_range(std::uint32_t slot) const {
  const OwnedBuffer& owned = *dedicated_[slot];
  BufferRange r;
  r.buffer = owned.buffer.get();
  r.size = owned.size;
  map_range(r, owned.mapped, 0);
  r.dedicated = true;
  r.owner = slot;
  return r;
}

void MemoryPool::free_dedicated(std::uint32_t slot) {
  allocated_ -= dedicated_[slot]->size;
  dedicated_[slot].reset();
}

void MemoryPool::release(const BufferRange& r) {
  std::lock_guard lock(mutex_);
  in_use_ -= r.size;
  if (r.dedicated) {
    // Kept for reuse (no vkAllocateMemory per op); the oldest idle ones go past the cap.
    idle_dedicated_.push_back(r.owner);
    if (dedicated_released_at_.size() <= r.owner) dedicated_released_at_.resize(r.owner + 1);
    dedicated_released_at_[r.owner] = clock_now();
    idle_bytes_ += dedicated_[r.owner]->size;
    while (idle_bytes_ > kIdleDedicatedCap && !idle_dedicated_.empty()) {
      idle_bytes_ -= dedicated_[idle_dedicated_.front()]->size;
      free_dedicated(idle_dedicated_.front());
      idle_dedicated_.erase(idle_dedicated_.begin());
    }
    return;
  }
  blocks_[r.owner]->live -= 1;
  free_[r.size_class].push_back({r.owner, r.offset, clock_now()});
}

std::shared_ptr<const void> MemoryPool::memory_of(const BufferRange& r) const {
  std::lock_guard lock(mutex_);
  if (r.dedicated) return dedicated_[r.owner];
  return blocks_[r.owner];
}

void MemoryPool::trim() {
  std::lock_guard lock(mutex_);
  for (std::uint32_t slot : idle_dedicated_) free_dedicated(slot);
  idle_dedicated_.clear();
  idle_bytes_ = 0;
  for (std::uint32_t b = 0; b < blocks_.size(); ++b) {
    if (blocks_[b] && blocks_[b]->live == 0) {
      allocated_ -= blocks_[b]->storage.size;
      blocks_[b].reset();
      if (b == current_) current_ = UINT32_MAX;
    }
  }
  for (auto& list : free_) {
    std::erase_if(list, [&](const FreeRange& r) { return !blocks_[r.block]; });
  }
}

VkDeviceSize MemoryPool::allocated_bytes() const {
  std::lock_guard lock(mutex_);
  return allocated_;
}

MemoryPool::Usage MemoryPool::usage() const {
  std::lock_guard lock(mutex_);
  return {in_use_, allocated_, peak_in_use_, peak_allocated_};
}

void MemoryPool::reset_peaks() {
  std::lock_guard lock(mutex_);
  peak_in_use_ = in_use_;
  peak_allocated_ = allocated_;
}

void MemoryPool::set_cap(VkDeviceSize cap) {
  std::lock_guard lock(mutex_);
  cap_ = cap;
}

}  // namespace vkt::vk
