// Shared by the cpu backend's op families: output allocation, typed access, threading.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/host_storage.h"
#include "vkt/op_call.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace vkt::cpu_kernels {

// A fresh, uninitialised host tensor.
Tensor make_tensor(DType dtype, const Shape& shape);
inline Tensor make_output(const OpCall& call) {
  return make_tensor(call.out_dtype, call.out_shape);
}

template <class T>
const T* data(const Tensor& t) {
  return static_cast<const T*>(t.storage()->host_data());
}
// Only for a tensor this backend is producing (the result of make_tensor).
template <class T>
T* mutable_data(const Tensor& t) {
  return static_cast<T*>(static_cast<HostStorage*>(t.storage().get())->data());
}

inline int max_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

// Calls f(begin, end) over [0, n) split into contiguous ranges, in parallel when each
// thread gets at least `grain` items.
template <class F>
void parallel_for(std::int64_t n, std::int64_t grain, F&& f) {
  const int threads =
      static_cast<int>(std::min<std::int64_t>(max_threads(), n / std::max<std::int64_t>(grain, 1)));
  if (threads <= 1) {
    if (n > 0) f(std::int64_t{0}, n);
    return;
  }
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
  {
    const std::int64_t id = omp_get_thread_num(), nt = omp_get_num_threads();
    const std::int64_t begin = n * id / nt, end = n * (id + 1) / nt;
    if (begin < end) f(begin, end);
  }
#endif
}

// Elements per thread below which threading costs more than it gains.
inline constexpr std::int64_t kGrain = 1 << 15;

// The op families; each lives in the file of the same name.
Tensor run_unary(const OpCall& call);       // elementwise_unary.cpp
Tensor run_binary(const OpCall& call);      // elementwise_binary.cpp
Tensor run_reduce(const OpCall& call);      // reduce.cpp (reduce and argreduce)
Tensor run_window(const OpCall& call);      // window.cpp
Tensor run_cumulative(const OpCall& call);  // cumulative.cpp
Tensor run_creation(const OpCall& call);    // creation.cpp
Tensor run_conversion(const OpCall& call);  // conversion.cpp
Tensor run_movement(const OpCall& call);    // movement.cpp
Tensor run_indexing(const OpCall& call);    // index.cpp
Tensor run_sort(const OpCall& call);        // sort.cpp
Tensor run_linalg(const OpCall& call);      // linalg.cpp

}  // namespace vkt::cpu_kernels
