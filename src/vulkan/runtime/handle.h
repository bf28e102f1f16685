// Owned<H>: single ownership of one device-child Vulkan handle (move-only RAII). Every
// vkDestroy*/vkFree* of a device child has the shape f(VkDevice, H, const VkAllocationCallbacks*).
#pragma once

#include <vulkan/vulkan.h>

#include <utility>

namespace vkt::vk {

template <class H>
class Owned {
 public:
  using Destroy = void (*)(VkDevice, H, const VkAllocationCallbacks*);
  Owned() = default;
  Owned(VkDevice device, H handle, Destroy destroy)
      : device_(device), handle_(handle), destroy_(destroy) {}
  ~Owned() { reset(); }
  Owned(Owned&& o) noexcept
      : device_(o.device_),
        handle_(std::exchange(o.handle_, VK_NULL_HANDLE)),
        destroy_(o.destroy_) {}
  Owned& operator=(Owned&& o) noexcept {
    if (this != &o) {
      reset();
      device_ = o.device_;
      handle_ = std::exchange(o.handle_, VK_NULL_HANDLE);
      destroy_ = o.destroy_;
    }
    return *this;
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;

  H get() const { return handle_; }
  explicit operator bool() const { return handle_ != VK_NULL_HANDLE; }
  void reset() {
    if (handle_ != VK_NULL_HANDLE) destroy_(device_, handle_, nullptr);
    handle_ = VK_NULL_HANDLE;
  }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  H handle_ = VK_NULL_HANDLE;
  Destroy destroy_ = nullptr;
};

}  // namespace vkt::vk
