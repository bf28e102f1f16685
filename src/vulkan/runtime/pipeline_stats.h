// VKT_VK_PIPELINE_STATS=1: the driver's statistics of every compute pipeline created (its
// registers, shared memory, spills, as the driver names them), one line each on stderr,
// through VK_KHR_pipeline_executable_properties. Registers per invocation set how many
// workgroups share an SM, which a kernel's tile choice has to know (issue 9).
#pragma once

#include <vulkan/vulkan.h>

#include <string>

namespace vkt::vk {

// Whether VKT_VK_PIPELINE_STATS asks for the statistics ("1"; "0" or unset: no).
bool pipeline_stats_wanted();
// One line: `label`, then each executable's statistics. Needs the pipeline created with
// VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR on a device with the extension enabled.
std::string pipeline_stats_line(VkDevice device, VkPipeline pipeline, const std::string& label);

}  // namespace vkt::vk
