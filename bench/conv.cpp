// vkt-bench conv: a ResNet-style 3x3 layer (input {batch, channels, hw, hw}, kernel
// {channels, channels, 3, 3}, padding 1, stride 1; default 32 x 64 x 56 x 56) with the
// consumer columns (DESIGN.md section 5): A cpu op, B cpu op + read, C vulkan op (inputs
// resident) with its device time, D vulkan op + read, E the legacy path; and GFLOP/s of
// A and of C's device time (2 * N * O * P * C * 9 flops). Where the conv marks its passes
// (the Vulkan im2col path, VKT_VK_CONV_GEMM=1), C's device time per pass: C_gpu_im2col_us
// and C_gpu_gemm_us. --gemm-alone adds a row per dtype that times the im2col path's GEMM by
// itself as a dot with its M, N, K, batch and operand layouts (path "gemm-alone").
// bench/peers/torch_conv.py times PyTorch on the same inputs.
#include <cstdio>

#include "cases.h"
#include "conv_bench.h"
#include "device.h"
#include "host_info.h"
#include "measure.h"
#include "table.h"
#include "vkt/backend/legacy_policy.h"
#include "vkt/vkt.h"

namespace vkt::bench {
namespace {

// iota / size + 0.01 as the seed's data, in dtype; the kernel scaled down so sums of
// C * 9 products stay near 1 in every dtype.
OpCase layer_case(std::int64_t batch, std::int64_t channels, std::int64_t hw, DType dt) {
  const Shape xs{batch, channels, hw, hw}, ks{channels, channels, 3, 3};
  const Tensor x = as_type(seed_data(numel(xs), xs), dt);
  const Tensor k =
      as_type(multiply(seed_data(numel(ks), ks), 1.0 / static_cast<double>(channels)), dt);
  ConvOptions o;
  o.padding = {{1, 1}, {1, 1}};
  return OpCase{"conv", dt, xs, {{x}, {k}}, [o](const std::vector<Tensor>& in) {
                  return conv(in[0], in[1], o);
                }};
}

// The im2col path's GEMM alone (conv.cpp): out [O, batch, positions] = kernel [O, C * 9] .
// cols [batch, C * 9, positions], contracting C * 9; the kernel read for every image (batch
// stride 0) and cols' positions unit-stride, as conv.cpp's GemmView has them. The output's
// batch and row strides are swapped (dot's layout for a rank-3 right operand), the same
// tiles and stores.
OpCase gemm_alone_case(std::int64_t batch, std::int64_t channels, std::int64_t hw, DType dt) {
  const std::int64_t k = channels * 9, positions = hw * hw;
  const Shape as{channels, k}, bs{batch, k, positions};
  const Tensor a = as_type(multiply(seed_data(numel(as), as), 1.0 / static_cast<double>(k)), dt);
  const Tensor b = as_type(seed_data(numel(bs), bs), dt);
  return OpCase{"dot", dt, bs, {{a}, {b}}, [](const std::vector<Tensor>& in) {
                  return dot(in[0], {1}, {}, in[1], {1}, {});
                }};
}

}  // namespace

std::vector<Row> run_conv_bench(const ConvBenchOptions& o) {
  Backend* dev = find_device(o.device);
  const HostInfo host = collect_host_info(dev);
  const std::string out = o.out.empty() ? default_csv_path(host, "conv") : o.out;
  check_writable(out);
  double d2h = 0;
  if (dev != nullptr) d2h = measure_d2h_bytes_per_us(*dev, std::size_t{256} << 20);
  TimingPlan plan;
  plan.min_reps = o.min_reps;
  std::vector<Row> rows;
  Table table({"dtype", "shape", "path", "A_us", "B_us", "C_us", "C_gpu_us", "C_gpu_im2col_us",
               "C_gpu_gemm_us", "D_us", "E_us", "A_GFLOPs", "C_gpu_GFLOPs", "D/B"});
  for (const std::string& name : o.dtypes) {
    const DType dt = dtype_from_name(name);
    for (std::int64_t batch : o.batches) {
      std::fprintf(stderr, "\rconv %s batch %lld          ", name.c_str(),
                   static_cast<long long>(batch));
      for (const bool gemm_alone : {false, true}) {
        if (gemm_alone && (!o.gemm_alone || dev == nullptr)) continue;
        const OpCase c = gemm_alone ? gemm_alone_case(batch, o.channels, o.hw, dt)
                                    : layer_case(batch, o.channels, o.hw, dt);
        const double flop = 2.0 * static_cast<double>(batch * o.channels * o.hw * o.hw) *
                            static_cast<double>(o.channels * 9);
        Column a, b, cc, d, e;
        if ((!o.device_only || dev == nullptr) && !gemm_alone) {
          a = measure(c, cpu(), Read::none, plan);
          b = measure(c, cpu(), Read::to_cpu, plan);
        }
        if (dev != nullptr) {
          cc = measure(c, *dev, Read::none, plan);
          d = measure(c, *dev, Read::to_cpu, plan);
        }
        if (dev != nullptr && !o.device_only && !gemm_alone) {
          const LegacyPolicy saved = legacy_policy();
          set_legacy_policy({false, true});
          e = measure(c, *dev, Read::to_cpu, plan);
          set_legacy_policy(saved);
        }
        const std::size_t out_bytes =
            static_cast<std::size_t>(batch * o.channels * o.hw * o.hw) * itemsize(dt);
        const double floor_us =
            cc.measured ? cc.stats.median_us + static_cast<double>(out_bytes) / d2h : 0;
        const bool fallback = d.measured && d.ledger.fallbacks > 0;
        Row row = host_fields(host);
        row.emplace_back("op", "conv");
        row.emplace_back("dtype", name);
        const Shape input_shape{batch, o.channels, o.hw, o.hw};
        row.emplace_back("shape", shape_str(input_shape));
        row.emplace_back("kernel", shape_str(Shape{o.channels, o.channels, 3, 3}));
        row.emplace_back("padding", "1");
        row.emplace_back("size", std::to_string(numel(input_shape)));
        row.emplace_back("path", dev == nullptr ? "cpu-only"
                                 : gemm_alone   ? "gemm-alone"
                                 : fallback     ? "fallback"
                                                : "native");
        add_timed_columns(row, {&a, &b, &cc, &d, &e}, out_bytes, dev != nullptr ? d2h : 0, floor_us,
                          flop);
        // The im2col path marks one pass boundary: im2col, then the GEMM.
        const bool two = cc.measured && cc.passes.size() == 2;
        row.emplace_back("C_gpu_im2col_us", two ? fmt_num(cc.passes[0].median_us) : "");
        row.emplace_back("C_gpu_gemm_us", two ? fmt_num(cc.passes[1].median_us) : "");
        table.add({name, shape_str(input_shape), field(row, "path"), field(row, "A_us"),
                   field(row, "B_us"), field(row, "C_us"), field(row, "C_gpu_us"),
                   field(row, "C_gpu_im2col_us"), field(row, "C_gpu_gemm_us"), field(row, "D_us"),
                   field(row, "E_us"), field(row, "A_GFLOPs"), field(row, "C_gpu_GFLOPs"),
                   field(row, "D_over_B")});
        rows.push_back(std::move(row));
      }
    }
  }
  std::fprintf(stderr, "\r%60s\r", "");
  table.print(stdout);
  write_csv(out, rows);
  std::printf("wrote %s\n", out.c_str());
  return rows;
}

}  // namespace vkt::bench
