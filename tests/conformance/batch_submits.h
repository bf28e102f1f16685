// How many submits a run of ops costs under the recorder's bounds: one per boundary, or one
// per piece of flush_ops() ops (GPUs, or set_flush_ops), so the batching tests hold under
// every flush bound. Mirrors Recorder's rules: a batch is submitted at kMaxCommands commands and
// after the flush-th op; an op holds its storages after its last command (reopening a batch
// the command bound just submitted); the read submits what is open.
#pragma once

#include <cstdint>

#include "common/settings.h"
#include "vulkan/runtime/recorder.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {

// Outputs are filled with 0xFF by a device command (one more command per op).
inline bool poison_fills() {
  return !vk::testing::host_mapped() && settings().poison.value_or(false);
}

// `ops` ops of `commands_per_op` commands each, then one read (which records a copy of its
// own where working memory is not host-mapped).
inline std::uint64_t expected_submits(std::uint64_t ops, std::uint64_t commands_per_op) {
  const std::uint64_t flush = vk::testing::flush_ops();
  std::uint64_t submits = 0, commands = 0, ops_in_batch = 0;
  bool open = false;
  for (std::uint64_t i = 0; i < ops; ++i) {
    for (std::uint64_t c = 0; c < commands_per_op; ++c) {
      commands += 1;
      if (commands == vk::Recorder::kMaxCommands) {
        submits += 1;
        commands = 0;
        ops_in_batch = 0;
      }
    }
    open = true;  // the op's holds
    ops_in_batch += 1;
    if (flush != 0 && ops_in_batch >= flush) {
      submits += 1;
      commands = 0;
      ops_in_batch = 0;
      open = false;
    }
  }
  if (!vk::testing::host_mapped()) open = true;
  return submits + (open ? 1 : 0);
}

}  // namespace vkt::testing
