// Elementwise ops against NumPy's answers (scripts/golden/gen_elementwise.py; complex
// numbers and phase: gen_elementwise_complex.py).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "golden/golden.h"
#include "support/compare.h"
#include "vkt/backend/op_info.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

Tensor run_case(const testing::GoldenCase& c) {
  const Op op = op_from_name(c.op);
  if (op_family(op) == OpFamily::unary) {
    EXPECT_EQ(c.inputs.size(), 1u);
    return unary(op, c.inputs.at(0));
  }
  EXPECT_EQ(op_family(op), OpFamily::binary);
  EXPECT_EQ(c.inputs.size(), 2u);
  return binary(op, c.inputs.at(0), c.inputs.at(1));
}

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

// Complex inputs: every part within the tolerance of the parts' real type, scaled by |z|;
// inf and NaN parts where NumPy has them.
TEST(ElementwiseGolden, ComplexCasesMatchNumPy) {
  const std::vector<testing::GoldenCase> cases = testing::load_golden("elementwise_complex");
  ASSERT_GT(cases.size(), 150u);
  for (const testing::GoldenCase& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_TRUE(testing::tensors_close(run_case(c), c.expected));
  }
}

// Every elementwise op has real cases, and every one the op table lets take complex
// numbers (dtypes any or to_real) has c64 and c128 cases.
TEST(ElementwiseGolden, EveryOpIsCovered) {
  std::set<std::string> seen, seen_c64, seen_c128;
  for (const char* family : {"elementwise", "elementwise_complex"}) {
    for (const testing::GoldenCase& c : testing::load_golden(family)) {
      const DType d = c.inputs.at(0).dtype();
      (d == DType::c64 ? seen_c64 : d == DType::c128 ? seen_c128 : seen).insert(c.op);
    }
  }
  for (Op op : all_ops()) {
    const OpFamily f = op_family(op);
    if (f != OpFamily::unary && f != OpFamily::binary) continue;
    const std::string name(op_name(op));
    EXPECT_TRUE(seen.count(name)) << name;
    if (op_accepts(op, DType::c64)) {
      EXPECT_TRUE(seen_c64.count(name)) << name << " on c64";
      EXPECT_TRUE(seen_c128.count(name)) << name << " on c128";
    }
  }
}

}  // namespace
}  // namespace vkt
