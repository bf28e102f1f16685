// NumPy golden cases for complex movement, indexing, reductions, scans, windows, dot, conv,
// determinant and the solvers (scripts/golden/gen_complex_data.py).
#include <gtest/gtest.h>

#include <set>

#include "golden/golden.h"
#include "support/compare.h"

namespace vkt {
namespace {

using nlohmann::json;

std::vector<std::int64_t> ints(const json& params, const char* key) {
  return params.contains(key) ? params.at(key).get<std::vector<std::int64_t>>()
                              : std::vector<std::int64_t>{};
}

std::vector<std::pair<std::int64_t, std::int64_t>> pairs(const json& params, const char* key) {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  for (const auto& p : params.at(key)) {
    out.emplace_back(p[0].get<std::int64_t>(), p[1].get<std::int64_t>());
  }
  return out;
}

TriangularTransform transform(const std::string& s) {
  if (s == "transpose") return TriangularTransform::transpose;
  if (s == "conjugate_transpose") return TriangularTransform::conjugate_transpose;
  return TriangularTransform::none;
}

Tensor run_case(const testing::GoldenCase& c) {
  const auto& in = c.inputs;
  const json& p = c.params;
  if (c.op == "transpose") return transpose(in[0], ints(p, "perm"));
  if (c.op == "reverse") return reverse(in[0], ints(p, "axes"));
  if (c.op == "broadcast") return broadcast(in[0], ints(p, "shape"), ints(p, "axes"));
  if (c.op == "slice")
    return slice(in[0], ints(p, "start"), ints(p, "lengths"), ints(p, "strides"));
  if (c.op == "put_slice") return put_slice(in[0], ints(p, "start"), in[1]);
  if (c.op == "concatenate") return concatenate(in, p.at("axis").get<std::int64_t>());
  if (c.op == "pad") {
    std::vector<PadAxis> config;
    for (const auto& a : p.at("config")) {
      config.push_back(
          {a[0].get<std::int64_t>(), a[1].get<std::int64_t>(), a[2].get<std::int64_t>()});
    }
    const std::complex<double> value(p.at("value")[0].get<double>(),
                                     p.at("value")[1].get<double>());
    return pad(in[0], Scalar(value), config);
  }
  if (c.op == "gather") return gather(in[0], in[1], ints(p, "axes"));
  if (c.op == "take") return take(in[0], in[1], p.at("axis").get<std::int64_t>());
  if (c.op == "take_along_axis") {
    return take_along_axis(in[0], in[1], p.at("axis").get<std::int64_t>());
  }
  if (c.op == "select") return select(in[0], in[1], in[2]);
  if (c.op == "indexed_add") return indexed_add(in[0], in[1], in[2], ints(p, "axes"));
  if (c.op == "indexed_put") return indexed_put(in[0], in[1], in[2], ints(p, "axes"));
  if (c.op == "sum") return sum(in[0], ints(p, "axes"));
  if (c.op == "product") return product(in[0], ints(p, "axes"));
  if (c.op == "all") return all(in[0], ints(p, "axes"));
  if (c.op == "any") return any(in[0], ints(p, "axes"));
  if (c.op == "cumulative_sum") {
    return cumulative_sum(in[0], p.at("axis").get<std::int64_t>(), p.at("reverse").get<bool>());
  }
  if (c.op == "cumulative_product") {
    return cumulative_product(in[0], p.at("axis").get<std::int64_t>(), p.at("reverse").get<bool>());
  }
  if (c.op == "window_sum" || c.op == "window_product") {
    WindowOptions o;
    o.strides = ints(p, "strides");
    o.padding = pairs(p, "padding");
    return c.op == "window_sum" ? window_sum(in[0], ints(p, "dims"), o)
                                : window_product(in[0], ints(p, "dims"), o);
  }
  if (c.op == "dot") {
    return dot(in[0], ints(p, "contract_a"), ints(p, "batch_a"), in[1], ints(p, "contract_b"),
               ints(p, "batch_b"));
  }
  if (c.op == "conv") {
    ConvOptions o;
    o.strides = ints(p, "strides");
    o.padding = pairs(p, "padding");
    o.feature_group_size = p.at("groups").get<std::int64_t>();
    return conv(in[0], in[1], o);
  }
  if (c.op == "determinant") return determinant(in[0]);
  if (c.op == "solve") return solve(in[0], in[1]);
  if (c.op == "triangular_solve") {
    return triangular_solve(in[0], in[1],
                            {p.at("left_side").get<bool>(), p.at("lower").get<bool>(),
                             transform(p.at("transform").get<std::string>())});
  }
  throw std::runtime_error("golden: unknown op " + c.op);
}

// Movement and indexing move values: exact. Arithmetic: the precision of the parts, loosened
// for the solvers (well-conditioned 4x4 systems).
testing::Tolerance tolerance_for(const testing::GoldenCase& c) {
  static const std::set<std::string> exact = {
      "transpose", "reverse", "broadcast", "slice", "put_slice", "concatenate", "pad",
      "gather",    "take",    "select",    "all",   "any",       "indexed_put", "take_along_axis"};
  if (exact.count(c.op) != 0) return {0, 0};
  const bool single = c.expected.dtype() == DType::c64;
  const bool solver = c.op == "solve" || c.op == "triangular_solve" || c.op == "determinant";
  if (single) return solver ? testing::Tolerance{1e-4, 1e-5} : testing::Tolerance{2e-5, 1e-5};
  return solver ? testing::Tolerance{1e-11, 1e-13} : testing::Tolerance{1e-12, 1e-13};
}

TEST(ComplexDataGolden, MatchesNumPy) {
  const auto cases = testing::load_golden("complex_data");
  ASSERT_GE(cases.size(), 100u);
  std::set<std::string> ops;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    ops.insert(c.op);
    EXPECT_TRUE(testing::tensors_close(run_case(c), c.expected, tolerance_for(c)));
  }
  EXPECT_GE(ops.size(), 26u);  // every op family of the generator ran
}

}  // namespace
}  // namespace vkt
