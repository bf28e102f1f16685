// Linked only when vktensor is built without the Vulkan backend.
#include "vkt/backend.h"
#include "vkt/error.h"

namespace vkt {
Backend& vulkan(int) {
  throw NoDevice("[vulkan] this build of vktensor has no Vulkan backend (VKT_WITH_VULKAN=OFF)");
}
std::string vulkan_info() {
  throw NoDevice("[vulkan] this build of vktensor has no Vulkan backend (VKT_WITH_VULKAN=OFF)");
}
}  // namespace vkt
