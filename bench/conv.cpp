// vkt-bench conv: a ResNet-style 3x3 layer (input {batch, channels, hw, hw}, kernel
// {channels, channels, 3, 3}, padding 1, stride 1; default 32 x 64 x 56 x 56) with the
// consumer columns (DESIGN.md section 5): A cpu op, B cpu op + read, C vulkan op (inputs
// resident) with its device time, D vulkan op + read, E the legacy path; and GFLOP/s of
// A and of C's device time (2 * N * O * P * C * 9 flops). Where the conv marks its passes
// (the Vulkan im2col path: f16 on cooperative matrices, or --set conv_gemm=1), C's device
// time per pass: C_gpu_im2col_us and C_gpu_gemm_us. --gemm-alone adds a row per dtype that
// times the im2col path's GEMM by itself as a dot with its M, N, K, batch and operand
// layouts (path "gemm-alone"). --passes adds the layer's backward convs: the cotangent of
// its input or of its kernel from the output's cotangent g (column "pass": forward,
// input_cotangent, kernel_cotangent), each the pullback of vkt::vjp that training runs.
// bench/peers/torch_conv.py times PyTorch on the same inputs.
#include <cstdio>
#include <map>
#include <memory>

#include "cases.h"
#include "common/settings.h"
#include "conv_bench.h"
#include "rows.h"
#include "suite.h"
#include "table.h"
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

// One backward conv of the layer: the pullback of vjp(conv) with respect to the input
// (of_input) or the kernel, the other operand a constant, applied to g (the output's
// cotangent, scaled so that a kernel cotangent's N * hw * hw products stay near N). The
// vjp is recorded once per backend, so the forward conv stays out of the timing.
OpCase cotangent_case(std::int64_t batch, std::int64_t channels, std::int64_t hw, DType dt,
                      bool of_input) {
  OpCase c = layer_case(batch, channels, hw, dt);
  const Shape out{batch, channels, hw, hw};
  c.inputs.push_back(
      {as_type(multiply(seed_data(numel(out), out), 1.0 / static_cast<double>(hw * hw)), dt)});
  ConvOptions o;
  o.padding = {{1, 1}, {1, 1}};
  auto pullbacks = std::make_shared<std::map<const Backend*, Vjp>>();
  c.run = [o, of_input, pullbacks](const std::vector<Tensor>& in) {
    auto it = pullbacks->find(&in[0].backend());
    if (it == pullbacks->end()) {
      const Tensor x = in[0], k = in[1];
      const TensorFunction f = [o, of_input, x, k](const std::vector<Tensor>& p) {
        return std::vector<Tensor>{of_input ? conv(p[0], k, o) : conv(x, p[0], o)};
      };
      it = pullbacks->emplace(&in[0].backend(), vjp(f, {of_input ? x : k})).first;
    }
    return it->second.pullback({in[2]})[0];
  };
  return c;
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
  const OverrideScope force(o.overrides);
  const ConsumerRun run = start_consumer_run(o.device, o.out, "conv", o.min_reps);
  Backend* const dev = run.dev;
  std::vector<Row> rows;
  Table table({"dtype", "shape", "pass", "path", "A_us", "B_us", "C_us", "C_gpu_us",
               "C_gpu_im2col_us", "C_gpu_gemm_us", "D_us", "E_us", "A_GFLOPs", "C_gpu_GFLOPs",
               "D/B"});
  for (const std::string& name : o.dtypes) {
    const DType dt = dtype_from_name(name);
    for (std::int64_t batch : o.batches) {
      std::fprintf(stderr, "\rconv %s batch %lld          ", name.c_str(),
                   static_cast<long long>(batch));
      for (const std::string& pass : o.passes) {
        for (const bool gemm_alone : {false, true}) {
          if (gemm_alone && (!o.gemm_alone || dev == nullptr || pass != "forward")) continue;
          const OpCase c = gemm_alone          ? gemm_alone_case(batch, o.channels, o.hw, dt)
                           : pass == "forward" ? layer_case(batch, o.channels, o.hw, dt)
                                               : cotangent_case(batch, o.channels, o.hw, dt,
                                                                pass == "input_cotangent");
          const double flop = 2.0 * static_cast<double>(batch * o.channels * o.hw * o.hw) *
                              static_cast<double>(o.channels * 9);
          // The GEMM alone has no cpu or legacy columns: it is a tuning row for C and D.
          ColumnChoice which;
          which.cpu = (!o.device_only || dev == nullptr) && !gemm_alone;
          which.legacy = !o.device_only && !gemm_alone;
          const ConsumerColumns cols = measure_consumer_columns(c, dev, which, run.plan);
          const Shape input_shape{batch, o.channels, o.hw, o.hw};
          const Shape kernel_shape{o.channels, o.channels, 3, 3};
          const std::size_t out_bytes =
              static_cast<std::size_t>(
                  numel(pass == "kernel_cotangent" ? kernel_shape : input_shape)) *
              itemsize(dt);
          const Row kernel_fields = {
              {"kernel", shape_str(kernel_shape)}, {"padding", "1"}, {"pass", pass}};
          Row row =
              case_fields(run.host, "conv", name, input_shape, kernel_fields, numel(input_shape),
                          gemm_alone ? "gemm-alone" : path_taken(dev, cols.d));
          add_timed_columns(row, cols, out_bytes, run.d2h, flop);
          // The im2col path marks one pass boundary: im2col, then the GEMM.
          const Column& cc = cols.c;
          const bool two = cc.measured && cc.passes.size() == 2;
          row.emplace_back("C_gpu_im2col_us", two ? fmt_num(cc.passes[0].median_us) : "");
          row.emplace_back("C_gpu_gemm_us", two ? fmt_num(cc.passes[1].median_us) : "");
          table.add({name, shape_str(input_shape), pass, field(row, "path"), field(row, "A_us"),
                     field(row, "B_us"), field(row, "C_us"), field(row, "C_gpu_us"),
                     field(row, "C_gpu_im2col_us"), field(row, "C_gpu_gemm_us"), field(row, "D_us"),
                     field(row, "E_us"), field(row, "A_GFLOPs"), field(row, "C_gpu_GFLOPs"),
                     field(row, "D_over_B")});
          rows.push_back(std::move(row));
        }
      }
    }
  }
  finish(run.out, rows, table);
  return rows;
}

}  // namespace vkt::bench
