// Nx's backend behaviour (nx 0.13.1, Nx.Backend: 54 named callbacks plus one per unary and
// binary elementwise op) as data, with vktensor's equivalent of each and the test that runs it.
#pragma once

#include <string>
#include <vector>

namespace vkt::bench {

struct NxCallback {
  std::string nx;        // the callback's name in Nx.Backend
  std::string vktensor;  // what a vktensor user calls instead; empty: no equivalent yet
  std::string probe;     // the coverage case whose row shows it per dtype; empty: not an op
  std::string test;      // Suite.Name of a test (unit or Vulkan binary) that runs the equivalent
  std::string differs;   // empty: Nx's behaviour; else how vktensor's differs
};

inline std::vector<NxCallback> nx_named_callbacks() {
  return {
      {"init", "vkt::cpu(), vkt::vulkan(i)", "", "VulkanDevice.MissingIndexThrowsNoDevice", ""},
      {"constant", "full", "full", "NativeOps.FullEveryDtypeAndShape", ""},
      {"eye", "eye", "eye", "Creation.EyeOfTallWideAndStackedShapes", ""},
      {"iota", "iota", "iota", "Creation.IotaAlongEveryAxisOfALargeShape", ""},
      {"from_binary", "from_bytes, from_vector", "", "Transfer.RoundTripsEveryDtypeAndSize", ""},
      {"to_binary", "to_bytes(limit), to_vector, read_into", "",
       "PartialRead.ToBytesWithLimitReadsThePrefix", ""},
      {"inspect", "inspect, operator<<", "", "Inspect.MatrixAsNxPrintsIt", ""},
      {"backend_copy", "transfer, copy", "", "NativeOps.CopyEveryDtype", ""},
      {"backend_transfer", "transfer", "", "Transfer.TransferToCpuAndBack", ""},
      {"backend_deallocate", "deallocate, is_deallocated", "",
       "DeallocateVulkan.GivesTheRangeBackToThePool",
       "Returns true/false, not :ok/:already_deallocated; later use throws Deallocated."},
      {"from_pointer", "from_pointer", "", "HostPointer.FromPointerWrapsWithoutCopyAndReleasesOnce",
       "Host memory on the cpu backend only: no :ipc handles."},
      {"to_pointer", "to_pointer", "", "HostPointer.ToPointerOfAnOpResultAndBadInputs",
       "Local mode on cpu tensors only: no :ipc handles, and a device tensor is refused."},
      {"to_batched", "to_batched", "", "ToBatched.RepeatWrapsTheLastBatchAroundAsNx", ""},
      {"as_type", "as_type", "as_type", "Tensor.AsTypeSaturatesAndWraps", ""},
      {"bitcast", "bitcast", "", "ComplexConversion.BitcastWhereWidthsMatch", ""},
      {"reshape", "reshape (shape only)", "", "Movement.ReshapeAliasesAndInfers", ""},
      {"squeeze", "squeeze (shape only)", "", "Movement.Squeeze", ""},
      {"broadcast", "broadcast", "broadcast", "Movement.BroadcastAllDtypes", ""},
      {"transpose", "transpose", "transpose", "Movement.TransposeMatchesReference", ""},
      {"pad", "pad (a Scalar or a rank-0 tensor value)", "pad",
       "Movement.PadWithATensorValuePromotesAndKeepsItsBits", ""},
      {"reverse", "reverse", "reverse", "Movement.Reverse", ""},
      {"dot", "dot", "dot", "Dot.LayoutsAndDTypes", ""},
      {"clip", "clip", "clip", "Index.Clip", ""},
      {"slice", "slice (integer or tensor starts)", "slice", "Movement.SliceStridedAndClamped", ""},
      {"put_slice", "put_slice (integer or tensor starts)", "put_slice", "Movement.PutSlice", ""},
      {"gather", "gather, take, take_along_axis", "gather", "Index.GatherRowsAndElements", ""},
      {"concatenate", "concatenate", "concatenate", "Movement.ConcatenateAxes", ""},
      {"stack", "stack", "stack", "Movement.Stack", ""},
      {"select", "select", "select", "Index.SelectBroadcastsAndPromotes", ""},
      {"conv", "conv", "conv", "ConvGolden.MatchesNumpy", ""},
      {"all", "all", "all", "Reduce.EveryAxesSubsetOfRank4MatchesReference", ""},
      {"any", "any", "any", "Reduce.EveryAxesSubsetOfRank4MatchesReference", ""},
      {"sum", "sum", "sum", "Reduce.EveryAxesSubsetOfRank4MatchesReference", ""},
      {"product", "product", "product", "Reduce.EveryAxesSubsetOfRank4MatchesReference", ""},
      {"argmax", "argmax (type: s32 by default)", "argmax", "ArgReduce.IndexTypeOption", ""},
      {"argmin", "argmin (type: s32 by default)", "argmin", "ArgReduce.IndexTypeOption", ""},
      {"reduce_max", "reduce_max", "reduce_max", "Reduce.EveryAxesSubsetOfRank4MatchesReference",
       ""},
      {"reduce_min", "reduce_min", "reduce_min", "Reduce.EveryAxesSubsetOfRank4MatchesReference",
       ""},
      {"reduce", "reduce, reduce_typed (a C++ function)", "reduce", "ReduceCallable.NxDocExamples",
       "The function is a C++ callable run on the cpu (a Vulkan tensor falls back), not a defn."},
      {"window_reduce", "window_reduce, window_reduce_typed", "window_reduce",
       "ReduceCallable.WindowPaddingFoldsAcc",
       "The function is a C++ callable run on the cpu (a Vulkan tensor falls back), not a defn."},
      {"window_sum", "window_sum", "window_sum", "Window.ConfigurationsAndDTypesMatchReference",
       ""},
      {"window_product", "window_product", "window_product",
       "Window.ConfigurationsAndDTypesMatchReference", ""},
      {"window_max", "window_max", "window_max", "Window.ConfigurationsAndDTypesMatchReference",
       ""},
      {"window_min", "window_min", "window_min", "Window.ConfigurationsAndDTypesMatchReference",
       ""},
      {"sort", "sort", "sort", "Sort.EveryDTypeBothAxesBothDirections", ""},
      {"argsort", "argsort (type: s32 by default)", "argsort", "ArgReduce.IndexTypeOption", ""},
      {"window_scatter_max", "window_scatter_max (a Scalar or a rank-0 tensor init)",
       "window_scatter_max", "WindowScatter.TensorInitPromotesAndMatchesTheScalarForm", ""},
      {"window_scatter_min", "window_scatter_min (a Scalar or a rank-0 tensor init)",
       "window_scatter_min", "WindowScatter.TensorInitPromotesAndMatchesTheScalarForm", ""},
      {"indexed_add", "indexed_add", "indexed_add", "Index.IndexedAddAccumulatesAndSkips", ""},
      {"indexed_put", "indexed_put", "indexed_put", "Index.IndexedAddAccumulatesAndSkips", ""},
      {"triangular_solve", "triangular_solve", "triangular_solve",
       "LinalgDecomposition.NxTriangularSolveExamples", ""},
      {"fft", "fft (fft2, rfft)", "fft", "Fft.MatchesDirectDftEveryLength", ""},
      {"ifft", "ifft (ifft2, irfft)", "ifft", "Fft.RoundTrips", ""},
      // Nx.block: the inputs' backend's own implementation of a kind, else the fallback.
      {"block", "block, register_block, has_block", "",
       "Block.TheInputsBackendsOwnImplementationRunsInstead",
       "Kinds are strings, not structs; Nx's linear-algebra, cumulative and top_k blocks are ops "
       "of their own here."},
  };
}

// Nx.Backend's elementwise callbacks, in the order backend.ex lists them: binary_ops, then
// unary_ops (Nx.Shared.unary_math_funs first). Nx composes logical_not and phase, so
// vktensor's ops of those names answer no callback.
inline std::vector<NxCallback> nx_elementwise_callbacks() {
  // Both walk every elementwise op in the op table on the Vulkan backend against the cpu.
  const std::string bin = "SpecialValues.EveryBinaryOpAndDtype";
  const std::string un = "Elementwise.UnaryEveryOpDtypeAndShape";
  // The complex parts are only meaningful on complex inputs, which the one above skips.
  const std::string parts = "ComplexElementwise.PartsGiveTheRealTypeAndOthersKeepComplex";
  return {
      {"add", "add", "add", bin, ""},
      {"subtract", "subtract", "subtract", bin, ""},
      {"multiply", "multiply", "multiply", bin, ""},
      {"pow", "pow", "pow", bin, ""},
      {"remainder", "remainder", "remainder", bin, ""},
      {"divide", "divide", "divide", bin, ""},
      {"atan2", "atan2", "atan2", bin, ""},
      {"min", "min", "min", bin, ""},
      {"max", "max", "max", bin, ""},
      {"quotient", "quotient", "quotient", bin, ""},
      {"bitwise_and", "bitwise_and", "bitwise_and", bin, ""},
      {"bitwise_or", "bitwise_or", "bitwise_or", bin, ""},
      {"bitwise_xor", "bitwise_xor", "bitwise_xor", bin, ""},
      {"left_shift", "left_shift", "left_shift", bin, ""},
      {"right_shift", "right_shift", "right_shift", bin, ""},
      {"equal", "equal", "equal", bin, ""},
      {"not_equal", "not_equal", "not_equal", bin, ""},
      {"greater", "greater", "greater", bin, ""},
      {"less", "less", "less", bin, ""},
      {"greater_equal", "greater_equal", "greater_equal", bin, ""},
      {"less_equal", "less_equal", "less_equal", bin, ""},
      {"logical_and", "logical_and", "logical_and", bin, ""},
      {"logical_or", "logical_or", "logical_or", bin, ""},
      {"logical_xor", "logical_xor", "logical_xor", bin, ""},
      {"exp", "exp", "exp", un, ""},
      {"expm1", "expm1", "expm1", un, ""},
      {"log", "log", "log", un, ""},
      {"log1p", "log1p", "log1p", un, ""},
      {"sigmoid", "sigmoid", "sigmoid", un, ""},
      {"cos", "cos", "cos", un, ""},
      {"sin", "sin", "sin", un, ""},
      {"tan", "tan", "tan", un, ""},
      {"cosh", "cosh", "cosh", un, ""},
      {"sinh", "sinh", "sinh", un, ""},
      {"tanh", "tanh", "tanh", un, ""},
      {"acos", "acos", "acos", un, ""},
      {"asin", "asin", "asin", un, ""},
      {"atan", "atan", "atan", un, ""},
      {"acosh", "acosh", "acosh", un, ""},
      {"asinh", "asinh", "asinh", un, ""},
      {"atanh", "atanh", "atanh", un, ""},
      {"sqrt", "sqrt", "sqrt", un, ""},
      {"rsqrt", "rsqrt", "rsqrt", un, ""},
      {"cbrt", "cbrt", "cbrt", un, ""},
      {"erf", "erf", "erf", un, ""},
      {"erfc", "erfc", "erfc", un, ""},
      {"erf_inv", "erf_inv", "erf_inv", un, ""},
      {"abs", "abs", "abs", un, ""},
      {"bitwise_not", "bitwise_not", "bitwise_not", un, ""},
      {"ceil", "ceil", "ceil", un, ""},
      {"conjugate", "conjugate", "conjugate", parts,
       "Keeps a real input's dtype where Nx's conjugate returns a complex tensor."},
      {"floor", "floor", "floor", un, ""},
      {"negate", "negate", "negate", un, ""},
      {"round", "round", "round", un, ""},
      {"sign", "sign", "sign", un, ""},
      {"count_leading_zeros", "count_leading_zeros", "count_leading_zeros", un, ""},
      {"population_count", "population_count", "population_count", un, ""},
      {"real", "real", "real", parts, "Keeps an integer input's dtype where Nx.real gives f32."},
      {"imag", "imag", "imag", parts,
       "Of a real input gives zeros of its dtype where Nx.imag gives zeros of its float type."},
      {"is_nan", "is_nan", "is_nan", un, ""},
      {"is_infinity", "is_infinity", "is_infinity", un, ""},
  };
}

// Every callback: the named ones, then the elementwise ones.
inline std::vector<NxCallback> nx_all_callbacks() {
  std::vector<NxCallback> all = nx_named_callbacks();
  for (NxCallback& c : nx_elementwise_callbacks()) all.push_back(std::move(c));
  return all;
}

}  // namespace vkt::bench
