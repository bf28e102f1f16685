// Which device-to-device copy path runs faster on this device, vkCmdCopyBuffer or the
// compute-shader word copy (shaders/movement_copy.comp), decided by measuring both once
// when the backend is made, not by vendor: on the H200 the shader moved about 4x the bytes
// of vkCmdCopyBuffer (shared/GPU.md); other drivers may differ. Small copies are timed too,
// since a transfer command may start sooner than a dispatch: where the shader wins large
// copies, copies below the crossover of the two paths' lines keep vkCmdCopyBuffer.
#include <algorithm>
#include <cstdio>
#include <limits>

#include "vkt/error.h"
#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/device_timer.h"

namespace vkt::vk {
namespace {

constexpr std::int64_t kProbeBytes = std::int64_t{8} << 20;
constexpr std::uint64_t kSmallProbeBytes = 4096;
constexpr int kProbeReps = 3;

// The fastest of kProbeReps copies by `path`, in device microseconds.
double time_copies(VulkanBackend& b, DeviceTimer& timer, CopyPath path, const Tensor& src,
                   const Tensor& dst, std::uint64_t bytes) {
  double best = std::numeric_limits<double>::infinity();
  for (int rep = 0; rep < kProbeReps; ++rep) {
    timer.begin(b.recorder());
    record_copy(b, path, src, dst, 0, 0, bytes);
    timer.end(b.recorder());
    b.recorder().finish();
    best = std::min(best, timer.elapsed_us());
  }
  return best;
}

}  // namespace

// Where the shader's line (small start, high rate) crosses the transfer command's, from
// each path's two probes; 0 when the transfer command is not faster on small copies.
std::uint64_t small_crossover(double transfer_small, double transfer, double shader_small,
                              double shader) {
  if (!(transfer_small < 0.9 * shader_small)) return 0;
  const double span = static_cast<double>(kProbeBytes) - static_cast<double>(kSmallProbeBytes);
  const double t_rate = (transfer - transfer_small) / span;  // us per byte
  const double s_rate = (shader - shader_small) / span;
  if (!(t_rate > s_rate)) return static_cast<std::uint64_t>(kProbeBytes);
  const double x =
      static_cast<double>(kSmallProbeBytes) + (shader_small - transfer_small) / (t_rate - s_rate);
  return static_cast<std::uint64_t>(
      std::clamp(x, static_cast<double>(kSmallProbeBytes), static_cast<double>(kProbeBytes)));
}

CopyPath measure_copy_path(VulkanBackend& b, std::string& report,
                           std::uint64_t& small_transfer_max) {
  small_transfer_max = 0;
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
    const auto large = static_cast<std::uint64_t>(kProbeBytes);
    const double transfer = time_copies(b, timer, CopyPath::transfer_command, src, dst, large);
    const double shader = time_copies(b, timer, CopyPath::compute_shader, src, dst, large);
    // The transfer command needs no pipeline: it keeps a tie (within 10%).
    const CopyPath path =
        shader < 0.9 * transfer ? CopyPath::compute_shader : CopyPath::transfer_command;
    const double transfer_small =
        time_copies(b, timer, CopyPath::transfer_command, src, dst, kSmallProbeBytes);
    const double shader_small =
        time_copies(b, timer, CopyPath::compute_shader, src, dst, kSmallProbeBytes);
    if (path == CopyPath::compute_shader) {
      small_transfer_max = small_crossover(transfer_small, transfer, shader_small, shader);
    }
    char text[256];
    std::snprintf(text, sizeof(text),
                  "measured: 8 MiB in %.1f us by vkCmdCopyBuffer, %.1f us by the shader; "
                  "4 KiB in %.1f and %.1f us",
                  transfer, shader, transfer_small, shader_small);
    report = text;
    return path;
  } catch (const Error& e) {
    report = std::string("default (the measurement failed: ") + e.what() + ")";
    return CopyPath::transfer_command;
  }
}

}  // namespace vkt::vk
