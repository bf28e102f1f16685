// NumPy golden cases for reductions, arg-reductions, windows and cumulative scans
// (tests/golden/data/reduce.json, written by scripts/golden/gen_reduce.py).
#include <gtest/gtest.h>

#include <string>

#include "golden/golden.h"
#include "support/compare.h"
#include "support/run_op.h"

namespace vkt {
namespace {

Tensor run_golden(const testing::GoldenCase& c) {
  const Tensor& t = c.inputs.at(0);
  const nlohmann::json& p = c.params;
  const Op op = op_from_name(c.op);
  switch (op_family(op)) {
    case OpFamily::reduce: {
      const Axes axes = p.at("axes").get<Axes>();
      return testing::run_reduce(op, t, axes, p.at("keep_axes").get<bool>());
    }
    case OpFamily::argreduce: {
      std::optional<std::int64_t> axis;
      if (!p.at("axis").is_null()) axis = p.at("axis").get<std::int64_t>();
      const bool keep = p.at("keep_axis").get<bool>();
      const TieBreak tie =
          p.at("tie_break").get<std::string>() == "high" ? TieBreak::high : TieBreak::low;
      // NumPy's indices are int64.
      return op == Op::argmax ? argmax(t, axis, keep, tie, DType::s64)
                              : argmin(t, axis, keep, tie, DType::s64);
    }
    case OpFamily::window: {
      const Shape window = p.at("window").get<Shape>();
      WindowOptions opts;
      opts.strides = p.at("strides").get<std::vector<std::int64_t>>();
      opts.dilations = p.at("dilations").get<std::vector<std::int64_t>>();
      for (const auto& pad : p.at("padding")) {
        opts.padding.emplace_back(pad.at(0).get<std::int64_t>(), pad.at(1).get<std::int64_t>());
      }
      return testing::run_window(op, t, window, opts);
    }
    case OpFamily::cumulative: {
      const std::int64_t axis = p.at("axis").get<std::int64_t>();
      return testing::run_scan(op, t, axis, p.at("reverse").get<bool>());
    }
    default:
      throw std::runtime_error("golden: " + c.op + " is not a reduce-family op");
  }
}

TEST(ReduceGolden, MatchesNumPy) {
  const auto cases = testing::load_golden("reduce");
  ASSERT_GT(cases.size(), 500u);
  for (const auto& c : cases) {
    Tensor got;
    try {
      got = run_golden(c);
    } catch (const std::exception& e) {
      ADD_FAILURE() << c.name << ": " << e.what();
      continue;
    }
    EXPECT_TRUE(testing::tensors_close(got, c.expected)) << c.name;
  }
}

}  // namespace
}  // namespace vkt
