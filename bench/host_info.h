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
// "<host>_<bench>_<date>.csv" with the date as YYYY-MM-DD.
std::string default_csv_name(const HostInfo& h, const std::string& bench);
// bench_results/<default_csv_name>, creating bench_results/ when missing.
std::string default_csv_path(const HostInfo& h, const std::string& bench);

}  // namespace vkt::bench
