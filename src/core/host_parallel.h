// Threading of host loops (the cpu backend's kernels and the host side of device reads):
// how many threads a piece of memory-bound work gets is decided by a measurement on the
// machine it runs on, once per process, not by a constant chosen on one machine.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace vkt::host {

inline int max_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

// What the calibration measured: the cost of starting and joining a parallel region over
// every thread, one thread's copy rate (read + write bytes), and the streaming work per
// thread that makes a second thread pay: kWorkOverForkJoin times the fork/join cost.
struct Tuning {
  int threads = 1;
  double fork_join_us = 0;
  double copy_bytes_per_us = 0;
  std::int64_t min_bytes_per_thread = 0;
};
inline constexpr double kWorkOverForkJoin = 4.0;

// Measured on first use (a few milliseconds), then fixed for the process.
const Tuning& tuning();
// Replaces the measured per-thread minimum (0 restores it); for tests and experiments.
void set_min_bytes_per_thread(std::int64_t bytes);
std::int64_t min_bytes_per_thread();

// Items per thread for streaming work that moves `bytes_per_item` bytes per item.
inline std::int64_t stream_grain(std::int64_t bytes_per_item) {
  return std::max<std::int64_t>(1,
                                min_bytes_per_thread() / std::max<std::int64_t>(bytes_per_item, 1));
}

// Calls f(begin, end) over [0, n) split into contiguous ranges, in parallel when each
// thread gets at least `grain` items.
template <class F>
void parallel_for(std::int64_t n, std::int64_t grain, F&& f) {
  int threads =
      static_cast<int>(std::min<std::int64_t>(max_threads(), n / std::max<std::int64_t>(grain, 1)));
#ifdef _OPENMP
  // Inside a parallel region (a fused group's block calling a kernel) the loop runs on the
  // calling thread: a nested region only adds a team start per call.
  if (omp_in_parallel()) threads = 1;
#endif
  if (threads <= 1) {
    if (n > 0) f(std::int64_t{0}, n);
    return;
  }
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
  {
    const std::int64_t id = omp_get_thread_num(), nt = omp_get_num_threads();
    const std::int64_t begin = n * id / nt, end = n * (id + 1) / nt;
    if (begin < end) f(begin, end);
  }
#endif
}

// memcpy in pieces small enough that the C library keeps them in cache (it switches to
// non-temporal stores for single large copies, which is slower when the data fits in L3).
inline void copy_bytes(void* dst, const void* src, std::int64_t bytes) {
  constexpr std::int64_t kPiece = std::int64_t{256} << 10;
  auto* d = static_cast<char*>(dst);
  const auto* s = static_cast<const char*>(src);
  for (std::int64_t off = 0; off < bytes; off += kPiece) {
    std::memcpy(d + off, s + off, static_cast<std::size_t>(std::min(kPiece, bytes - off)));
  }
}

// memcpy of `bytes` over as many threads as the calibration says pay; pieces start on
// 64-byte boundaries so no two threads write one cache line.
void parallel_memcpy(void* dst, const void* src, std::int64_t bytes);

}  // namespace vkt::host
