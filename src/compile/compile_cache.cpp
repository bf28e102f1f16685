// vkt::compile's per-function plan cache and the dump switch.
#include <atomic>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>

#include "compile/plan.h"
#include "compile/trace.h"
#include "vkt/compile.h"
#include "vkt/ledger.h"

namespace vkt {
namespace {

std::atomic<bool>& dump_flag() {
  static std::atomic<bool> on = [] {
    const char* v = std::getenv("VKT_COMPILE_DUMP");
    return v != nullptr && *v != '\0' && std::string(v) != "0";
  }();
  return on;
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
  for (const Tensor& t : inputs) {
    if (!t.defined()) throw Error("[compile] an argument is an empty (default-constructed) tensor");
    key += std::string(dtype_name(t.dtype())) + shape_str(t.shape()) + "@" + t.backend().name() +
           "#" + std::to_string(reinterpret_cast<std::uintptr_t>(&t.backend())) + ";";
  }
  std::shared_ptr<Plan> plan;
  {
    std::lock_guard lock(state_->mutex);
    auto it = state_->plans.find(key);
    if (it != state_->plans.end()) {
      plan = it->second;
      ledger::record_plan_reuse();
    } else {
      Graph graph;
      {
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
      plan = std::make_shared<Plan>(std::move(graph), *where);
      ledger::record_trace();
      state_->last = plan->describe();
      if (compile_dump()) std::cerr << "vkt::compile: traced " << key << "\n" << state_->last;
      state_->plans.emplace(key, plan);
    }
  }
  return plan->run(inputs);
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
