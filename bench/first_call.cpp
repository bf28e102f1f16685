// The firstcall bench: an eager op's first call in this process against its warm calls, with
// the pipelines that first call created and their creation time (the ledger's). Run with the
// disk caches off (VKT_CACHE_DIR=off, __GL_SHADER_DISK_CACHE=0) and one op per process
// (scripts/first-call-gpu.sh) it is the cold first call a new user's program pays.
#include <cstdio>
#include <string>
#include <vector>

#include "cases.h"
#include "csv.h"
#include "host_info.h"
#include "measure.h"
#include "stats.h"
#include "suite.h"
#include "table.h"
#include "vkt/vkt.h"

namespace vkt::bench {

std::vector<Row> run_first_call(const SuiteOptions& o) {
  const DeviceSuite s = device_suite(o, "firstcall");
  Backend& dev = s.dev;
  const HostInfo& h = s.host;
  const std::vector<std::string> ops =
      o.ops.empty() ? std::vector<std::string>{"exp", "add"} : o.ops;
  std::vector<Row> rows;
  Table table({"op", "size", "first_us", "warm_us", "pipelines", "pipeline_us"});
  BackendScope scope(dev);
  for (const std::string& op : ops) {
    for (std::int64_t n : s.sizes) {
      const OpCase c = make_case(op, n);
      const std::vector<Tensor> in = place_inputs(c, dev);
      dev.synchronize();  // the inputs' uploads (and their pipelines) are not the call's
      const LedgerScope first_scope;
      const double t0 = now_us();
      Tensor r = c.run(in);
      dev.synchronize();
      const double first_us = now_us() - t0;
      const LedgerCounts first = first_scope.delta();
      std::vector<double> warm;
      for (int rep = 0; rep < o.min_reps; ++rep) {
        const double w0 = now_us();
        r = c.run(in);
        dev.synchronize();
        warm.push_back(now_us() - w0);
      }
      const Stats ws = summarize(std::move(warm));
      Row row = host_fields(h);
      row.emplace_back("op", c.op);
      row.emplace_back("dtype", std::string(dtype_name(c.dtype)));
      row.emplace_back("shape", shape_str(c.shape));
      row.emplace_back("size", std::to_string(n));
      row.emplace_back("first_us", fmt_num(first_us));
      row.emplace_back("warm_us", fmt_num(ws.median_us));
      row.emplace_back("pipelines_created", std::to_string(first.pipelines_created));
      row.emplace_back("pipeline_create_us", std::to_string(first.pipeline_create_us));
      row.emplace_back("dispatches", std::to_string(first.dispatches));
      table.add({c.op, std::to_string(n), field(row, "first_us"), field(row, "warm_us"),
                 field(row, "pipelines_created"), field(row, "pipeline_create_us")});
      rows.push_back(std::move(row));
    }
  }
  table.print(stdout);
  write_csv(s.path, rows);
  std::printf("wrote %s\n", s.path.c_str());
  return rows;
}

}  // namespace vkt::bench
