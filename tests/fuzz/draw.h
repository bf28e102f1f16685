// Random shapes and axis arguments for fuzz programs, shared by the generation stages
// (generate.cpp, generate_complex.cpp) so each draws them the same way from its own stream.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "fuzz/program.h"
#include "fuzz/rng.h"
#include "vkt/vkt.h"

namespace vkt::fuzz {

constexpr std::int64_t kMaxLeaf = 256;     // elements in a generated leaf
constexpr std::int64_t kMaxResult = 4096;  // larger results are dropped from the program
// The long-rows stage (generate.cpp): one leaf past kMaxResult, results up to this size, so
// multi-workgroup and multi-pass paths (chunked reductions and scans, the radix sort) run.
constexpr std::int64_t kMaxLarge = 65536;

// An axis length: 0 sometimes, 1 often, else 2..7.
inline std::int64_t draw_dim(Rng& rng) {
  const double r = rng.unit();
  if (r < 0.06) return 0;
  if (r < 0.3) return 1;
  return rng.range(2, 7);
}

// A shape of `rank` axes (random rank 0..5 when negative), at most kMaxLeaf elements.
inline Shape draw_shape(Rng& rng, std::int64_t rank = -1) {
  if (rank < 0) rank = rng.pick(std::vector<std::int64_t>{0, 1, 1, 2, 2, 2, 3, 3, 4, 5});
  Shape s;
  for (std::int64_t i = 0; i < rank; ++i) s.push_back(draw_dim(rng));
  while (numel(s) > kMaxLeaf) {
    auto it = std::max_element(s.begin(), s.end());
    *it = (*it + 1) / 2;
  }
  return s;
}

// A shape of 1 to 3 axes holding more than kMaxResult and at most kMaxLarge elements, often
// just past a power of two (a partial last workgroup or chunk).
inline Shape draw_large_shape(Rng& rng) {
  const std::int64_t total =
      rng.chance(0.5) ? rng.pick(std::vector<std::int64_t>{4097, 8193, 16385, 32769, 65536})
                      : rng.range(kMaxResult + 1, kMaxLarge);
  const std::int64_t rank = rng.range(1, 3);
  if (rank == 1) return {total};
  const std::int64_t rows = rng.chance(0.3) ? 1 : rng.range(2, rank == 2 ? 300 : 16);
  const std::int64_t lead = rank == 3 ? rng.range(1, 4) : 1;
  const std::int64_t last = std::max<std::int64_t>(total / (rows * lead), 1);
  return rank == 2 ? Shape{rows, last} : Shape{lead, rows, last};
}

// An axis of a rank-r tensor, sometimes negative, rarely out of range (an AxisError).
inline std::int64_t draw_axis(Rng& rng, std::int64_t r) {
  if (rng.chance(0.03) || r == 0) return rng.range(-1, 1) + r;
  const std::int64_t a = rng.range(0, r - 1);
  return rng.chance(0.2) ? a - r : a;
}

// Each of r axes with probability p.
inline Axes draw_subset(Rng& rng, std::int64_t r, double p = 0.5) {
  Axes out;
  for (std::int64_t i = 0; i < r; ++i) {
    if (rng.chance(p)) out.push_back(i);
  }
  return out;
}

// A random permutation of r axes (the identity with probability `identity`).
inline Axes draw_permutation(Rng& rng, std::int64_t r, double identity) {
  Axes perm(static_cast<std::size_t>(r));
  std::iota(perm.begin(), perm.end(), 0);
  if (rng.chance(identity)) return perm;
  for (std::size_t i = perm.size(); i > 1; --i) {
    std::swap(perm[i - 1],
              perm[static_cast<std::size_t>(rng.range(0, static_cast<std::int64_t>(i) - 1))]);
  }
  return perm;
}

// A shape with the same element count: the prime factors spread over 0..5 axes, sometimes
// one axis -1.
inline Shape draw_refactor(Rng& rng, const Shape& s) {
  std::int64_t count = numel(s);
  Shape out;
  if (count == 0) {
    out = draw_shape(rng, rng.range(1, 4));
    out[static_cast<std::size_t>(rng.range(0, static_cast<std::int64_t>(out.size()) - 1))] = 0;
    return out;
  }
  std::vector<std::int64_t> f;
  for (std::int64_t p = 2; p * p <= count; ++p) {
    while (count % p == 0) {
      f.push_back(p);
      count /= p;
    }
  }
  if (count > 1) f.push_back(count);
  const std::int64_t rank = rng.range(0, 5);
  if (rank == 0 && !f.empty()) return {numel(s)};
  out.assign(static_cast<std::size_t>(std::max<std::int64_t>(rank, 1)), 1);
  for (std::int64_t p : f)
    out[static_cast<std::size_t>(rng.range(0, static_cast<std::int64_t>(out.size()) - 1))] *= p;
  if (rank == 0) out.clear();
  if (!out.empty() && rng.chance(0.25))
    out[static_cast<std::size_t>(rng.range(0, static_cast<std::int64_t>(out.size()) - 1))] = -1;
  return out;
}

// A shape that broadcasts against s: some axes 1, sometimes only a suffix of s.
inline Shape draw_broadcastable(Rng& rng, Shape s) {
  for (auto& x : s) {
    if (rng.chance(0.3)) x = 1;
  }
  if (!s.empty() && rng.chance(0.3))
    s.erase(s.begin(), s.begin() + rng.range(0, static_cast<std::int64_t>(s.size())));
  return s;
}

// A window op's arguments for a value of shape s: window sizes, sometimes strides,
// dilations and padding.
inline void draw_window(Rng& rng, const Shape& s, Node& n) {
  std::vector<std::int64_t> w, st, dl, lo, hi;
  for (std::int64_t v : s) {
    w.push_back(rng.range(1, std::max<std::int64_t>(1, std::min<std::int64_t>(v, 3))));
    st.push_back(rng.range(1, 2));
    dl.push_back(rng.range(1, 2));
    lo.push_back(rng.range(0, 1));
    hi.push_back(rng.range(0, 2));
  }
  n.ints["window"] = w;
  if (rng.chance(0.5)) n.ints["strides"] = st;
  if (rng.chance(0.3)) n.ints["dilations"] = dl;
  if (rng.chance(0.4)) {
    n.ints["pad_lo"] = lo;
    n.ints["pad_hi"] = hi;
  }
}

// matmul or Nx.dot/2 of a value of shape a: sets n.op and returns b's shape, {K, N}
// (batched like a for matmul) or {K}.
inline Shape draw_matmul(Rng& rng, const Shape& a, Node& n) {
  const auto r = static_cast<std::int64_t>(a.size());
  n.op = rng.chance(0.5) ? "matmul" : "dot2";
  Shape bs;
  if (n.op == "matmul" && r > 2) bs.assign(a.begin(), a.end() - 2);
  bs.push_back(r == 0 ? 1 : a.back());
  if (r >= 2 || rng.chance(0.5)) bs.push_back(rng.range(1, 5));
  return bs;
}

// pad's low, high and interior padding for a rank-r value (negative low and high crop).
inline void draw_pad(Rng& rng, std::int64_t r, Node& n) {
  std::vector<std::int64_t> lo, hi, in;
  for (std::int64_t i = 0; i < r; ++i) {
    lo.push_back(rng.range(-2, 2));
    hi.push_back(rng.range(-2, 2));
    in.push_back(rng.chance(0.7) ? 0 : rng.range(1, 2));
  }
  n.ints["lo"] = lo;
  n.ints["hi"] = hi;
  n.ints["interior"] = in;
}

}  // namespace vkt::fuzz
