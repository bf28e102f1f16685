#include "consumer.h"

#include <cstdio>

#include "cases.h"
#include "measure.h"
#include "rows.h"
#include "stats.h"
#include "suite.h"
#include "table.h"
#include "verdict.h"
#include "vkt/vkt.h"

namespace vkt::bench {
namespace {

void add_ledger(Row& row, const std::string& prefix, const Column& c) {
  auto v = [&](std::uint64_t x) { return c.measured ? std::to_string(x) : std::string(); };
  row.emplace_back(prefix + "_uploads", v(c.ledger.uploads));
  row.emplace_back(prefix + "_downloads", v(c.ledger.downloads));
  row.emplace_back(prefix + "_bytes_up", v(c.ledger.upload_bytes));
  row.emplace_back(prefix + "_bytes_down", v(c.ledger.download_bytes));
  row.emplace_back(prefix + "_submits", v(c.ledger.submits));
}

}  // namespace

std::vector<Row> run_consumer(const ConsumerOptions& opts) {
  const ConsumerRun run = start_consumer_run(opts.device, opts.out, "consumer", opts.min_reps);
  Backend* const dev = run.dev;

  std::vector<Row> rows;
  Table table({"op", "size", "path", "A_us", "B_us", "C_us", "C_gpu_us", "D_us", "E_us", "D/B",
               "D/E", "D/floor"});
  const std::size_t total = opts.ops.size() * opts.sizes.size();
  for (const std::string& op : opts.ops) {
    for (const std::int64_t n : opts.sizes) {
      std::fprintf(stderr, "\r[%zu/%zu] %s %lld          ", rows.size() + 1, total, op.c_str(),
                   static_cast<long long>(n));
      const OpCase c = make_case(op, n);
      const bool host_columns = !opts.device_only || dev == nullptr;
      // Without a device (the host table) the to_vector columns are left out.
      Column a, b, b_vec, cc, d, e, d_vec;
      if (host_columns) {
        a = measure(c, cpu(), Read::none, run.plan);
        b = measure(c, cpu(), Read::to_cpu, run.plan);
        if (dev != nullptr) b_vec = measure(c, cpu(), Read::to_vector, run.plan);
      }
      const std::size_t out_bytes = c.run(place_inputs(c, host_columns ? cpu() : *dev)).nbytes();
      if (dev != nullptr) {
        cc = measure(c, *dev, Read::none, run.plan);
        d = measure(c, *dev, Read::to_cpu, run.plan);
        d_vec = measure(c, *dev, Read::to_vector, run.plan);
        if (host_columns) e = measure_legacy(c, *dev, run.plan);
      }
      const double floor = floor_us(cc, out_bytes, run.d2h);
      Row row = case_fields(run.host, op, std::string(dtype_name(c.dtype)), c.shape, {}, n,
                            path_taken(dev, d));
      const std::pair<const char*, const Column*> cols[] = {
          {"A", &a}, {"B", &b}, {"C", &cc}, {"D", &d}, {"E", &e}};
      for (const auto& [name, col] : cols)
        row.emplace_back(std::string(name) + "_us",
                         col->measured ? fmt_num(col->stats.median_us) : "");
      for (const auto& [name, col] : cols)
        row.emplace_back(std::string(name) + "_p95_us",
                         col->measured ? fmt_num(col->stats.p95_us) : "");
      for (const auto& [name, col] : cols)
        row.emplace_back(std::string(name) + "_min_us",
                         col->measured ? fmt_num(col->stats.min_us) : "");
      for (const auto& [name, col] : cols)
        row.emplace_back(std::string(name) + "_reps",
                         col->measured ? std::to_string(col->stats.reps) : "");
      row.emplace_back("D_over_B", median_ratio(d, b));
      row.emplace_back("D_over_E", median_ratio(d, e));
      row.emplace_back("C_over_A", median_ratio(cc, a));
      row.emplace_back("out_bytes", std::to_string(out_bytes));
      row.emplace_back("d2h_GBps", dev != nullptr ? fmt_num(run.d2h / 1000.0) : "");
      row.emplace_back("floor_us", cc.measured ? fmt_num(floor) : "");
      row.emplace_back("D_over_floor",
                       cc.measured && floor > 0 ? fmt_num(d.stats.median_us / floor, 4) : "");
      add_ledger(row, "D", d);
      add_ledger(row, "E", e);
      // The same op read into a new std::vector (to_vector): fresh pages on both sides.
      for (const auto& [name, col] :
           {std::pair<const char*, const Column*>{"B_vec", &b_vec}, {"D_vec", &d_vec}}) {
        row.emplace_back(std::string(name) + "_us",
                         col->measured ? fmt_num(col->stats.median_us) : "");
        row.emplace_back(std::string(name) + "_min_us",
                         col->measured ? fmt_num(col->stats.min_us) : "");
      }
      row.emplace_back("D_vec_over_B_vec", median_ratio(d_vec, b_vec));
      add_device_time(row, "C", cc);
      table.add({op, std::to_string(n), field(row, "path"), field(row, "A_us"), field(row, "B_us"),
                 field(row, "C_us"), field(row, "C_gpu_us"), field(row, "D_us"), field(row, "E_us"),
                 field(row, "D_over_B"), field(row, "D_over_E"), field(row, "D_over_floor")});
      rows.push_back(std::move(row));
    }
  }
  finish(run.out, rows, table);
  print_verdicts(stdout, rows, run.host);
  return rows;
}

}  // namespace vkt::bench
