// Robust timing: warm-ups, then enough timed repetitions; medians, p95 and min.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

namespace vkt::bench {

struct Stats {
  double median_us = 0, p95_us = 0, min_us = 0;
  int reps = 0;
};

Stats summarize(std::vector<double> samples_us);

// The least warm-up of anything timed on a GPU: 500 ms, or VKT_BENCH_WARMUP_MS (read once).
// The H200's clock governor takes the SM clock from 1980 down to 345 MHz after a few seconds
// of low use (the cpu columns, making inputs) and back only after some 100 ms of work: with
// 20 ms, memory-bound kernels late in a process ran markedly slower on the device (seen with
// nvidia-smi's clocks beside; 500 ms removed it, 100 ms did not). measure.h's
// min_warmup_us(Backend) applies it to GPUs only: a cpu device (lavapipe) keeps 20 ms.
// It counts from the end of the first run, whose pipeline creation left the device idle at
// 345 MHz (matmul rows ran far below their rate when it counted from the start).
double device_min_warmup_us();

struct TimingPlan {
  // Warm-ups: at least `warmups` runs and at least min_warmup_us of them. A GPU idle for a
  // moment drops its clocks (the H200 to 345 MHz from 1980), and two short warm-ups did not
  // bring them back: the same kernel's device time moved 40% between runs (run8, run9).
  int warmups = 2;
  double min_warmup_us = 20000;
  int min_reps = 30;
  // Tiny ops repeat until their timed runs add up to at least this much.
  double min_total_us = 20000;
  int max_reps = 2000;
};

// Times `run` (one repetition per call, each timed on its own) after warm-ups; `after`,
// when given, runs after each timed repetition, outside its time.
Stats time_it(const std::function<void()>& run, const TimingPlan& plan,
              const std::function<void()>& after = {});

inline double now_us() {
  using namespace std::chrono;
  return duration<double, std::micro>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace vkt::bench
