// The op table's grad column against the rules: every op marked `diff` has a rule, and an
// op marked `zero` or `none` has none (its gradient is decided by the column alone).
#include <gtest/gtest.h>

#include <string>

#include "grad/rules.h"
#include "vkt/backend/op_info.h"

namespace vkt::detail {
namespace {

TEST(GradRules, EveryDifferentiableOpHasARuleAndNoOtherDoes) {
  for (const Op op : all_ops()) {
    SCOPED_TRACE(std::string(op_name(op)));
    const bool has_rule = rule_of(op) != nullptr;
    // top_k's node is its indices (the core gathers the values with take_along_axis, whose
    // rule carries the gradient), so its row says diff while the node needs no rule.
    if (op == Op::top_k) {
      EXPECT_FALSE(has_rule);
      continue;
    }
    EXPECT_EQ(has_rule, op_info(op).grad == Grad::diff);
  }
}

}  // namespace
}  // namespace vkt::detail
