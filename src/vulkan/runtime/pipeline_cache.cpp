#include "vulkan/runtime/pipeline_cache.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>

#include "vulkan/runtime/cache_files.h"
#include "vulkan/runtime/check.h"

namespace vkt::vk {
namespace {

constexpr char kMagic[8] = {'V', 'K', 'T', 'P', 'I', 'P', 'E', '1'};
constexpr std::size_t kHeaderBytes = 24;  // magic, payload size, payload hash
// A cache past this size starts again empty (entries of old builds are never evicted).
constexpr std::size_t kMaxBlobBytes = std::size_t{256} << 20;
constexpr std::int64_t kSaveIntervalMs = 3000;

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// One file per device, driver version and cache UUID: another driver's blob is never read.
std::string file_name(const VkPhysicalDeviceProperties& p) {
  char name[160];
  std::snprintf(name, sizeof(name), "pipelines-%04x-%04x-%08x-", p.vendorID, p.deviceID,
                p.driverVersion);
  std::string s = name;
  for (std::uint8_t b : p.pipelineCacheUUID) {
    char hex[3];
    std::snprintf(hex, sizeof(hex), "%02x", b);
    s += hex;
  }
  return s + ".bin";
}

// Every live store, saved by one exit handler (the process's backends are never destroyed).
std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::set<PipelineCacheStore*>& registry() {
  static auto* stores = new std::set<PipelineCacheStore*>();
  return *stores;
}
void save_all_at_exit() {
  std::lock_guard lock(registry_mutex());
  for (PipelineCacheStore* s : registry()) s->save();
}

}  // namespace

std::vector<char> PipelineCacheStore::wrap(const std::vector<char>& blob) {
  std::vector<char> out(kHeaderBytes + blob.size());
  const std::uint64_t size = blob.size(), hash = fnv1a(blob.data(), blob.size());
  std::memcpy(out.data(), kMagic, 8);
  std::memcpy(out.data() + 8, &size, 8);
  std::memcpy(out.data() + 16, &hash, 8);
  std::copy(blob.begin(), blob.end(), out.begin() + kHeaderBytes);
  return out;
}

std::vector<char> PipelineCacheStore::verify(const std::vector<char>& file,
                                             const VkPhysicalDeviceProperties& props,
                                             std::string& why) {
  std::uint64_t size = 0, hash = 0;
  if (file.size() < kHeaderBytes || std::memcmp(file.data(), kMagic, 8) != 0) {
    why = "not a vktensor pipeline cache";
    return {};
  }
  std::memcpy(&size, file.data() + 8, 8);
  std::memcpy(&hash, file.data() + 16, 8);
  if (size != file.size() - kHeaderBytes) {
    why = "truncated";
    return {};
  }
  std::vector<char> blob(file.begin() + kHeaderBytes, file.end());
  if (fnv1a(blob.data(), blob.size()) != hash) {
    why = "checksum";
    return {};
  }
  // The driver's own header (VkPipelineCacheHeaderVersionOne) must name this device.
  VkPipelineCacheHeaderVersionOne h{};
  if (blob.size() < sizeof(h)) {
    why = "no driver header";
    return {};
  }
  std::memcpy(&h, blob.data(), sizeof(h));
  if (h.headerVersion != VK_PIPELINE_CACHE_HEADER_VERSION_ONE || h.vendorID != props.vendorID ||
      h.deviceID != props.deviceID ||
      std::memcmp(h.pipelineCacheUUID, props.pipelineCacheUUID, VK_UUID_SIZE) != 0) {
    why = "another device or driver";
    return {};
  }
  return blob;
}

PipelineCacheStore::PipelineCacheStore(const Context& ctx) : ctx_(ctx), last_save_ms_(now_ms()) {
  std::vector<char> blob;
  const std::string dir = cache_dir();
  if (dir.empty()) {
    load_report_ = "off";
  } else {
    path_ = dir + "/" + file_name(ctx.properties());
    std::ifstream in(path_, std::ios::binary);
    if (!in) {
      load_report_ = "new";
    } else {
      const std::vector<char> file((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
      std::string why;
      blob = verify(file, ctx.properties(), why);
      load_report_ = blob.empty() ? "rejected (" + why + "), rebuilt"
                                  : "loaded " + std::to_string(blob.size()) + " bytes";
      if (blob.size() > kMaxBlobBytes) blob.clear(), load_report_ = "over its size cap, rebuilt";
    }
  }
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  info.initialDataSize = blob.size();
  info.pInitialData = blob.empty() ? nullptr : blob.data();
  VkPipelineCache c = VK_NULL_HANDLE;
  VKT_VK(vkCreatePipelineCache, ctx.device(), &info, nullptr, &c);
  cache_ = Owned<VkPipelineCache>(ctx.device(), c, vkDestroyPipelineCache);
  if (!path_.empty()) {
    std::lock_guard lock(registry_mutex());
    static const bool registered = std::atexit(save_all_at_exit) == 0;
    (void)registered;
    registry().insert(this);
  }
}

PipelineCacheStore::~PipelineCacheStore() {
  if (path_.empty()) return;
  {
    std::lock_guard lock(registry_mutex());
    registry().erase(this);
  }
  try {
    save();
  } catch (...) {  // a cache that cannot be written is only a slower next start
  }
}

void PipelineCacheStore::created() {
  if (path_.empty()) return;
  bool due = false;
  {
    std::lock_guard lock(mutex_);
    ++unsaved_;
    due = now_ms() - last_save_ms_ >= kSaveIntervalMs;
  }
  if (due) save();
}

void PipelineCacheStore::save() {
  std::lock_guard lock(mutex_);
  if (path_.empty() || unsaved_ == 0) return;
  unsaved_ = 0;
  last_save_ms_ = now_ms();
  std::size_t size = 0;
  if (vkGetPipelineCacheData(ctx_.device(), cache_.get(), &size, nullptr) != VK_SUCCESS) return;
  std::vector<char> blob(size);
  if (vkGetPipelineCacheData(ctx_.device(), cache_.get(), &size, blob.data()) != VK_SUCCESS) return;
  blob.resize(size);
  const std::vector<char> file = wrap(blob);
  (void)write_file_atomically(path_, file.data(), file.size(), nullptr, 0);
}

std::string PipelineCacheStore::report() const {
  return path_.empty() ? load_report_ : path_ + ": " + load_report_;
}

}  // namespace vkt::vk
