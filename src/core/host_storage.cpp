#include "core/host_storage.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <new>
#include <string>

#include "common/settings.h"
#include "core/size_class.h"
#include "vkt/error.h"
#include "vkt/host_pool.h"
#include "vkt/tensor.h"

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace vkt {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
// From glibc's default mmap threshold up: below it malloc recycles freed chunks itself;
// at and above it each fresh buffer is a new mapping, a page fault per page on first touch.
constexpr std::size_t kPoolMin = std::size_t{128} << 10;
constexpr std::size_t kDefaultCapMax = std::size_t{4} << 30;

// Capacity actually allocated for a request: pooled sizes go by size class.
std::size_t capacity_for(std::size_t nbytes) {
  if (nbytes < kPoolMin) return (nbytes + 63) / 64 * 64;
  return detail::size_class_bytes(nbytes, 64);
}

std::size_t default_cap() {
  if (const auto mb = settings().host_pool_mb) return static_cast<std::size_t>(*mb) << 20;
#ifdef __linux__
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) {
    return std::min(kDefaultCapMax,
                    static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) / 8);
  }
#endif
  return std::size_t{512} << 20;
}

bool default_poison() {
  if (const std::optional<bool> on = settings().poison) return *on;
#ifdef NDEBUG
  return false;
#else
  return true;
#endif
}

void free_buffer(void* p) {
  std::free(p);
}

class HostPool {
 public:
  // A cached buffer of exactly `capacity`, or nullptr.
  void* take(std::size_t capacity) {
    void* p = nullptr;
    bool poison = false;
    {
      std::lock_guard lock(mutex_);
      // Newest first: its pages are the likeliest to be in cache.
      for (auto it = free_.rbegin(); it != free_.rend(); ++it) {
        if (it->capacity != capacity) continue;
        p = it->data;
        cached_ -= capacity;
        free_.erase(std::next(it).base());
        ++reuses_;
        poison = poison_;
        break;
      }
      if (p == nullptr) ++allocations_;
    }
    if (p != nullptr && poison) std::memset(p, 0xFF, capacity);
    return p;
  }
  // Keeps `p` for reuse, freeing the oldest buffers past the cap.
  void give(void* p, std::size_t capacity) {
    std::deque<Entry> evicted;
    {
      std::lock_guard lock(mutex_);
      free_.push_back({p, capacity});
      cached_ += capacity;
      evict_to(cap_, evicted);
    }
    for (const Entry& e : evicted) free_buffer(e.data);
  }
  void set_cap(std::size_t cap) {
    std::deque<Entry> evicted;
    {
      std::lock_guard lock(mutex_);
      cap_ = cap;
      evict_to(cap_, evicted);
    }
    for (const Entry& e : evicted) free_buffer(e.data);
  }
  void trim() {
    std::deque<Entry> evicted;
    {
      std::lock_guard lock(mutex_);
      evict_to(0, evicted);
    }
    for (const Entry& e : evicted) free_buffer(e.data);
  }
  void set_poison(bool on) {
    std::lock_guard lock(mutex_);
    poison_ = on;
    poison_now_.store(on, std::memory_order_relaxed);
  }
  // The poisoning setting without the lock, for the per-thread small-buffer caches.
  bool poisoning() const { return poison_now_.load(std::memory_order_relaxed); }
  HostPoolStats stats() {
    std::lock_guard lock(mutex_);
    return {cached_, cap_, reuses_, allocations_, poison_};
  }

 private:
  struct Entry {
    void* data;
    std::size_t capacity;
  };
  void evict_to(std::size_t limit, std::deque<Entry>& evicted) {
    while (cached_ > limit && !free_.empty()) {
      cached_ -= free_.front().capacity;
      evicted.push_back(free_.front());
      free_.pop_front();
    }
  }

  std::mutex mutex_;
  std::deque<Entry> free_;  // oldest first
  std::size_t cached_ = 0;
  std::size_t cap_ = default_cap();
  std::uint64_t reuses_ = 0, allocations_ = 0;
  bool poison_ = default_poison();
  std::atomic<bool> poison_now_{poison_};
};

// Never destroyed: storages may be released during static destruction.
HostPool& pool() {
  static auto* p = new HostPool;
  return *p;
}

// Small buffers (below kPoolMin) recycled per thread, newest first: glibc serves a 64-byte
// aligned request by splitting a larger chunk, and for a 1k-element op that allocation and
// its free cost more than the kernel (perf of a cpu add at 1024: a third of its time).
class SmallCache {
 public:
  void* take(std::size_t capacity) {
    for (std::size_t i = count_; i-- > 0;) {
      if (slots_[i].capacity != capacity) continue;
      void* p = slots_[i].data;
      std::copy(slots_.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                slots_.begin() + static_cast<std::ptrdiff_t>(count_),
                slots_.begin() + static_cast<std::ptrdiff_t>(i));
      --count_;
      return p;
    }
    return nullptr;
  }
  // Keeps p, the oldest buffer making room when all slots are taken (so a thread whose sizes
  // change does not keep only the old ones).
  void give(void* p, std::size_t capacity) {
    if (count_ == slots_.size()) {
      free_buffer(slots_[0].data);
      std::copy(slots_.begin() + 1, slots_.end(), slots_.begin());
      --count_;
    }
    slots_[count_++] = {p, capacity};
  }
  void clear() {
    for (std::size_t i = 0; i < count_; ++i) free_buffer(slots_[i].data);
    count_ = 0;
  }
  ~SmallCache();

 private:
  struct Slot {
    void* data;
    std::size_t capacity;
  };
  std::array<Slot, 16> slots_{};  // oldest first; at most 16 x 128 KiB held per thread
  std::size_t count_ = 0;
};

// Set once a thread's cache is destroyed (at its exit): storages freed later free directly.
thread_local bool t_small_cache_gone = false;

SmallCache::~SmallCache() {
  clear();
  t_small_cache_gone = true;
}

SmallCache* small_cache() {
  if (t_small_cache_gone) return nullptr;
  thread_local SmallCache cache;
  return &cache;
}

}  // namespace

HostPoolStats host_pool_stats() {
  return pool().stats();
}
void host_pool_trim() {
  if (SmallCache* c = small_cache()) c->clear();  // the calling thread's
  pool().trim();
}
void set_host_pool_cap(std::size_t bytes) {
  pool().set_cap(bytes);
}
void set_host_pool_poison(bool on) {
  pool().set_poison(on);
}

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
  if (capacity_ >= kPoolMin) {
    data_ = pool().take(capacity_);
  } else if (SmallCache* c = small_cache()) {
    data_ = c->take(capacity_);
    if (data_ != nullptr && pool().poisoning()) std::memset(data_, 0xFF, capacity_);
  }
  if (data_ != nullptr) return;
  // Large buffers: 2 MiB aligned and marked for transparent huge pages (as NumPy does), so
  // a fresh output costs a few hundred page faults instead of one per 4 KiB.
  const bool huge = capacity_ >= 2 * kHugePage;
  const std::size_t alignment = huge ? kHugePage : 64;
  const std::size_t rounded = (capacity_ + alignment - 1) / alignment * alignment;
  data_ = std::aligned_alloc(alignment, rounded);
  if (data_ == nullptr) {
    // Cached buffers may be what stands in the way: give them back and try once more.
    host_pool_trim();
    data_ = std::aligned_alloc(alignment, rounded);
  }
  if (data_ == nullptr) {
    throw OutOfMemory("[allocate] host allocation of " + std::to_string(nbytes) + " bytes failed");
  }
  if (huge) detail::advise_huge_pages(data_, rounded);
}

HostStorage::~HostStorage() {
  if (!bytes_released()) release_bytes();
}

// data_ keeps its value (a reader checks deallocated() first, never this address), so a
// host_data() in another thread does not race with the release.
void HostStorage::release_bytes() noexcept {
  if (data_ == nullptr) return;
  if (capacity_ >= kPoolMin) {
    pool().give(data_, capacity_);
    return;
  }
  if (SmallCache* c = small_cache()) {
    c->give(data_, capacity_);
  } else {
    free_buffer(data_);
  }
}

}  // namespace vkt
