// Validation-layer messages (VKT_VALIDATION=1): the debug messenger prints every warning or
// error message and counts it here, so tests can fail on any new message.
#pragma once

#include <cstdint>

namespace vkt::vk {

std::uint64_t validation_message_count();
// True when this process enabled the Khronos validation layer.
bool validation_enabled();

}  // namespace vkt::vk
