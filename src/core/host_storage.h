// Host memory storage: what the cpu backend keeps tensors in, and where host fallbacks
// land. 64-byte aligned, uninitialised on allocation; large buffers are recycled.
#pragma once

#include <cstddef>
#include <memory>

#include "vkt/backend.h"

namespace vkt {

class HostStorage final : public Storage {
 public:
  HostStorage(Backend& owner, std::size_t nbytes);
  ~HostStorage() override;
  const void* host_data() const override { return data_; }
  // Writable only by the backend that is producing this storage's contents.
  void* data() { return data_; }

 protected:
  void release_bytes() noexcept override;

 private:
  void* data_ = nullptr;
  std::size_t capacity_ = 0;  // bytes allocated (>= nbytes)
};

}  // namespace vkt
