// The host buffer pool: where cpu tensors (op results, host fallbacks, reads to the cpu)
// get their memory. Freed buffers of 128 KiB and more are kept by size class and handed to
// the next request of that class, so an op or a read in a loop reuses memory instead of
// faulting fresh pages in; new ones are 2 MiB aligned with transparent huge pages asked
// for. Buffers are never shared between live tensors.
#pragma once

#include <cstddef>
#include <cstdint>

namespace vkt {

struct HostPoolStats {
  std::size_t cached_bytes = 0;   // freed buffers held for reuse
  std::size_t cap_bytes = 0;      // at most this much is held; older buffers go first
  std::uint64_t reuses = 0;       // requests served from the pool
  std::uint64_t allocations = 0;  // requests that allocated (pool-sized ones only)
  bool poison = false;            // reused buffers are filled with 0xFF bytes first
};

HostPoolStats host_pool_stats();
// Gives every cached buffer back to the system.
void host_pool_trim();
// Sets the cap (trimming down to it). Default: VKT_HOST_POOL_MB, else an eighth of
// physical memory, at most 4 GiB.
void set_host_pool_cap(std::size_t bytes);
// Fills reused buffers with 0xFF bytes (NaN for floats, -1 for signed integers), so code
// that reads a result it did not write shows up. Default: on in debug builds or with
// VKT_POISON=1 (off with VKT_POISON=0).
void set_host_pool_poison(bool on);

}  // namespace vkt
