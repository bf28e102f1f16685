// Elementwise ops against NumPy's answers (scripts/golden/gen_elementwise.py).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "golden/golden.h"
#include "support/compare.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

TEST(ElementwiseGolden, EveryCaseMatchesNumPy) {
  const std::vector<testing::GoldenCase> cases = testing::load_golden("elementwise");
  ASSERT_GT(cases.size(), 300u);
  std::size_t unary_cases = 0, binary_cases = 0;
  for (const testing::GoldenCase& c : cases) {
    SCOPED_TRACE(c.name);
    const Op op = op_from_name(c.op);
    Tensor actual;
    if (op_family(op) == OpFamily::unary) {
      ASSERT_EQ(c.inputs.size(), 1u);
      actual = unary(op, c.inputs[0]);
      ++unary_cases;
    } else {
      ASSERT_EQ(op_family(op), OpFamily::binary);
      ASSERT_EQ(c.inputs.size(), 2u);
      actual = binary(op, c.inputs[0], c.inputs[1]);
      ++binary_cases;
    }
    EXPECT_TRUE(testing::tensors_close(actual, c.expected));
  }
  EXPECT_GT(unary_cases, 100u);
  EXPECT_GT(binary_cases, 100u);
}

TEST(ElementwiseGolden, EveryOpIsCovered) {
  const std::vector<testing::GoldenCase> cases = testing::load_golden("elementwise");
  std::set<std::string> seen;
  for (const testing::GoldenCase& c : cases) seen.insert(c.op);
  for (Op op : all_ops()) {
    const OpFamily f = op_family(op);
    if (f == OpFamily::unary || f == OpFamily::binary) {
      EXPECT_TRUE(seen.count(std::string(op_name(op)))) << op_name(op);
    }
  }
}

}  // namespace
}  // namespace vkt
