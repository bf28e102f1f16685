#include "core/host_storage.h"

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
  // Large buffers: 2 MiB aligned and marked for transparent huge pages (as NumPy does), so
  // a fresh output costs a few hundred page faults instead of one per 4 KiB.
  const std::size_t huge_page = std::size_t{2} << 20;
  const bool huge = nbytes >= 2 * huge_page;
  const std::size_t alignment = huge ? huge_page : 64;
  const std::size_t rounded = (nbytes + alignment - 1) / alignment * alignment;
  data_ = std::aligned_alloc(alignment, rounded);
#ifdef MADV_HUGEPAGE
  if (huge && data_ != nullptr) madvise(data_, rounded, MADV_HUGEPAGE);  // advice only
#endif
  if (data_ == nullptr) {
    throw OutOfMemory("[allocate] host allocation of " + std::to_string(nbytes) +
                      " bytes failed");
  }
}

HostStorage::~HostStorage() { std::free(data_); }

}  // namespace vkt
