// VkResult checking: a failed Vulkan call becomes a vkt error naming the call.
#pragma once

#include <vulkan/vulkan.h>

namespace vkt::vk {

const char* result_name(VkResult r);
// OutOfMemory for the out-of-memory results, DeviceLost for a lost device, else Error.
[[noreturn]] void throw_vk_error(VkResult r, const char* call);
inline void check(VkResult r, const char* call) {
  if (r != VK_SUCCESS) throw_vk_error(r, call);
}

}  // namespace vkt::vk

// VKT_VK(vkFoo, args...): calls vkFoo(args...) and throws, naming vkFoo, unless VK_SUCCESS.
#define VKT_VK(fn, ...) ::vkt::vk::check(fn(__VA_ARGS__), #fn)
