#include "measure.h"

#include "vkt/vkt.h"

namespace vkt::bench {

namespace {
// Keeps the compiler from dropping a read whose result is not otherwise used.
const void* volatile g_sink = nullptr;
}  // namespace

Column measure(const OpCase& c, Backend& b, Read read, const TimingPlan& plan) {
  BackendScope scope(b);
  const std::vector<Tensor> in = place_inputs(c, b);
  b.synchronize();
  auto once = [&] {
    if (read == Read::none) b.begin_device_timer();
    Tensor r = c.run(in);
    switch (read) {
      case Read::none:
        b.end_device_timer();
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
  auto after = [&] {
    const double us = read == Read::none ? b.device_timer_us() : -1;
    if (us >= 0) device_us.push_back(us);
  };
  Column col;
  col.stats = time_it(once, plan, after);
  col.has_device_time = !device_us.empty();
  if (col.has_device_time) col.device = summarize(std::move(device_us));
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

}  // namespace vkt::bench
