// Host-side copies between caller memory and mapped staging/working memory. One thread
// copies ~10 GB/s, well under PCIe 5; large copies are split across threads.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace vkt::vk {

inline void host_copy(void* dst, const void* src, std::size_t n) {
  constexpr std::size_t kPerThread = std::size_t{1} << 20;
  const int threads =
      static_cast<int>(std::min<std::size_t>(omp_get_max_threads(), n / kPerThread));
  if (threads <= 1) {
    std::memcpy(dst, src, n);
    return;
  }
  auto* d = static_cast<std::byte*>(dst);
  const auto* s = static_cast<const std::byte*>(src);
#pragma omp parallel num_threads(threads)
  {
    const std::size_t id = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t nt = static_cast<std::size_t>(omp_get_num_threads());
    // 64-byte aligned pieces so no two threads share a cache line.
    const std::size_t begin = n * id / nt / 64 * 64;
    const std::size_t end = id + 1 == nt ? n : n * (id + 1) / nt / 64 * 64;
    std::memcpy(d + begin, s + begin, end - begin);
  }
}

}  // namespace vkt::vk
