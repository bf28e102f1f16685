// The overhead bench: where an op's fixed cost goes on the device, split into what the host
// spends recording it, what the device spends running it (timestamps), and the rest: the
// submit, the device starting the batch and the host seeing it finish.
#include <cstdio>
#include <string>
#include <vector>

#include "cases.h"
#include "host_info.h"
#include "measure.h"
#include "overhead_chain.h"
#include "suite.h"
#include "table.h"
#include "vkt/vkt.h"

namespace vkt::bench {
namespace {

constexpr int kBatch = 64;  // ops recorded back to back (under the recorder's submit bound)

// Host microseconds to record one op: kBatch ops issued without a wait, the time divided.
Stats record_cost(const OpCase& c, Backend& dev, const TimingPlan& plan) {
  BackendScope scope(dev);
  const std::vector<Tensor> in = place_inputs(c, dev);
  dev.synchronize();
  std::vector<Tensor> results;
  results.reserve(kBatch);
  auto issue = [&] {
    for (int i = 0; i < kBatch; ++i) results.push_back(c.run(in));
  };
  auto drain = [&] {
    dev.synchronize();
    results.clear();
  };
  std::vector<double> per_op;
  issue();  // pipelines created before the warm-up's clock starts (stats.cpp's time_it)
  drain();
  const double warm_start = now_us();  // the clock back up first (stats.h)
  while (now_us() - warm_start < min_warmup_us(dev, plan)) {
    issue();
    drain();
  }
  for (int rep = 0; rep < plan.min_reps + plan.warmups; ++rep) {
    const double t0 = now_us();
    issue();
    const double dt = now_us() - t0;
    drain();
    if (rep >= plan.warmups) per_op.push_back(dt / kBatch);
  }
  return summarize(std::move(per_op));
}

// A batch holding only the two timestamps, submitted and waited for: the submit and wait
// round trip with (almost) no device work, the floor under every op's rest.
Column submit_wait(Backend& dev, const TimingPlan& plan) {
  Column col;
  std::vector<double> device_us;
  col.stats = time_it(
      [&] {
        dev.begin_device_timer();
        dev.end_device_timer();
        dev.synchronize();
      },
      plan,
      [&] {
        const double us = dev.device_timer_us();
        if (us >= 0) device_us.push_back(us);
      });
  col.has_device_time = !device_us.empty();
  if (col.has_device_time) col.device = summarize(std::move(device_us));
  col.measured = true;
  return col;
}

}  // namespace

std::vector<Row> run_overhead(const SuiteOptions& o) {
  const DeviceSuite s = device_suite(o, "overhead");
  Backend& dev = s.dev;
  const HostInfo& h = s.host;
  std::vector<std::string> ops = o.ops;
  // The chain rows (overhead_chain.h) come by default, or when --ops names "chain".
  const bool chain_rows = ops.empty() || std::erase(ops, "chain") > 0;
  if (o.ops.empty()) {
    ops = seed_ops();
    for (const char* extra : {"add", "exp", "sum", "transpose"}) ops.emplace_back(extra);
  }
  TimingPlan plan;
  plan.min_reps = o.min_reps;
  // A synchronize with nothing pending: what a host boundary costs by itself.
  const Stats empty_sync = time_it([&] { dev.synchronize(); }, plan);
  std::vector<Row> rows;
  Table table({"op", "size", "C_us", "C_gpu_us", "record_us", "rest_us", "submits"});
  for (const std::string& op : ops) {
    for (std::int64_t n : s.sizes) {
      const OpCase c = make_case(op, n);
      const Column cc = measure(c, dev, Read::none, plan);
      const Stats rec = record_cost(c, dev, plan);
      Row row = overhead_row(h, c, n, cc, rec, empty_sync.median_us, table);
      rows.push_back(std::move(row));
    }
  }
  if (chain_rows) {
    for (Row& r : chain_overhead_rows(dev, h, plan, empty_sync.median_us, table)) {
      rows.push_back(std::move(r));
    }
    for (Row& r : host_stage_rows(dev, h, plan, empty_sync.median_us, table)) {
      rows.push_back(std::move(r));
    }
  }
  {
    const Column sw = submit_wait(dev, plan);
    Row row = host_fields(h);
    row.emplace_back("op", "submit_wait");
    row.emplace_back("dtype", "");
    row.emplace_back("shape", "");
    row.emplace_back("size", "0");
    row.emplace_back("C_us", fmt_num(sw.stats.median_us));
    row.emplace_back("C_min_us", fmt_num(sw.stats.min_us));
    add_device_time(row, "C", sw);
    row.emplace_back("record_us", "0");
    const double gpu = sw.has_device_time ? sw.device.median_us : 0;
    row.emplace_back("rest_us", fmt_num(sw.stats.median_us - gpu));
    row.emplace_back("empty_sync_us", fmt_num(empty_sync.median_us));
    row.emplace_back("submits", "1");
    row.emplace_back("dispatches", "0");
    table.add({"submit_wait", "0", field(row, "C_us"), field(row, "C_gpu_us"), "0",
               field(row, "rest_us"), "1"});
    rows.push_back(std::move(row));
  }
  table.print(stdout);
  write_csv(s.path, rows);
  std::printf("wrote %s (empty synchronize %.2f us)\n", s.path.c_str(), empty_sync.median_us);
  return rows;
}

}  // namespace vkt::bench
