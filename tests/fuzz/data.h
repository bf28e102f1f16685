// Leaf data for fuzz programs: values that mix ordinary numbers with each dtype's special
// values (subnormals, +-0, +-inf, NaN, largest finite, smallest normal, integer extremes),
// and index tensors in a range that reaches past both ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "vkt/vkt.h"

namespace vkt::fuzz {

// A complex dtype gets each part as its real type's values (a special part at the same rate).
// special_rate: the share of float values (or parts) drawn from the special values.
std::vector<std::byte> make_values(DType d, std::int64_t n, std::uint64_t seed,
                                   double special_rate = 0.2);
// Integers uniform in [lo, hi], saturated to the dtype.
std::vector<std::byte> make_indices(DType d, std::int64_t n, std::uint64_t seed, std::int64_t lo,
                                    std::int64_t hi);

// A batch of float n x n triangles ([..., n, n]) well conditioned for triangular_solve:
// diagonal in [2, 3], off-diagonal magnitudes in [1/4n, 1/n] (never zero), NaN in the other
// half, which the op must not read.
std::vector<std::byte> make_triangle(DType d, const Shape& shape, bool lower, std::uint64_t seed);

}  // namespace vkt::fuzz
