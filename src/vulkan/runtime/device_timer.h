// Device time between two points of the recorded work (vkCmdWriteTimestamp), for profiling:
// vkt-bench's GPU column beside the wall-clock C. A pair of timestamp queries, and up to
// kMaxMarks marks between them that an op with several passes records (conv's im2col, then
// its GEMM), so that each pass's device time can be read.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

#include "vulkan/runtime/context.h"
#include "vulkan/runtime/handle.h"
#include "vulkan/runtime/recorder.h"

namespace vkt::vk {

// The compute queue's timestamps: valid bits (0: none), nanoseconds per tick, and whether
// the host may reset query pools (vkResetQueryPool). Shared with OpProfiler.
struct TimestampClock {
  std::uint32_t valid_bits = 0;
  double ns_per_tick = 0;
  bool host_reset = false;

  explicit TimestampClock(const Context& ctx);
  // Microseconds from tick `from` to tick `to`, across one wrap of the counter.
  double us(std::uint64_t from, std::uint64_t to) const {
    return static_cast<double>(ticks(from, to)) * ns_per_tick / 1000.0;
  }
  std::uint64_t ticks(std::uint64_t from, std::uint64_t to) const {
    const std::uint64_t mask =
        valid_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << valid_bits) - 1;
    return ((to & mask) - (from & mask)) & mask;
  }
};

// A pool of `count` timestamp queries.
Owned<VkQueryPool> timestamp_pool(const Context& ctx, std::uint32_t count);

class DeviceTimer {
 public:
  static constexpr std::uint32_t kMaxMarks = 8;

  explicit DeviceTimer(const Context& ctx);

  // False where the compute queue has no timestamps (timestampValidBits == 0).
  bool available() const { return clock_.valid_bits != 0; }
  // Records the start timestamp before whatever is recorded next.
  void begin(Recorder& recorder);
  // Between begin and end: records a timestamp once everything recorded before it has
  // completed, closing one pass. Elsewhere, or past kMaxMarks, nothing.
  void mark(Recorder& recorder);
  // Records the end timestamp once everything recorded before it has completed.
  void end(Recorder& recorder);
  // Microseconds between the last begin and end; the work must be complete (the caller has
  // waited for it). Negative when unavailable or when no pair was recorded.
  double elapsed_us();
  // The passes of the last begin..end that elapsed_us() read: begin to the first mark, each
  // mark to the next, the last mark to end. Empty when no mark was recorded.
  const std::vector<double>& passes_us() const { return passes_us_; }

 private:
  void write(Recorder& recorder, std::uint32_t query, VkPipelineStageFlagBits stage);

  const Context& ctx_;
  // The queries are reset from the host (vkResetQueryPool) where the device allows it, so
  // the timed batch carries no vkCmdResetQueryPool; elsewhere a command resets them.
  TimestampClock clock_;
  Owned<VkQueryPool> pool_;
  bool recorded_ = false;
  std::uint64_t last_batch_ = 0;  // the batch that wrote the last end timestamp
  bool open_ = false;             // between begin and end
  std::uint32_t marks_ = 0;       // marks recorded since begin (queries 2 onwards)
  std::vector<double> passes_us_;
};

}  // namespace vkt::vk
