// OpenBLAS, loaded at first use rather than linked, for two reasons measured on the H200
// box (bench_results/h200/blas-*.csv): OpenBLAS 0.3.21 falls back to its Prescott (SSE3)
// kernels on a CPU model it does not know, and it reads OPENBLAS_CORETYPE only while it
// loads; and its pthreads build spins threads that fight the cpu backend's OpenMP team
// (a 1M add after a dot: 8 ms instead of 25 us), so the OpenMP build is preferred.
#pragma once

#include <cblas.h>

#include <string>

namespace vkt::cpu_kernels {

struct Blas {
  decltype(&cblas_sgemm) sgemm = nullptr;
  decltype(&cblas_dgemm) dgemm = nullptr;
  decltype(&cblas_cgemm) cgemm = nullptr;  // c64 and c128: alpha, beta by pointer
  decltype(&cblas_zgemm) zgemm = nullptr;
  void* handle = nullptr;  // the dlopen handle, for the LAPACK routines (lapack.h)
  std::string library;     // the file loaded
  std::string config;      // openblas_get_config()
  std::string core;        // openblas_get_corename(), and who chose it
  int threads = 0;
  std::string threading;  // sequential, pthreads or openmp
};

// Loads OpenBLAS on first use (VKT_BLAS_LIBRARY, else the OpenMP build where it was found
// at configure time, else libopenblas.so.0). Unless OPENBLAS_CORETYPE is set, the kernel
// set is chosen by the CPU's features (AVX-512: SkylakeX, AVX2+FMA: Haswell), not by its
// model name. Throws vkt::Error naming the files tried when none loads.
const Blas& blas();

}  // namespace vkt::cpu_kernels
