// The overhead bench's chain rows: k elementwise ops with a literal each (the chain bench's
// eager chain at 16384 f32) recorded back to back, then one synchronize. What the host
// spends recording the whole chain, beside the device's time and the wall clock: issue 9's
// cost per extra op inside a batch, split (on GPUs the recorder submits it in pieces).
#include "overhead_chain.h"

#include <string>

#include "vkt/vkt.h"

namespace vkt::bench {
namespace {

constexpr std::int64_t kChainSize = 16384;

Tensor chain(const Tensor& x, int k) {
  Tensor y = x;
  for (int j = 0; j < k; ++j) y = j % 2 ? add(y, 0.5) : multiply(y, 1.0001);
  return y;
}

// Host microseconds to issue the k ops of the chain (no wait), median over the plan's reps.
Stats record_chain(const OpCase& c, Backend& dev, const TimingPlan& plan) {
  BackendScope scope(dev);
  const std::vector<Tensor> in = place_inputs(c, dev);
  dev.synchronize();
  std::vector<double> us;
  for (int rep = 0; rep < plan.min_reps + plan.warmups; ++rep) {
    const double t0 = now_us();
    Tensor out = c.run(in);
    const double dt = now_us() - t0;
    dev.synchronize();
    if (rep >= plan.warmups) us.push_back(dt);
  }
  return summarize(std::move(us));
}

}  // namespace

Row overhead_row(const HostInfo& h, const OpCase& c, std::int64_t size, const Column& cc,
                 const Stats& record, double empty_sync_us, Table& table) {
  Row row = host_fields(h);
  row.emplace_back("op", c.op);
  row.emplace_back("dtype", std::string(dtype_name(c.dtype)));
  row.emplace_back("shape", shape_str(c.shape));
  row.emplace_back("size", std::to_string(size));
  row.emplace_back("C_us", fmt_num(cc.stats.median_us));
  row.emplace_back("C_min_us", fmt_num(cc.stats.min_us));
  add_device_time(row, "C", cc);
  row.emplace_back("record_us", fmt_num(record.median_us));
  // Neither recording nor running: the submit, the device's start, the host's wake.
  const double gpu = cc.has_device_time ? cc.device.median_us : 0;
  row.emplace_back("rest_us", fmt_num(cc.stats.median_us - gpu - record.median_us));
  row.emplace_back("empty_sync_us", fmt_num(empty_sync_us));
  row.emplace_back("submits", std::to_string(cc.ledger.submits));
  row.emplace_back("dispatches", std::to_string(cc.ledger.dispatches));
  table.add({c.op, std::to_string(size), field(row, "C_us"), field(row, "C_gpu_us"),
             field(row, "record_us"), field(row, "rest_us"), field(row, "submits")});
  return row;
}

std::vector<Row> chain_overhead_rows(Backend& dev, const HostInfo& h, const TimingPlan& plan,
                                     double empty_sync_us, Table& table) {
  std::vector<Row> rows;
  for (int k : {1, 4, 16}) {
    const std::string label = "chain" + std::to_string(k);
    const OpCase c{label,
                   DType::f32,
                   Shape{kChainSize},
                   {{seed_data(kChainSize, {kChainSize})}},
                   [k](const std::vector<Tensor>& in) { return chain(in[0], k); }};
    const Column cc = measure(c, dev, Read::none, plan);
    const Stats rec = record_chain(c, dev, plan);
    // record_us: the whole chain's recording (k ops), not one op's as in the single-op rows.
    Row row = overhead_row(h, c, kChainSize, cc, rec, empty_sync_us, table);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace vkt::bench
