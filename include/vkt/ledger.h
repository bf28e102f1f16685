// The ledger: process-wide counters of what crossed the bus and what the device did.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

namespace vkt {

struct LedgerCounts {
  std::uint64_t uploads = 0, upload_bytes = 0;
  std::uint64_t downloads = 0, download_bytes = 0;
  std::uint64_t device_copies = 0, device_copy_bytes = 0;
  // Tensors moved from one device to another by transfer(), by path: host_staged is a
  // download and an upload (each also counted above). Peer-to-peer has no path yet.
  std::uint64_t cross_device_host_staged = 0, cross_device_host_staged_bytes = 0;
  std::uint64_t dispatches = 0, submits = 0, waits = 0, allocations = 0;
  std::uint64_t fallbacks = 0;
  // vkt::compile: signatures traced, calls that replayed a plan, generated kernels compiled,
  // and kernels found compiled already in memory or in the disk cache.
  std::uint64_t traces = 0, plan_reuses = 0, kernel_compiles = 0, kernel_cache_hits = 0;
  std::uint64_t kernel_disk_hits = 0;
  // Where a first call's time goes (steady_clock, microseconds). Times of work done on
  // several threads at once are summed over the threads; precompile_us is the wall time of
  // a plan's parallel compile phase. pipelines_created counts every compute pipeline the
  // Vulkan backend creates (built-in or generated), pipeline_create_us their creation time.
  std::uint64_t trace_us = 0, plan_us = 0, codegen_us = 0, kernel_compile_us = 0;
  std::uint64_t precompile_us = 0, pipelines_created = 0, pipeline_create_us = 0;
  std::map<std::string, std::uint64_t> fallbacks_by_op;

  LedgerCounts operator-(const LedgerCounts& before) const;
  std::string to_string() const;
};

namespace ledger {
LedgerCounts snapshot();
void reset();
void record_upload(std::uint64_t bytes);
void record_download(std::uint64_t bytes);
void record_device_copy(std::uint64_t bytes);
void record_cross_device_host_staged(std::uint64_t bytes);
void record_dispatch(std::uint64_t n = 1);
void record_submit();
void record_wait();
void record_allocation();
void record_fallback(const std::string& op);
void record_trace();
void record_plan_reuse();
void record_kernel_compile();
void record_kernel_cache_hit(bool from_disk);
enum class Phase : std::uint8_t { trace, plan, codegen, kernel_compile, precompile };
void record_time(Phase phase, std::uint64_t nanoseconds);
void record_pipeline_created(std::uint64_t nanoseconds);
}  // namespace ledger

// Records the time from construction to destruction as `phase` (cheap: two clock reads).
class PhaseTimer {
 public:
  explicit PhaseTimer(ledger::Phase phase)
      : phase_(phase), start_(std::chrono::steady_clock::now()) {}
  ~PhaseTimer() {
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now() - start_)
                        .count();
    ledger::record_time(phase_, static_cast<std::uint64_t>(ns));
  }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  ledger::Phase phase_;
  std::chrono::steady_clock::time_point start_;
};

// The counts accumulated since construction.
class LedgerScope {
 public:
  LedgerScope() : start_(ledger::snapshot()) {}
  LedgerCounts delta() const { return ledger::snapshot() - start_; }

 private:
  LedgerCounts start_;
};

}  // namespace vkt
