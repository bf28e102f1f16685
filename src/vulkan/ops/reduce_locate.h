// argmax/argmin of long f32 rows in two passes that carry no index through the data: each
// split's extreme by value, then the split holding the row's extreme scanned for its place
// (shaders/reduce_locate.comp). Reducer::run (reduce.cpp) takes it for split f32 rows.
#pragma once

#include <cstdint>

#include "vkt/tensor.h"

namespace vkt::vk {

class VulkanBackend;

// A split rows pass: `outer` rows of `len` elements, each split into `splits` ranges of
// `chunk` elements (a multiple of 4); row starts are multiples of 4 elements.
struct LocateRows {
  std::uint64_t outer, len, chunk, splits;
};

// Whether split f32 rows take it: on GPUs, where two integer min/max per element beat the arg
// scan's compare chain; off on CPU devices, whose rows passes read no vec4s (its
// precondition) unless forced. Overrides::arg_locate forces either.
bool arg_locate_allowed(const VulkanBackend& b);

// Records both passes: the split extremes into `partials` (u32, outer * splits), then the
// indices into `dst` (s64, outer). prepare_only: creates the pipelines, records nothing.
void record_arg_locate(VulkanBackend& b, bool is_max, bool tie_high, const LocateRows& rows,
                       const Tensor& src, const Tensor& partials, const Tensor& dst,
                       bool prepare_only);

}  // namespace vkt::vk
