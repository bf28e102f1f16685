#include "vulkan/runtime/pipeline_stats.h"

#include <sstream>
#include <vector>

#include "common/settings.h"
#include "vulkan/runtime/check.h"

namespace vkt::vk {

bool pipeline_stats_wanted() {
  return settings().pipeline_stats;
}

namespace {

void print_value(std::ostringstream& s, const VkPipelineExecutableStatisticKHR& st) {
  switch (st.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
      s << (st.value.b32 ? "true" : "false");
      break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
      s << st.value.i64;
      break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
      s << st.value.u64;
      break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
      s << st.value.f64;
      break;
    default:
      s << "?";
  }
}

}  // namespace

std::string pipeline_stats_line(VkDevice device, VkPipeline pipeline, const std::string& label) {
  const auto properties = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
      vkGetDeviceProcAddr(device, "vkGetPipelineExecutablePropertiesKHR"));
  const auto statistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
      vkGetDeviceProcAddr(device, "vkGetPipelineExecutableStatisticsKHR"));
  std::ostringstream s;
  s << "vkt: pipeline " << label;
  if (properties == nullptr || statistics == nullptr) {
    s << ": no statistics (VK_KHR_pipeline_executable_properties not enabled)\n";
    return s.str();
  }
  VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
  info.pipeline = pipeline;
  std::uint32_t count = 0;
  VKT_VK(properties, device, &info, &count, nullptr);
  std::vector<VkPipelineExecutablePropertiesKHR> exes(
      count,
      VkPipelineExecutablePropertiesKHR{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
  VKT_VK(properties, device, &info, &count, exes.data());
  for (std::uint32_t e = 0; e < count; ++e) {
    s << " [" << exes[e].name << "]";
    VkPipelineExecutableInfoKHR which{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    which.pipeline = pipeline;
    which.executableIndex = e;
    std::uint32_t n = 0;
    VKT_VK(statistics, device, &which, &n, nullptr);
    std::vector<VkPipelineExecutableStatisticKHR> stats(
        n, VkPipelineExecutableStatisticKHR{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    VKT_VK(statistics, device, &which, &n, stats.data());
    for (const VkPipelineExecutableStatisticKHR& st : stats) {
      s << " " << st.name << "=";
      print_value(s, st);
      s << ";";
    }
  }
  s << "\n";
  return s.str();
}

}  // namespace vkt::vk
