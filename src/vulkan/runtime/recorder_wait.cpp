// The host's side of a batch's end: polling then blocking until a value is reached, by the
// timeline semaphore, a fence per batch or the host-visible flag (Recorder::Sync).
#include <chrono>
#include <limits>

#include "vkt/ledger.h"
#include "vulkan/runtime/check.h"
#include "vulkan/runtime/recorder.h"

namespace vkt::vk {

bool Recorder::flag_reached(std::uint64_t value) const {
  // Written by the device: a volatile read each time (mapped memory is aligned to 8).
  const auto* flag = reinterpret_cast<const volatile std::uint64_t*>(flag_.mapped);
  return *flag >= value;
}

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
  if (fences_) {
    // Batches complete in submission order on one queue; stop at the first one still running.
    for (const Batch& b : in_flight_) {
      const VkResult r = driver([&] { return vkGetFenceStatus(ctx_.device(), b.fence); });
      if (r == VK_NOT_READY) break;
      check(r, "vkGetFenceStatus");
      fence_done_ = b.value;
    }
    return fence_done_;
  }
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
  if (sync_ == Sync::flag) {
    // The device is done with these batches (the flag follows all their commands): their
    // storages go back to the pool now; only the command buffers wait for the semaphore.
    for (Batch& b : in_flight_) {
      if (b.value <= value) b.held.clear();
    }
  }
}

void Recorder::block_until(std::uint64_t value) {
  if (fences_) {
    std::vector<VkFence> fences;
    for (const Batch& b : in_flight_) {
      if (b.value <= value) fences.push_back(b.fence);
    }
    if (fences.empty()) return;
    check(driver([&] {
            return vkWaitForFences(ctx_.device(), static_cast<std::uint32_t>(fences.size()),
                                   fences.data(), VK_TRUE,
                                   std::numeric_limits<std::uint64_t>::max());
          }),
          "vkWaitForFences");
    return;
  }
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

VkFence Recorder::take_fence() {
  if (spare_fences_.empty()) {
    VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    VKT_VK(vkCreateFence, ctx_.device(), &info, nullptr, &fence);
    fence_store_.emplace_back(ctx_.device(), fence, vkDestroyFence);
    spare_fences_.push_back(fence);
  }
  const VkFence fence = spare_fences_.back();
  spare_fences_.pop_back();
  return fence;
}

bool Recorder::poll_until(std::uint64_t value) {
  if (spin_.count() <= 0) return false;
  const auto deadline = std::chrono::steady_clock::now() + spin_;
  if (sync_ == Sync::flag) {
    // One driver call per wait still: an injected device loss shows here, as in the others.
    if (completed_value() >= value) return true;
    do {
      if (flag_reached(value)) return true;
    } while (std::chrono::steady_clock::now() < deadline);
    return false;
  }
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
