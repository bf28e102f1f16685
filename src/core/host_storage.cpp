#include "core/host_storage.h"

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "vkt/error.h"
#include "vkt/tensor.h"

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace vkt {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
// Freed large buffers kept for reuse, like the heap NumPy's outputs come from: a fresh
// mapping costs a page fault per page, which for a memory-bound op is most of its time.
constexpr std::size_t kCacheMin = std::size_t{1} << 20;
constexpr std::size_t kCacheCap = std::size_t{512} << 20;

// Capacity actually allocated for a request: large sizes round up to an eighth of their
// power of two so buffers of about the same size share a class.
std::size_t capacity_for(std::size_t nbytes) {
  if (nbytes < kCacheMin) return (nbytes + 63) / 64 * 64;
  const std::size_t granule = std::bit_ceil(nbytes) / 8;
  return (nbytes + granule - 1) / granule * granule;
}

class LargeBufferCache {
 public:
  void* take(std::size_t capacity) {
    std::lock_guard lock(mutex_);
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if (it->capacity != capacity) continue;
      void* p = it->data;
      bytes_ -= capacity;
      free_.erase(it);
      return p;
    }
    return nullptr;
  }
  // Keeps `p`, or frees it (or older ones) past the cap.
  void give(void* p, std::size_t capacity) {
    std::lock_guard lock(mutex_);
    free_.push_back({p, capacity});
    bytes_ += capacity;
    while (bytes_ > kCacheCap && !free_.empty()) {
      bytes_ -= free_.front().capacity;
      std::free(free_.front().data);
      free_.erase(free_.begin());
    }
  }

 private:
  struct Entry {
    void* data;
    std::size_t capacity;
  };
  std::mutex mutex_;
  std::vector<Entry> free_;
  std::size_t bytes_ = 0;
};

// Never destroyed: storages may be released during static destruction.
LargeBufferCache& cache() {
  static auto* c = new LargeBufferCache;
  return *c;
}

}  // namespace

void detail::advise_huge_pages(void* data, std::size_t bytes) noexcept {
#ifdef MADV_HUGEPAGE
  if (data == nullptr || bytes < 2 * kHugePage) return;
  const auto first = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t begin = (first + kHugePage - 1) & ~(kHugePage - 1);
  const std::uintptr_t end = (first + bytes) & ~(kHugePage - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

HostStorage::HostStorage(Backend& owner, std::size_t nbytes) : Storage(owner, nbytes) {
  if (nbytes == 0) return;
  capacity_ = capacity_for(nbytes);
  if (capacity_ >= kCacheMin) data_ = cache().take(capacity_);
  if (data_ != nullptr) return;
  // Large buffers: 2 MiB aligned and marked for transparent huge pages (as NumPy does), so
  // a fresh output costs a few hundred page faults instead of one per 4 KiB.
  const bool huge = capacity_ >= 2 * kHugePage;
  const std::size_t alignment = huge ? kHugePage : 64;
  const std::size_t rounded = (capacity_ + alignment - 1) / alignment * alignment;
  data_ = std::aligned_alloc(alignment, rounded);
#ifdef MADV_HUGEPAGE
  if (huge && data_ != nullptr) madvise(data_, rounded, MADV_HUGEPAGE);  // advice only
#endif
  if (data_ == nullptr) {
    throw OutOfMemory("[allocate] host allocation of " + std::to_string(nbytes) + " bytes failed");
  }
}

HostStorage::~HostStorage() {
  if (data_ != nullptr && capacity_ >= kCacheMin) {
    cache().give(data_, capacity_);
  } else {
    std::free(data_);
  }
}

}  // namespace vkt
