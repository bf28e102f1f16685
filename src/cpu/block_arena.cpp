#include "cpu/block_arena.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "core/host_storage.h"
#include "cpu/borrowed_storage.h"
#include "vkt/host_pool.h"

namespace vkt::cpu_kernels {
namespace {

thread_local BlockArena* current_arena = nullptr;

// A thread's most recently used buffers, kept from one arena to the next on that thread:
// the next call's blocks then write memory already in this core's cache, where buffers
// from the shared pool were last written by other cores (and the pool's lock is taken by
// every thread at once). At most kKeptBytes a thread, so idle threads hold little.
constexpr std::size_t kKeptBytes = std::size_t{1} << 20;
struct KeptBuffer {
  std::shared_ptr<Storage> storage;
  void* data;
  std::size_t capacity;
};
thread_local std::vector<KeptBuffer> kept_buffers;  // the most recent last

}  // namespace

// A buffer of the arena lent to one tensor.
class ScratchStorage final : public Storage {
 public:
  ScratchStorage(BlockArena& arena, BlockArena::Buffer b, std::size_t nbytes)
      : Storage(cpu(), nbytes), arena_(arena), buffer_(b) {}
  ~ScratchStorage() override { arena_.release(buffer_); }
  const void* host_data() const override { return buffer_.data; }

 private:
  BlockArena& arena_;
  BlockArena::Buffer buffer_;
};

BlockArena::BlockArena() : previous_(current_arena), poison_(host_pool_stats().poison) {
  current_arena = this;
  for (KeptBuffer& k : kept_buffers) {
    free_.push_back(Buffer{k.data, k.capacity});
    backing_.push_back(std::move(k.storage));
  }
  kept_buffers.clear();
}

BlockArena::~BlockArena() {
  assert(in_use_ == 0);
  current_arena = previous_;
  // The most recently released buffers, up to kKeptBytes, stay with the thread.
  std::vector<KeptBuffer> kept;
  std::size_t bytes = 0;
  for (auto it = free_.rbegin(); it != free_.rend(); ++it) {
    if (bytes + it->capacity > kKeptBytes) continue;
    for (std::shared_ptr<Storage>& s : backing_) {
      if (s && s->host_data() == it->data) {
        kept.push_back(KeptBuffer{std::move(s), it->data, it->capacity});
        bytes += it->capacity;
        break;
      }
    }
  }
  // An inner arena's buffers join those its thread already keeps (the newest last).
  std::reverse(kept.begin(), kept.end());
  for (KeptBuffer& k : kept) kept_buffers.push_back(std::move(k));
  while (kept_buffers.size() > 1) {
    std::size_t total = 0;
    for (const KeptBuffer& k : kept_buffers) total += k.capacity;
    if (total <= kKeptBytes) break;
    kept_buffers.erase(kept_buffers.begin());
  }
}

BlockArena* BlockArena::current() {
  return current_arena;
}

std::shared_ptr<Storage> BlockArena::storage(std::size_t bytes) {
  if (placed_ != nullptr && bytes == placed_bytes_) {
    void* dst = placed_;
    placed_ = nullptr;
    if (poison_) std::memset(dst, 0xFF, bytes);  // as reused buffers: unwritten shows
    return std::make_shared<BorrowedStorage>(dst, bytes);
  }
  // The most recently released buffer that fits: the one likeliest still in cache.
  for (auto it = free_.rbegin(); it != free_.rend(); ++it) {
    if (it->capacity < bytes) continue;
    const Buffer b = *it;
    free_.erase(std::next(it).base());
    // As the host pool does with its reused buffers: a kernel that reads its output before
    // writing it shows in the tests.
    if (poison_) std::memset(b.data, 0xFF, bytes);
    ++in_use_;
    return std::make_shared<ScratchStorage>(*this, b, bytes);
  }
  // A new buffer: once per live value of the group, not once per block.
  auto host = std::make_shared<HostStorage>(cpu(), bytes);
  const Buffer b{host->data(), bytes};
  backing_.push_back(std::move(host));
  ++in_use_;
  return std::make_shared<ScratchStorage>(*this, b, bytes);
}

BlockArena::Placement::Placement(BlockArena& arena, void* dst, std::size_t bytes) : arena_(arena) {
  arena_.placed_ = dst;
  arena_.placed_bytes_ = bytes;
}

BlockArena::Placement::~Placement() {
  arena_.placed_ = nullptr;
}

void BlockArena::release(Buffer b) {
  --in_use_;
  free_.push_back(b);
}

}  // namespace vkt::cpu_kernels
