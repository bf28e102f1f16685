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
  // Large buffers are 2 MiB aligned and advised onto transparent huge pages (as NumPy does):
  // first-touch page faults otherwise dominate the cost of copy-bound ops on fresh outputs.
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  const bool huge = nbytes >= 2 * kHuge;
  const std::size_t align = huge ? kHuge : 64;
  const std::size_t rounded = (nbytes + align - 1) / align * align;
  data_ = std::aligned_alloc(align, rounded);
  if (data_ == nullptr) {
    throw OutOfMemory("[allocate] host allocation of " + std::to_string(nbytes) +
                      " bytes failed");
  }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (huge) madvise(data_, rounded, MADV_HUGEPAGE);  // advisory: failure changes nothing
#endif
}

HostStorage::~HostStorage() { std::free(data_); }

}  // namespace vkt
