#include "fuzz/runner.h"

#include <chrono>
#include <typeinfo>

#include "fuzz/check.h"
#include "vulkan/runtime/validation.h"

namespace vkt::fuzz {
namespace {

// What a node gave on one side: a tensor, an error class, or nothing (an input missing).
struct Outcome {
  Tensor t;
  std::string error;  // "ShapeError", ...; "foreign: ..." for an exception outside vkt::Error
  bool ran = false;
};

std::string error_class(const std::exception& e) {
#define VKT_FUZZ_CLASS(Name) \
  if (dynamic_cast<const Name*>(&e) != nullptr) return #Name;
  VKT_FUZZ_CLASS(ShapeError)
  VKT_FUZZ_CLASS(AxisError)
  VKT_FUZZ_CLASS(TypeError)
  VKT_FUZZ_CLASS(IncompatibleBackends)
  VKT_FUZZ_CLASS(Unsupported)
  VKT_FUZZ_CLASS(FallbackForbidden)
  VKT_FUZZ_CLASS(OutOfMemory)
  VKT_FUZZ_CLASS(DeviceLost)
  VKT_FUZZ_CLASS(NoDevice)
  VKT_FUZZ_CLASS(Error)
#undef VKT_FUZZ_CLASS
  return std::string("foreign: ") + typeid(e).name() + ": " + e.what();
}

Outcome run_one(const Node& n, const std::vector<Tensor>& inputs, Backend& where) {
  Outcome o;
  o.ran = true;
  try {
    o.t = run_node(n, inputs, where);
  } catch (const std::exception& e) {
    o.error = error_class(e);
  }
  return o;
}

// The inputs of node n from one side's outcomes; false when one is missing.
bool gather_inputs(const Node& n, const std::vector<Outcome>& side, std::vector<Tensor>* out) {
  out->clear();
  for (int a : n.args) {
    const Outcome& o = side[static_cast<std::size_t>(a)];
    if (!o.t.defined()) return false;
    out->push_back(o.t);
  }
  return true;
}

// Leaves made from bytes: the device holds the very bytes the cpu holds, so they are not
// read back (a read is a round trip on a GPU); a wrong upload shows at the ops reading it.
bool uploaded(const Node& n) {
  return n.op == "values" || n.op == "indices" || n.op == "const" || n.op == "triangle";
}

// Adds the time since the last lap to one phase's counter.
class Laps {
 public:
  void lap(std::uint64_t* into) {
    const auto now = std::chrono::steady_clock::now();
    *into += static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(now - last_).count());
    last_ = now;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace

PhaseTimes& PhaseTimes::operator+=(const PhaseTimes& o) {
  cpu_ns += o.cpu_ns;
  record_ns += o.record_ns;
  wait_ns += o.wait_ns;
  read_ns += o.read_ns;
  compare_ns += o.compare_ns;
  return *this;
}

std::optional<Mismatch> first_mismatch(const Program& p, std::vector<Tensor>* cpu_results,
                                       PhaseTimes* times) {
  PhaseTimes local;
  PhaseTimes& spent = times != nullptr ? *times : local;
  Laps laps;
  const std::size_t count = p.nodes.size();
  std::vector<Outcome> host(count), dev(count);
  std::vector<Tensor> in;
  // The cpu, then the whole program on the device with no reads in between (so batching,
  // aliasing views and resident chains are exercised), then the comparison.
  for (std::size_t i = 0; i < count; ++i) {
    if (gather_inputs(p.nodes[i], host, &in)) host[i] = run_one(p.nodes[i], in, cpu());
  }
  if (cpu_results != nullptr) {
    cpu_results->clear();
    for (const Outcome& o : host) cpu_results->push_back(o.t);
  }
  laps.lap(&spent.cpu_ns);
  const std::uint64_t messages = vk::validation_message_count();
  Backend& gpu = vulkan();
  for (std::size_t i = 0; i < count; ++i) {
    if (gather_inputs(p.nodes[i], dev, &in)) dev[i] = run_one(p.nodes[i], in, gpu);
  }
  laps.lap(&spent.record_ns);
  // One wait for the whole program, then each result read once: the checks read a result
  // several times, and each read of a device tensor is a submit and a wait of its own.
  try {
    gpu.synchronize();
  } catch (const std::exception& e) {
    return Mismatch{static_cast<int>(count) - 1, "synchronize",
                    "the device threw " + error_class(e)};
  }
  laps.lap(&spent.wait_ns);
  for (std::size_t i = 0; i < count; ++i) {
    if (!dev[i].t.defined() || uploaded(p.nodes[i])) continue;
    try {
      dev[i].t = dev[i].t.to_cpu();
    } catch (const std::exception& e) {
      return Mismatch{static_cast<int>(i), p.nodes[i].op,
                      "reading the result threw " + error_class(e)};
    }
  }
  laps.lap(&spent.read_ns);
  std::vector<bool> same(count, false);   // the device's bytes equal the cpu's
  std::vector<bool> rerun(count, false);  // rerun on the cpu's inputs: later results are stale
  for (std::size_t i = 0; i < count; ++i) {
    const Node& n = p.nodes[i];
    std::vector<Tensor> host_in;
    if (!gather_inputs(n, host, &host_in)) continue;
    bool inputs_same = true;
    for (int a : n.args) {
      inputs_same =
          inputs_same && same[static_cast<std::size_t>(a)] && !rerun[static_cast<std::size_t>(a)];
    }
    if (!inputs_same || !dev[i].ran) {
      rerun[i] = true;
      // Inputs within tolerance but not the same bits: rerun on the cpu's inputs, moved to
      // the device, so differences do not compound down the chain.
      std::vector<Tensor> moved;
      for (const Tensor& t : host_in) moved.push_back(transfer(t, gpu));
      dev[i] = run_one(n, moved, gpu);
    }
    const Outcome &h = host[i], &d = dev[i];
    auto fail = [&](const std::string& what) {
      laps.lap(&spent.compare_ns);
      return Mismatch{static_cast<int>(i), n.op, what};
    };
    if (h.error.rfind("foreign", 0) == 0) return fail("the cpu threw " + h.error);
    if (d.error.rfind("foreign", 0) == 0) return fail("the device threw " + d.error);
    if (h.error != d.error) {
      return fail("the cpu " + (h.error.empty() ? std::string("succeeded") : "threw " + h.error) +
                  ", the device " +
                  (d.error.empty() ? std::string("succeeded") : "threw " + d.error));
    }
    if (!h.error.empty()) continue;
    if (uploaded(n)) {
      same[i] = true;
      continue;
    }
    try {
      const Tensor got = rerun[i] ? d.t.to_cpu() : d.t;  // a rerun's result: read once
      if (auto what = compare(n, host_in, got, h.t)) return fail(*what);
      same[i] = got.to_bytes() == h.t.to_bytes();
    } catch (const std::exception& e) {
      return fail(std::string("reading or checking the result threw ") + error_class(e));
    }
  }
  gpu.synchronize();
  laps.lap(&spent.compare_ns);
  if (vk::validation_message_count() != messages) {
    return Mismatch{static_cast<int>(count) - 1, "validation",
                    "the validation layer reported messages (stderr)"};
  }
  return std::nullopt;
}

Program shrink(Program p, const Mismatch& m, int attempts) {
  auto still = [&](const Program& q) {
    if (attempts-- <= 0) return false;
    const auto r = first_mismatch(q);
    return r && r->op == m.op;
  };
  p.nodes.resize(static_cast<std::size_t>(m.node) + 1);
  // Drop nodes, last first, while the mismatch stays.
  auto drop = [&] {
    for (std::size_t i = p.nodes.size() - 1; i-- > 0;) {
      const Program q = without(p, i);
      if (q.nodes.size() < p.nodes.size() && !q.nodes.empty() &&
          q.nodes.back().op == p.nodes.back().op && still(q)) {
        p = q;
      }
    }
  };
  drop();
  // Smaller leaves: each axis to 1, else halved.
  for (Node& n : p.nodes) {
    if (n.op != "values" && n.op != "indices") continue;
    for (std::size_t a = 0; a < n.shape.size(); ++a) {
      for (std::int64_t to : {std::int64_t{1}, n.shape[a] / 2}) {
        if (to >= n.shape[a] || to < 1) continue;
        const std::int64_t before = n.shape[a];
        n.shape[a] = to;
        if (still(p)) break;
        n.shape[a] = before;
      }
    }
  }
  // The failing node's inputs as constants (the cpu's bytes), then drop what is unused.
  std::vector<Tensor> results;
  first_mismatch(p, &results);
  for (std::size_t k = 0; k < p.nodes.back().args.size(); ++k) {
    const std::size_t a = static_cast<std::size_t>(p.nodes.back().args[k]);
    if (p.nodes[a].op == "const" || !results[a].defined()) continue;
    Program q = p;
    Node c = make_node("const", results[a].dtype(), results[a].shape());
    c.bytes = results[a].to_bytes();
    q.nodes.insert(q.nodes.end() - 1, c);
    q.nodes.back().args[k] = static_cast<int>(q.nodes.size()) - 2;
    if (still(q)) p = q;
  }
  drop();
  return p;
}

}  // namespace vkt::fuzz
