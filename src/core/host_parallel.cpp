#include "core/host_parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace vkt::host {
namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class F>
double median_us(int reps, F&& f) {
  std::vector<double> samples;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = Clock::now();
    f();
    samples.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  return median(std::move(samples));
}

// Clamp of the measured minimum: below 32 KiB a thread's share is lost in cache-line
// traffic whatever the fork cost; above 64 MiB the measurement itself is suspect.
constexpr std::int64_t kFloorBytes = std::int64_t{32} << 10;
constexpr std::int64_t kCeilingBytes = std::int64_t{64} << 20;

Tuning calibrate() {
  Tuning t;
  t.threads = max_threads();
  // One thread's copy rate over 4 MiB, past L2 on most cores (a thread's share of a large
  // copy streams from L3 or memory, not L1).
  constexpr std::size_t kBytes = std::size_t{4} << 20;
  std::vector<char> src(kBytes, 1), dst(kBytes, 0);
  std::memcpy(dst.data(), src.data(), kBytes);
  const double copy_us = median_us(7, [&] {
    std::memcpy(dst.data(), src.data(), kBytes);
    std::atomic_signal_fence(std::memory_order_seq_cst);
  });
  t.copy_bytes_per_us = 2.0 * static_cast<double>(kBytes) / std::max(copy_us, 1e-3);
  if (t.threads <= 1) {
    t.min_bytes_per_thread = kCeilingBytes;
    return t;
  }
#ifdef _OPENMP
  // Start and join of a region over every thread, once the team exists and is warm: what
  // each parallel loop pays back to back, as in a loop of ops.
  std::atomic<int> sink{0};
  auto region = [&] {
#pragma omp parallel num_threads(t.threads)
    sink.fetch_add(1, std::memory_order_relaxed);
  };
  for (int i = 0; i < 20; ++i) region();
  t.fork_join_us = median_us(41, region);
#endif
  const double bytes = kWorkOverForkJoin * t.fork_join_us * t.copy_bytes_per_us;
  t.min_bytes_per_thread = std::clamp(static_cast<std::int64_t>(bytes), kFloorBytes, kCeilingBytes);
  return t;
}

std::atomic<std::int64_t> override_bytes{0};

}  // namespace

const Tuning& tuning() {
  static const Tuning t = calibrate();
  return t;
}

void set_min_bytes_per_thread(std::int64_t bytes) {
  override_bytes.store(std::max<std::int64_t>(bytes, 0), std::memory_order_relaxed);
}

std::int64_t min_bytes_per_thread() {
  const std::int64_t o = override_bytes.load(std::memory_order_relaxed);
  return o > 0 ? o : tuning().min_bytes_per_thread;
}

void parallel_memcpy(void* dst, const void* src, std::int64_t n) {
  const std::int64_t lines = (n + 63) / 64;
  auto* d = static_cast<char*>(dst);
  const auto* s = static_cast<const char*>(src);
  // Grain in cache lines; a copy moves each byte twice (read and write).
  parallel_for(lines, stream_grain(128), [&](std::int64_t b, std::int64_t e) {
    const std::int64_t begin = b * 64, end = std::min(n, e * 64);
    if (end > begin) copy_bytes(d + begin, s + begin, end - begin);
  });
}

}  // namespace vkt::host
