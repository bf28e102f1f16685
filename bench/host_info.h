// Host and device metadata carried by every CSV row.
#pragma once

#include <string>

#include "csv.h"
#include "vkt/backend.h"

namespace vkt::bench {

struct HostInfo {
  std::string host, os, kernel, cpu, cores, device, device_type, driver, vk_api, commit, build_type,
      date;
};

// `device` may be null (no Vulkan device): its fields are then "none".
HostInfo collect_host_info(const Backend* device);
// The metadata as the leading fields of a row.
Row host_fields(const HostInfo& h);
// The folder of bench_results/ a machine's CSVs go to: h100, h200, lavapipe, host (no
// device), else the device's name in lower case.
std::string machine_kind(const HostInfo& h);
// bench_results/<machine_kind>/<bench>.csv, creating the folder when missing: a new run
// replaces the machine's last CSV of that bench (git keeps the history).
std::string default_csv_path(const HostInfo& h, const std::string& bench);

}  // namespace vkt::bench
