// Per-op device time (Backend::begin_op_profile): a timestamp before and after each op's
// commands, so a user sees which op of a step the device spends its time in, not only the
// step's total. An op's time is how far it moved the device's timeline: its end minus the
// later of its start and the previous op's end, so overlapping ops are not counted twice
// and the host's gaps between batches count for no op.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

#include "vkt/backend.h"
#include "vkt/backend/op_call.h"
#include "vulkan/runtime/context.h"
#include "vulkan/runtime/device_timer.h"
#include "vulkan/runtime/handle.h"
#include "vulkan/runtime/recorder.h"

namespace vkt::vk {

// "conv f32 {32, 64, 56, 56} <- {32, 64, 56, 56}, {64, 64, 3, 3}": an op profile's label.
std::string op_label(const OpCall& call);

class OpProfiler {
 public:
  // Ops past this many in one profile are not timed; end() names how many in a last entry.
  static constexpr std::uint32_t kMaxOps = 8192;

  explicit OpProfiler(const Context& ctx);

  // False where the compute queue has no timestamps; begin() then records nothing.
  bool available() const { return clock_.valid_bits != 0; }
  bool active() const { return active_; }
  // Starts a profile; no work may be in flight (the backend finishes it first).
  void begin();
  // Around one op's commands; nested ops (an op run inside another) are part of the outer.
  void op_start(Recorder& recorder);
  void op_end(Recorder& recorder, std::string label);
  // Ends the profile and reads it; the recorder must be idle.
  std::vector<Backend::OpTime> end();

 private:
  void stamp(Recorder& recorder, std::uint32_t query, VkPipelineStageFlagBits stage);

  const Context& ctx_;
  TimestampClock clock_;
  Owned<VkQueryPool> pool_;
  bool active_ = false;
  bool reset_recorded_ = false;
  int depth_ = 0;
  std::vector<std::string> labels_;  // op i's stamps are queries 2i and 2i + 1
  std::uint64_t dropped_ = 0;
};

}  // namespace vkt::vk
