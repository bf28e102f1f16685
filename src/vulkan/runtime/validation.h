// Validation-layer messages (VKT_VALIDATION=1): the debug messenger prints every warning or
// error message and counts it here, so tests can fail on any new message.
#pragma once

#include <cstdint>

namespace vkt::vk {

std::uint64_t validation_message_count();
// True when this process enabled the Khronos validation layer.
bool validation_enabled();
// True when that layer is older than `api_version` (VK_MAKE_API_VERSION): it would report
// the extensions and SPIR-V added since as errors, so paths that need them stay off.
bool validation_predates(std::uint32_t api_version);

}  // namespace vkt::vk
