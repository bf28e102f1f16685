// Inputs and checks for ±0 in max/min (the cpu's and the device's signed-zero tests): zeros
// of both signs in the orders a combine can meet them, laid out so every output of a
// reduction sees the whole order, and a check on the sign bit of every zero.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "vkt/vkt.h"

namespace vkt::testing {

using ZeroOrder = std::pair<std::string, std::vector<double>>;

// n >= 2 elements holding both zeros: -0s then +0s and the reverse, alternating from either
// sign, and one zero of the other sign first, in the middle (where two halves of a split
// meet) or last. Every third element, never one of those, is `fill` (below both zeros for
// max, above them for min), so the answer is always a zero. `all` false keeps the four
// orders that split work meets both ways (for inputs too long to try every order on).
inline std::vector<ZeroOrder> zero_orders(std::int64_t n, double fill, bool all = true) {
  const std::size_t size = static_cast<std::size_t>(n), half = size / 2;
  std::vector<ZeroOrder> orders;
  auto add = [&](const std::string& name, auto negative_at) {
    std::vector<double> v(size);
    for (std::size_t i = 0; i < size; ++i) v[i] = negative_at(i) ? -0.0 : 0.0;
    for (std::size_t i = 1; i + 1 < size; i += 3) {
      if (i != half) v[i] = fill;
    }
    orders.emplace_back(name, std::move(v));
  };
  add("-0 then +0", [&](std::size_t i) { return i < half; });
  add("+0 then -0", [&](std::size_t i) { return i >= half; });
  add("alternating from -0", [](std::size_t i) { return i % 2 == 0; });
  add("+0 in the middle", [&](std::size_t i) { return i != half; });
  if (!all) return orders;
  add("alternating from +0", [](std::size_t i) { return i % 2 == 1; });
  add("+0 first", [](std::size_t i) { return i != 0; });
  add("-0 first", [](std::size_t i) { return i == 0; });
  add("-0 in the middle", [&](std::size_t i) { return i == half; });
  add("+0 last", [&](std::size_t i) { return i != size - 1; });
  add("-0 last", [&](std::size_t i) { return i == size - 1; });
  return orders;
}

// A tensor of `shape` whose elements reduced into each output over `axes` (all when empty)
// are `order`, in row-major order of the reduced axes: every output's answer is the order's.
inline Tensor spread_order(DType d, const std::vector<double>& order, const Shape& shape,
                           const Axes& axes) {
  const std::size_t rank = shape.size();
  std::vector<bool> reduced(rank, axes.empty());
  for (std::int64_t a : axes)
    reduced[static_cast<std::size_t>(a < 0 ? a + std::int64_t(rank) : a)] = true;
  std::vector<double> v(static_cast<std::size_t>(numel(shape)));
  std::vector<std::int64_t> index(rank, 0);
  for (double& x : v) {
    std::int64_t at = 0;
    for (std::size_t a = 0; a < rank; ++a) {
      if (reduced[a]) at = at * shape[a] + index[a];
    }
    x = order[static_cast<std::size_t>(at)];
    for (std::size_t a = rank; a-- > 0;) {  // the next row-major index
      if (++index[a] < shape[a]) break;
      index[a] = 0;
    }
  }
  return as_type(from_vector(v, shape, &cpu()), d);
}

// Every element of t is a zero with the sign `negative`.
inline ::testing::AssertionResult all_zeros_signed(const Tensor& t, bool negative) {
  const std::vector<double> got = as_type(transfer(t, cpu()), DType::f64).to_vector<double>();
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] != 0.0 || std::signbit(got[i]) != negative) {
      return ::testing::AssertionFailure()
             << "element " << i << " is " << got[i] << ", want " << (negative ? "-0" : "+0");
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace vkt::testing
