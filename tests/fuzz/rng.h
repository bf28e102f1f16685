// A small deterministic generator (splitmix64): the same stream from a seed on every
// platform and standard library, so a seed reproduces a program anywhere.
#pragma once

#include <cstdint>
#include <vector>

namespace vkt::fuzz {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi] (hi >= lo).
  std::int64_t range(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  bool chance(double p) { return unit() < p; }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[static_cast<std::size_t>(range(0, static_cast<std::int64_t>(v.size()) - 1))];
  }

 private:
  std::uint64_t state_;
};

// A seed for item `i` of a run seeded with `seed`.
inline std::uint64_t mix(std::uint64_t seed, std::uint64_t i) {
  return Rng(seed ^ (i * 0xd1b54a32d192ed03ull)).next();
}

}  // namespace vkt::fuzz
