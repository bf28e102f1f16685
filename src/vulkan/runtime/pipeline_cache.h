// The driver's pipeline cache, kept on disk between processes. A driver that compiles
// SPIR-V to machine code per pipeline pays that at every process start otherwise (uncached,
// the H200's fuzzer ran 2.4 programs/s, mostly creating pipelines: bench_results/h200/fuzz.log).
// The file is ours: a header with the payload's size and FNV-1a hash, then the driver's
// blob; a file that fails any check (or names another device or driver) is ignored and
// rewritten, never handed to the driver. It lives in cache_dir() (cache_files.h:
// VKT_CACHE_DIR=off disables it, =DIR moves it).
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "vulkan/runtime/context.h"
#include "vulkan/runtime/handle.h"

namespace vkt::vk {

class PipelineCacheStore {
 public:
  explicit PipelineCacheStore(const Context& ctx);
  ~PipelineCacheStore();
  PipelineCacheStore(const PipelineCacheStore&) = delete;
  PipelineCacheStore& operator=(const PipelineCacheStore&) = delete;

  VkPipelineCache handle() const { return cache_.get(); }
  // A pipeline was created through handle(): saved at exit, or now when the last save is
  // older than a few seconds (a process may never exit cleanly).
  void created();
  // Writes the cache (to a temporary file, then renamed: concurrent processes are safe).
  void save();
  // "off", or the file with what loading it did ("loaded 123456 bytes", "new", "rejected:
  // checksum"), for vkt-bench info.
  std::string report() const;

  // The checks a file passes before the driver sees it; returns the driver blob or an
  // empty vector with `why` set. Exposed for the tests.
  static std::vector<char> verify(const std::vector<char>& file,
                                  const VkPhysicalDeviceProperties& props, std::string& why);
  static std::vector<char> wrap(const std::vector<char>& blob);

 private:
  const Context& ctx_;
  std::string path_;  // empty: off
  std::string load_report_;
  Owned<VkPipelineCache> cache_;
  std::mutex mutex_;
  std::uint64_t unsaved_ = 0;
  std::int64_t last_save_ms_ = 0;
};

}  // namespace vkt::vk
