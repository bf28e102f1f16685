// The overhead bench's host-stage rows: where the host time of one chained op with a literal
// (the chain rows' op) goes, stage by stage, each timed alone 16 times per batch (the chain's
// length) then synchronized: the literal made on the cpu, its upload, the op on a resident
// scalar (chained: a hazard barrier each), the same op independent, the backend's execute
// (run and record, no core), and supports(). Only the public API and the implementer
// interface (vkt/backend/op_call.h): the pipeline lookup and output allocation sit inside
// execute.
#include <functional>
#include <string>

#include "overhead_chain.h"
#include "vkt/backend/op_call.h"
#include "vkt/vkt.h"

namespace vkt::bench {
namespace {

constexpr int kPerBatch = 16;

// Host microseconds per call of `body`, called kPerBatch times then synchronized.
Stats per_call(Backend& dev, const TimingPlan& plan, const std::function<void()>& body,
               const std::function<void()>& reset) {
  std::vector<double> us;
  for (int rep = 0; rep < plan.min_reps + plan.warmups; ++rep) {
    const double t0 = now_us();
    for (int i = 0; i < kPerBatch; ++i) body();
    const double dt = now_us() - t0;
    dev.synchronize();
    reset();
    if (rep >= plan.warmups) us.push_back(dt / kPerBatch);
  }
  return summarize(std::move(us));
}

}  // namespace

std::vector<Row> host_stage_rows(Backend& dev, const HostInfo& h, const TimingPlan& plan,
                                 double empty_sync_us, Table& table) {
  constexpr std::int64_t n = 16384;
  BackendScope scope(dev);
  const Tensor x = transfer(seed_data(n, {n}), dev);
  const Tensor literal_cpu = full({}, 1.0001, DType::f32, &cpu());
  const Tensor literal_dev = transfer(literal_cpu, dev);
  dev.synchronize();
  std::vector<Tensor> kept;  // results live until the batch is synchronized, as in a chain
  Tensor y = x;
  auto reset = [&] {
    kept.clear();
    y = x;
  };
  const OpCall call{Op::multiply, {x, literal_dev}, NoParams{}, DType::f32, x.shape()};
  const std::vector<std::pair<std::string, std::function<void()>>> stages{
      {"host:whole_op", [&] { y = multiply(y, 1.0001); }},
      {"host:literal", [&] { kept.push_back(full({}, 1.0001, DType::f32, &cpu())); }},
      {"host:upload", [&] { kept.push_back(transfer(literal_cpu, dev)); }},
      {"host:op_chained", [&] { y = multiply(y, literal_dev); }},
      {"host:op_independent", [&] { kept.push_back(multiply(x, literal_dev)); }},
      {"host:execute", [&] { kept.push_back(dev.execute(call)); }},
      {"host:supports", [&] { (void)dev.supports(call); }}};
  std::vector<Row> rows;
  for (const auto& [name, body] : stages) {
    LedgerScope counted;
    const Stats s = per_call(dev, plan, body, reset);
    const LedgerCounts d = counted.delta();
    const std::uint64_t calls =
        static_cast<std::uint64_t>(plan.min_reps + plan.warmups) * kPerBatch;
    Row row = host_fields(h);
    row.emplace_back("op", name);
    row.emplace_back("dtype", "f32");
    row.emplace_back("shape", "{16384}");
    row.emplace_back("size", std::to_string(n));
    // Host-only rows: nothing is waited for inside the timing, so no C, device time or rest.
    row.emplace_back("C_us", "");
    row.emplace_back("C_min_us", "");
    row.emplace_back("C_gpu_us", "");
    row.emplace_back("C_gpu_min_us", "");
    row.emplace_back("record_us", fmt_num(s.median_us));
    row.emplace_back("rest_us", "");
    row.emplace_back("empty_sync_us", fmt_num(empty_sync_us));
    row.emplace_back("submits", std::to_string(d.submits));
    row.emplace_back("dispatches", fmt_num(static_cast<double>(d.dispatches) / calls, 2));
    table.add(
        {name, std::to_string(n), "", "", field(row, "record_us"), "", field(row, "submits")});
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace vkt::bench
