#include "suite.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <utility>

#include "cases.h"
#include "device.h"
#include "host_info.h"
#include "measure.h"
#include "table.h"
#include "vkt/vkt.h"

namespace vkt::bench {
namespace {

std::string out_path(const SuiteOptions& o, const HostInfo& h, const std::string& bench) {
  return o.out.empty() ? default_csv_path(h, bench) : o.out;
}

// cpu and vulkan op-only timings of one case, as row fields.
struct OpTiming {
  Column cpu_col, dev_col;
  std::string path;
  double speedup = 0;
};

OpTiming time_both(const OpCase& c, Backend* dev, const TimingPlan& plan) {
  OpTiming t;
  t.cpu_col = measure(c, cpu(), Read::none, plan);
  if (dev == nullptr) {
    t.path = "cpu-only";
    return t;
  }
  t.dev_col = measure(c, *dev, Read::none, plan);
  t.path = t.dev_col.ledger.fallbacks > 0 ? "fallback" : "native";
  t.speedup = t.cpu_col.stats.median_us / t.dev_col.stats.median_us;
  return t;
}

void add_timing(Row& row, const OpTiming& t) {
  row.emplace_back("path", t.path);
  row.emplace_back("cpu_us", fmt_num(t.cpu_col.stats.median_us));
  row.emplace_back("cpu_p95_us", fmt_num(t.cpu_col.stats.p95_us));
  row.emplace_back("cpu_min_us", fmt_num(t.cpu_col.stats.min_us));
  row.emplace_back("vulkan_us", t.dev_col.measured ? fmt_num(t.dev_col.stats.median_us) : "");
  row.emplace_back("vulkan_p95_us", t.dev_col.measured ? fmt_num(t.dev_col.stats.p95_us) : "");
  row.emplace_back("vulkan_min_us", t.dev_col.measured ? fmt_num(t.dev_col.stats.min_us) : "");
  row.emplace_back("speedup", t.dev_col.measured ? fmt_num(t.speedup, 4) : "");
  row.emplace_back("vulkan_submits",
                   t.dev_col.measured ? std::to_string(t.dev_col.ledger.submits) : "");
  add_device_time(row, "vulkan", t.dev_col);
}

}  // namespace

void finish(const std::string& path, const std::vector<Row>& rows, const Table& table) {
  std::fprintf(stderr, "\r%60s\r", "");
  table.print(stdout);
  write_csv(path, rows);
  std::printf("wrote %s\n", path.c_str());
}

Row case_row(const HostInfo& h, const OpCase& c, std::int64_t n) {
  Row row = host_fields(h);
  row.emplace_back("op", c.op);
  row.emplace_back("dtype", std::string(dtype_name(c.dtype)));
  row.emplace_back("shape", shape_str(c.shape));
  row.emplace_back("size", std::to_string(n));
  return row;
}

DeviceSuite device_suite(const SuiteOptions& o, const std::string& bench) {
  Backend* dev = find_device(o.device);
  if (dev == nullptr) throw std::invalid_argument("the " + bench + " bench needs a Vulkan device");
  HostInfo h = collect_host_info(dev);
  std::string path = out_path(o, h, bench);
  check_writable(path);
  std::vector<std::int64_t> sizes = o.sizes.empty() ? std::vector<std::int64_t>{1024} : o.sizes;
  return {*dev, std::move(h), std::move(path), std::move(sizes)};
}

void progress(std::size_t i, std::size_t total, const std::string& what) {
  std::fprintf(stderr, "\r[%zu/%zu] %-40s", i, total, what.c_str());
}

std::vector<Row> run_ops(const SuiteOptions& o) {
  Backend* dev = find_device(o.device);
  const HostInfo h = collect_host_info(dev);
  const std::string path = out_path(o, h, "ops");
  check_writable(path);
  const std::vector<std::string> ops = o.ops.empty() ? case_ops() : o.ops;
  const std::vector<std::int64_t> sizes =
      o.sizes.empty() ? std::vector<std::int64_t>{4096, 1048576} : o.sizes;
  TimingPlan plan;
  plan.min_reps = o.min_reps;
  std::vector<Row> rows;
  Table table({"op", "size", "path", "cpu_us", "vulkan_us", "speedup"});
  std::size_t i = 0;
  for (const auto& op : ops) {
    for (std::int64_t n : sizes) {
      progress(++i, ops.size() * sizes.size(), op + " " + std::to_string(n));
      const OpCase c = make_case(op, n);
      const OpTiming t = time_both(c, dev, plan);
      Row row = case_row(h, c, n);
      add_timing(row, t);
      table.add({op, std::to_string(n), t.path, field(row, "cpu_us"), field(row, "vulkan_us"),
                 field(row, "speedup")});
      rows.push_back(std::move(row));
    }
  }
  finish(path, rows, table);
  return rows;
}

std::vector<Row> run_shapes(const SuiteOptions& o) {
  Backend* dev = find_device(o.device);
  const HostInfo h = collect_host_info(dev);
  const std::string path = out_path(o, h, "shapes");
  check_writable(path);
  // family -> ops; dot stops at 1M elements (1024 x 1024: already seconds on a small cpu).
  const std::vector<std::pair<std::string, std::vector<std::string>>> families = {
      {"compute", {"dot", "exp", "add", "tanh"}},
      {"reduction", {"sum", "sum_axis1", "reduce_max", "argmax"}},
      {"movement", {"transpose", "concatenate", "pad", "slice", "gather", "take"}}};
  std::vector<std::int64_t> sizes = o.sizes;
  if (sizes.empty()) {
    for (std::int64_t n = 256; n <= (std::int64_t{1} << 24); n *= 4) sizes.push_back(n);
  }
  TimingPlan plan;
  plan.min_reps = o.min_reps;
  std::vector<Row> rows;
  Table table({"family", "op", "size", "path", "cpu_us", "vulkan_us", "speedup", "crossover"});
  std::size_t total = 0, i = 0;
  for (const auto& f : families) total += f.second.size() * sizes.size();
  for (const auto& [family, ops] : families) {
    for (const auto& op : ops) {
      if (!o.ops.empty() && std::find(o.ops.begin(), o.ops.end(), op) == o.ops.end()) continue;
      std::vector<Row> op_rows;
      for (std::int64_t n : sizes) {
        progress(++i, total, op + " " + std::to_string(n));
        if (op == "dot" && n > (std::int64_t{1} << 20)) continue;
        const OpCase c = make_case(op, n);
        const OpTiming t = time_both(c, dev, plan);
        Row row = case_row(h, c, n);
        row.insert(row.begin() + static_cast<long>(host_fields(h).size()), {"family", family});
        add_timing(row, t);
        op_rows.push_back(std::move(row));
      }
      // Crossover: the smallest size from which vulkan wins at every larger size.
      std::string crossover = "none";
      for (std::size_t k = op_rows.size(); k-- > 0;) {
        const std::string s = field(op_rows[k], "speedup");
        if (s.empty() || std::stod(s) < 1.0) break;
        crossover = field(op_rows[k], "size");
      }
      for (Row& row : op_rows) {
        row.emplace_back("crossover_size", crossover);
        table.add({family, op, field(row, "size"), field(row, "path"), field(row, "cpu_us"),
                   field(row, "vulkan_us"), field(row, "speedup"), crossover});
        rows.push_back(std::move(row));
      }
    }
  }
  finish(path, rows, table);
  return rows;
}

}  // namespace vkt::bench
