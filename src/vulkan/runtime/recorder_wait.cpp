// The host's side of a batch's end: polling the timeline semaphore, then blocking on it,
// until a value is reached.
#include <chrono>
#include <limits>

#include "vkt/ledger.h"
#include "vulkan/runtime/check.h"
#include "vulkan/runtime/recorder.h"

namespace vkt::vk {

Recorder::~Recorder() {
  try {
    quiesce();
  } catch (...) {
    // A lost device: abandon() already waited for whatever could still run.
  }
}

std::uint64_t Recorder::completed_value() {
  std::uint64_t v = 0;
  check_alive();
  check(driver([&] { return vkGetSemaphoreCounterValue(ctx_.device(), timeline_.get(), &v); }),
        "vkGetSemaphoreCounterValue");
  return v;
}

void Recorder::wait(std::uint64_t value) {
  // Deterministic ledger: a wait counts whenever the host needs work it has not yet seen
  // complete, even if the device happens to be done already (a race would make counts flaky).
  check_alive();
  if (value <= waited_) {
    recycle_completed();
    return;
  }
  if (open_ && value >= pending_.value) submit();  // never wait for unsubmitted work
  if (!poll_until(value)) block_until(value);
  ledger::record_wait();
  waited_ = value;
  recycle_completed();
}

void Recorder::block_until(std::uint64_t value) {
  VkSemaphore sem = timeline_.get();
  VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  info.semaphoreCount = 1;
  info.pSemaphores = &sem;
  info.pValues = &value;
  check(driver([&] {
          return vkWaitSemaphores(ctx_.device(), &info, std::numeric_limits<std::uint64_t>::max());
        }),
        "vkWaitSemaphores");
}

bool Recorder::poll_until(std::uint64_t value) {
  if (spin_.count() <= 0) return false;
  const auto deadline = std::chrono::steady_clock::now() + spin_;
  do {
    if (completed_value() >= value) return true;
  } while (std::chrono::steady_clock::now() < deadline);
  return false;
}

void Recorder::finish() {
  wait(submit());
}

void Recorder::quiesce() {
  finish();
  if (in_flight_.empty()) return;
  block_until(in_flight_.back().value);
  recycle_completed();
}

}  // namespace vkt::vk
