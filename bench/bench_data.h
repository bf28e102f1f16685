// The benches' f32 input values: the seed's ramp iota(n)/n * scale + offset, or with
// VKT_BENCH_DATA=random values hashed from the index, full mantissas with no pattern a
// memory controller could compress. bench/peers/peer_common.py's bench_data makes the
// same random values, so a peer times the very same inputs.
#pragma once

#include <cstdint>

#include "vkt/vkt.h"

namespace vkt::bench {

// VKT_BENCH_DATA=random in the environment (read at each call).
bool random_bench_data();
// u in [0, 1): the top 24 bits of a splitmix-style 64-bit hash of `i`, over 2^24.
double hashed_unit(std::uint64_t i);
// Element i of the random data: float(hashed_unit(i) * scale + offset), computed in double.
float hashed_value(std::uint64_t i, double scale, double offset);
// n values on the cpu in `shape`: the random data when random_bench_data(), else the ramp.
Tensor f32_data(std::int64_t n, const Shape& shape, double scale = 1.0, double offset = 0.01);

}  // namespace vkt::bench
