// Devices, the ledger and the fallback policy from Python: vt.cpu(), vt.vulkan(i),
// vt.devices(), vt.ledger_snapshot() (vt.ledger() wraps it), vt.set_fallback_policy(),
// vt.synchronize(). Device waits release the GIL.

#include "bindings.h"

namespace vkt::python {
namespace {

py::dict counts_dict(const LedgerCounts& c) {
  py::dict d;
  d["uploads"] = c.uploads;
  d["upload_bytes"] = c.upload_bytes;
  d["downloads"] = c.downloads;
  d["download_bytes"] = c.download_bytes;
  d["device_copies"] = c.device_copies;
  d["device_copy_bytes"] = c.device_copy_bytes;
  d["cross_device_host_staged"] = c.cross_device_host_staged;
  d["cross_device_host_staged_bytes"] = c.cross_device_host_staged_bytes;
  d["dispatches"] = c.dispatches;
  d["submits"] = c.submits;
  d["waits"] = c.waits;
  d["allocations"] = c.allocations;
  d["fallbacks"] = c.fallbacks;
  d["traces"] = c.traces;
  d["plan_reuses"] = c.plan_reuses;
  d["kernel_compiles"] = c.kernel_compiles;
  d["kernel_cache_hits"] = c.kernel_cache_hits;
  d["kernel_disk_hits"] = c.kernel_disk_hits;
  d["pipelines_created"] = c.pipelines_created;
  py::dict by_op;
  for (const auto& [op, n] : c.fallbacks_by_op) by_op[py::str(op)] = n;
  d["fallbacks_by_op"] = by_op;
  return d;
}

FallbackPolicy policy_arg(const std::string& s) {
  if (s == "allow") return FallbackPolicy::allow;
  if (s == "warn") return FallbackPolicy::warn;
  if (s == "error") return FallbackPolicy::error;
  throw Error("[fallback_policy] must be 'allow', 'warn' or 'error', got '" + s + "'");
}

std::string policy_name(FallbackPolicy p) {
  return p == FallbackPolicy::allow ? "allow" : p == FallbackPolicy::warn ? "warn" : "error";
}

}  // namespace

void register_runtime(py::module_& m) {
  py::class_<Backend> b(m, "Device", "Where tensors live and ops run: vt.cpu() or vt.vulkan(i).");
  b.def_property_readonly("name", &Backend::name);
  b.def("__repr__", [](const Backend& d) { return "vt.Device(" + d.name() + ")"; });
  b.def("__str__", &Backend::name);
  b.def("synchronize", &Backend::synchronize, py::call_guard<py::gil_scoped_release>());
  b.def_property_readonly("properties", &Backend::properties);
  b.def(
      "memory_stats",
      [](const Backend& d) {
        const Backend::MemoryStats m = d.memory_stats();
        py::dict out;
        out["in_use"] = m.in_use;
        out["reserved"] = m.reserved;
        out["peak_in_use"] = m.peak_in_use;
        out["peak_reserved"] = m.peak_reserved;
        return out;
      },
      "Bytes of device memory held by live tensors and reserved from the driver, and the most "
      "of each since reset_peak_memory() (torch.cuda.max_memory_allocated / _reserved); zeros "
      "on the cpu.");
  b.def("reset_peak_memory", &Backend::reset_peak_memory);
  b.def("__eq__", [](const Backend& a, const Backend& o) { return &a == &o; });
  b.def("__hash__", [](const Backend& d) { return std::hash<const Backend*>{}(&d); });

  m.def("cpu", &cpu, py::return_value_policy::reference);
  m.def("vulkan", &vulkan, py::arg("index") = -1, py::return_value_policy::reference,
        "The Vulkan device `index` (-1: the default one, or VKT_DEVICE); NoDevice if none.");
  m.def("default_device", &default_backend, py::return_value_policy::reference);
  m.def("vulkan_info", &vulkan_info);
  m.def("synchronize", &synchronize, py::call_guard<py::gil_scoped_release>());
  m.def(
      "ledger_snapshot", [] { return counts_dict(ledger::snapshot()); },
      "The process's ledger counters now (vt.ledger() gives the change over a block).");
  m.def("set_fallback_policy", [](const std::string& p) { set_fallback_policy(policy_arg(p)); });
  m.def("get_fallback_policy", [] { return policy_name(fallback_policy()); });
}

}  // namespace vkt::python
