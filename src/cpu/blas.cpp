#include "cpu/blas.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <vector>

#include "common/settings.h"
#include "cpu/wide_loops.h"
#include "vkt/error.h"

namespace vkt::cpu_kernels {
namespace {

// The kernel set for this CPU's features, or nullptr to leave OpenBLAS's own choice.
// On a 2-core Zen 5 VM a 1024^2 sgemm took 4.7 ms with SkylakeX against 8.8 ms with the
// Haswell kernels (bench_results/lavapipe/dev-runs).
const char* core_for_features() {
#if defined(__x86_64__) && defined(__GNUC__)
  // The same detection the float loops use (wide_loops.h); VKT_CPU_ISA does not apply.
  switch (supported_vector_isa()) {
    case VectorIsa::avx512:
      return "SkylakeX";
    case VectorIsa::avx2:
      return __builtin_cpu_supports("fma") ? "Haswell" : nullptr;
    case VectorIsa::baseline:
      break;
  }
#endif
  return nullptr;
}

template <class F>
F symbol(void* handle, const char* name, const std::string& library) {
  void* p = dlsym(handle, name);
  if (p == nullptr) {
    throw Error("[blas] " + library + " has no symbol " + name + "; vktensor needs OpenBLAS");
  }
  return reinterpret_cast<F>(p);
}

Blas load() {
  std::string chosen_by = "OpenBLAS's own detection";
  if (const std::string& set = settings().openblas_coretype; !set.empty()) {
    chosen_by = "OPENBLAS_CORETYPE=" + set;
  } else if (const char* core = core_for_features()) {
    setenv("OPENBLAS_CORETYPE", core, 0);  // read by OpenBLAS while it loads, below
    chosen_by = std::string("vktensor, by CPU features (") + core + ")";
  }
  std::vector<std::string> candidates;
  if (const std::string& chosen = settings().blas_library; !chosen.empty()) {
    candidates.push_back(chosen);
  }
#ifdef VKT_OPENBLAS_OPENMP
  candidates.emplace_back(VKT_OPENBLAS_OPENMP);
#endif
  candidates.emplace_back("libopenblas.so.0");
  candidates.emplace_back("libopenblas.so");
  std::string tried;
  for (const std::string& name : candidates) {
    void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* why = dlerror();
      tried += "\n  " + name + ": " + (why ? why : "not found");
      continue;
    }
    // Never closed: OpenBLAS lives for the process, as a linked library would.
    Blas b;
    b.library = name;
    b.handle = handle;
    b.sgemm = symbol<decltype(&cblas_sgemm)>(handle, "cblas_sgemm", name);
    b.dgemm = symbol<decltype(&cblas_dgemm)>(handle, "cblas_dgemm", name);
    b.cgemm = symbol<decltype(&cblas_cgemm)>(handle, "cblas_cgemm", name);
    b.zgemm = symbol<decltype(&cblas_zgemm)>(handle, "cblas_zgemm", name);
    b.config = symbol<char* (*)()>(handle, "openblas_get_config", name)();
    b.core = std::string(symbol<char* (*)()>(handle, "openblas_get_corename", name)()) +
             " (chosen by " + chosen_by + ")";
    b.threads = symbol<int (*)()>(handle, "openblas_get_num_threads", name)();
    const int parallel = symbol<int (*)()>(handle, "openblas_get_parallel", name)();
    b.threading = parallel == 0 ? "sequential" : parallel == 1 ? "pthreads" : "openmp";
    return b;
  }
  throw Error("[blas] could not load OpenBLAS, tried:" + tried);
}

}  // namespace

const Blas& blas() {
  // A failed load is retried on the next call (call_once rethrows and stays unset).
  static std::once_flag once;
  static Blas loaded;
  std::call_once(once, [] { loaded = load(); });
  return loaded;
}

}  // namespace vkt::cpu_kernels
