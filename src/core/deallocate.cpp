// vkt::deallocate: freeing a storage before its last tensor goes, and the claims (StorageUse)
// that keep the bytes while something still reads them.
#include <string>

#include "core/checks.h"
#include "vkt/tensor.h"

namespace vkt {

bool Storage::deallocate() noexcept {
  const std::uint32_t before = state_.fetch_or(kDeallocated);
  if ((before & kDeallocated) != 0) return false;
  if (before == 0) release_once();  // no use in progress; else the last one frees
  return true;
}

void Storage::end_use() noexcept {
  if (state_.fetch_sub(1) - 1 == kDeallocated) release_once();
}

// A use that began after the mark and found it also ends with the count at zero, so both
// deallocate() and that use may get here: the flag lets one of them free.
void Storage::release_once() noexcept {
  if (!released_.exchange(true)) release_bytes();
}

StorageUse::StorageUse(std::shared_ptr<Storage> storage) noexcept {
  if (storage == nullptr) return;
  const std::uint32_t before = storage->state_.fetch_add(1);
  if ((before & Storage::kDeallocated) != 0) {
    storage->end_use();
    return;
  }
  storage_ = std::move(storage);
}

StorageUse& StorageUse::operator=(StorageUse&& other) noexcept {
  if (this != &other) {
    reset();
    storage_ = std::move(other.storage_);
  }
  return *this;
}

void StorageUse::reset() noexcept {
  if (storage_ != nullptr) storage_->end_use();
  storage_.reset();
}

StorageUse detail::use_bytes(const char* op, const Tensor& t) {
  if (!t.defined()) return {};
  StorageUse use(t.storage());
  if (!use) {
    fail<Deallocated>(op, "the tensor " + describe(t) + " was deallocated (vkt::deallocate)");
  }
  return use;
}

bool deallocate(const Tensor& t) {
  // Not check_defined, which refuses a deallocated tensor: a second call answers false.
  if (!t.defined()) detail::fail<Error>("deallocate", "got an empty (default-constructed) tensor");
  if (t.backend().captures_device_tensors()) {
    detail::fail<Unsupported>("deallocate",
                              "a symbolic tensor inside vkt::compile has no "
                              "storage to free; deallocate the real tensor "
                              "outside the compiled function");
  }
  return t.storage()->deallocate();
}

bool is_deallocated(const Tensor& t) {
  return t.defined() && t.storage()->deallocated();
}

}  // namespace vkt
