// vkt-bench chain: k = 1, 4, 16 elementwise ops on resident data then one read, eager and
// compiled (vkt::compile), plus a small MLP layer (dot + bias + gelu) and softmax over rows.
// Columns: B (cpu + read), C (device op alone), D (device + read), each eager and compiled;
// the compiled plan's first call (trace + kernel compile) and a cache hit's host time.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "cases.h"
#include "device.h"
#include "host_info.h"
#include "measure.h"
#include "suite.h"
#include "table.h"
#include "vkt/compile.h"
#include "vkt/vkt.h"
#ifdef VKT_BENCH_ROW_VARIANT
#include "vulkan/compile/compiled_rows_variant.h"
#endif

namespace vkt::bench {
namespace {

using Fn = std::function<Tensor(const std::vector<Tensor>&)>;

// A workload as an eager function and a factory of fresh compiled ones (each with an
// empty plan cache, so its first call traces and compiles).
struct Workload {
  std::string label;
  Shape shape;  // the main input's
  std::vector<BenchInput> inputs;
  Fn eager;
  std::function<Fn()> compiled;
  double bytes = 0;  // each input read once and the output written once
};

Tensor chain(const Tensor& x, int k) {
  Tensor y = x;
  for (int j = 0; j < k; ++j) y = j % 2 ? add(y, 0.5) : multiply(y, 1.0001);
  return y;
}

// gelu, tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
Tensor mlp_layer(const Tensor& x, const Tensor& w, const Tensor& bias) {
  const Tensor h = add(dot(x, w), bias);
  const Tensor inner =
      multiply(add(h, multiply(multiply(multiply(h, h), h), 0.044715f)), 0.7978845608f);
  return multiply(multiply(h, 0.5f), add(tanh(inner), 1.0f));
}

Tensor softmax_rows(const Tensor& x) {
  const Tensor e = exp(subtract(x, reduce_max(x, {1}, true)));
  return divide(e, sum(e, {1}, true));
}

// Layer norm over rows (no affine clamp): mean, then the mean square of x - mean.
Tensor layer_norm_rows(const Tensor& x, const Tensor& gamma, const Tensor& beta) {
  const double len = static_cast<double>(x.shape().back());
  const Tensor d = subtract(x, divide(sum(x, {1}, true), len));
  const Tensor var = divide(sum(multiply(d, d), {1}, true), len);
  return add(multiply(multiply(d, rsqrt(add(var, 1e-5))), gamma), beta);
}

OpCase as_case(const Workload& w, Fn run) {
  return OpCase{w.label, DType::f32, w.shape, w.inputs, std::move(run)};
}

struct FirstCall {
  double us = -1;
  LedgerCounts counts;
  double hit_host_us = -1;
  double settled_hit_host_us = -1;
};

// The first call of a fresh compiled function (trace, fusion, kernel compile or cache
// hit, the run), then the host time of later calls: returning from the call, before
// the device runs the recorded work.
FirstCall first_call(const Workload& w, Backend& b) {
  BackendScope scope(b);
  const std::vector<Tensor> in = place_inputs(as_case(w, w.eager), b);
  b.synchronize();
  const Fn f = w.compiled();
  FirstCall r;
  LedgerScope counted;
  auto t0 = std::chrono::steady_clock::now();
  f(in).backend().synchronize();
  r.us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  r.counts = counted.delta();
  // The median host time of 32 calls, each returned before its work runs.
  const auto hit_host_us = [&] {
    std::vector<double> host;
    for (int i = 0; i < 32; ++i) {
      const auto start = std::chrono::steady_clock::now();
      Tensor out = f(in);
      host.push_back(
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
              .count());
      out.backend().synchronize();
    }
    return summarize(host).median_us;
  };
  r.hit_host_us = hit_host_us();
  // The same once later tiers have had a second to arrive: a first tier with
  // first_rare=flag waits for each run to read its flag until the full kernel replaces it.
  const auto settle = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (std::chrono::steady_clock::now() < settle) f(in).backend().synchronize();
  r.settled_hit_host_us = hit_host_us();
  return r;
}

// --rows: the row kernel's variant (src/vulkan/compile/compiled_rows_variant.h) for the
// kernels this run compiles, back to the default afterwards.
class RowVariantScope {
 public:
  explicit RowVariantScope(const std::string& spec) : set_(!spec.empty()) {
    if (!set_) return;
#ifdef VKT_BENCH_ROW_VARIANT
    vk::testing::set_row_variant(vk::parse_row_variant(spec.c_str()));
#else
    throw std::invalid_argument("chain --rows: this build has no Vulkan backend");
#endif
  }
  ~RowVariantScope() {
#ifdef VKT_BENCH_ROW_VARIANT
    if (set_) vk::testing::set_row_variant(std::nullopt);
#endif
  }
  RowVariantScope(const RowVariantScope&) = delete;
  RowVariantScope& operator=(const RowVariantScope&) = delete;

 private:
  bool set_;
};

}  // namespace

std::vector<Row> run_chain(const SuiteOptions& o) {
  const RowVariantScope variant(o.rows);  // a bad spec throws before any work
  Backend* dev = find_device(o.device);
  const HostInfo h = collect_host_info(dev);
  const std::string path = o.out.empty() ? default_csv_path(h, "chain") : o.out;
  check_writable(path);
  const std::vector<std::int64_t> sizes =
      o.sizes.empty() ? std::vector<std::int64_t>{16384, 1048576, 16777216} : o.sizes;
  TimingPlan plan;
  plan.min_reps = o.min_reps;

  std::vector<Workload> work;
  for (int k : {1, 4, 16}) {
    for (std::int64_t n : sizes) {
      Workload w;
      w.label = "chain" + std::to_string(k);
      w.shape = {n};
      w.inputs = {{seed_data(n, {n})}};
      w.eager = [k](const std::vector<Tensor>& in) { return chain(in[0], k); };
      w.compiled = [k]() -> Fn {
        auto f = std::make_shared<Compiled<std::function<Tensor(const Tensor&)>>>(
            std::function<Tensor(const Tensor&)>([k](const Tensor& x) { return chain(x, k); }));
        return [f](const std::vector<Tensor>& in) { return (*f)(in[0]); };
      };
      w.bytes = 8.0 * static_cast<double>(n);
      work.push_back(std::move(w));
    }
  }
  // The MLP layer and softmax take their sizes from the same grid: x {n / 1024 (at most
  // 4096), 1024} times W {1024, 1024}; softmax over rows of 4096 (16M: {4096, 4096}).
  for (std::int64_t n : sizes) {
    const std::int64_t d = 1024;
    const std::int64_t rows = std::min<std::int64_t>(std::max<std::int64_t>(n / d, 1), 4096);
    Workload w;
    w.label = "mlp";
    w.shape = {rows, d};
    w.inputs = {{seed_data(rows * d, {rows, d})}, {seed_data(d * d, {d, d})}, {seed_data(d, {d})}};
    w.eager = [](const std::vector<Tensor>& in) { return mlp_layer(in[0], in[1], in[2]); };
    w.compiled = []() -> Fn {
      using F = std::function<Tensor(const Tensor&, const Tensor&, const Tensor&)>;
      auto f = std::make_shared<Compiled<F>>(F(mlp_layer));
      return [f](const std::vector<Tensor>& in) { return (*f)(in[0], in[1], in[2]); };
    };
    w.bytes = 4.0 * static_cast<double>(rows * d * 2 + d * d + d);
    work.push_back(std::move(w));
  }
  for (std::int64_t n : sizes) {
    const std::int64_t cols = std::min<std::int64_t>(n, 4096),
                       side = std::max<std::int64_t>(n / cols, 1);
    Workload w;
    w.label = "softmax";
    w.shape = {side, cols};
    w.inputs = {{seed_data(side * cols, {side, cols})}};
    w.eager = [](const std::vector<Tensor>& in) { return softmax_rows(in[0]); };
    w.compiled = []() -> Fn {
      using F = std::function<Tensor(const Tensor&)>;
      auto f = std::make_shared<Compiled<F>>(F(softmax_rows));
      return [f](const std::vector<Tensor>& in) { return (*f)(in[0]); };
    };
    w.bytes = 8.0 * static_cast<double>(side * cols);
    work.push_back(std::move(w));
  }
  for (std::int64_t n : sizes) {  // layer norm over the same rows as softmax
    const std::int64_t cols = std::min<std::int64_t>(n, 4096),
                       side = std::max<std::int64_t>(n / cols, 1);
    Workload w;
    w.label = "layernorm";
    w.shape = {side, cols};
    w.inputs = {{seed_data(side * cols, {side, cols})},
                {seed_data(cols, {cols})},
                {seed_data(cols, {cols})}};
    w.eager = [](const std::vector<Tensor>& in) { return layer_norm_rows(in[0], in[1], in[2]); };
    w.compiled = []() -> Fn {
      using F = std::function<Tensor(const Tensor&, const Tensor&, const Tensor&)>;
      auto f = std::make_shared<Compiled<F>>(F(layer_norm_rows));
      return [f](const std::vector<Tensor>& in) { return (*f)(in[0], in[1], in[2]); };
    };
    w.bytes = 4.0 * static_cast<double>(2 * side * cols + 2 * cols);
    work.push_back(std::move(w));
  }

  // --ops picks workloads by label (chain1, chain4, chain16, mlp, softmax, layernorm).
  for (const std::string& name : o.ops) {
    if (std::none_of(work.begin(), work.end(), [&](const Workload& w) { return w.label == name; }))
      throw Error("[chain] unknown workload '" + name +
                  "' (--ops takes chain1, chain4, chain16, mlp, softmax, layernorm)");
  }
  if (!o.ops.empty()) {
    std::erase_if(work, [&](const Workload& w) {
      return std::find(o.ops.begin(), o.ops.end(), w.label) == o.ops.end();
    });
  }
  std::vector<Row> rows;
  Table table({"case", "size", "B_us", "B_comp_us", "C_us", "C_comp_us", "D_us", "D_comp_us",
               "disp", "disp_comp", "first_ms", "shaderc_ms", "pipes", "pipe_ms"});
  std::map<std::int64_t, double> c_one_op;  // C of chain1 per size
  std::size_t i = 0;
  for (const Workload& w : work) {
    const std::int64_t n = numel(w.shape);
    progress(++i, work.size(), w.label + " " + std::to_string(n));
    const OpCase eager = as_case(w, w.eager);
    const OpCase compiled = as_case(w, w.compiled());
    const Column b = measure(eager, cpu(), Read::to_cpu, plan);
    const Column bc = measure(compiled, cpu(), Read::to_cpu, plan);
    Column c, cc, d, dc;
    FirstCall first;
    if (dev != nullptr) {
      // First, so its kernels are not yet in this process's memory cache (the disk cache
      // may hold them: the row counts compiles and hits).
      first = first_call(w, *dev);
      c = measure(eager, *dev, Read::none, plan);
      cc = measure(compiled, *dev, Read::none, plan);
      d = measure(eager, *dev, Read::to_cpu, plan);
      dc = measure(compiled, *dev, Read::to_cpu, plan);
    } else {
      first = first_call(w, cpu());
    }
    if (w.label == "chain1" && c.measured) c_one_op[n] = c.stats.median_us;
    Row row = case_row(h, eager, n);
    row.emplace_back("case", w.label);
    row.emplace_back("B_us", fmt_num(b.stats.median_us));
    row.emplace_back("B_p95_us", fmt_num(b.stats.p95_us));
    row.emplace_back("B_compiled_us", fmt_num(bc.stats.median_us));
    row.emplace_back("C_us", median_or_empty(c));
    row.emplace_back("C_compiled_us", median_or_empty(cc));
    add_device_time(row, "C", c);
    add_device_time(row, "C_compiled", cc);
    row.emplace_back("D_us", median_or_empty(d));
    row.emplace_back("D_p95_us", d.measured ? fmt_num(d.stats.p95_us) : "");
    row.emplace_back("D_compiled_us", median_or_empty(dc));
    row.emplace_back("D_over_B",
                     d.measured ? fmt_num(d.stats.median_us / b.stats.median_us, 4) : "");
    row.emplace_back("D_compiled_over_B",
                     dc.measured ? fmt_num(dc.stats.median_us / b.stats.median_us, 4) : "");
    const auto one = c_one_op.find(n);
    row.emplace_back("C_compiled_over_C_one_op",
                     cc.measured && one != c_one_op.end() && w.label.rfind("chain", 0) == 0
                         ? fmt_num(cc.stats.median_us / one->second, 4)
                         : "");
    row.emplace_back("C_compiled_GBps",
                     cc.measured ? fmt_num(w.bytes / cc.stats.median_us / 1e3, 4) : "");
    row.emplace_back("path",
                     d.measured ? (d.ledger.fallbacks ? "fallback" : "native") : "cpu-only");
    row.emplace_back("D_dispatches", d.measured ? std::to_string(d.ledger.dispatches) : "");
    row.emplace_back("D_compiled_dispatches",
                     dc.measured ? std::to_string(dc.ledger.dispatches) : "");
    row.emplace_back("D_submits", d.measured ? std::to_string(d.ledger.submits) : "");
    row.emplace_back("D_downloads", d.measured ? std::to_string(d.ledger.downloads) : "");
    row.emplace_back("first_call_us", fmt_num(first.us));
    row.emplace_back("first_call_kernel_compiles", std::to_string(first.counts.kernel_compiles));
    row.emplace_back("first_call_kernel_cache_hits", std::to_string(first.counts.kernel_cache_hits +
                                                                    first.counts.kernel_disk_hits));
    // Where the first call went (ledger; times summed over the threads that ran them).
    const LedgerCounts& fc = first.counts;
    row.emplace_back("first_call_trace_us", std::to_string(fc.trace_us));
    row.emplace_back("first_call_plan_us", std::to_string(fc.plan_us));
    row.emplace_back("first_call_codegen_us", std::to_string(fc.codegen_us));
    row.emplace_back("first_call_shaderc_us", std::to_string(fc.kernel_compile_us));
    row.emplace_back("first_call_precompile_us", std::to_string(fc.precompile_us));
    row.emplace_back("first_call_pipelines", std::to_string(fc.pipelines_created));
    row.emplace_back("first_call_pipeline_us", std::to_string(fc.pipeline_create_us));
    // The rest: the run, recorded and completed (pipelines created lazily included).
    row.emplace_back(
        "first_call_run_us",
        fmt_num(first.us - static_cast<double>(fc.trace_us + fc.plan_us + fc.precompile_us)));
    row.emplace_back("cache_hit_host_us", fmt_num(first.hit_host_us));
    row.emplace_back("cache_hit_settled_host_us", fmt_num(first.settled_hit_host_us));
    // The row kernel's variant (--rows); "" is the default.
    row.emplace_back("compile_rows", o.rows);
    table.add({w.label, std::to_string(n), field(row, "B_us"), field(row, "B_compiled_us"),
               field(row, "C_us"), field(row, "C_compiled_us"), field(row, "D_us"),
               field(row, "D_compiled_us"), field(row, "D_dispatches"),
               field(row, "D_compiled_dispatches"), fmt_num(first.us / 1e3),
               fmt_num(static_cast<double>(fc.kernel_compile_us) / 1e3),
               std::to_string(fc.pipelines_created),
               fmt_num(static_cast<double>(fc.pipeline_create_us) / 1e3)});
    rows.push_back(std::move(row));
  }
  finish(path, rows, table);
  return rows;
}

}  // namespace vkt::bench
