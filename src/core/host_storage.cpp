#include "core/host_storage.h"

#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>

#include "vkt/error.h"

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace vkt {

HostStorage::HostStorage(Backend& owner, std::size_t nbytes) : Storage(owner, nbytes) {
  if (nbytes == 0) return;
  const std::size_t rounded = (nbytes + 63) / 64 * 64;
  data_ = std::aligned_alloc(64, rounded);
  if (data_ == nullptr) {
    throw OutOfMemory("[allocate] host allocation of " + std::to_string(nbytes) + " bytes failed");
  }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // As NumPy does: buffers of 4 MiB and more are advised onto transparent huge pages (the
  // whole pages inside the buffer), which cuts first-touch faults and TLB misses of
  // copy-bound ops. Advisory: a failure changes nothing.
  constexpr std::uintptr_t kPage = 4096;
  if (nbytes >= (std::size_t{4} << 20)) {
    const auto begin = (reinterpret_cast<std::uintptr_t>(data_) + kPage - 1) / kPage * kPage;
    const auto end = (reinterpret_cast<std::uintptr_t>(data_) + nbytes) / kPage * kPage;
    madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  }
#endif
}

HostStorage::~HostStorage() {
  std::free(data_);
}

}  // namespace vkt
