#include "vkt/ledger.h"

#include <atomic>
#include <mutex>
#include <sstream>

namespace vkt {
namespace {

struct Counters {
  std::atomic<std::uint64_t> uploads{0}, upload_bytes{0}, downloads{0}, download_bytes{0};
  std::atomic<std::uint64_t> device_copies{0}, device_copy_bytes{0};
  std::atomic<std::uint64_t> cross_device_host_staged{0}, cross_device_host_staged_bytes{0};
  std::atomic<std::uint64_t> dispatches{0}, submits{0}, waits{0}, allocations{0}, fallbacks{0};
  std::atomic<std::uint64_t> traces{0}, plan_reuses{0}, kernel_compiles{0}, kernel_cache_hits{0};
  std::atomic<std::uint64_t> kernel_disk_hits{0};
  // Nanoseconds per ledger::Phase, then pipeline creation's.
  std::atomic<std::uint64_t> phase_ns[5] = {0, 0, 0, 0, 0};
  std::atomic<std::uint64_t> pipelines_created{0}, pipeline_create_ns{0};
  std::mutex by_op_mutex;
  std::map<std::string, std::uint64_t> fallbacks_by_op;
};

Counters& counters() {
  static Counters c;
  return c;
}

}  // namespace

LedgerCounts LedgerCounts::operator-(const LedgerCounts& b) const {
  LedgerCounts d;
  d.uploads = uploads - b.uploads;
  d.upload_bytes = upload_bytes - b.upload_bytes;
  d.downloads = downloads - b.downloads;
  d.download_bytes = download_bytes - b.download_bytes;
  d.device_copies = device_copies - b.device_copies;
  d.device_copy_bytes = device_copy_bytes - b.device_copy_bytes;
  d.cross_device_host_staged = cross_device_host_staged - b.cross_device_host_staged;
  d.cross_device_host_staged_bytes =
      cross_device_host_staged_bytes - b.cross_device_host_staged_bytes;
  d.dispatches = dispatches - b.dispatches;
  d.submits = submits - b.submits;
  d.waits = waits - b.waits;
  d.allocations = allocations - b.allocations;
  d.fallbacks = fallbacks - b.fallbacks;
  d.traces = traces - b.traces;
  d.plan_reuses = plan_reuses - b.plan_reuses;
  d.kernel_compiles = kernel_compiles - b.kernel_compiles;
  d.kernel_cache_hits = kernel_cache_hits - b.kernel_cache_hits;
  d.kernel_disk_hits = kernel_disk_hits - b.kernel_disk_hits;
  d.trace_us = trace_us - b.trace_us;
  d.plan_us = plan_us - b.plan_us;
  d.codegen_us = codegen_us - b.codegen_us;
  d.kernel_compile_us = kernel_compile_us - b.kernel_compile_us;
  d.precompile_us = precompile_us - b.precompile_us;
  d.pipelines_created = pipelines_created - b.pipelines_created;
  d.pipeline_create_us = pipeline_create_us - b.pipeline_create_us;
  for (const auto& [op, n] : fallbacks_by_op) {
    const auto it = b.fallbacks_by_op.find(op);
    const std::uint64_t before = it == b.fallbacks_by_op.end() ? 0 : it->second;
    if (n != before) d.fallbacks_by_op[op] = n - before;
  }
  return d;
}

std::string LedgerCounts::to_string() const {
  std::ostringstream s;
  s << "uploads=" << uploads << " (" << upload_bytes << " B) downloads=" << downloads << " ("
    << download_bytes << " B) device_copies=" << device_copies << " (" << device_copy_bytes
    << " B) dispatches=" << dispatches << " submits=" << submits << " waits=" << waits
    << " allocations=" << allocations << " fallbacks=" << fallbacks;
  if (cross_device_host_staged != 0) {
    s << " cross_device_host_staged=" << cross_device_host_staged << " ("
      << cross_device_host_staged_bytes << " B)";
  }
  if (traces + plan_reuses + kernel_compiles + kernel_cache_hits + kernel_disk_hits != 0) {
    s << " traces=" << traces << " plan_reuses=" << plan_reuses
      << " kernel_compiles=" << kernel_compiles << " kernel_cache_hits=" << kernel_cache_hits
      << " kernel_disk_hits=" << kernel_disk_hits << " trace_us=" << trace_us
      << " plan_us=" << plan_us << " codegen_us=" << codegen_us
      << " kernel_compile_us=" << kernel_compile_us << " precompile_us=" << precompile_us;
  }
  if (pipelines_created != 0) {
    s << " pipelines_created=" << pipelines_created << " pipeline_create_us=" << pipeline_create_us;
  }
  for (const auto& [op, n] : fallbacks_by_op) s << " " << op << ":" << n;
  return s.str();
}

namespace ledger {

LedgerCounts snapshot() {
  Counters& c = counters();
  LedgerCounts s;
  s.uploads = c.uploads.load();
  s.upload_bytes = c.upload_bytes.load();
  s.downloads = c.downloads.load();
  s.download_bytes = c.download_bytes.load();
  s.device_copies = c.device_copies.load();
  s.device_copy_bytes = c.device_copy_bytes.load();
  s.cross_device_host_staged = c.cross_device_host_staged.load();
  s.cross_device_host_staged_bytes = c.cross_device_host_staged_bytes.load();
  s.dispatches = c.dispatches.load();
  s.submits = c.submits.load();
  s.waits = c.waits.load();
  s.allocations = c.allocations.load();
  s.fallbacks = c.fallbacks.load();
  s.traces = c.traces.load();
  s.plan_reuses = c.plan_reuses.load();
  s.kernel_compiles = c.kernel_compiles.load();
  s.kernel_cache_hits = c.kernel_cache_hits.load();
  s.kernel_disk_hits = c.kernel_disk_hits.load();
  const auto us = [](const std::atomic<std::uint64_t>& ns) { return ns.load() / 1000; };
  s.trace_us = us(c.phase_ns[static_cast<int>(Phase::trace)]);
  s.plan_us = us(c.phase_ns[static_cast<int>(Phase::plan)]);
  s.codegen_us = us(c.phase_ns[static_cast<int>(Phase::codegen)]);
  s.kernel_compile_us = us(c.phase_ns[static_cast<int>(Phase::kernel_compile)]);
  s.precompile_us = us(c.phase_ns[static_cast<int>(Phase::precompile)]);
  s.pipelines_created = c.pipelines_created.load();
  s.pipeline_create_us = us(c.pipeline_create_ns);
  std::lock_guard lock(c.by_op_mutex);
  s.fallbacks_by_op = c.fallbacks_by_op;
  return s;
}

void reset() {
  Counters& c = counters();
  for (auto* a : {&c.uploads,       &c.upload_bytes,      &c.downloads,         &c.download_bytes,
                  &c.device_copies, &c.device_copy_bytes, &c.dispatches,        &c.submits,
                  &c.waits,         &c.allocations,       &c.fallbacks,         &c.traces,
                  &c.plan_reuses,   &c.kernel_compiles,   &c.kernel_cache_hits, &c.kernel_disk_hits,
                  &c.phase_ns[0],   &c.phase_ns[1],       &c.phase_ns[2],       &c.phase_ns[3],
                  &c.phase_ns[4],   &c.pipelines_created, &c.pipeline_create_ns}) {
    a->store(0);
  }
  c.cross_device_host_staged.store(0);
  c.cross_device_host_staged_bytes.store(0);
  std::lock_guard lock(c.by_op_mutex);
  c.fallbacks_by_op.clear();
}

void record_upload(std::uint64_t bytes) {
  counters().uploads += 1;
  counters().upload_bytes += bytes;
}
void record_download(std::uint64_t bytes) {
  counters().downloads += 1;
  counters().download_bytes += bytes;
}
void record_device_copy(std::uint64_t bytes) {
  counters().device_copies += 1;
  counters().device_copy_bytes += bytes;
}
void record_cross_device_host_staged(std::uint64_t bytes) {
  counters().cross_device_host_staged += 1;
  counters().cross_device_host_staged_bytes += bytes;
}
void record_dispatch(std::uint64_t n) {
  counters().dispatches += n;
}
void record_submit() {
  counters().submits += 1;
}
void record_wait() {
  counters().waits += 1;
}
void record_allocation() {
  counters().allocations += 1;
}
void record_trace() {
  counters().traces += 1;
}
void record_plan_reuse() {
  counters().plan_reuses += 1;
}
void record_kernel_compile() {
  counters().kernel_compiles += 1;
}
void record_kernel_cache_hit(bool from_disk) {
  (from_disk ? counters().kernel_disk_hits : counters().kernel_cache_hits) += 1;
}
void record_time(Phase phase, std::uint64_t nanoseconds) {
  counters().phase_ns[static_cast<int>(phase)] += nanoseconds;
}
void record_pipeline_created(std::uint64_t nanoseconds) {
  counters().pipelines_created += 1;
  counters().pipeline_create_ns += nanoseconds;
}
void record_fallback(const std::string& op) {
  Counters& c = counters();
  c.fallbacks += 1;
  std::lock_guard lock(c.by_op_mutex);
  c.fallbacks_by_op[op] += 1;
}

}  // namespace ledger
}  // namespace vkt
