// vkt::compile's per-function plan cache and the dump switch.
#include <atomic>
#include <chrono>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>

#include "common/settings.h"
#include "compile/plan.h"
#include "compile/trace.h"
#include "vkt/compile.h"
#include "vkt/ledger.h"

namespace vkt {
namespace {

std::atomic<bool>& dump_flag() {
  static std::atomic<bool> on = settings().compile_dump;
  return on;
}

double us_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t).count();
}

// Where a first call's host time went (VKT_COMPILE_DUMP). The run records the device's
// work; the device may still be running it when this prints.
void dump_first_call(const LedgerCounts& d, std::chrono::steady_clock::time_point start,
                     std::chrono::steady_clock::time_point run_start) {
  std::cerr << "vkt::compile: first call " << us_since(start) << " us: trace " << d.trace_us
            << " us, plan " << d.plan_us << " us, run " << us_since(run_start)
            << " us (of which parallel compile phase " << d.precompile_us
            << " us wall); summed over threads: GLSL generation " << d.codegen_us << " us, "
            << d.kernel_compiles << " shaderc compiles " << d.kernel_compile_us << " us ("
            << d.kernel_cache_hits + d.kernel_disk_hits << " cache hits), " << d.pipelines_created
            << " pipelines created " << d.pipeline_create_us << " us\n";
}

}  // namespace

void set_compile_dump(bool on) {
  dump_flag() = on;
}
bool compile_dump() {
  return dump_flag();
}

namespace detail {

struct CompileCache::State {
  mutable std::mutex mutex;
  std::map<std::string, std::shared_ptr<Plan>> plans;
  std::string last;
};

CompileCache::CompileCache() : state_(std::make_unique<State>()) {}
CompileCache::~CompileCache() = default;

std::vector<Tensor> CompileCache::call(const std::string& scalar_key,
                                       const std::vector<Tensor>& inputs, const Tracer& trace) {
  std::string key = scalar_key;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& t = inputs[i];
    if (!t.defined()) throw Error("[compile] an argument is an empty (default-constructed) tensor");
    // Here, not only in the steps: a fused group's kernel reads its leaves without dispatch.
    if (t.storage()->deallocated()) {
      throw Deallocated("[compile] argument " + std::to_string(i) + " (" +
                        std::string(dtype_name(t.dtype())) + " " + shape_str(t.shape()) +
                        ") was deallocated (vkt::deallocate)");
    }
    key += std::string(dtype_name(t.dtype())) + shape_str(t.shape()) + "@" + t.backend().name() +
           "#" + std::to_string(reinterpret_cast<std::uintptr_t>(&t.backend())) + ";";
  }
  std::shared_ptr<Plan> plan;
  std::optional<LedgerScope> first_call;  // set when this call traces: its breakdown is dumped
  const auto start = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(state_->mutex);
    auto it = state_->plans.find(key);
    if (it != state_->plans.end()) {
      plan = it->second;
      ledger::record_plan_reuse();
    } else {
      if (compile_dump()) first_call.emplace();
      Graph graph;
      {
        const PhaseTimer timed(ledger::Phase::trace);
        Trace t(inputs);
        std::vector<Tensor> outputs = trace(t.symbolic_inputs());
        graph = t.finish(outputs);
      }
      Backend* where = &cpu();
      for (const Tensor& t : inputs) {
        if (!t.backend().is_cpu()) {
          where = &t.backend();
          break;
        }
      }
      {
        const PhaseTimer timed(ledger::Phase::plan);
        plan = std::make_shared<Plan>(std::move(graph), *where);
      }
      ledger::record_trace();
      state_->last = plan->describe();
      if (compile_dump()) std::cerr << "vkt::compile: traced " << key << "\n" << state_->last;
      state_->plans.emplace(key, plan);
    }
  }
  if (!first_call) return plan->run(inputs);
  const auto run_start = std::chrono::steady_clock::now();
  std::vector<Tensor> out = plan->run(inputs);
  dump_first_call(first_call->delta(), start, run_start);
  return out;
}

std::string CompileCache::describe_last() const {
  std::lock_guard lock(state_->mutex);
  return state_->last;
}

std::size_t CompileCache::plans() const {
  std::lock_guard lock(state_->mutex);
  return state_->plans.size();
}

}  // namespace detail
}  // namespace vkt
