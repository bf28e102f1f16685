// NumPy golden cases for the movement and indexing families (scripts/golden/gen_movement.py).
#include <gtest/gtest.h>

#include "golden/golden.h"
#include "support/compare.h"

namespace vkt {
namespace {

using nlohmann::json;

Scalar json_scalar(const json& v) {
  if (v.is_number_integer()) return Scalar(v.get<std::int64_t>());
  return Scalar(testing::golden_number(v));
}

std::vector<std::int64_t> ints(const json& params, const char* key) {
  return params.contains(key) ? params.at(key).get<std::vector<std::int64_t>>()
                              : std::vector<std::int64_t>{};
}

Tensor run_case(const testing::GoldenCase& c) {
  const auto& in = c.inputs;
  const json& p = c.params;
  if (c.op == "transpose") return transpose(in[0], ints(p, "perm"));
  if (c.op == "reverse") return reverse(in[0], ints(p, "axes"));
  if (c.op == "broadcast") return broadcast(in[0], ints(p, "shape"), ints(p, "axes"));
  if (c.op == "slice") {
    return slice(in[0], ints(p, "start"), ints(p, "lengths"), ints(p, "strides"));
  }
  if (c.op == "put_slice") return put_slice(in[0], ints(p, "start"), in[1]);
  if (c.op == "concatenate") return concatenate(in, p.at("axis").get<std::int64_t>());
  if (c.op == "pad") {
    std::vector<PadAxis> config;
    for (const auto& a : p.at("config")) {
      config.push_back(
          {a[0].get<std::int64_t>(), a[1].get<std::int64_t>(), a[2].get<std::int64_t>()});
    }
    return pad(in[0], json_scalar(p.at("value")), config);
  }
  if (c.op == "take") return take(in[0], in[1], p.at("axis").get<std::int64_t>());
  if (c.op == "take_along_axis") {
    return take_along_axis(in[0], in[1], p.at("axis").get<std::int64_t>());
  }
  if (c.op == "gather") return gather(in[0], in[1], ints(p, "axes"));
  if (c.op == "select") return select(in[0], in[1], in[2]);
  if (c.op == "clip") return clip(in[0], in[1], in[2]);
  if (c.op == "indexed_add") return indexed_add(in[0], in[1], in[2], ints(p, "axes"));
  if (c.op == "indexed_put") return indexed_put(in[0], in[1], in[2], ints(p, "axes"));
  throw std::runtime_error("golden: unknown op " + c.op);
}

TEST(MovementGolden, MatchesNumPy) {
  const auto cases = testing::load_golden("movement");
  ASSERT_GT(cases.size(), 100u);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    // Movement and indexing are exact: zero tolerance even for floats.
    EXPECT_TRUE(testing::tensors_close(run_case(c), c.expected, testing::Tolerance{0, 0}));
  }
}

}  // namespace
}  // namespace vkt
