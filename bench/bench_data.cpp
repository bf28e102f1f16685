#include "bench_data.h"

#include <vector>

#include "bench_env.h"

namespace vkt::bench {

bool random_bench_data() {
  return bench_env_word("VKT_BENCH_DATA", {"ramp", "random"}) == 1;
}

double hashed_unit(std::uint64_t i) {
  std::uint64_t h = i * 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 32;
  return static_cast<double>(h >> 40) / 16777216.0;
}

float hashed_value(std::uint64_t i, double scale, double offset) {
  return static_cast<float>(hashed_unit(i) * scale + offset);
}

Tensor f32_data(std::int64_t n, const Shape& shape, double scale, double offset) {
  if (random_bench_data()) {
    std::vector<float> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = hashed_value(i, scale, offset);
    return from_vector(v, shape, &cpu());
  }
  Tensor t = add(
      multiply(divide(iota({n}, DType::f32, std::nullopt, &cpu()), static_cast<double>(n)), scale),
      offset);
  return reshape(t, shape);
}

}  // namespace vkt::bench
