#include "cpu/lapack.h"

#include <dlfcn.h>

#include <mutex>
#include <string>

#include "cpu/blas.h"
#include "vkt/dtype.h"
#include "vkt/error.h"

namespace vkt::cpu_kernels {
namespace {

template <class F>
void resolve(F& fn, const Blas& b, const std::string& name) {
  void* p = dlsym(b.handle, name.c_str());
  if (p == nullptr) {
    throw Error("[lapack] " + b.library + " has no symbol " + name +
                "; vktensor's decompositions need an OpenBLAS built with LAPACK");
  }
  fn = reinterpret_cast<F>(p);
}

template <class T>
Lapack<T> load(char p) {
  const Blas& b = blas();
  const std::string s(1, p);
  Lapack<T> l;
  resolve(l.potrf, b, s + "potrf_");
  resolve(l.geqrf, b, s + "geqrf_");
  resolve(l.getrf, b, s + "getrf_");
  resolve(l.getrs, b, s + "getrs_");
  if constexpr (is_complex_v<T>) {
    resolve(l.orgqr, b, s + "ungqr_");
    resolve(l.heevd, b, s + "heevd_");
  } else {
    resolve(l.orgqr, b, s + "orgqr_");
    resolve(l.syevd, b, s + "syevd_");
  }
  resolve(l.gesdd, b, s + "gesdd_");
  resolve(l.trsm, b, "cblas_" + s + "trsm");
  return l;
}

template <class T>
const Lapack<T>& cached(char prefix) {
  // A failed load is retried on the next call (call_once rethrows and stays unset).
  static std::once_flag once;
  static Lapack<T> loaded;
  std::call_once(once, [&] { loaded = load<T>(prefix); });
  return loaded;
}

}  // namespace

template <>
const Lapack<float>& lapack<float>() {
  return cached<float>('s');
}
template <>
const Lapack<double>& lapack<double>() {
  return cached<double>('d');
}

template <>
const Lapack<std::complex<float>>& lapack<std::complex<float>>() {
  return cached<std::complex<float>>('c');
}
template <>
const Lapack<std::complex<double>>& lapack<std::complex<double>>() {
  return cached<std::complex<double>>('z');
}

}  // namespace vkt::cpu_kernels
