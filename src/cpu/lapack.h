// LAPACK, resolved through the same dlopen handle as the BLAS (blas.h): one library and
// one thread team. Debian's libopenblas.so.0 (openmp and pthread builds alike) exports
// LAPACK's Fortran routines (dpotrf_, dgesdd_, ...) but no LAPACKE_* wrappers (checked with
// nm -D on 0.3.21), so these are the Fortran entry points: arguments by pointer, matrices
// column-major, a hidden length after the arguments for each character flag (gfortran's
// ABI). Nothing is linked at build time, so the packed binaries run on the H200 box with
// its system OpenBLAS as before, and liblapacke-dev is needed only for its headers' sake
// on Debian (scripts/setup-debian.sh).
#pragma once

#include <cblas.h>

#include <cstddef>

namespace vkt::cpu_kernels {

using lapack_int = int;  // Debian's OpenBLAS is built with 32-bit (LP64) integers

// The routines for one element type; complex types add a specialisation (heevd/ungqr under
// the same member names, with their extra real workspace) and the kernels stay as they are.
template <class T>
struct Lapack;

template <class T>
struct RealLapack {
  using Flag = std::size_t;  // gfortran's hidden length of a character argument
  void (*potrf)(const char* uplo, const lapack_int* n, T* a, const lapack_int* lda,
                lapack_int* info, Flag) = nullptr;
  void (*geqrf)(const lapack_int* m, const lapack_int* n, T* a, const lapack_int* lda, T* tau,
                T* work, const lapack_int* lwork, lapack_int* info) = nullptr;
  void (*orgqr)(const lapack_int* m, const lapack_int* n, const lapack_int* k, T* a,
                const lapack_int* lda, const T* tau, T* work, const lapack_int* lwork,
                lapack_int* info) = nullptr;
  void (*getrf)(const lapack_int* m, const lapack_int* n, T* a, const lapack_int* lda,
                lapack_int* ipiv, lapack_int* info) = nullptr;
  void (*getrs)(const char* trans, const lapack_int* n, const lapack_int* nrhs, const T* a,
                const lapack_int* lda, const lapack_int* ipiv, T* b, const lapack_int* ldb,
                lapack_int* info, Flag) = nullptr;
  void (*syevd)(const char* jobz, const char* uplo, const lapack_int* n, T* a,
                const lapack_int* lda, T* w, T* work, const lapack_int* lwork, lapack_int* iwork,
                const lapack_int* liwork, lapack_int* info, Flag, Flag) = nullptr;
  void (*gesdd)(const char* jobz, const lapack_int* m, const lapack_int* n, T* a,
                const lapack_int* lda, T* s, T* u, const lapack_int* ldu, T* vt,
                const lapack_int* ldvt, T* work, const lapack_int* lwork, lapack_int* iwork,
                lapack_int* info, Flag) = nullptr;
  // cblas (row-major capable): triangular_solve needs no transposed copies.
  void (*trsm)(CBLAS_ORDER, CBLAS_SIDE, CBLAS_UPLO, CBLAS_TRANSPOSE, CBLAS_DIAG, blasint M,
               blasint N, T alpha, const T* a, blasint lda, T* b, blasint ldb) = nullptr;
};

template <>
struct Lapack<float> : RealLapack<float> {};
template <>
struct Lapack<double> : RealLapack<double> {};

// Loaded once from blas()'s library; throws vkt::Error naming a missing routine.
template <class T>
const Lapack<T>& lapack();

}  // namespace vkt::cpu_kernels
