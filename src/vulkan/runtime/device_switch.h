// Environment switches whose default depends on the device: on GPUs one way, on CPU devices
// (lavapipe) the other, where a path's costs differ (each caller's comment says how).
#pragma once

#include <initializer_list>
#include <string_view>

#include "common/env_choice.h"
#include "vulkan/runtime/context.h"

namespace vkt::vk {

inline bool is_gpu(const Context& ctx) {
  return ctx.properties().deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU;
}

// `words` = {automatic, on, off}: unset, empty or the first word is on for a GPU, off for a
// CPU device; other values throw as common::env_choice does.
inline bool switch_by_device(const Context& ctx, const char* name,
                             std::initializer_list<std::string_view> words, std::string_view area) {
  const int choice = common::env_choice(name, words, 0, area);
  return choice == 0 ? is_gpu(ctx) : choice == 1;
}

}  // namespace vkt::vk
