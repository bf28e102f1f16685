#include "measure.h"

#include <algorithm>
#include <cstdlib>

#include "bench_env.h"
#include "vkt/vkt.h"

namespace vkt::bench {

namespace {
// Keeps the compiler from dropping a read whose result is not otherwise used.
const void* volatile g_sink = nullptr;

// VKT_BENCH_DEVICE_TIMER=0: no timestamps around the op, to see what they add to C (the
// device-time columns are then empty).
bool device_timer_on() {
  return bench_env_word("VKT_BENCH_DEVICE_TIMER", {"1", "0"}) == 0;
}
}  // namespace

double min_warmup_us(const Backend& b, const TimingPlan& plan) {
  for (const auto& [key, value] : b.properties())
    if (key == "device_type" && value != "cpu")
      return std::max(plan.min_warmup_us, device_min_warmup_us());
  return plan.min_warmup_us;
}

Column measure(const OpCase& c, Backend& b, Read read, const TimingPlan& plan) {
  BackendScope scope(b);
  const std::vector<Tensor> in = place_inputs(c, b);
  b.synchronize();
  const bool timed = read == Read::none && device_timer_on();
  auto once = [&] {
    if (timed) b.begin_device_timer();
    Tensor r = c.run(in);
    switch (read) {
      case Read::none:
        if (timed) b.end_device_timer();
        r.backend().synchronize();
        break;
      case Read::to_cpu: {
        const Tensor h = r.to_cpu();
        g_sink = h.storage()->host_data();  // what host_span<T>() returns, for any dtype
        break;
      }
      case Read::to_vector:
        g_sink = r.to_bytes().data();
        break;
    }
  };
  // The device time is read after each timed repetition, outside its wall-clock time.
  std::vector<double> device_us;
  std::vector<std::vector<double>> pass_us;  // [repetition][pass]
  auto after = [&] {
    const double us = timed ? b.device_timer_us() : -1;
    if (us >= 0) device_us.push_back(us);
    if (us >= 0) pass_us.push_back(b.device_timer_passes_us());
  };
  Column col;
  TimingPlan warm_plan = plan;
  warm_plan.min_warmup_us = min_warmup_us(b, plan);
  col.stats = time_it(once, warm_plan, after);
  col.has_device_time = !device_us.empty();
  if (col.has_device_time) col.device = summarize(std::move(device_us));
  const std::size_t passes = pass_us.empty() ? 0 : pass_us.front().size();
  bool same = true;
  for (const auto& r : pass_us) same = same && r.size() == passes;
  for (std::size_t i = 0; same && i < passes; ++i) {
    std::vector<double> one;
    for (const auto& r : pass_us) one.push_back(r[i]);
    col.passes.push_back(summarize(std::move(one)));
  }
  LedgerScope ledger_scope;
  once();
  col.ledger = ledger_scope.delta();
  col.measured = true;
  return col;
}

void add_device_time(Row& row, const std::string& prefix, const Column& c) {
  row.emplace_back(prefix + "_gpu_us", c.has_device_time ? fmt_num(c.device.median_us) : "");
  row.emplace_back(prefix + "_gpu_min_us", c.has_device_time ? fmt_num(c.device.min_us) : "");
}

std::string median_ratio(const Column& x, const Column& y) {
  return x.measured && y.measured && y.stats.median_us > 0
             ? fmt_num(x.stats.median_us / y.stats.median_us, 4)
             : std::string();
}

}  // namespace vkt::bench
