// A reduction's axes seen as groups, shared by the cpu and Vulkan reduce kernels (each
// backend used to carry its own copy): adjacent axes that are all reduced or all kept are
// merged, size-1 axes dropped, outermost first.
#pragma once

#include <cstdint>
#include <vector>

#include "vkt/shape.h"

namespace vkt::common {

struct ReduceGroup {
  std::int64_t size;
  // Row-major element stride of the group's innermost axis (the group walks contiguously).
  std::int64_t stride;
  bool reduced;
};

// `axes` sorted and unique (ReduceParams). Empty when every axis has size 1.
inline std::vector<ReduceGroup> reduce_groups(const Shape& shape, const Axes& axes) {
  std::vector<ReduceGroup> groups;
  const std::vector<std::int64_t> strides = contiguous_strides(shape);
  std::size_t next = 0;
  for (std::size_t a = 0; a < shape.size(); ++a) {
    const bool reduced = next < axes.size() && axes[next] == static_cast<std::int64_t>(a);
    if (reduced) ++next;
    if (shape[a] == 1) continue;
    if (!groups.empty() && groups.back().reduced == reduced) {
      groups.back().size *= shape[a];
      groups.back().stride = strides[a];
    } else {
      groups.push_back({shape[a], strides[a], reduced});
    }
  }
  return groups;
}

}  // namespace vkt::common
