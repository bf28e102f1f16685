#include "vulkan/runtime/cache_files.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "common/settings.h"

namespace vkt::vk {

std::string cache_dir() {
  return overrides()->cache_dir.value_or(settings().cache_dir);
}

std::uint64_t fnv1a(const void* data, std::size_t n, std::uint64_t h) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

bool write_file_atomically(const std::string& path, const void* head, std::size_t head_bytes,
                           const void* body, std::size_t body_bytes) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  if (ec) return false;
  // Per process and thread: vkt::compile writes a plan's kernels from several threads.
  const std::string tmp = path + ".tmp" + std::to_string(static_cast<long>(::getpid())) + "." +
                          std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(static_cast<const char*>(head), static_cast<std::streamsize>(head_bytes));
    out.write(static_cast<const char*>(body), static_cast<std::streamsize>(body_bytes));
    if (!out) {
      out.close();
      std::filesystem::remove(tmp, ec);
      return false;
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) std::filesystem::remove(tmp, ec);
  return !ec;
}

}  // namespace vkt::vk
