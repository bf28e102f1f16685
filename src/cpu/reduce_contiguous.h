// The cpu reductions' inner loop over contiguous elements, their output types and rules,
// shared by reduce.cpp and vkt::compile's fused reductions (compiled.cpp), which must sum
// in the same order to give eager's result bit for bit.
#pragma once

#include <algorithm>
#include <string>
#include <type_traits>

#include "cpu/extreme_simd.h"
#include "cpu/reduce_ops.h"
#include "vkt/error.h"
#include "vkt/op.h"

namespace vkt::cpu_kernels {

// Reduces n contiguous elements into t: 16 lanes per block of 2048 elements, each block's
// lanes absorbed into the Total (double for float sums: blocked summation stays accurate).
// A run split at multiples of kContiguousBlock gives the same total piece by piece.
inline constexpr std::int64_t kContiguousBlock = 2048;

template <class T, class Rule>
typename Rule::Total reduce_contiguous(const T* x, std::int64_t n, typename Rule::Total t) {
  using C = typename Rule::C;
  using Lane = typename Rule::Lane;
  constexpr std::int64_t kLanes = 16, kBlock = kContiguousBlock;
  for (std::int64_t b = 0; b < n; b += kBlock) {
    const std::int64_t m = std::min(kBlock, n - b);
    const T* p = x + b;
#ifdef VKT_EXTREME_SIMD
    if constexpr ((kIsMaxRule<Rule> || kIsMinRule<Rule>)&&(std::is_same_v<T, float> ||
                                                           std::is_same_v<T, double>)) {
      bool special = false;
      const C extreme = simd_extreme<C, kIsMaxRule<Rule>>(p, m, special);
      // A block holding NaN or inf, or whose extreme is a zero (maxps/minps keep either
      // zero on a tie), takes the exact loop below.
      if (!special && extreme != C(0)) {
        t = Rule::absorb(t, extreme);
        continue;
      }
    }
#endif
    Lane acc[kLanes];
    for (Lane& a : acc) a = Rule::lane_init();
    std::int64_t i = 0;
    for (; i + kLanes <= m; i += kLanes) {
      for (std::int64_t j = 0; j < kLanes; ++j) {
        acc[j] = Rule::step(acc[j], static_cast<C>(p[i + j]));
      }
    }
    for (; i < m; ++i) acc[0] = Rule::step(acc[0], static_cast<C>(p[i]));
    for (Lane a : acc) t = Rule::absorb(t, a);
  }
  return t;
}

// The output element type the core gives each (input, rule): integer sums and products
// widen to 64 bits, all/any give u8, everything else keeps the input type.
template <class T, class Rule>
using reduce_output_t = std::conditional_t<
    std::is_same_v<Rule, AllRule<T>> || std::is_same_v<Rule, AnyRule<T>>, std::uint8_t,
    std::conditional_t<std::is_integral_v<T> && (std::is_same_v<Rule, SumRule<T>> ||
                                                 std::is_same_v<Rule, ProductRule<T>>),
                       std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>, T>>;

}  // namespace vkt::cpu_kernels
