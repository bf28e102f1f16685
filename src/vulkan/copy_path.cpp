// Which device-to-device copy path runs faster on this device, vkCmdCopyBuffer or the
// compute-shader word copy (shaders/movement_copy.comp), decided by measuring both once
// when the backend is made, not by vendor: on the H200 the shader moved about 4x the bytes
// of vkCmdCopyBuffer (shared/GPU.md); other drivers may differ.
#include <algorithm>
#include <cstdio>
#include <limits>

#include "vkt/error.h"
#include "vulkan/backend.h"
#include "vulkan/device_timer.h"

namespace vkt::vk {
namespace {

constexpr std::int64_t kProbeBytes = std::int64_t{8} << 20;
constexpr int kProbeReps = 3;

// The fastest of kProbeReps copies by `path`, in device microseconds.
double time_copies(VulkanBackend& b, DeviceTimer& timer, CopyPath path, const Tensor& src,
                   const Tensor& dst) {
  double best = std::numeric_limits<double>::infinity();
  for (int rep = 0; rep < kProbeReps; ++rep) {
    timer.begin(b.recorder());
    record_copy(b, path, src, dst, 0, 0, static_cast<std::uint64_t>(kProbeBytes));
    timer.end(b.recorder());
    b.recorder().finish();
    best = std::min(best, timer.elapsed_us());
  }
  return best;
}

}  // namespace

CopyPath measure_copy_path(VulkanBackend& b, std::string& report) {
  DeviceTimer timer(b.context());
  if (!timer.available()) {
    report = "default (no device timestamps to measure with)";
    return CopyPath::transfer_command;
  }
  try {
    OpCall scratch{};
    scratch.op = Op::copy;
    scratch.out_dtype = DType::u8;
    scratch.out_shape = {kProbeBytes};
    const Tensor src = b.make_output(scratch), dst = b.make_output(scratch);
    const double transfer = time_copies(b, timer, CopyPath::transfer_command, src, dst);
    const double shader = time_copies(b, timer, CopyPath::compute_shader, src, dst);
    // The transfer command needs no pipeline: it keeps a tie (within 10%).
    const CopyPath path =
        shader < 0.9 * transfer ? CopyPath::compute_shader : CopyPath::transfer_command;
    char text[160];
    std::snprintf(text, sizeof(text),
                  "measured: 8 MiB in %.1f us by vkCmdCopyBuffer, %.1f us by the shader",
                  transfer, shader);
    report = text;
    return path;
  } catch (const Error& e) {
    report = std::string("default (the measurement failed: ") + e.what() + ")";
    return CopyPath::transfer_command;
  }
}

}  // namespace vkt::vk
