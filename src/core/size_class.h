// Buffer size classes, shared by the host pool, the pinned read pool and the Vulkan pool's
// dedicated buffers: a request rounds up to a multiple of an eighth of its power of two
// (and of `min_granule`), so a freed buffer fits the next request of about the same size
// and is reused as is, with at most 12.5% slack.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

namespace vkt::detail {

inline std::uint64_t size_class_bytes(std::uint64_t nbytes, std::uint64_t min_granule) {
  const std::uint64_t granule = std::max<std::uint64_t>(std::bit_ceil(nbytes) / 8, min_granule);
  return (nbytes + granule - 1) / granule * granule;
}

}  // namespace vkt::detail
