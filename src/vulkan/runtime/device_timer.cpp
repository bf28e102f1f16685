#include "vulkan/runtime/device_timer.h"

#include <vector>

#include "vulkan/runtime/check.h"

namespace vkt::vk {

namespace {
constexpr std::uint32_t kQueries = 2 + DeviceTimer::kMaxMarks;  // begin, end, then the marks
}  // namespace

TimestampClock::TimestampClock(const Context& ctx) {
  std::uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical(), &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical(), &n, families.data());
  if (ctx.queue_family() >= n) return;
  valid_bits = families[ctx.queue_family()].timestampValidBits;
  ns_per_tick = static_cast<double>(ctx.properties().limits.timestampPeriod);
  if (ns_per_tick <= 0) valid_bits = 0;
  host_reset = ctx.caps().host_query_reset;
}

Owned<VkQueryPool> timestamp_pool(const Context& ctx, std::uint32_t count) {
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = count;
  VkQueryPool pool = VK_NULL_HANDLE;
  VKT_VK(vkCreateQueryPool, ctx.device(), &info, nullptr, &pool);
  return Owned<VkQueryPool>(ctx.device(), pool, vkDestroyQueryPool);
}

DeviceTimer::DeviceTimer(const Context& ctx) : ctx_(ctx), clock_(ctx) {
  if (available()) pool_ = timestamp_pool(ctx, kQueries);
}

void DeviceTimer::write(Recorder& recorder, std::uint32_t query, VkPipelineStageFlagBits stage) {
  // A host reset must not touch queries a batch still in flight writes.
  const bool host_reset =
      query == 0 && clock_.host_reset && recorder.completed_value() >= last_batch_;
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
  auto us = [&](std::uint64_t from, std::uint64_t to) { return clock_.us(from, to); };
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
