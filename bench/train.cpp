// vkt-bench train: one training step (forward, backward, SGD update) on resident f32 data,
// eager (vkt::value_and_grad traced and run each step) and compiled (the whole step one
// vkt::compile plan), ending with the loss read as a training loop's log line reads it.
// Workloads: an MLP 784 -> 1024 -> 1024 -> 10 (relu, softmax cross-entropy, batch 256) and
// a ResNet basic block (two 3x3 convs of 64 channels at 56x56 with relu and the identity
// shortcut, batch 32, loss the mean square of the block's output). Columns: the step's
// median and p95 wall time, its dispatches, fallbacks and downloads, and the device pool's
// peak bytes during a step (Backend::memory_stats). bench/peers/torch_train.py times
// PyTorch (eager and torch.compile) on the same workloads and data. --profile-out adds each
// op's share of a step's device time (the median over a few steps).
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>

#include "cases.h"
#include "device.h"
#include "host_info.h"
#include "measure.h"
#include "stats.h"
#include "suite.h"
#include "table.h"
#include "train_bench.h"
#include "vkt/compile.h"
#include "vkt/vkt.h"

namespace vkt::bench {
namespace {

using Ts = std::vector<Tensor>;

struct Workload {
  std::string label;
  Shape shape;      // the batch's
  Ts params, data;  // on the cpu; moved to the device outside the timing
  TensorFunction loss;
};

// Mean softmax cross-entropy of logits {n, classes} against one-hot labels.
Tensor cross_entropy(const Tensor& z, const Tensor& one_hot) {
  const Tensor shifted = subtract(z, stop_gradient(reduce_max(z, {1}, true)));
  const Tensor log_p = subtract(shifted, log(sum(exp(shifted), {1}, true)));
  return divide(negate(sum(multiply(log_p, one_hot))), static_cast<float>(z.dim(0)));
}

// seed_data scaled into [-scale, scale): non-zero, deterministic, the same in the peer.
Tensor centred(const Shape& shape, double scale) {
  return multiply(subtract(seed_data(numel(shape), shape), 0.5f), static_cast<float>(2 * scale));
}

Workload mlp() {
  const std::int64_t batch = 256;
  Workload w{"mlp", {batch, 784}, {}, {}, {}};
  w.params = {centred({784, 1024}, 0.05), centred({1024}, 0.01),     centred({1024, 1024}, 0.05),
              centred({1024}, 0.01),      centred({1024, 10}, 0.05), centred({10}, 0.01)};
  const Tensor labels = remainder(iota({batch, 1}, DType::s32), 10);
  w.data = {centred({batch, 784}, 1.0),
            as_type(equal(labels, iota({batch, 10}, DType::s32, 1)), DType::f32)};
  w.loss = [](const Ts& a) {  // w1, b1, w2, b2, w3, b3, x, y
    const Tensor h1 = max(add(matmul(a[6], a[0]), a[1]), 0.0f);
    const Tensor h2 = max(add(matmul(h1, a[2]), a[3]), 0.0f);
    return Ts{cross_entropy(add(matmul(h2, a[4]), a[5]), a[7])};
  };
  return w;
}

Workload basic_block() {
  const std::int64_t batch = 32, c = 64, hw = 56;
  Workload w{"resnet_block", {batch, c, hw, hw}, {}, {}, {}};
  w.params = {centred({c, c, 3, 3}, 0.05), centred({c, c, 3, 3}, 0.05)};
  w.data = {centred({batch, c, hw, hw}, 1.0)};
  w.loss = [](const Ts& a) {  // k1, k2, x
    ConvOptions same;
    same.padding = {{1, 1}, {1, 1}};
    const Tensor h = max(conv(a[2], a[0], same), 0.0f);
    const Tensor out = max(add(conv(h, a[1], same), a[2]), 0.0f);
    return Ts{divide(sum(multiply(out, out)), static_cast<float>(out.size()))};
  };
  return w;
}

// One SGD step: the loss and the updated parameters.
Ts sgd_step(const TensorFunction& value_and_grads, const Ts& params, const Ts& data) {
  Ts args = params;
  args.insert(args.end(), data.begin(), data.end());
  const Ts out = value_and_grads(args);
  Ts next{out[0]};
  for (std::size_t i = 0; i < params.size(); ++i) {
    next.push_back(subtract(params[i], multiply(out[1 + i], 0.01f)));
  }
  return next;
}

std::vector<int> every_param(const Workload& w) {
  std::vector<int> argnums;
  for (std::size_t i = 0; i < w.params.size(); ++i) argnums.push_back(static_cast<int>(i));
  return argnums;
}

// Copies of `ts` on `b`, made outside the timing.
Ts on(Backend& b, const Ts& ts) {
  Ts out;
  for (const Tensor& t : ts) out.push_back(copy(t, b));
  return out;
}

struct StepColumn {
  Stats stats;
  LedgerCounts per_step;  // one step's counts
  Backend::MemoryStats memory;
};

// Times steps of `step` (params, data -> loss, new params) with the loss read, the
// parameters carried from step to step.
StepColumn time_steps(const std::function<Ts(const Ts&, const Ts&)>& step, const Workload& w,
                      Backend& b, const TimingPlan& plan) {
  Ts params = on(b, w.params), data = on(b, w.data);
  b.synchronize();
  const auto run = [&] {
    Ts next = step(params, data);
    (void)next[0].item<float>();
    params.assign(next.begin() + 1, next.end());
  };
  StepColumn col;
  col.stats = time_it(run, plan);
  b.synchronize();
  b.reset_peak_memory();
  const LedgerScope scope;
  run();
  col.per_step = scope.delta();
  col.memory = b.memory_stats();
  return col;
}

// Each label's device time in one step (the sum over its calls) and its calls, for the
// median over `steps` profiled steps; labels in the order the first step met them.
struct OpShare {
  std::string label;
  std::vector<double> step_us;
  std::int64_t calls = 0;  // in the first profiled step
};

std::vector<OpShare> profile_steps(const std::function<Ts(const Ts&, const Ts&)>& step,
                                   const Workload& w, Backend& b, int steps) {
  Ts params = on(b, w.params), data = on(b, w.data);
  std::vector<OpShare> shares;
  for (int s = 0; s < steps + 1; ++s) {  // the first step warms up and is not kept
    b.begin_op_profile();
    Ts next = step(params, data);
    (void)next[0].item<float>();
    const std::vector<Backend::OpTime> times = b.end_op_profile();
    params.assign(next.begin() + 1, next.end());
    if (s == 0) continue;
    for (OpShare& share : shares) share.step_us.push_back(0);
    for (const Backend::OpTime& t : times) {
      auto it = std::find_if(shares.begin(), shares.end(),
                             [&](const OpShare& o) { return o.label == t.label; });
      if (it == shares.end()) {
        shares.push_back({t.label, std::vector<double>(static_cast<std::size_t>(s), 0.0), 0});
        it = shares.end() - 1;
      }
      it->step_us.back() += t.device_us;
      if (s == 1) ++it->calls;
    }
  }
  return shares;
}

// The profile's rows for one case and mode, the largest share first.
void add_profile_rows(const HostInfo& h, const Workload& w, const std::string& mode,
                      const std::vector<OpShare>& shares, std::vector<Row>& rows) {
  std::vector<std::pair<double, const OpShare*>> order;
  double total = 0;
  for (const OpShare& o : shares) {
    order.emplace_back(summarize(o.step_us).median_us, &o);
    total += order.back().first;
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& x, const auto& y) { return x.first > y.first; });
  for (const auto& [us, o] : order) {
    Row row = case_row(h, OpCase{w.label, DType::f32, w.shape, {}, {}}, numel(w.shape));
    row.emplace_back("case", w.label);
    row.emplace_back("mode", mode);
    row.emplace_back("label", o->label);
    row.emplace_back("calls", std::to_string(o->calls));
    row.emplace_back("device_us", fmt_num(us));
    row.emplace_back("share_pct", fmt_num(total > 0 ? 100 * us / total : 0));
    row.emplace_back("steps", std::to_string(o->step_us.size()));
    rows.push_back(std::move(row));
  }
}

void print_profile(const std::vector<Row>& rows, const std::string& path) {
  Table t({"case", "mode", "device_us", "share_pct", "calls", "label"});
  for (const Row& r : rows) {
    t.add({field(r, "case"), field(r, "mode"), field(r, "device_us"), field(r, "share_pct"),
           field(r, "calls"), field(r, "label")});
  }
  finish(path, rows, t);
}

double mib(std::uint64_t bytes) {
  return static_cast<double>(bytes) / (1 << 20);
}

}  // namespace

std::vector<Row> run_train(const TrainBenchOptions& o) {
  Backend* dev = o.device == kNoDevice ? nullptr : find_device(o.device);
  Backend& b = dev != nullptr ? *dev : cpu();
  const HostInfo h = collect_host_info(dev);
  const std::string path = o.out.empty() ? default_csv_path(h, "train") : o.out;
  check_writable(path);
  TimingPlan plan;
  plan.min_reps = o.min_reps;
  plan.min_warmup_us = min_warmup_us(b, plan);
  if (!o.profile_out.empty()) check_writable(o.profile_out);
  std::vector<Row> rows, profile;
  Table table({"case", "mode", "step_us", "p95_us", "dispatches", "fallbacks", "downloads",
               "peak_in_use_MiB", "peak_reserved_MiB"});
  std::vector<Workload> work;
  for (const std::string& name : o.cases) {
    if (name == "mlp") {
      work.push_back(mlp());
    } else if (name == "resnet_block") {
      work.push_back(basic_block());
    } else {
      throw Error("[train] unknown case '" + name + "' (--cases takes mlp, resnet_block)");
    }
  }
  std::size_t i = 0;
  for (const Workload& w : work) {
    const TensorFunction vg = value_and_grad(w.loss, every_param(w));
    for (const std::string mode : {"eager", "compiled"}) {
      progress(++i, 2 * work.size(), w.label + " " + mode);
      std::function<Ts(const Ts&, const Ts&)> step;
      if (mode == std::string("eager")) {
        step = [vg](const Ts& p, const Ts& d) { return sgd_step(vg, p, d); };
      } else {
        using Step = std::function<Ts(const Ts&, const Ts&)>;
        auto compiled = std::make_shared<Compiled<Step>>(
            Step([vg](const Ts& p, const Ts& d) { return sgd_step(vg, p, d); }));
        step = [compiled](const Ts& p, const Ts& d) { return (*compiled)(p, d); };
      }
      const StepColumn c = time_steps(step, w, b, plan);
      Row row = case_row(h, OpCase{w.label, DType::f32, w.shape, {}, {}}, numel(w.shape));
      row.emplace_back("case", w.label);
      row.emplace_back("mode", mode);
      row.emplace_back("step_us", fmt_num(c.stats.median_us));
      row.emplace_back("step_p95_us", fmt_num(c.stats.p95_us));
      row.emplace_back("step_min_us", fmt_num(c.stats.min_us));
      row.emplace_back("reps", std::to_string(c.stats.reps));
      row.emplace_back("dispatches", std::to_string(c.per_step.dispatches));
      row.emplace_back("fallbacks", std::to_string(c.per_step.fallbacks));
      row.emplace_back("downloads", std::to_string(c.per_step.downloads));
      row.emplace_back("uploads", std::to_string(c.per_step.uploads));
      row.emplace_back("traces", std::to_string(c.per_step.traces));
      row.emplace_back("plan_reuses", std::to_string(c.per_step.plan_reuses));
      row.emplace_back("peak_in_use_MiB", fmt_num(mib(c.memory.peak_in_use)));
      row.emplace_back("peak_reserved_MiB", fmt_num(mib(c.memory.peak_reserved)));
      table.add({w.label, mode, field(row, "step_us"), field(row, "step_p95_us"),
                 field(row, "dispatches"), field(row, "fallbacks"), field(row, "downloads"),
                 field(row, "peak_in_use_MiB"), field(row, "peak_reserved_MiB")});
      rows.push_back(std::move(row));
      if (!o.profile_out.empty()) {
        add_profile_rows(h, w, mode, profile_steps(step, w, b, o.profile_steps), profile);
      }
    }
  }
  finish(path, rows, table);
  if (!o.profile_out.empty()) print_profile(profile, o.profile_out);
  return rows;
}

}  // namespace vkt::bench
