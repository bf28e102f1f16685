// from_pointer / to_pointer: zero-copy import and export of host memory on the cpu backend.
#include <string>

#include "core/checks.h"
#include "vkt/tensor.h"

namespace vkt {
namespace {

// Storage over memory the caller owns: never written, released through the caller's hook.
class BorrowedHostStorage final : public Storage {
 public:
  BorrowedHostStorage(Backend& owner, const void* data, std::size_t nbytes,
                      std::function<void(const void*)> release)
      : Storage(owner, nbytes), data_(data), release_(std::move(release)) {}
  ~BorrowedHostStorage() override {
    if (!bytes_released()) release_bytes();
  }
  const void* host_data() const override { return data_; }

 protected:
  // vkt::deallocate: the memory is the caller's, so only our reference goes (the hook).
  void release_bytes() noexcept override {
    if (release_) release_(data_);
  }

 private:
  const void* data_;
  std::function<void(const void*)> release_;
};

}  // namespace

Tensor from_pointer(const void* data, DType dtype, Shape shape,
                    std::function<void(const void*)> release) {
  detail::check_size("from_pointer", shape, dtype);
  const std::size_t bytes = static_cast<std::size_t>(numel(shape)) * itemsize(dtype);
  if (data == nullptr && bytes > 0) {
    detail::fail<Error>("from_pointer", "null pointer for " + std::string(dtype_name(dtype)) + " " +
                                            shape_str(shape));
  }
  if (reinterpret_cast<std::uintptr_t>(data) % itemsize(dtype) != 0) {
    detail::fail<Error>("from_pointer", "address is not aligned to the " +
                                            std::to_string(itemsize(dtype)) + "-byte items of " +
                                            std::string(dtype_name(dtype)));
  }
  auto storage = std::make_shared<BorrowedHostStorage>(cpu(), data, bytes, std::move(release));
  return Tensor(dtype, std::move(shape), std::move(storage));
}

const void* to_pointer(const Tensor& t) {
  detail::check_defined("to_pointer", t);
  if (!t.backend().is_cpu() || t.storage()->host_data() == nullptr) {
    detail::fail<Unsupported>("to_pointer", detail::describe(t) + " lives on " +
                                                t.backend().name() +
                                                ", not in host memory; call to_cpu() first");
  }
  return t.storage()->host_data();
}

}  // namespace vkt
