// Shared by the cpu backend's op families: output allocation, typed access, threading.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/host_parallel.h"
#include "core/host_storage.h"
#include "vkt/backend/op_call.h"

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
// Only for a tensor this backend is producing (the result of make_tensor: host memory
// from the pool, or a fused block's scratch buffer).
template <class T>
T* mutable_data(const Tensor& t) {
  return static_cast<T*>(const_cast<void*>(t.storage()->host_data()));
}

using host::max_threads;
using host::parallel_for;
using host::stream_grain;

// Elements per thread for compute-bound loops (transcendentals, library calls, gathers):
// each element costs tens of cycles, so 32K of them outweigh a fork/join anywhere.
// Memory-bound loops use stream_grain(bytes per item) instead, which is measured.
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
Tensor run_conv(const OpCall& call);        // conv.cpp
Tensor run_fft(const OpCall& call);         // fft.cpp

// window_scatter_max/min (window_scatter.cpp); reduce / window_reduce with a caller's
// function (reduce_callable.cpp).
Tensor run_window_scatter(const OpCall& call);
Tensor run_callable(const OpCall& call);

}  // namespace vkt::cpu_kernels
