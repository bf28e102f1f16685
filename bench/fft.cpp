// vkt-bench fft: fft along the last axis of {batch, n} c64 / c128 tensors (default one line
// of 4K, 64K, 1M and 16M points) with the consumer columns (DESIGN.md section 5): A cpu op,
// B cpu op + read, C vulkan op (input resident) with its device time, D vulkan op + read, E
// the legacy path; and GFLOP/s by the usual 5 n log2 n count. bench/peers/torch_fft.py
// times torch.fft.fft on the same data (cuda and cpu).
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>

#include "cases.h"
#include "device.h"
#include "fft_bench.h"
#include "host_info.h"
#include "measure.h"
#include "table.h"
#include "vkt/backend/legacy_policy.h"
#include "vkt/vkt.h"

namespace vkt::bench {
namespace {

// Real parts iota / size + 0.01 (the seed's data), imaginary parts 0.
OpCase fft_case(std::int64_t batch, std::int64_t n, DType dt) {
  const std::int64_t count = batch * n;
  std::vector<std::byte> bytes(static_cast<std::size_t>(count) * itemsize(dt));
  visit_complex_dtype(dt, [&](auto tag) {
    using C = typename decltype(tag)::type;
    using R = typename C::value_type;
    for (std::int64_t i = 0; i < count; ++i) {
      const C v(static_cast<R>(static_cast<double>(i) / static_cast<double>(count) + 0.01), R(0));
      std::memcpy(bytes.data() + static_cast<std::size_t>(i) * sizeof(C), &v, sizeof(C));
    }
  });
  const Shape shape{batch, n};
  return OpCase{"fft",
                dt,
                shape,
                {{from_bytes(bytes, dt, shape, &cpu())}},
                [](const std::vector<Tensor>& in) { return fft(in[0]); }};
}

}  // namespace

std::vector<Row> run_fft_bench(const FftBenchOptions& o) {
  Backend* dev = find_device(o.device);
  const HostInfo host = collect_host_info(dev);
  const std::string out = o.out.empty() ? default_csv_path(host, "fft") : o.out;
  check_writable(out);
  double d2h = 0;
  if (dev != nullptr) d2h = measure_d2h_bytes_per_us(*dev, std::size_t{256} << 20);
  TimingPlan plan;
  plan.min_reps = o.min_reps;
  std::vector<Row> rows;
  Table table({"dtype", "shape", "path", "A_us", "B_us", "C_us", "C_gpu_us", "D_us", "E_us",
               "A_GFLOPs", "C_gpu_GFLOPs", "D/B"});
  for (const std::string& name : o.dtypes) {
    const DType dt = dtype_from_name(name);
    for (std::int64_t n : o.sizes) {
      std::fprintf(stderr, "\rfft %s %lld x %lld          ", name.c_str(),
                   static_cast<long long>(o.batch), static_cast<long long>(n));
      const OpCase c = fft_case(o.batch, n, dt);
      const double flop =
          5.0 * static_cast<double>(o.batch * n) * std::log2(std::max(2.0, static_cast<double>(n)));
      Column a, b, cc, d, e;
      if (!o.device_only || dev == nullptr) {
        a = measure(c, cpu(), Read::none, plan);
        b = measure(c, cpu(), Read::to_cpu, plan);
      }
      if (dev != nullptr) {
        cc = measure(c, *dev, Read::none, plan);
        d = measure(c, *dev, Read::to_cpu, plan);
      }
      if (dev != nullptr && !o.device_only) {
        const LegacyPolicy saved = legacy_policy();
        set_legacy_policy({false, true});
        e = measure(c, *dev, Read::to_cpu, plan);
        set_legacy_policy(saved);
      }
      const std::size_t out_bytes = static_cast<std::size_t>(o.batch * n) * itemsize(dt);
      const double floor_us =
          cc.measured ? cc.stats.median_us + static_cast<double>(out_bytes) / d2h : 0;
      const bool fallback = d.measured && d.ledger.fallbacks > 0;
      Row row = host_fields(host);
      row.emplace_back("op", "fft");
      row.emplace_back("dtype", name);
      row.emplace_back("shape", shape_str(c.shape));
      row.emplace_back("size", std::to_string(numel(c.shape)));
      row.emplace_back("path", dev == nullptr ? "cpu-only" : (fallback ? "fallback" : "native"));
      add_timed_columns(row, {&a, &b, &cc, &d, &e}, out_bytes, dev != nullptr ? d2h : 0, floor_us,
                        flop);
      row.emplace_back("library", "vktensor");
      table.add({name, shape_str(c.shape), field(row, "path"), field(row, "A_us"),
                 field(row, "B_us"), field(row, "C_us"), field(row, "C_gpu_us"), field(row, "D_us"),
                 field(row, "E_us"), field(row, "A_GFLOPs"), field(row, "C_gpu_GFLOPs"),
                 field(row, "D_over_B")});
      rows.push_back(std::move(row));
    }
  }
  std::fprintf(stderr, "\r%60s\r", "");
  table.print(stdout);
  write_csv(out, rows);
  std::printf("wrote %s\n", out.c_str());
  return rows;
}

}  // namespace vkt::bench
