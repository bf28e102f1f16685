// all_close, reduce / window_reduce with a function (both the Scalar and the typed form) and
// window_scatter_max/min against tests/golden/data/apigaps.json (scripts/golden/gen_apigaps.py).
#include <gtest/gtest.h>

#include <algorithm>

#include "golden/golden.h"
#include "support/compare.h"

namespace vkt {
namespace {

WindowOptions window_options(const nlohmann::json& p) {
  WindowOptions opts;
  opts.strides = p.at("strides").get<std::vector<std::int64_t>>();
  if (p.contains("dilations")) opts.dilations = p.at("dilations").get<std::vector<std::int64_t>>();
  for (const auto& pad : p.at("padding")) {
    opts.padding.emplace_back(pad.at(0).get<std::int64_t>(), pad.at(1).get<std::int64_t>());
  }
  return opts;
}

Scalar scalar_fn(bool add, Scalar x, Scalar acc) {
  if (x.is_float()) {
    return add ? x.as_double() + acc.as_double() : std::max(x.as_double(), acc.as_double());
  }
  return add ? x.as<std::int64_t>() + acc.as<std::int64_t>()
             : std::max(x.as<std::int64_t>(), acc.as<std::int64_t>());
}

// The function-taking ops, in the Scalar form (typed = false) or the typed form.
Tensor run_function_op(const testing::GoldenCase& c, bool typed) {
  const Tensor& t = c.inputs.at(0);
  const nlohmann::json& p = c.params;
  const bool add = p.at("fn").get<std::string>() == "add";
  const std::int64_t acc = p.at("acc").get<std::int64_t>();
  const bool window = c.op == "window_reduce";
  if (!typed) {
    ReduceFunction fn = [add](Scalar x, Scalar a) { return scalar_fn(add, x, a); };
    if (window) return window_reduce(t, acc, p.at("window").get<Shape>(), window_options(p), fn);
    return reduce(t, acc, fn, p.at("axes").get<Axes>(), p.at("keep_axes").get<bool>());
  }
  return visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto fn = [add](T x, T a) { return add ? static_cast<T>(x + a) : std::max(x, a); };
    if (window) {
      return window_reduce_typed<T>(t, static_cast<T>(acc), p.at("window").get<Shape>(),
                                    window_options(p), fn);
    }
    return reduce_typed<T>(t, static_cast<T>(acc), fn, p.at("axes").get<Axes>(),
                           p.at("keep_axes").get<bool>());
  });
}

TEST(ApiGapsGolden, AllCloseMatchesNumPy) {
  for (const auto& c : testing::load_golden("apigaps")) {
    if (c.op != "all_close") continue;
    const AllCloseOptions opts{c.params.at("rtol").get<double>(), c.params.at("atol").get<double>(),
                               c.params.at("equal_nan").get<bool>()};
    EXPECT_TRUE(testing::tensors_close(all_close(c.inputs[0], c.inputs[1], opts), c.expected))
        << c.name;
  }
}

TEST(ApiGapsGolden, ReduceWithFunctionMatchesNumPy) {
  int seen = 0;
  for (const auto& c : testing::load_golden("apigaps")) {
    if (c.op != "reduce" && c.op != "window_reduce") continue;
    ++seen;
    for (bool typed : {false, true}) {
      EXPECT_TRUE(testing::tensors_close(run_function_op(c, typed), c.expected))
          << c.name << (typed ? " (typed)" : " (Scalar)");
    }
  }
  EXPECT_GT(seen, 20);
}

TEST(ApiGapsGolden, WindowScatterMatchesReference) {
  int seen = 0;
  for (const auto& c : testing::load_golden("apigaps")) {
    if (c.op != "window_scatter_max" && c.op != "window_scatter_min") continue;
    ++seen;
    const Shape window = c.params.at("window").get<Shape>();
    const Scalar init = c.params.at("init").get<std::int64_t>();
    const WindowOptions opts = window_options(c.params);
    const Tensor got = c.op == "window_scatter_max"
                           ? window_scatter_max(c.inputs[0], c.inputs[1], init, window, opts)
                           : window_scatter_min(c.inputs[0], c.inputs[1], init, window, opts);
    EXPECT_TRUE(testing::tensors_close(got, c.expected)) << c.name;
  }
  EXPECT_GT(seen, 20);
}

}  // namespace
}  // namespace vkt
