// vkt-bench matmul: square n x n products, inputs resident, upload excluded. Besides the
// op's wall time (median, min, max) each row carries the device's own time for the same
// repetitions, so a slow row says whether the GPU was slow or the host waited; and what
// tells the hypotheses about a slow size apart inside one process (issue 9, item 5):
// - variants: each forces library overrides (common/settings.h: kernel, tile, cooperative
//   matrices, pool block size: block_mb decides whether operands share one allocation) for
//   its rows;
// - rounds: each round uploads fresh operands while the earlier rounds' stay alive, so
//   every round's operands live in other memory; the device time of the first execution
//   with them (gpu_first_us) and the per-repetition device times (gpu_seq_us) show
//   placement effects and bimodal repetitions.
#include <algorithm>
#include <complex>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cases.h"
#include "common/settings.h"
#include "device.h"
#include "host_info.h"
#include "measure.h"
#include "suite.h"
#include "table.h"
#include "vkt/vkt.h"

namespace vkt::bench {
namespace {

void progress_line(std::size_t i, std::size_t total, const std::string& what) {
  std::fprintf(stderr, "\r[%zu/%zu] %-48s", i, total, what.c_str());
}

struct Variant {
  std::string name;
  std::string overrides;  // "name=value,..." (common/settings.h's override names)
};

// "name:dot_kernel=reg,dot_tile=128x128x16;name2:coopmat=0" (an empty string: one variant,
// the library's own rules). An unknown override or a bad value is an error naming it.
std::vector<Variant> parse_variants(const std::string& spec) {
  std::vector<Variant> out;
  std::size_t pos = 0;
  while (pos < spec.size()) {
    const std::size_t end = std::min(spec.find(';', pos), spec.size());
    const std::string item = spec.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    Variant v;
    const std::size_t colon = item.find(':');
    v.name = item.substr(0, colon);
    if (colon != std::string::npos) v.overrides = item.substr(colon + 1);
    Overrides check;
    std::size_t p = 0;
    while (p < v.overrides.size()) {
      const std::size_t comma = std::min(v.overrides.find(',', p), v.overrides.size());
      const std::string kv = v.overrides.substr(p, comma - p);
      p = comma + 1;
      const std::size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) {
        throw std::invalid_argument("--variants: '" + kv + "' is not name=value");
      }
      try {
        set_override(check, kv.substr(0, eq), kv.substr(eq + 1));
      } catch (const Error& e) {
        throw std::invalid_argument(std::string("--variants: ") + e.what());
      }
    }
    out.push_back(std::move(v));
  }
  if (out.empty()) out.push_back({"default", {}});
  return out;
}

// The bench's operands on the cpu: iota / n^2 + 0.01 in dtype dt (complex dtypes: times
// 1 + 0.5i, so both parts are nonzero), and its transpose.
std::pair<Tensor, Tensor> operands(std::int64_t n, DType dt) {
  Tensor a = as_type(add(divide(reshape(iota({n * n}, DType::f32, std::nullopt, &cpu()), {n, n}),
                                static_cast<double>(n * n)),
                         0.01),
                     dt);
  if (is_complex(dt)) a = multiply(a, Scalar(std::complex<double>(1.0, 0.5)));
  Tensor b = transpose(a);
  return {a, b};
}

// The result's dtype: FP8 operands multiply into f32 (JAX's preferred_element_type; the
// product torch._scaled_mm gives with out_dtype=float32), the rest into their own dtype.
std::optional<DType> product_type(DType operands) {
  if (is_narrow(operands) && is_float(operands)) return DType::f32;
  return std::nullopt;
}

struct DeviceRun {
  Stats wall, gpu;
  double gpu_first_us = -1, gpu_max_us = -1, wall_max_us = 0;
  std::string seq;  // device time of each timed repetition, microseconds, ';'-separated
  std::string path;
  bool ok = false;
  std::string error;
};

DeviceRun time_device(Backend& dev, const Tensor& a, const Tensor& b, int reps) {
  DeviceRun r;
  std::vector<double> wall, gpu;
  try {
    // Warm-ups as measure()'s (two, and at least min_warmup_us counted from the end of the
    // first, which creates the pipelines), the first with the device time kept; i < 0 while
    // warming up.
    double warm_start = -1;
    const double warmup_us = min_warmup_us(dev, TimingPlan{});
    for (int i = -2; i < reps; ++i) {
      if (i == -1 && now_us() - warm_start < warmup_us) i = -2;  // keep warming up
      const double t0 = now_us();
      dev.begin_device_timer();
      LedgerScope ledger;
      Tensor c = dot(a, b, product_type(a.dtype()));
      dev.end_device_timer();
      dev.synchronize();
      const double t1 = now_us();
      const double g = dev.device_timer_us();
      if (i == -2 && r.path.empty()) {
        r.gpu_first_us = g;
        r.path = ledger.delta().fallbacks > 0 ? "fallback" : "native";
        warm_start = now_us();
      }
      if (i < 0) continue;
      wall.push_back(t1 - t0);
      if (g >= 0) {
        gpu.push_back(g);
        r.seq += (r.seq.empty() ? "" : ";") + fmt_num(g, 1);
      }
    }
  } catch (const Error& e) {
    r.error = e.what();
    return r;
  }
  r.wall_max_us = *std::max_element(wall.begin(), wall.end());
  r.wall = summarize(wall);
  if (!gpu.empty()) {
    r.gpu_max_us = *std::max_element(gpu.begin(), gpu.end());
    r.gpu = summarize(gpu);
  }
  r.ok = true;
  return r;
}

}  // namespace

std::vector<Row> run_matmul(const SuiteOptions& o) {
  Backend* dev = find_device(o.device);
  const HostInfo h = collect_host_info(dev);
  const std::string path = o.out.empty() ? default_csv_path(h, "matmul") : o.out;
  check_writable(path);
  const std::vector<std::int64_t> sizes =
      o.sizes.empty() ? std::vector<std::int64_t>{16, 64, 256, 1024, 2048, 4096} : o.sizes;
  std::vector<DType> dtypes;
  for (const std::string& d :
       o.dtypes.empty() ? std::vector<std::string>{"f32", "f64"} : o.dtypes) {
    dtypes.push_back(dtype_from_name(d));
  }
  const std::vector<Variant> variants = parse_variants(o.variants);
  std::vector<Row> rows;
  Table table({"variant", "dtype", "n", "round", "cpu_ms", "vulkan_ms", "gpu_ms", "gpu_min_ms",
               "TFLOPs_gpu", "path"});
  const std::size_t total =
      variants.size() * dtypes.size() * sizes.size() * static_cast<std::size_t>(o.rounds);
  std::size_t i = 0;
  for (DType dt : dtypes) {
    for (std::int64_t n : sizes) {
      // A complex multiply-add is 8 real flops (4 multiplies, 4 adds) where a real one is 2.
      const double flop = (is_complex(dt) ? 8.0 : 2.0) * static_cast<double>(n) *
                          static_cast<double>(n) * static_cast<double>(n);
      const auto [ca, cb] = operands(n, dt);
      // The cpu column once per (dtype, n), up to --cpu-max: seconds per rep past that.
      Stats cpu_stats;
      const bool cpu_measured = n <= o.cpu_max;
      if (cpu_measured) {
        OpCase c{"matmul", dt, {n, n}, {{ca}, {cb}}, [](const std::vector<Tensor>& in) {
                   return dot(in[0], in[1], product_type(in[0].dtype()));
                 }};
        TimingPlan plan;
        plan.min_reps = n >= 2048 ? std::min(o.min_reps, 5) : o.min_reps;
        plan.min_total_us = n >= 2048 ? 0 : plan.min_total_us;
        cpu_stats = measure(c, cpu(), Read::none, plan).stats;
      }
      const int reps = n >= 2048 ? std::min(o.min_reps, 10) : o.min_reps;
      for (const Variant& v : variants) {
        const OverrideScope force(v.overrides);
        std::vector<std::pair<Tensor, Tensor>> live;  // every round's operands, kept alive
        for (int round = 1; round <= o.rounds; ++round) {
          progress_line(++i, total,
                        v.name + " " + std::string(dtype_name(dt)) + " " + std::to_string(n) +
                            " round " + std::to_string(round));
          DeviceRun d;
          if (dev != nullptr) {
            live.emplace_back(copy(ca, *dev), copy(cb, *dev));
            dev->synchronize();
            d = time_device(*dev, live.back().first, live.back().second, reps);
          }
          Row row = host_fields(h);
          row.emplace_back("op", "matmul");
          row.emplace_back("dtype", std::string(dtype_name(dt)));
          row.emplace_back("shape", shape_str(Shape{n, n}));
          row.emplace_back("size", std::to_string(n * n));
          row.emplace_back("n", std::to_string(n));
          row.emplace_back("variant", v.name);
          row.emplace_back("env", v.overrides);  // the column keeps its name: the schema
          row.emplace_back("round", std::to_string(round));
          row.emplace_back("path", dev == nullptr ? "cpu-only" : d.ok ? d.path : "error");
          row.emplace_back("error", d.error);
          row.emplace_back("cpu_us", cpu_measured ? fmt_num(cpu_stats.median_us) : "");
          row.emplace_back("cpu_min_us", cpu_measured ? fmt_num(cpu_stats.min_us) : "");
          row.emplace_back("vulkan_us", d.ok ? fmt_num(d.wall.median_us) : "");
          row.emplace_back("vulkan_min_us", d.ok ? fmt_num(d.wall.min_us) : "");
          row.emplace_back("vulkan_max_us", d.ok ? fmt_num(d.wall_max_us) : "");
          row.emplace_back("vulkan_reps", d.ok ? std::to_string(d.wall.reps) : "");
          const bool g = d.ok && d.gpu.reps > 0;
          row.emplace_back("vulkan_gpu_us", g ? fmt_num(d.gpu.median_us) : "");
          row.emplace_back("vulkan_gpu_min_us", g ? fmt_num(d.gpu.min_us) : "");
          row.emplace_back("vulkan_gpu_max_us", g ? fmt_num(d.gpu_max_us) : "");
          row.emplace_back("gpu_first_us",
                           d.ok && d.gpu_first_us >= 0 ? fmt_num(d.gpu_first_us) : "");
          row.emplace_back("gpu_seq_us", d.seq);
          row.emplace_back("cpu_GFLOPs",
                           cpu_measured ? fmt_num(flop / cpu_stats.median_us / 1e3, 2) : "");
          row.emplace_back("vulkan_GFLOPs", d.ok ? fmt_num(flop / d.wall.median_us / 1e3, 2) : "");
          row.emplace_back("vulkan_gpu_GFLOPs", g ? fmt_num(flop / d.gpu.median_us / 1e3, 2) : "");
          row.emplace_back("vulkan_gpu_best_GFLOPs",
                           g ? fmt_num(flop / d.gpu.min_us / 1e3, 2) : "");
          row.emplace_back("upload_included", "no");
          table.add({v.name, std::string(dtype_name(dt)), std::to_string(n), std::to_string(round),
                     cpu_measured ? fmt_num(cpu_stats.median_us / 1e3) : "",
                     d.ok ? fmt_num(d.wall.median_us / 1e3) : "",
                     g ? fmt_num(d.gpu.median_us / 1e3) : "", g ? fmt_num(d.gpu.min_us / 1e3) : "",
                     g ? fmt_num(flop / d.gpu.median_us / 1e6, 3) : "", field(row, "path")});
          rows.push_back(std::move(row));
        }
      }
    }
  }
  std::fprintf(stderr, "\r%60s\r", "");
  table.print(stdout);
  write_csv(path, rows);
  std::printf("wrote %s\n", path.c_str());
  return rows;
}

}  // namespace vkt::bench
