// NumPy golden cases for sort, argsort, top_k (indices), dot, dot/2, matmul
// (scripts/golden/gen_sortlinalg.py).
#include <gtest/gtest.h>

#include "core/top_k.h"
#include "golden/golden.h"
#include "support/compare.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

Tensor run_case(const testing::GoldenCase& c) {
  const auto& in = c.inputs;
  const auto& p = c.params;
  if (c.op == "sort" || c.op == "argsort") {
    const Direction dir = p.at("descending").get<bool>() ? Direction::desc : Direction::asc;
    const std::int64_t axis = p.at("axis").get<std::int64_t>();
    // NumPy's indices are int64.
    return c.op == "sort" ? sort(in[0], axis, dir) : argsort(in[0], axis, dir, DType::s64);
  }
  if (c.op == "top_k") return detail::top_k_indices(in[0], p.at("k").get<std::int64_t>());
  if (c.op == "dot") {
    return dot(in[0], p.at("contract_a").get<Axes>(), p.at("batch_a").get<Axes>(), in[1],
               p.at("contract_b").get<Axes>(), p.at("batch_b").get<Axes>());
  }
  if (c.op == "dot2") return dot(in[0], in[1]);
  if (c.op == "matmul") return matmul(in[0], in[1]);
  throw std::runtime_error("golden: unknown op " + c.op);
}

TEST(SortLinalgGolden, MatchesNumpy) {
  const auto cases = testing::load_golden("sortlinalg");
  ASSERT_GT(cases.size(), 150u);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const Tensor got = run_case(c);
    EXPECT_TRUE(testing::tensors_close(got, c.expected));
    if (c.op == "sort") {  // sorting moves elements: bit-exact, -0.0 and NaN included
      EXPECT_EQ(testing::as_bits(got), testing::as_bits(c.expected));
    }
  }
}

}  // namespace
}  // namespace vkt
