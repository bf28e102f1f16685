#include "rows.h"

#include "core/legacy_policy.h"
#include "device.h"
#include "vkt/vkt.h"

namespace vkt::bench {
namespace {

// The pre-Tier-1 policy (native off, fallback results uploaded back) for its lifetime, then
// the process's own again, also when a measurement throws.
class LegacyPolicyScope {
 public:
  LegacyPolicyScope() : saved_(legacy_policy()) { set_legacy_policy({false, true}); }
  ~LegacyPolicyScope() { set_legacy_policy(saved_); }
  LegacyPolicyScope(const LegacyPolicyScope&) = delete;
  LegacyPolicyScope& operator=(const LegacyPolicyScope&) = delete;

 private:
  LegacyPolicy saved_;
};

}  // namespace

ConsumerRun start_consumer_run(int device, const std::string& out, const std::string& bench,
                               int min_reps) {
  ConsumerRun run;
  run.dev = find_device(device);
  run.host = collect_host_info(run.dev);
  run.out = out.empty() ? default_csv_path(run.host, bench) : out;
  check_writable(run.out);
  run.d2h = floor_d2h_rate(run.dev);
  run.plan.min_reps = min_reps;
  return run;
}

ConsumerColumns measure_consumer_columns(const OpCase& c, Backend* dev, ColumnChoice which,
                                         const TimingPlan& plan) {
  ConsumerColumns cols;
  if (which.cpu) {
    cols.a = measure(c, cpu(), Read::none, plan);
    cols.b = measure(c, cpu(), Read::to_cpu, plan);
  }
  if (dev != nullptr) {
    cols.c = measure(c, *dev, Read::none, plan);
    cols.d = measure(c, *dev, Read::to_cpu, plan);
    if (which.legacy) cols.e = measure_legacy(c, *dev, plan);
  }
  return cols;
}

Column measure_legacy(const OpCase& c, Backend& dev, const TimingPlan& plan) {
  const LegacyPolicyScope legacy;
  return measure(c, dev, Read::to_cpu, plan);
}

double floor_d2h_rate(Backend* dev) {
  return dev != nullptr ? measure_d2h_bytes_per_us(*dev, std::size_t{256} << 20) : 0;
}

double floor_us(const Column& c, std::size_t out_bytes, double d2h) {
  return c.measured ? c.stats.median_us + static_cast<double>(out_bytes) / d2h : 0;
}

std::string path_taken(const Backend* dev, const Column& d) {
  if (dev == nullptr) return "cpu-only";
  return d.measured && d.ledger.fallbacks > 0 ? "fallback" : "native";
}

Row case_fields(const HostInfo& host, const std::string& op, const std::string& dtype,
                const Shape& shape, const Row& case_extra, std::int64_t size,
                const std::string& path) {
  Row row = host_fields(host);
  row.emplace_back("op", op);
  row.emplace_back("dtype", dtype);
  row.emplace_back("shape", shape_str(shape));
  row.insert(row.end(), case_extra.begin(), case_extra.end());
  row.emplace_back("size", std::to_string(size));
  row.emplace_back("path", path);
  return row;
}

void add_timed_columns(Row& row, const ConsumerColumns& cols, std::size_t out_bytes, double d2h,
                       double flop) {
  const std::pair<const char*, const Column*> named[] = {
      {"A", &cols.a}, {"B", &cols.b}, {"C", &cols.c}, {"D", &cols.d}, {"E", &cols.e}};
  for (const auto& [letter, col] : named) {
    const std::string name = letter;
    row.emplace_back(name + "_us", median_or_empty(*col));
    row.emplace_back(name + "_min_us", col->measured ? fmt_num(col->stats.min_us) : "");
    row.emplace_back(name + "_p95_us", col->measured ? fmt_num(col->stats.p95_us) : "");
    row.emplace_back(name + "_reps", col->measured ? std::to_string(col->stats.reps) : "");
  }
  const Column &a = cols.a, &b = cols.b, &c = cols.c, &d = cols.d, &e = cols.e;
  add_device_time(row, "C", c);
  row.emplace_back("D_over_B", median_ratio(d, b));
  row.emplace_back("D_over_E", median_ratio(d, e));
  row.emplace_back("C_over_A", median_ratio(c, a));
  const double floor = floor_us(c, out_bytes, d2h);
  row.emplace_back("out_bytes", std::to_string(out_bytes));
  row.emplace_back("d2h_GBps", d2h > 0 ? fmt_num(d2h / 1000.0) : "");
  row.emplace_back("floor_us", c.measured ? fmt_num(floor) : "");
  row.emplace_back("D_over_floor",
                   c.measured && floor > 0 ? fmt_num(d.stats.median_us / floor, 4) : "");
  row.emplace_back("GFLOP", fmt_num(flop / 1e9, 3));
  row.emplace_back("A_GFLOPs", a.measured ? fmt_num(flop / a.stats.median_us / 1e3, 2) : "");
  const bool g = c.measured && c.has_device_time;
  row.emplace_back("C_gpu_GFLOPs", g ? fmt_num(flop / c.device.median_us / 1e3, 2) : "");
}

}  // namespace vkt::bench
