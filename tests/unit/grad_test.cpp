// vkt::vjp / grad against central differences in f64: every written rule at several shapes
// (size-1 axes, broadcasting), and a deliberately wrong gradient the checker must reject.
#include "vkt/grad.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/grad_check.h"
#include "vkt/compile.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using grad_check::check;
using grad_check::Fn;
using grad_check::values;
using grad_check::worst_error;

TEST(Grad, TheCheckerRejectsAWrongGradient) {
  const Fn f = [](const std::vector<Tensor>& a) { return sum(multiply(sin(a[0]), a[0])); };
  const Tensor x = values({5}, -1, 1, 1);
  const std::vector<Tensor> right =
      grad([&](const std::vector<Tensor>& a) { return std::vector<Tensor>{f(a)}; }, {x});
  EXPECT_LT(worst_error(f, {x}, right), 1e-6);
  const std::vector<Tensor> wrong = {multiply(cos(x), x)};  // the product rule forgotten
  EXPECT_GT(worst_error(f, {x}, wrong), 1e-2);
}

TEST(Grad, UnaryRules) {
  const std::vector<std::pair<const char*, Tensor (*)(const Tensor&)>> in_unit = {
      {"exp", &exp},   {"expm1", &expm1},     {"log1p", &log1p}, {"sigmoid", &sigmoid},
      {"sin", &sin},   {"cos", &cos},         {"tan", &tan},     {"sinh", &sinh},
      {"cosh", &cosh}, {"tanh", &tanh},       {"asin", &asin},   {"acos", &acos},
      {"atan", &atan}, {"asinh", &asinh},     {"atanh", &atanh}, {"erf", &erf},
      {"erfc", &erfc}, {"erf_inv", &erf_inv}, {"abs", &abs},     {"negate", &negate},
      {"cbrt", &cbrt}};
  for (const auto& [name, op] : in_unit) {
    check(name, [op = op](const std::vector<Tensor>& a) { return sum(op(a[0])); },
          {values({2, 3}, -0.8, 0.8, 2)});
  }
  const std::vector<std::pair<const char*, Tensor (*)(const Tensor&)>> positive = {
      {"log", &log}, {"sqrt", &sqrt}, {"rsqrt", &rsqrt}, {"acosh", &acosh}};
  for (const auto& [name, op] : positive) {
    check(name, [op = op](const std::vector<Tensor>& a) { return sum(op(a[0])); },
          {values({4}, 1.2, 3.0, 3)});
  }
}

TEST(Grad, BinaryRulesUndoBroadcasting) {
  const std::vector<std::pair<const char*, Tensor (*)(const Tensor&, const Tensor&)>> ops = {
      {"add", &add},       {"subtract", &subtract}, {"multiply", &multiply},
      {"divide", &divide}, {"pow", &pow},           {"atan2", &atan2},
      {"max", &max},       {"min", &min},           {"remainder", &remainder}};
  for (const auto& [name, op] : ops) {
    for (const auto& [sa, sb] : std::vector<std::pair<Shape, Shape>>{
             {{3, 4}, {3, 4}}, {{3, 4}, {4}}, {{3, 1}, {1, 4}}, {{}, {2, 3}}}) {
      check(std::string(name) + " " + shape_str(sa) + " " + shape_str(sb),
            [op = op](const std::vector<Tensor>& a) { return sum(multiply(op(a[0], a[1]), a[0])); },
            {values(sa, 0.5, 2.0, 4), values(sb, 0.6, 1.9, 5)});
    }
  }
}

TEST(Grad, ConstantsMadeOnTheTracedBackendAreConstants) {
  const Tensor x = values({3, 3}, -1, 1, 18);
  const std::vector<Tensor> g = grad(
      [](const std::vector<Tensor>& a) {
        const Tensor shift = eye(3, DType::f64, &a[0].backend());
        return std::vector<Tensor>{sum(
            multiply(add(a[0], shift), iota({3, 3}, DType::f64, std::nullopt, &a[0].backend())))};
      },
      {x});
  EXPECT_EQ(g[0].to_vector<double>(), iota({3, 3}, DType::f64).to_vector<double>());
}

TEST(Grad, PowAtAZeroBaseOrExponent) {
  // d/db 0^b = 0 (not 0 * log 0) and d/da a^0 = 0 (not 0 * 0^-1), as JAX.
  const std::vector<Tensor> g =
      grad([](const std::vector<Tensor>& a) { return std::vector<Tensor>{sum(pow(a[0], a[1]))}; },
           {from_vector<double>({0, 0, 2}), from_vector<double>({0.5, 0, 3})});
  EXPECT_EQ(g[0].to_vector<double>(), (std::vector<double>{INFINITY, 0, 12}));
  EXPECT_EQ(g[1].to_vector<double>(), (std::vector<double>{0, 0, 8 * std::log(2.0)}));
}

TEST(Grad, MaxAndMinSplitTies) {
  const Tensor x = from_vector<double>({1, 2, 3}, &cpu());
  const TensorFunction f = [](const std::vector<Tensor>& a) {
    return std::vector<Tensor>{sum(max(a[0], a[1]))};
  };
  const std::vector<Tensor> g = grad(f, {x, x});
  EXPECT_EQ(g[0].to_vector<double>(), (std::vector<double>{0.5, 0.5, 0.5}));
  EXPECT_EQ(g[1].to_vector<double>(), (std::vector<double>{0.5, 0.5, 0.5}));
  // relu as max with a rank-0 zero, min the same way: a tie at 0 halves, a NaN result gives
  // neither input a share; the rank-0 side sums its shares.
  const Tensor v = from_vector<double>({-1, 0, 2, NAN}, &cpu());
  const Tensor zero = full({}, 0.0, DType::f64, &cpu());
  const std::vector<Tensor> relu = grad(f, {v, zero});
  EXPECT_EQ(relu[0].to_vector<double>(), (std::vector<double>{0, 0.5, 1, 0}));
  EXPECT_EQ(relu[1].to_vector<double>(), (std::vector<double>{1.5}));
  const TensorFunction lower = [](const std::vector<Tensor>& a) {
    return std::vector<Tensor>{sum(min(a[0], a[1]))};
  };
  EXPECT_EQ(grad(lower, {v, zero})[0].to_vector<double>(), (std::vector<double>{1, 0.5, 0, 0}));
}

TEST(Grad, ReductionsAndMovement) {
  const Tensor x = values({2, 3, 4}, -1, 1, 6);
  const Tensor w = values({4, 5}, -1, 1, 7);
  const std::vector<std::pair<std::string, Fn>> cases = {
      {"sum axis", [](const std::vector<Tensor>& a) { return sum(exp(sum(a[0], {1}))); }},
      {"sum keep",
       [](const std::vector<Tensor>& a) {
         return sum(multiply(sum(a[0], {0, 2}, true), a[0]));
       }},
      {"reduce_max", [](const std::vector<Tensor>& a) { return sum(reduce_max(a[0], {2})); }},
      {"reduce_min",
       [](const std::vector<Tensor>& a) {
         return sum(reduce_min(a[0], {0, 1}));
       }},
      {"transpose",
       [](const std::vector<Tensor>& a) {
         return sum(multiply(transpose(a[0], {2, 0, 1}), iota({4, 2, 3}, DType::f64)));
       }},
      {"broadcast",
       [](const std::vector<Tensor>& a) {
         return sum(sin(broadcast(slice(a[0], {0, 0, 0}, {2, 1, 4}), {5, 2, 3, 4})));
       }},
      {"reverse",
       [](const std::vector<Tensor>& a) {
         return sum(multiply(reverse(a[0], {1}), iota({2, 3, 4}, DType::f64)));
       }},
      {"pad",
       [](const std::vector<Tensor>& a) {
         return sum(exp(pad(a[0], 0.5, {{1, -1, 0}, {0, 2, 1}, {-1, 1, 2}})));
       }},
      {"slice",
       [](const std::vector<Tensor>& a) {
         return sum(exp(slice(a[0], {0, 1, 0}, {2, 2, 2}, {1, 1, 3})));
       }},
      {"concatenate",
       [](const std::vector<Tensor>& a) {
         return sum(multiply(concatenate({a[0], sin(a[0])}, 1), iota({2, 6, 4}, DType::f64)));
       }},
      {"cumulative_sum",
       [](const std::vector<Tensor>& a) { return sum(sin(cumulative_sum(a[0], 2))); }},
      {"select",
       [](const std::vector<Tensor>& a) {
         return sum(select(greater(a[0], 0), exp(a[0]), multiply(a[0], 3.0)));
       }},
      {"dot",
       [&w](const std::vector<Tensor>& a) {
         return sum(sin(dot(reshape(a[0], {6, 4}), w)));
       }},
  };
  for (const auto& [name, f] : cases) check(name, f, {x});
}

TEST(Grad, AsTypeSendsTheCotangentBackInTheInputsDtype) {
  // Central differences cannot see through f32 rounding: the exact value is checked instead.
  const std::vector<Tensor> g = grad(
      [](const std::vector<Tensor>& a) {
        return std::vector<Tensor>{
            as_type(sum(multiply(as_type(a[0], DType::f32), 2.0f)), DType::f64)};
      },
      {values({3}, -1, 1, 14)});
  EXPECT_EQ(g[0].dtype(), DType::f64);
  EXPECT_EQ(g[0].to_vector<double>(), (std::vector<double>{2, 2, 2}));
}

TEST(Grad, DotWithBatchAndContractionAxes) {
  const Tensor a = values({2, 3, 4}, -1, 1, 8);
  const Tensor b = values({4, 2, 5}, -1, 1, 9);
  check("dot_general",
        [](const std::vector<Tensor>& v) {
          return sum(sin(dot(v[0], {2}, {0}, v[1], {0}, {1})));  // [2, 3, 5]
        },
        {a, b});
  check("matmul", [](const std::vector<Tensor>& v) { return sum(tanh(matmul(v[0], v[1]))); },
        {values({3, 2, 4}, -1, 1, 10), values({3, 4, 2}, -1, 1, 11)});
}

TEST(Grad, VjpTakesACotangentPerOutputAndIntegersGetZeros) {
  const Tensor x = values({3}, 0.5, 1.5, 12);
  const Tensor n = iota({3}, DType::s32);
  Vjp v = vjp(
      [](const std::vector<Tensor>& a) {
        return std::vector<Tensor>{exp(a[0]), multiply(a[0], as_type(a[1], DType::f64))};
      },
      {x, n});
  ASSERT_EQ(v.outputs.size(), 2u);
  const Tensor ones = full({3}, 1.0, DType::f64);
  const std::vector<Tensor> g = v.pullback({ones, ones});
  const std::vector<double> ex = exp(x).to_vector<double>();
  const std::vector<double> got = g[0].to_vector<double>();
  for (std::size_t i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(got[i], ex[i] + static_cast<double>(i));
  EXPECT_EQ(g[1].dtype(), DType::s32);
  EXPECT_EQ(g[1].to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 0, 0}));
  EXPECT_THROW(v.pullback({ones}), Error);
  EXPECT_THROW(v.pullback({ones, full({2}, 1.0, DType::f64)}), ShapeError);
}

TEST(Grad, ErrorsNameTheOp) {
  const Tensor x = values({4}, 0.5, 1.5, 13);
  auto message = [&](const TensorFunction& f) {
    try {
      grad(f, {x});
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // A user's combining function has no derivative: an error naming the op, not a zero.
  EXPECT_NE(message([](const std::vector<Tensor>& a) {
              return std::vector<Tensor>{reduce(a[0], 0.0, [](Scalar e, Scalar acc) {
                return Scalar(e.as_double() + acc.as_double());
              })};
            }).find("[grad] reduce has no derivative"),
            std::string::npos);
  EXPECT_NE(message([](const std::vector<Tensor>& a) {
              return std::vector<Tensor>{exp(a[0])};
            }).find("one float scalar"),
            std::string::npos);
  EXPECT_THROW(
      grad([](const std::vector<Tensor>& a) { return std::vector<Tensor>{sum(a[0])}; }, {x}, {1}),
      Error);
  // Rounding has a zero derivative, not an error.
  const std::vector<Tensor> g = grad(
      [](const std::vector<Tensor>& a) { return std::vector<Tensor>{sum(add(floor(a[0]), a[0]))}; },
      {x});
  EXPECT_EQ(g[0].to_vector<double>(), (std::vector<double>{1, 1, 1, 1}));
}

TEST(Grad, StopGradientTreatsAValueAsAConstant) {
  const Tensor x = values({3}, 0.5, 1.5, 15);
  // d/dx sum(x * sg(x)) = sg(x) = x; without the stop it would be 2x.
  const std::vector<Tensor> g = grad(
      [](const std::vector<Tensor>& a) {
        return std::vector<Tensor>{sum(multiply(a[0], stop_gradient(a[0])))};
      },
      {x});
  EXPECT_EQ(g[0].to_vector<double>(), x.to_vector<double>());
  // A stopped output gets no cotangent; outside a trace stop_gradient is the identity.
  Vjp v = vjp(
      [](const std::vector<Tensor>& a) { return std::vector<Tensor>{stop_gradient(exp(a[0]))}; },
      {x});
  EXPECT_EQ(v.pullback({full({3}, 1.0, DType::f64)})[0].to_vector<double>(),
            (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(stop_gradient(x).to_vector<double>(), x.to_vector<double>());
}

TEST(Grad, GradAsAFunctionComposesWithCompile) {
  const TensorFunction loss = [](const std::vector<Tensor>& a) {  // a: w, x
    return std::vector<Tensor>{sum(tanh(dot(a[1], a[0])))};
  };
  const Tensor w = values({4, 3}, -1, 1, 16);
  const Tensor x = values({5, 4}, -1, 1, 17);
  const std::vector<Tensor> eager = grad(loss, {w, x}, {0});
  const TensorFunction dw = grad(loss, std::vector<int>{0});
  EXPECT_EQ(dw({w, x})[0].to_vector<double>(), eager[0].to_vector<double>());
  auto compiled = compile(grad(loss, std::vector<int>{0}));
  for (int call = 0; call < 2; ++call) {
    const std::vector<Tensor> got = compiled(std::vector<Tensor>{w, x});
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].to_vector<double>(), eager[0].to_vector<double>());
  }
  EXPECT_EQ(compiled.plans(), 1u);  // forward and backward in one traced plan, replayed
  const std::vector<Tensor> both = value_and_grad(loss)({w, x});
  ASSERT_EQ(both.size(), 3u);
  EXPECT_EQ(both[0].item<double>(), loss({w, x})[0].item<double>());
  EXPECT_EQ(both[2].to_vector<double>(), grad(loss, {w, x}, {1})[0].to_vector<double>());
}

}  // namespace
}  // namespace vkt
