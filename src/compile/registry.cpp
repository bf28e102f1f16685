// Which backend compiles fused groups how, and vkt::compile's ledger counters.
#include <atomic>
#include <map>
#include <mutex>

#include "compile/fused_group.h"
#include "cpu/compiled.h"
#include "vkt/backend.h"
#include "vkt/compile.h"

namespace vkt {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<Backend*, detail::FusedCompiler> compilers;
};
Registry& registry() {
  static Registry r;
  return r;
}

struct Counters {
  std::atomic<std::uint64_t> traces{0}, plan_reuses{0}, kernel_compiles{0}, kernel_cache_hits{0},
      kernel_disk_hits{0};
};
Counters& counters() {
  static Counters c;
  return c;
}

}  // namespace

namespace detail {

void register_fused_compiler(Backend& b, FusedCompiler compiler) {
  std::lock_guard lock(registry().mutex);
  registry().compilers[&b] = compiler;
}

std::unique_ptr<FusedKernel> compile_fused(Backend& b, const FusedGroup& group) {
  if (b.is_cpu()) return cpu_kernels::compile_fused(group);
  FusedCompiler compiler = nullptr;
  {
    std::lock_guard lock(registry().mutex);
    auto it = registry().compilers.find(&b);
    if (it != registry().compilers.end()) compiler = it->second;
  }
  return compiler != nullptr ? compiler(b, group) : nullptr;
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

}  // namespace detail

CompileCounts compile_counts() {
  const Counters& c = counters();
  return {c.traces.load(), c.plan_reuses.load(), c.kernel_compiles.load(),
          c.kernel_cache_hits.load(), c.kernel_disk_hits.load()};
}

CompileCounts CompileCounts::operator-(const CompileCounts& b) const {
  return {traces - b.traces, plan_reuses - b.plan_reuses, kernel_compiles - b.kernel_compiles,
          kernel_cache_hits - b.kernel_cache_hits, kernel_disk_hits - b.kernel_disk_hits};
}

}  // namespace vkt
