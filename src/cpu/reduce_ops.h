// Accumulation rules shared by the cpu reductions, windows and scans.
//
// Each rule works on element type T through its compute type C = compute_t<T>:
//   Lane   the running value of one vector lane (cheap to step, vectorisable),
//   Total  where lanes are gathered (double for float sums, so long sums stay exact).
// step(Lane, C) adds one element; absorb(Total, Lane) and merge(Total, Total) combine
// partial results; identities are the results of an empty reduction.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "cpu/float_order.h"
#include "vkt/backend/op_info.h"
#include "vkt/dtype.h"
#include "vkt/error.h"

namespace vkt::cpu_kernels {

// Integers accumulate in uint64: wrapping is defined there (no signed-overflow UB), and
// converting back to any integer width keeps the low bits, which is the wrapped result.
// Complex sums gather lanes in complex<double>, as real float sums gather in double.
template <class C>
using sum_total_t =
    std::conditional_t<std::is_integral_v<C>, std::uint64_t,
                       std::conditional_t<is_complex_v<C>, std::complex<double>, double>>;

template <class T>
struct SumRule {
  using C = compute_t<T>;
  using Lane = std::conditional_t<std::is_integral_v<C>, std::uint64_t, C>;
  using Total = sum_total_t<C>;
  static Lane lane_init() { return Lane(0); }
  static Total total_init() { return Total(0); }
  static Lane step(Lane a, C x) { return a + static_cast<Lane>(x); }
  static Total absorb(Total t, Lane a) { return t + static_cast<Total>(a); }
  static Total merge(Total a, Total b) { return a + b; }
};

// Float products stay in the compute type so overflow to inf happens where NumPy's does.
template <class T>
struct ProductRule {
  using C = compute_t<T>;
  using Lane = std::conditional_t<std::is_integral_v<C>, std::uint64_t, C>;
  using Total = Lane;
  static Lane lane_init() { return Lane(1); }
  static Total total_init() { return Total(1); }
  static Lane step(Lane a, C x) { return a * static_cast<Lane>(x); }
  static Total absorb(Total t, Lane a) { return t * a; }
  static Total merge(Total a, Total b) { return a * b; }
};

// max/min (real dtypes only: complex has no order; kRuleAccepts keeps them from being
// instantiated on complex) propagate NaN: once the running value is NaN no comparison replaces it.
// The non-short-circuit `|` keeps the step a branch-free select (vectorised in the row-wise loops;
// GCC 12 does not vectorise it in reduce_contiguous's 16-lane loop).
template <class T>
struct MaxRule {
  using C = compute_t<T>;
  using Lane = C;
  using Total = C;
  static Lane lane_init() {
    if constexpr (std::is_floating_point_v<C>) {
      return -std::numeric_limits<C>::infinity();
    } else {
      return std::numeric_limits<C>::lowest();
    }
  }
  static Total total_init() { return lane_init(); }
  static Lane step(Lane a, C x) { return pick_max(x, a); }
  static Total absorb(Total t, Lane a) { return step(t, a); }
  static Total merge(Total a, Total b) { return step(a, b); }
};

template <class T>
struct MinRule {
  using C = compute_t<T>;
  using Lane = C;
  using Total = C;
  static Lane lane_init() {
    if constexpr (std::is_floating_point_v<C>) {
      return std::numeric_limits<C>::infinity();
    } else {
      return std::numeric_limits<C>::max();
    }
  }
  static Total total_init() { return lane_init(); }
  static Lane step(Lane a, C x) { return pick_min(x, a); }
  static Total absorb(Total t, Lane a) { return step(t, a); }
  static Total merge(Total a, Total b) { return step(a, b); }
};

template <class Rule>
inline constexpr bool kIsMaxRule = std::is_same_v<Rule, MaxRule<typename Rule::C>>;
// Is the rule defined for element type T: everything but max/min on complex.
template <class T, class Rule>
inline constexpr bool kRuleAccepts =
    !is_complex_v<T> || !(std::is_same_v<Rule, MaxRule<T>> || std::is_same_v<Rule, MinRule<T>>);
template <class Rule>
inline constexpr bool kIsMinRule = std::is_same_v<Rule, MinRule<typename Rule::C>>;

// all/any: an element is true when it is not zero (NaN is true; a complex element when
// either part is nonzero, which is complex's operator!=).
template <class T>
struct AllRule {
  using C = compute_t<T>;
  using Lane = std::uint8_t;
  using Total = std::uint8_t;
  static Lane lane_init() { return 1; }
  static Total total_init() { return 1; }
  static Lane step(Lane a, C x) { return static_cast<Lane>(a & (x != C(0))); }
  static Total absorb(Total t, Lane a) { return static_cast<Total>(t & a); }
  static Total merge(Total a, Total b) { return static_cast<Total>(a & b); }
};

template <class T>
struct AnyRule {
  using C = compute_t<T>;
  using Lane = std::uint8_t;
  using Total = std::uint8_t;
  static Lane lane_init() { return 0; }
  static Total total_init() { return 0; }
  static Lane step(Lane a, C x) { return static_cast<Lane>(a | (x != C(0))); }
  static Total absorb(Total t, Lane a) { return static_cast<Total>(t | a); }
  static Total merge(Total a, Total b) { return static_cast<Total>(a | b); }
};

// Converts an accumulated value to the output element type: integers keep their low bits
// (wrapping), halves round through float.
template <class Out, class V>
inline Out to_output(V v) {
  if constexpr (is_half_v<Out>) {
    return Out(static_cast<float>(v));
  } else {
    return static_cast<Out>(v);
  }
}

// The rule an op combines with (the op table's combine column); visit_rule calls
// f(RuleTag<Rule>{}) once per call, so the typed loops below it carry no per-element switch.
template <template <class> class Rule>
struct RuleTag {
  template <class T>
  using type = Rule<T>;
};

inline Combine rule_of(Op op) {
  const Combine c = op_combine(op);
  if (c == Combine::none || c == Combine::argmax || c == Combine::argmin) {
    throw Unsupported("[" + std::string(op_name(op)) + "] has no element-combining rule");
  }
  return c;
}

template <class F>
decltype(auto) visit_rule(Combine kind, F&& f) {
  switch (kind) {
    case Combine::product:
      return f(RuleTag<ProductRule>{});
    case Combine::max:
      return f(RuleTag<MaxRule>{});
    case Combine::min:
      return f(RuleTag<MinRule>{});
    case Combine::all:
      return f(RuleTag<AllRule>{});
    case Combine::any:
      return f(RuleTag<AnyRule>{});
    default:  // sum (rule_of admits no other)
      return f(RuleTag<SumRule>{});
  }
}

}  // namespace vkt::cpu_kernels
