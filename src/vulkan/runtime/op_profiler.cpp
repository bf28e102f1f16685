#include "vulkan/runtime/op_profiler.h"

#include <algorithm>

#include "vkt/tensor.h"
#include "vulkan/runtime/check.h"

namespace vkt::vk {

std::string op_label(const OpCall& call) {
  std::string s = std::string(op_name(call.op)) + " " + std::string(dtype_name(call.out_dtype)) +
                  " " + shape_str(call.out_shape);
  for (std::size_t i = 0; i < call.inputs.size(); ++i) {
    s += (i == 0 ? " <- " : ", ") + shape_str(call.inputs[i].shape());
  }
  return s;
}

namespace {
constexpr std::uint32_t kQueries = 2 * OpProfiler::kMaxOps;
}  // namespace

OpProfiler::OpProfiler(const Context& ctx) : ctx_(ctx), clock_(ctx) {}

void OpProfiler::begin() {
  labels_.clear();
  dropped_ = 0;
  depth_ = 0;
  active_ = available();
  reset_recorded_ = false;
  if (!active_) return;
  // Made on first use: a profile is rare, 16k queries are not free.
  if (!pool_) pool_ = timestamp_pool(ctx_, kQueries);
  if (clock_.host_reset) {
    vkResetQueryPool(ctx_.device(), pool_.get(), 0, kQueries);
    reset_recorded_ = true;
  }
}

void OpProfiler::stamp(Recorder& recorder, std::uint32_t query, VkPipelineStageFlagBits stage) {
  VkCommandBuffer cmd = recorder.begin_command(std::vector<Access>{});
  if (!reset_recorded_) {  // no host reset: the first stamp's command resets every query
    vkCmdResetQueryPool(cmd, pool_.get(), 0, kQueries);
    reset_recorded_ = true;
  }
  vkCmdWriteTimestamp(cmd, stage, pool_.get(), query);
  recorder.end_command();
}

void OpProfiler::op_start(Recorder& recorder) {
  if (!active_ || depth_++ > 0) return;
  if (labels_.size() == kMaxOps) return;
  stamp(recorder, 2 * static_cast<std::uint32_t>(labels_.size()),
        VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
}

void OpProfiler::op_end(Recorder& recorder, std::string label) {
  if (!active_ || --depth_ > 0) return;
  if (labels_.size() == kMaxOps) {
    ++dropped_;
    return;
  }
  stamp(recorder, 2 * static_cast<std::uint32_t>(labels_.size()) + 1,
        VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
  labels_.push_back(std::move(label));
}

std::vector<Backend::OpTime> OpProfiler::end() {
  std::vector<Backend::OpTime> out;
  if (!active_) return out;
  active_ = false;
  if (labels_.empty()) return out;
  std::vector<std::uint64_t> ticks(2 * labels_.size(), 0);
  VKT_VK(vkGetQueryPoolResults, ctx_.device(), pool_.get(), 0,
         static_cast<std::uint32_t>(ticks.size()), ticks.size() * sizeof(std::uint64_t),
         ticks.data(), sizeof(std::uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  // Ticks relative to the first stamp, so a counter that wraps within the profile still
  // orders correctly (the profile is far shorter than the counter's period).
  auto since_origin = [&](std::uint64_t t) { return clock_.ticks(ticks[0], t); };
  std::uint64_t previous_end = 0;
  for (std::size_t i = 0; i < labels_.size(); ++i) {
    const std::uint64_t start = std::max(since_origin(ticks[2 * i]), previous_end);
    const std::uint64_t end = std::max(since_origin(ticks[2 * i + 1]), start);
    out.push_back({std::move(labels_[i]), clock_.us(start, end)});
    previous_end = end;
  }
  if (dropped_ > 0) {
    out.push_back({std::to_string(dropped_) + " more ops, not timed (a profile times the first " +
                       std::to_string(kMaxOps) + ")",
                   0.0});
  }
  labels_.clear();
  return out;
}

}  // namespace vkt::vk
