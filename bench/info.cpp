#include <cstdio>

#include "commands.h"
#include "device.h"
#include "host_info.h"
#include "vkt/backend.h"

namespace vkt::bench {

void run_info(int device) {
  Backend* dev = find_device(device);
  const HostInfo h = collect_host_info(dev);
  for (const auto& [k, v] : host_fields(h)) std::printf("%-12s %s\n", k.c_str(), v.c_str());
  std::printf("\ncpu backend:\n");
  for (const auto& [k, v] : cpu().properties()) std::printf("  %-20s %s\n", k.c_str(), v.c_str());
  if (dev == nullptr) return;
  std::printf("\ndefault device: %s\n", dev->name().c_str());
  for (const auto& [k, v] : dev->properties()) std::printf("  %-16s %s\n", k.c_str(), v.c_str());
  std::printf("\n%s", vulkan_info().c_str());
}

}  // namespace vkt::bench
