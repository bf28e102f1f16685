#include "core/host_storage.h"

#include <cstdlib>
#include <new>
#include <string>

#include "vkt/error.h"

namespace vkt {

HostStorage::HostStorage(Backend& owner, std::size_t nbytes) : Storage(owner, nbytes) {
  if (nbytes == 0) return;
  const std::size_t rounded = (nbytes + 63) / 64 * 64;
  data_ = std::aligned_alloc(64, rounded);
  if (data_ == nullptr) {
    throw OutOfMemory("[allocate] host allocation of " + std::to_string(nbytes) +
                      " bytes failed");
  }
}

HostStorage::~HostStorage() { std::free(data_); }

}  // namespace vkt
