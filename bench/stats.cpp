#include "stats.h"

#include <algorithm>
#include <cmath>

#include "bench_env.h"

namespace vkt::bench {

double device_min_warmup_us() {
  static const double us = bench_env_ms("VKT_BENCH_WARMUP_MS", 500, 600000) * 1000.0;
  return us;
}

Stats summarize(std::vector<double> s) {
  Stats st;
  if (s.empty()) return st;
  std::sort(s.begin(), s.end());
  const std::size_t n = s.size();
  st.median_us = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  st.p95_us =
      s[std::min(n - 1, static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(n))) - 1)];
  st.min_us = s.front();
  st.reps = static_cast<int>(n);
  return st;
}

Stats time_it(const std::function<void()>& run, const TimingPlan& plan,
              const std::function<void()>& after) {
  // The first run alone: it may create pipelines, host time during which the device idles and
  // drops its clocks (H200 matmul rows collapsed), so the warm-up counts from its end.
  run();
  const double warm_start = now_us();
  for (int i = 1; i < plan.warmups || now_us() - warm_start < plan.min_warmup_us; ++i) run();
  std::vector<double> samples;
  double total = 0;
  while (static_cast<int>(samples.size()) < plan.max_reps &&
         (static_cast<int>(samples.size()) < plan.min_reps || total < plan.min_total_us)) {
    const double t0 = now_us();
    run();
    const double dt = now_us() - t0;
    samples.push_back(dt);
    total += dt;
    if (after) after();
  }
  return summarize(std::move(samples));
}

}  // namespace vkt::bench
