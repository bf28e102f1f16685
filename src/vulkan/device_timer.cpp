#include "vulkan/device_timer.h"

#include <cstdlib>
#include <string_view>
#include <vector>

#include "vulkan/check.h"

namespace vkt::vk {

DeviceTimer::DeviceTimer(const Context& ctx) : ctx_(ctx) {
  std::uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical(), &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical(), &n, families.data());
  if (ctx.queue_family() >= n) return;
  valid_bits_ = families[ctx.queue_family()].timestampValidBits;
  ns_per_tick_ = static_cast<double>(ctx.properties().limits.timestampPeriod);
  if (valid_bits_ == 0 || ns_per_tick_ <= 0) {
    valid_bits_ = 0;
    return;
  }
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = 2;
  VkQueryPool pool = VK_NULL_HANDLE;
  VKT_VK(vkCreateQueryPool, ctx.device(), &info, nullptr, &pool);
  pool_ = Owned<VkQueryPool>(ctx.device(), pool, vkDestroyQueryPool);
  const char* reset = std::getenv("VKT_VK_TIMER_RESET");
  host_reset_ =
      ctx.caps().host_query_reset && !(reset != nullptr && std::string_view(reset) == "command");
}

void DeviceTimer::write(Recorder& recorder, std::uint32_t query, VkPipelineStageFlagBits stage) {
  // A host reset must not touch queries a batch still in flight writes.
  const bool host_reset = query == 0 && host_reset_ && recorder.completed_value() >= last_batch_;
  if (host_reset) vkResetQueryPool(ctx_.device(), pool_.get(), 0, 2);
  VkCommandBuffer cmd = recorder.begin_command(std::vector<Access>{});
  if (query == 0 && !host_reset) vkCmdResetQueryPool(cmd, pool_.get(), 0, 2);
  if (query == 1) last_batch_ = recorder.pending_value();
  vkCmdWriteTimestamp(cmd, stage, pool_.get(), query);
  recorder.end_command();
}

void DeviceTimer::begin(Recorder& recorder) {
  if (!available()) return;
  write(recorder, 0, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
  recorded_ = false;
}

void DeviceTimer::end(Recorder& recorder) {
  if (!available()) return;
  write(recorder, 1, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
  recorded_ = true;
}

double DeviceTimer::elapsed_us() {
  if (!available() || !recorded_) return -1;
  std::uint64_t ticks[2] = {0, 0};
  VKT_VK(vkGetQueryPoolResults, ctx_.device(), pool_.get(), 0, 2, sizeof(ticks), ticks,
         sizeof(std::uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  recorded_ = false;
  const std::uint64_t mask =
      valid_bits_ >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << valid_bits_) - 1;
  const std::uint64_t delta = ((ticks[1] & mask) - (ticks[0] & mask)) & mask;
  return static_cast<double>(delta) * ns_per_tick_ / 1000.0;
}

}  // namespace vkt::vk
