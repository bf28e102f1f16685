// Nx's backend behaviour (nx 0.13.1, Nx.Backend: 55 named callbacks plus one per unary and
// binary elementwise op) and vktensor's equivalent of each, for the coverage table.
#pragma once

#include <string>
#include <vector>

namespace vkt::bench {

struct NxCallback {
  std::string nx;        // the callback's name in Nx.Backend
  std::string vktensor;  // what a vktensor user calls instead; empty: no equivalent yet
  std::string probe;     // the coverage case whose row shows it per dtype; empty: not an op
};

inline std::vector<NxCallback> nx_named_callbacks() {
  return {
      {"init", "vkt::cpu(), vkt::vulkan(i)", ""},
      {"constant", "full", "full"},
      {"eye", "eye", "eye"},
      {"iota", "iota", "iota"},
      {"from_binary", "from_bytes, from_vector", ""},
      {"to_binary", "to_bytes(limit), to_vector, read_into", ""},
      {"inspect", "inspect, operator<<", ""},
      {"backend_copy", "transfer, copy", ""},
      {"backend_transfer", "transfer", ""},
      {"backend_deallocate", "the Tensor destructor (shared storage, RAII)", ""},
      {"from_pointer", "from_pointer", ""},
      {"to_pointer", "to_pointer", ""},
      {"to_batched", "to_batched", ""},
      {"as_type", "as_type", "as_type"},
      {"bitcast", "bitcast", ""},
      {"reshape", "reshape (shape only)", ""},
      {"squeeze", "squeeze (shape only)", ""},
      {"broadcast", "broadcast", "broadcast"},
      {"transpose", "transpose", "transpose"},
      {"pad", "pad", "pad"},
      {"reverse", "reverse", "reverse"},
      {"dot", "dot", "dot"},
      {"clip", "clip", "clip"},
      {"slice", "slice (integer or tensor starts)", "slice"},
      {"put_slice", "put_slice (integer or tensor starts)", "put_slice"},
      {"gather", "gather, take, take_along_axis", "gather"},
      {"concatenate", "concatenate", "concatenate"},
      {"stack", "stack", "stack"},
      {"select", "select", "select"},
      {"conv", "conv", "conv"},
      {"all", "all", "all"},
      {"any", "any", "any"},
      {"sum", "sum", "sum"},
      {"product", "product", "product"},
      {"argmax", "argmax", "argmax"},
      {"argmin", "argmin", "argmin"},
      {"reduce_max", "reduce_max", "reduce_max"},
      {"reduce_min", "reduce_min", "reduce_min"},
      {"reduce", "reduce, reduce_typed (a C++ function)", "reduce"},
      {"window_reduce", "window_reduce, window_reduce_typed", "window_reduce"},
      {"window_sum", "window_sum", "window_sum"},
      {"window_product", "window_product", "window_product"},
      {"window_max", "window_max", "window_max"},
      {"window_min", "window_min", "window_min"},
      {"sort", "sort", "sort"},
      {"argsort", "argsort", "argsort"},
      {"window_scatter_max", "window_scatter_max", "window_scatter_max"},
      {"window_scatter_min", "window_scatter_min", "window_scatter_min"},
      {"indexed_add", "indexed_add", "indexed_add"},
      {"indexed_put", "indexed_put", "indexed_put"},
      {"triangular_solve", "triangular_solve", "triangular_solve"},
      {"fft", "fft (fft2, rfft)", "fft"},
      {"ifft", "ifft (ifft2, irfft)", "ifft"},
      // Nx.block's default implementations (linear algebra, cumulative ops, top_k, ...)
      // are ops of their own here.
      {"block", "cholesky, qr, lu, eigh, svd, solve, determinant, cumulative_*, top_k", ""},
  };
}

}  // namespace vkt::bench
