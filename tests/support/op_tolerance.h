// Per-op tolerances of the device against the cpu, shared by the conformance suite and the
// differential fuzzer (tests/fuzz), so both hold the device to the same rules.
#pragma once

#include "support/compare.h"
#include "vkt/backend/op_call.h"
#include "vulkan/ops/op_support.h"

namespace vkt::testing {

// Elementwise ops, tighter than the library-wide defaults. f32: ~5 ulp (the shaders write
// out exp/log/sin/atan/pow... instead of using GLSL.std.450's loosely specified ones;
// lavapipe measures <= 5 ulp for every op), with an absolute floor only for subnormal
// results a GPU may flush. f64: the exp/log family is written out in f64 and measures
// <= 2 ulp; the rest is exact arithmetic: 1e-15 (~4.5 ulp). f16/bf16 keep the default
// (1-2 ulp of the narrow type, which covers a different rounding of the f32 intermediate).
inline Tolerance elementwise_tolerance(DType d) {
  if (d == DType::f64) return {1e-15, 0};
  if (d == DType::f32) return {6e-7, 1e-37};
  return default_tolerance(d);
}

// Elementwise ops on special values: the same relative part, an absolute floor of 2
// subnormal ulp of the dtype.
inline Tolerance special_tolerance(DType d) {
  if (d == DType::f64) return {1e-15, 1e-323};
  if (d == DType::f32) return {6e-7, 2.9e-45};
  if (d == DType::bf16) return {1.6e-2, 1.9e-40};
  return {2e-3, 1.2e-7};  // f16
}

// Complex elementwise ops, each part within rtol of the element's magnitude |z| (the
// functions are accurate relative to |z|, not to each part): the widest bound
// docs/semantics-complex-vulkan.md states (exp, log, sqrt within 8 ulp of the part type;
// multiply and divide 4), plus two subnormal ulps of the part type for subnormal parts.
inline Tolerance complex_tolerance(DType d) {
  if (d == DType::c128) return {8 * 0x1p-52, 2 * 0x1p-1074};
  return {8 * 0x1p-23, 2 * 0x1p-149};  // c64
}

// Elementwise ops decided on the bits, or computed so that no float operation meets a
// subnormal: the same answer on a device that flushes subnormals (the Vulkan table's
// subnormals column).
inline bool exact_under_flush(Op op) {
  return vk::subnormals_kept(op);
}

}  // namespace vkt::testing
