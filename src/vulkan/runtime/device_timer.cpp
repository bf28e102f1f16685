#include "vulkan/runtime/device_timer.h"

#include <vector>

#include "vulkan/runtime/check.h"

namespace vkt::vk {

namespace {
constexpr std::uint32_t kQueries = 2 + DeviceTimer::kMaxMarks;  // begin, end, then the marks
}  // namespace

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
  info.queryCount = kQueries;
  VkQueryPool pool = VK_NULL_HANDLE;
  VKT_VK(vkCreateQueryPool, ctx.device(), &info, nullptr, &pool);
  pool_ = Owned<VkQueryPool>(ctx.device(), pool, vkDestroyQueryPool);
  // Reset by the host where the device allows it, else by a command (write()).
  host_reset_ = ctx.caps().host_query_reset;
}

void DeviceTimer::write(Recorder& recorder, std::uint32_t query, VkPipelineStageFlagBits stage) {
  // A host reset must not touch queries a batch still in flight writes.
  const bool host_reset = query == 0 && host_reset_ && recorder.completed_value() >= last_batch_;
  if (host_reset) vkResetQueryPool(ctx_.device(), pool_.get(), 0, kQueries);
  VkCommandBuffer cmd = recorder.begin_command(std::vector<Access>{});
  if (query == 0 && !host_reset) vkCmdResetQueryPool(cmd, pool_.get(), 0, kQueries);
  if (query == 1) last_batch_ = recorder.pending_value();
  vkCmdWriteTimestamp(cmd, stage, pool_.get(), query);
  recorder.end_command();
}

void DeviceTimer::begin(Recorder& recorder) {
  if (!available()) return;
  write(recorder, 0, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
  recorded_ = false;
  open_ = true;
  marks_ = 0;
}

void DeviceTimer::mark(Recorder& recorder) {
  if (!available() || !open_ || marks_ == kMaxMarks) return;
  write(recorder, 2 + marks_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
  ++marks_;
}

void DeviceTimer::end(Recorder& recorder) {
  if (!available()) return;
  write(recorder, 1, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
  recorded_ = true;
  open_ = false;
}

double DeviceTimer::elapsed_us() {
  passes_us_.clear();
  if (!available() || !recorded_) return -1;
  std::vector<std::uint64_t> ticks(2 + marks_, 0);
  VKT_VK(vkGetQueryPoolResults, ctx_.device(), pool_.get(), 0, 2 + marks_,
         ticks.size() * sizeof(std::uint64_t), ticks.data(), sizeof(std::uint64_t),
         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  recorded_ = false;
  const std::uint64_t mask =
      valid_bits_ >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << valid_bits_) - 1;
  auto us = [&](std::uint64_t from, std::uint64_t to) {
    return static_cast<double>(((to & mask) - (from & mask)) & mask) * ns_per_tick_ / 1000.0;
  };
  if (marks_ > 0) {
    // Points in time order: begin, the marks, end.
    std::vector<std::uint64_t> points{ticks[0]};
    points.insert(points.end(), ticks.begin() + 2, ticks.end());
    points.push_back(ticks[1]);
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
      passes_us_.push_back(us(points[i], points[i + 1]));
    }
  }
  return us(ticks[0], ticks[1]);
}

}  // namespace vkt::vk
