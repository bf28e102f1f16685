// A setting a test hook can override (vulkan/runtime/testing.h), read from any thread: the row
// kernels' variant, compile tiers, the SPIR-V pass list.
#pragma once

#include <mutex>
#include <optional>

namespace vkt::vk {

template <class T>
class TestOverride {
 public:
  void set(const std::optional<T>& value) {
    std::lock_guard lock(mutex_);
    value_ = value;
  }
  std::optional<T> get() const {
    std::lock_guard lock(mutex_);
    return value_;
  }

 private:
  mutable std::mutex mutex_;
  std::optional<T> value_;
};

}  // namespace vkt::vk
