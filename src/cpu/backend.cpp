// The cpu backend: the reference every other backend is compared with, and the baseline
// every speed-up divides by.
#include "vkt/backend.h"

#include <cstdio>
#include <cstring>

#include "cpu/blas.h"
#include "cpu/block_arena.h"
#include "cpu/compile/compiled.h"
#include "cpu/compile/compiled_rows.h"
#include "cpu/kernels.h"
#include "cpu/wide_loops.h"

namespace vkt {
namespace {

std::unique_ptr<detail::FusedKernel> compile_cpu_fused(Backend&, const detail::FusedGroup& group) {
  return cpu_kernels::compile_fused(group);
}

class CpuBackend final : public Backend {
 public:
  // Fused groups on the cpu: reductions and rows, no recomputation (arithmetic, not memory,
  // bounds its loops), dot epilogues.
  CpuBackend() {
    detail::register_fused_compiler(*this, &compile_cpu_fused,
                                    {true, false, cpu_kernels::kMaxFusedRow, true});
  }
  std::string name() const override { return "cpu"; }
  bool is_cpu() const override { return true; }

  std::shared_ptr<Storage> from_host(const void* data, std::size_t nbytes) override {
    auto s = std::make_shared<HostStorage>(*this, nbytes);
    if (nbytes != 0) std::memcpy(s->data(), data, nbytes);
    return s;
  }
  void to_host(const Storage& storage, std::size_t offset, void* dst, std::size_t nbytes) override {
    if (nbytes != 0)
      std::memcpy(dst, static_cast<const char*>(storage.host_data()) + offset, nbytes);
  }
  bool supports(const OpCall&) const override { return true; }

  Tensor execute(const OpCall& call) override {
    using namespace cpu_kernels;
    switch (op_family(call.op)) {
      case OpFamily::unary:
        return run_unary(call);
      case OpFamily::binary:
        return run_binary(call);
      case OpFamily::reduce:
      case OpFamily::argreduce:
        return run_reduce(call);
      case OpFamily::window:
        return run_window(call);
      case OpFamily::cumulative:
        return run_cumulative(call);
      case OpFamily::creation:
        return run_creation(call);
      case OpFamily::conversion:
        return run_conversion(call);
      case OpFamily::movement:
        return run_movement(call);
      case OpFamily::indexing:
        return run_indexing(call);
      case OpFamily::sort:
        return run_sort(call);
      case OpFamily::linalg:
        return run_linalg(call);
      case OpFamily::conv:
        return run_conv(call);
      case OpFamily::window_scatter:
        return run_window_scatter(call);
      case OpFamily::callable:
        return run_callable(call);
      case OpFamily::fft:
        return run_fft(call);
    }
    throw Unsupported("[" + std::string(op_name(call.op)) + "] unknown op family");
  }

  // The threading this process measured (core/host_parallel.h) and the BLAS dot runs on.
  std::vector<std::pair<std::string, std::string>> properties() const override {
    const host::Tuning& t = host::tuning();
    char buf[64];
    auto num = [&](double v) {
      std::snprintf(buf, sizeof(buf), "%.2f", v);
      return std::string(buf);
    };
    std::vector<std::pair<std::string, std::string>> blas_rows;
    try {
      const cpu_kernels::Blas& b = cpu_kernels::blas();
      blas_rows = {{"blas", b.config},
                   {"blas_library", b.library},
                   {"blas_core", b.core},
                   {"blas_threads", std::to_string(b.threads)},
                   {"blas_threading", b.threading}};
    } catch (const Error& e) {
      blas_rows = {{"blas", e.what()}};
    }
    static const char* const kIsa[] = {"sse2", "avx2", "avx512"};
    std::vector<std::pair<std::string, std::string>> rows = {
        {"threads", std::to_string(t.threads)},
        {"vector_isa", kIsa[static_cast<int>(cpu_kernels::vector_isa())]},
        {"fork_join_us", num(t.fork_join_us)},
        {"copy_GBps_one_thread", num(t.copy_bytes_per_us / 1000.0)},
        {"min_bytes_per_thread", std::to_string(host::min_bytes_per_thread())}};
    rows.insert(rows.end(), blas_rows.begin(), blas_rows.end());
    return rows;
  }
};

}  // namespace

Backend& cpu() {
  static CpuBackend backend;
  return backend;
}

namespace cpu_kernels {
Tensor make_tensor(DType dtype, const Shape& shape) {
  const std::size_t bytes = static_cast<std::size_t>(numel(shape)) * itemsize(dtype);
  if (BlockArena* arena = BlockArena::current()) return Tensor(dtype, shape, arena->storage(bytes));
  return Tensor(dtype, shape, std::make_shared<HostStorage>(cpu(), bytes));
}
}  // namespace cpu_kernels

}  // namespace vkt
