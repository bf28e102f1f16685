// The row kernels' generated GLSL (compiled_rows.cpp makes and runs them): a row group's
// geometry on a device, in eager's combine order, and its source for one RowVariant.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compile/fused_group.h"
#include "vulkan/compile/compiled_rows_variant.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk::row_kernel {

// reduce.cpp's rules: rows shorter than this are reduced one invocation per row, longer
// ones by 32 to 256 invocations with about 8 elements each (splits only past 4096).
inline constexpr std::int64_t kRowsFrom = 64;
inline constexpr std::uint32_t kEagerGroup = Pipelines::kWorkgroupSize;

// Eager's lanes (`lanes`, `per` elements each: the combine order) and how the kernel holds
// them: `invocations` per row, each `pack` of eager's lanes; invocation l holds the row's
// columns l + u * invocations, u < pack * per (eager's lane l + (u % pack) * invocations).
struct Geometry {
  std::uint32_t lanes = 1;        // eager's invocations per row
  std::uint32_t per = 1;          // elements each of eager's lanes holds
  std::uint32_t invocations = 1;  // the kernel's invocations per row
  std::uint32_t pack = 1;         // eager's lanes per invocation
  std::uint32_t workgroup = kEagerGroup;
  std::uint32_t per_group = 1;  // rows per workgroup
  // Invocations sharing one of eager's lanes (split=2|4): part h holds its lane's steps
  // h * per / parts onwards, and folds them after part h - 1 (invocations lanes apart).
  std::uint32_t parts = 1;
  std::int64_t rows = 0, len = 0;
  std::uint32_t held() const { return pack * per / parts; }
  // Every row of the grid exists, every lane's every element is in its row.
  bool whole_rows() const { return rows % per_group == 0; }
  bool whole_columns() const { return len % lanes == 0; }
};

// A reduction's accumulator (eager's acc_dtype: f32 for 16- and 32-bit floats, uint for
// any/all) and rule.
struct RowReduction {
  int value = -1;
  const char* acc = "float";
  bool subgroups = false;  // eager's variant uses the shuffle butterfly (4-byte accumulators)
};

// The accumulator's GLSL type for a reduction of `in`.
const char* acc_type(Op op, DType in);

// The variant within the device's workgroup limits (a larger workgroup falls back to eager's).
RowVariant device_variant(const Context& ctx);

// A row kernel's geometry and source for one variant, or nothing where its shared memory
// does not fit the device.
struct RowBuild {
  Geometry geo;
  std::string source;
  bool rare_flag = false;  // one more binding: the flag its rare paths set
};
std::optional<RowBuild> build_rows(const VulkanBackend& b, const detail::FusedGroup& g,
                                   const std::vector<RowReduction>& reductions,
                                   const RowVariant& variant);

}  // namespace vkt::vk::row_kernel
