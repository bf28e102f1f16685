#include "device.h"

#include <cstdio>
#include <vector>

#include "stats.h"
#include "vkt/vkt.h"

namespace vkt::bench {

Backend* find_device(int index) {
  if (index == kNoDevice) return nullptr;
  try {
    return &vulkan(index);
  } catch (const NoDevice& e) {
    std::fprintf(stderr, "vkt-bench: no Vulkan device (%s); device columns stay empty\n", e.what());
    return nullptr;
  }
}

double measure_d2h_bytes_per_us(Backend& device, std::size_t bytes) {
  const auto n = static_cast<std::int64_t>(bytes / 4);
  Tensor big = full({n}, 1.25f, DType::f32, &device);
  device.synchronize();
  TimingPlan plan;
  plan.warmups = 1;
  plan.min_reps = 5;
  plan.min_total_us = 0;
  // The bus rate: a read by to_cpu(), which from a discrete GPU is one copy-engine transfer
  // into pinned host memory (reused after the warm-up). The rate into a caller's ready
  // buffer (read_into: staging ring, then a threaded host copy) is printed beside it.
  const Stats bus = time_it([&] { (void)big.to_cpu(); }, plan);
  std::vector<std::byte> host(big.nbytes());
  const Stats into = time_it([&] { big.read_into(host); }, plan);
  const double rate = static_cast<double>(big.nbytes()) / bus.median_us;
  std::fprintf(stderr,
               "vkt-bench: device-to-host read of %zu MiB: to_cpu() median %.0f us = %.2f GB/s "
               "(the floor's rate); read_into a ready buffer %.0f us = %.2f GB/s\n",
               big.nbytes() >> 20, bus.median_us, rate / 1000.0, into.median_us,
               static_cast<double>(big.nbytes()) / into.median_us / 1000.0);
  return rate;
}

}  // namespace vkt::bench
