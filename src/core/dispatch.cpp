#include "core/dispatch.h"

#include <array>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "common/settings.h"
#include "core/checks.h"
#include "core/legacy_policy.h"
#include "core/narrow.h"
#include "vkt/backend.h"
#include "vkt/backend/op_info.h"
#include "vkt/error.h"
#include "vkt/ledger.h"
#include "vkt/tensor.h"

namespace vkt {
namespace {

struct Policies {
  std::mutex mutex;
  // VKT_FALLBACK, read at the first policy use: a bad value throws there, naming it, until
  // the environment is fixed or set_fallback_policy() chooses.
  std::optional<FallbackPolicy> fallback;
  LegacyPolicy legacy;
  std::set<std::string> warned_ops;
};

Policies& policies() {
  static Policies p;
  return p;
}

thread_local Backend* scoped_default = nullptr;

Backend& pick_backend(const OpCall& call) {
  detail::check_backends(op_name(call.op), call.inputs);
  for (const Tensor& t : call.inputs) {
    if (t.backend().captures_device_tensors()) return t.backend();
  }
  for (const Tensor& t : call.inputs) {
    if (!t.backend().is_cpu()) return t.backend();
  }
  if (!call.inputs.empty()) return cpu();
  return call.target != nullptr ? *call.target : default_backend();
}

void apply_fallback_policy(const OpCall& call, Backend& b) {
  Policies& p = policies();
  const FallbackPolicy policy = fallback_policy();
  if (policy == FallbackPolicy::allow) return;
  const std::string what = "[" + std::string(op_name(call.op)) + "] has no native " + b.name() +
                           " kernel for " + detail::describe_inputs(call);
  if (policy == FallbackPolicy::error) {
    throw FallbackForbidden(what + "; fallback policy is 'error'");
  }
  std::lock_guard lock(p.mutex);
  if (p.warned_ops.insert(std::string(op_name(call.op))).second) {
    std::cerr << "vktensor warning: " << what << "; running it on the cpu\n";
  }
}

}  // namespace

Tensor Backend::capture(const Tensor& t) {
  throw Error("[" + name() + "] records no calls, so it captures no tensors (got one of " +
              t.backend().name() + ")");
}

Backend& default_backend() {
  if (scoped_default != nullptr) return *scoped_default;
  static Backend* from_env = [] {
    return settings().backend == DefaultBackend::vulkan ? &vulkan() : &cpu();
  }();
  return *from_env;
}

BackendScope::BackendScope(Backend& b) : previous_(scoped_default) {
  scoped_default = &b;
}
BackendScope::~BackendScope() {
  scoped_default = previous_;
}

void set_fallback_policy(FallbackPolicy p) {
  std::lock_guard lock(policies().mutex);
  policies().fallback = p;
}
FallbackPolicy fallback_policy() {
  {
    std::lock_guard lock(policies().mutex);
    if (policies().fallback) return *policies().fallback;
  }
  return settings().fallback;  // outside the lock: it may throw, naming VKT_FALLBACK
}
void set_legacy_policy(LegacyPolicy p) {
  std::lock_guard lock(policies().mutex);
  policies().legacy = p;
}
LegacyPolicy legacy_policy() {
  std::lock_guard lock(policies().mutex);
  return policies().legacy;
}

namespace detail {

namespace {
template <class Range>
void check_one_device(std::string_view op, const Range& inputs) {
  Backend* chosen = nullptr;
  for (const Tensor& t : inputs) {
    Backend& b = t.backend();
    if (b.is_cpu()) continue;
    if (chosen == nullptr) {
      chosen = &b;
    } else if (chosen != &b) {
      // A recording backend (the tracer) takes the devices' tensors by reference.
      if (chosen->captures_device_tensors()) continue;
      if (b.captures_device_tensors()) {
        chosen = &b;
        continue;
      }
      throw IncompatibleBackends("[" + std::string(op) + "] inputs live on " + chosen->name() +
                                 " and " + b.name() + "; transfer one explicitly");
    }
  }
}
}  // namespace

void check_backends(std::string_view op, std::span<const Tensor> inputs) {
  check_one_device(op, inputs);
}

void check_backends(std::string_view op,
                    std::initializer_list<std::reference_wrapper<const Tensor>> inputs) {
  check_one_device(op, inputs);
}

std::string describe_inputs(const OpCall& call) {
  std::string dtypes, shapes;
  for (const Tensor& t : call.inputs) {
    if (!dtypes.empty()) {
      dtypes += ", ";
      shapes += ", ";
    }
    dtypes += dtype_name(t.dtype());
    shapes += shape_str(t.shape());
  }
  if (call.inputs.empty()) {
    return "dtype " + std::string(dtype_name(call.out_dtype)) + " shape " +
           shape_str(call.out_shape);
  }
  return "dtypes (" + dtypes + ") shapes (" + shapes + ")";
}

namespace {

// Runs `call` on `b`; an allocation that fails or a lost device names the op and its output.
// The context is formatted only on failure: every op passes here, and at small sizes the
// strings cost as much host time as recording the op.
Tensor execute_on(Backend& b, const OpCall& call) {
  return naming_failures_lazily(
      [&] {
        const std::size_t bytes =
            static_cast<std::size_t>(numel(call.out_shape)) * itemsize(call.out_dtype);
        return "[" + std::string(op_name(call.op)) + "] output " +
               std::string(dtype_name(call.out_dtype)) + " " + shape_str(call.out_shape) + " on " +
               b.name() + " (" + std::to_string(bytes) + " bytes)";
      },
      [&] { return b.execute(call); });
}

// Moves every input to `b` (a no-op for those already there), naming the op on failure.
void move_inputs(OpCall& call, Backend& b) {
  for (std::size_t i = 0; i < call.inputs.size(); ++i) {
    Tensor& t = call.inputs[i];
    if (t.defined() && &t.backend() == &b) continue;  // transfer would return t itself
    if (t.defined() && b.captures_device_tensors() && !t.backend().is_cpu()) {
      t = b.capture(t);
      continue;
    }
    t = naming_failures_lazily(
        [&] {
          return "[" + std::string(op_name(call.op)) + "] moving input " + std::to_string(i) +
                 " (" + describe(t) + ") to " + b.name();
        },
        [&] { return transfer(t, b); });
  }
}

// Claims on a call's inputs' bytes while it runs, so a vkt::deallocate from another thread
// frees them only after the call (a device batch holds what it still reads on its own).
// Most calls have at most four inputs: those claims live in place, not in a new vector.
class InputUses {
 public:
  explicit InputUses(const OpCall& call) {
    for (std::size_t i = 0; i < call.inputs.size(); ++i) {
      const Tensor& t = call.inputs[i];
      if (!t.defined()) continue;
      StorageUse use(t.storage());
      if (!use) {
        fail<Deallocated>(op_name(call.op), "input " + std::to_string(i) + " (" + describe(t) +
                                                ") was deallocated (vkt::deallocate)");
      }
      if (i < first_.size()) {
        first_[i] = std::move(use);
      } else {
        rest_.push_back(std::move(use));
      }
    }
  }

 private:
  std::array<StorageUse, 4> first_;
  std::vector<StorageUse> rest_;
};

}  // namespace

Tensor dispatch(OpCall call) {
  check_size(op_name(call.op), call.out_shape, call.out_dtype);
  const InputUses uses(call);
  for (const Tensor& t : call.inputs) {
    if (t.defined() && !op_accepts(call.op, t.dtype())) {
      fail<TypeError>(op_name(call.op), std::string(op_info(call.op).dtypes == OpDTypes::integer
                                                        ? "expects integer operands"
                                                        : "is not defined for complex numbers") +
                                            ", got " + describe(t));
    }
  }
  if (needs_narrow_rewrite(call)) return dispatch_narrow(std::move(call));
  Backend& b = pick_backend(call);
  if (b.takes_every_call()) {  // the cpu, or vkt::compile's tracer recording the call
    move_inputs(call, b);
    return execute_on(b, call);
  }
  const LegacyPolicy legacy = legacy_policy();
  if (legacy.native && b.supports(call)) {
    move_inputs(call, b);
    return execute_on(b, call);
  }
  apply_fallback_policy(call, b);
  ledger::record_fallback(std::string(op_name(call.op)));
  move_inputs(call, cpu());
  Tensor result = execute_on(cpu(), call);
  // Creation ops were asked for on b: placing them there is the caller's request.
  if (call.inputs.empty() || legacy.upload_fallback_result) {
    result =
        naming_failures("[" + std::string(op_name(call.op)) + "] placing the result on " + b.name(),
                        [&] { return transfer(result, b); });
  }
  return result;
}

}  // namespace detail
}  // namespace vkt
