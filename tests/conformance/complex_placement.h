// Where a complex op on the Vulkan backend must run, and where its result must lie. Native
// (no fallback, the result on the device) on every device, except where f32 arithmetic
// flushes subnormals (the H100 and H200 do): there c64 arithmetic and complex conversions
// run on the cpu by design (VulkanBackend::flushes_f32), and the test asserts exactly that:
// every fallback is one of those, c128 arithmetic and c64's bit-decided ops stay native.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "vkt/ledger.h"
#include "vkt/vkt.h"
#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {

// Whether `op` on operands of complex dtype d falls back by design on a device whose f32
// arithmetic flushes subnormals (vulkan/ops: conversion.cpp, elementwise_{unary,binary}.cpp).
inline bool complex_falls_back_where_f32_flushes(Op op, DType d) {
  if (op == Op::as_type) return true;
  return d == DType::c64 && !vk::c64_native_where_f32_flushes(op);
}

// The placement contract for `got`, made on `device` from operands of complex dtype d, given
// the ledger's counts over the call.
inline void expect_complex_placement(const LedgerCounts& delta, const Tensor& got,
                                     const Backend& device, DType d, const std::string& what) {
  if (!vk::testing::f32_flushes()) {
    EXPECT_EQ(delta.fallbacks, 0u) << what << ": " << delta.to_string();
    EXPECT_EQ(&got.backend(), &device) << what;
    return;
  }
  for (const auto& [name, count] : delta.fallbacks_by_op) {
    EXPECT_TRUE(complex_falls_back_where_f32_flushes(op_from_name(name), d))
        << what << ": " << name << " on " << dtype_name(d) << " fell back " << count
        << " time(s) on a device that flushes f32 subnormals, where only c64 arithmetic and "
           "complex conversions may";
  }
  // A result made natively stays on the device (the fallback contract leaves the others'
  // results on the cpu, wherever a later native op may have taken them).
  if (delta.fallbacks == 0) {
    EXPECT_EQ(&got.backend(), &device) << what;
  }
}

}  // namespace vkt::testing
