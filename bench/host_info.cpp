#include "host_info.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <thread>

namespace vkt::bench {
namespace {

std::string read_key(const std::string& path, const std::string& key, char sep) {
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind(key, 0) != 0) continue;
    const auto pos = line.find(sep);
    if (pos == std::string::npos) continue;
    std::string v = line.substr(pos + 1);
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t' || v.front() == '"')) v.erase(0, 1);
    while (!v.empty() && (v.back() == '"' || v.back() == ' ')) v.pop_back();
    return v;
  }
  return "unknown";
}

std::string property(const Backend* b, const std::string& key) {
  if (b == nullptr) return "none";
  for (const auto& [k, v] : b->properties()) {
    if (k == key) return v;
  }
  return "unknown";
}

}  // namespace

HostInfo collect_host_info(const Backend* device) {
  HostInfo h;
  char name[256] = {};
  gethostname(name, sizeof(name) - 1);
  h.host = name;
  h.os = read_key("/etc/os-release", "PRETTY_NAME", '=');
  utsname u{};
  uname(&u);
  h.kernel = std::string(u.sysname) + " " + u.release;
  h.cpu = read_key("/proc/cpuinfo", "model name", ':');
  h.cores = std::to_string(std::thread::hardware_concurrency());
  h.device = property(device, "device_name");
  h.device_type = property(device, "device_type");
  h.driver = property(device, "driver_version");
  h.vk_api = property(device, "api_version");
  h.commit = VKT_GIT_COMMIT;
  h.build_type = VKT_BUILD_TYPE;
  char date[32];
  const std::time_t t = std::time(nullptr);
  std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  h.date = date;
  return h;
}

Row host_fields(const HostInfo& h) {
  return {{"host", h.host},       {"os", h.os},
          {"kernel", h.kernel},   {"cpu", h.cpu},
          {"cores", h.cores},     {"device", h.device},
          {"device_type", h.device_type}, {"driver", h.driver},
          {"vk_api", h.vk_api},   {"commit", h.commit},
          {"build_type", h.build_type}, {"date", h.date}};
}

std::string default_csv_name(const HostInfo& h, const std::string& bench) {
  return h.host + "_" + bench + "_" + h.date.substr(0, 10) + ".csv";
}

std::string default_csv_path(const HostInfo& h, const std::string& bench) {
  std::filesystem::create_directories("bench_results");
  return "bench_results/" + default_csv_name(h, bench);
}

}  // namespace vkt::bench
