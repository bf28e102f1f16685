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
#include "fft_bench.h"
#include "rows.h"
#include "suite.h"
#include "table.h"
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
  const ConsumerRun run = start_consumer_run(o.device, o.out, "fft", o.min_reps);
  Backend* const dev = run.dev;
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
      ColumnChoice which;
      which.cpu = !o.device_only || dev == nullptr;
      which.legacy = !o.device_only;
      const ConsumerColumns cols = measure_consumer_columns(c, dev, which, run.plan);
      const std::size_t out_bytes = static_cast<std::size_t>(o.batch * n) * itemsize(dt);
      Row row =
          case_fields(run.host, "fft", name, c.shape, {}, numel(c.shape), path_taken(dev, cols.d));
      add_timed_columns(row, cols, out_bytes, run.d2h, flop);
      row.emplace_back("library", "vktensor");
      table.add({name, shape_str(c.shape), field(row, "path"), field(row, "A_us"),
                 field(row, "B_us"), field(row, "C_us"), field(row, "C_gpu_us"), field(row, "D_us"),
                 field(row, "E_us"), field(row, "A_GFLOPs"), field(row, "C_gpu_GFLOPs"),
                 field(row, "D_over_B")});
      rows.push_back(std::move(row));
    }
  }
  finish(run.out, rows, table);
  return rows;
}

}  // namespace vkt::bench
