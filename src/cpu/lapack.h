// LAPACK, resolved through the same dlopen handle as the BLAS (blas.h): one library and
// one thread team. Debian's libopenblas.so.0 (openmp and pthread builds alike, 0.3.21)
// exports LAPACK's Fortran routines (dpotrf_, dgesdd_, ...) but no LAPACKE_* wrappers
// (nm -D), so these are the Fortran entry points: arguments by pointer, matrices
// column-major, a hidden length after the arguments for each character flag. Their types
// come from liblapacke-dev's <lapack.h> (declarations only, nothing is linked), so the
// packed binaries still need nothing but the system's OpenBLAS on the H200 box.
#pragma once

#include <cblas.h>

// Routines with character flags are declared as LAPACK_x_base (their hidden lengths
// included), the others as LAPACK_x. Complex arguments as std::complex (c64, c128).
#include <complex>
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapack.h>

namespace vkt::cpu_kernels {

// The routines for one element type, under one set of member names so the kernels are
// templates over it.
template <class T>
struct Lapack;

template <>
struct Lapack<float> {
  decltype(&LAPACK_spotrf_base) potrf = nullptr;
  decltype(&LAPACK_sgeqrf) geqrf = nullptr;
  decltype(&LAPACK_sorgqr) orgqr = nullptr;
  decltype(&LAPACK_sgetrf) getrf = nullptr;
  decltype(&LAPACK_sgetrs_base) getrs = nullptr;
  decltype(&LAPACK_ssyevd_base) syevd = nullptr;
  decltype(&LAPACK_sgesdd_base) gesdd = nullptr;
  decltype(&cblas_strsm) trsm = nullptr;  // row-major: triangular_solve copies nothing
};

template <>
struct Lapack<double> {
  decltype(&LAPACK_dpotrf_base) potrf = nullptr;
  decltype(&LAPACK_dgeqrf) geqrf = nullptr;
  decltype(&LAPACK_dorgqr) orgqr = nullptr;
  decltype(&LAPACK_dgetrf) getrf = nullptr;
  decltype(&LAPACK_dgetrs_base) getrs = nullptr;
  decltype(&LAPACK_dsyevd_base) syevd = nullptr;
  decltype(&LAPACK_dgesdd_base) gesdd = nullptr;
  decltype(&cblas_dtrsm) trsm = nullptr;
};

// Complex: the unitary orgqr is ungqr, the Hermitian eigensolver heevd (real eigenvalues,
// an extra real workspace), gesdd takes a real workspace too; trsm's alpha is a pointer.
template <>
struct Lapack<std::complex<float>> {
  decltype(&LAPACK_cpotrf_base) potrf = nullptr;
  decltype(&LAPACK_cgeqrf) geqrf = nullptr;
  decltype(&LAPACK_cungqr) orgqr = nullptr;
  decltype(&LAPACK_cgetrf) getrf = nullptr;
  decltype(&LAPACK_cgetrs_base) getrs = nullptr;
  decltype(&LAPACK_cheevd_base) heevd = nullptr;
  decltype(&LAPACK_cgesdd_base) gesdd = nullptr;
  decltype(&cblas_ctrsm) trsm = nullptr;
};

template <>
struct Lapack<std::complex<double>> {
  decltype(&LAPACK_zpotrf_base) potrf = nullptr;
  decltype(&LAPACK_zgeqrf) geqrf = nullptr;
  decltype(&LAPACK_zungqr) orgqr = nullptr;
  decltype(&LAPACK_zgetrf) getrf = nullptr;
  decltype(&LAPACK_zgetrs_base) getrs = nullptr;
  decltype(&LAPACK_zheevd_base) heevd = nullptr;
  decltype(&LAPACK_zgesdd_base) gesdd = nullptr;
  decltype(&cblas_ztrsm) trsm = nullptr;
};

// Loaded once from blas()'s library; throws vkt::Error naming a missing routine.
template <class T>
const Lapack<T>& lapack();

}  // namespace vkt::cpu_kernels
