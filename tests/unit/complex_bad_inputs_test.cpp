// Ops whose op-table row says `real` or `integer` (no order, no bits on complex numbers)
// throw TypeError naming the op when given c64 or c128, leave the input intact and the
// process usable. Table-driven: every such row of the op table must have a call here.
#include <gtest/gtest.h>

#include <complex>
#include <functional>
#include <map>
#include <string>

#include "support/complex_compare.h"
#include "vkt/backend/op_info.h"

namespace vkt {
namespace {

using Call = std::function<void(const Tensor&)>;

// The calls of the non-elementwise rows; elementwise rows go through unary()/binary().
std::map<std::string, Call> family_calls() {
  return {
      {"reduce_max", [](const Tensor& t) { reduce_max(t); }},
      {"reduce_min", [](const Tensor& t) { reduce_min(t, {1}); }},
      {"argmax", [](const Tensor& t) { argmax(t); }},
      {"argmin", [](const Tensor& t) { argmin(t, 1); }},
      {"window_max",
       [](const Tensor& t) {
         window_max(t, {1, 2});
       }},
      {"window_min",
       [](const Tensor& t) {
         window_min(t, {2, 1});
       }},
      {"cumulative_min", [](const Tensor& t) { cumulative_min(t, 1); }},
      {"cumulative_max", [](const Tensor& t) { cumulative_max(t, 0); }},
      {"clip", [](const Tensor& t) { clip(t, t, t); }},
      {"sort", [](const Tensor& t) { sort(t); }},
      {"argsort", [](const Tensor& t) { argsort(t, 0); }},
      {"top_k", [](const Tensor& t) { top_k(t, 1); }},
      {"rfft", [](const Tensor& t) { rfft(t); }},
      {"window_scatter_max",
       [](const Tensor& t) {
         window_scatter_max(t, slice(t, {0, 0}, {2, 1}), 0, {1, 3});
       }},
      {"window_scatter_min",
       [](const Tensor& t) {
         window_scatter_min(t, slice(t, {0, 0}, {2, 1}), 0, {1, 3});
       }},
  };
}

Call elementwise_call(const OpInfo& row) {
  if (row.family == OpFamily::unary) {
    return [op = row.op](const Tensor& t) { unary(op, t); };
  }
  return [op = row.op](const Tensor& t) { binary(op, t, t); };
}

template <class C>
Tensor complex_input() {
  return from_vector(std::vector<C>{{1, -2}, {0, 3}, {-4, 0.5f}, {2, 2}, {0, 0}, {-1, -1}}, {2, 3},
                     &cpu());
}

TEST(ComplexBadInputs, RealAndIntegerOnlyOpsRejectComplexNamingTheOp) {
  const std::map<std::string, Call> calls = family_calls();
  int checked = 0;
  for (const OpInfo& row : kOpTable) {
    if (row.dtypes != OpDTypes::real && row.dtypes != OpDTypes::integer) continue;
    const std::string name(row.name);
    Call call;
    if (row.family == OpFamily::unary || row.family == OpFamily::binary) {
      call = elementwise_call(row);
    } else {
      const auto it = calls.find(name);
      ASSERT_NE(it, calls.end()) << "no complex bad-input call for op " << name;
      call = it->second;
    }
    for (const Tensor& t :
         {complex_input<std::complex<float>>(), complex_input<std::complex<double>>()}) {
      SCOPED_TRACE(name + " on " + std::string(dtype_name(t.dtype())));
      const std::vector<std::byte> before = t.to_bytes();
      try {
        call(t);
        ADD_FAILURE() << "no error";
      } catch (const TypeError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("[" + name + "]", 0), 0u) << e.what();
      } catch (const std::exception& e) {
        ADD_FAILURE() << "not a TypeError: " << e.what();
      }
      EXPECT_EQ(t.to_bytes(), before);  // the input is intact
      ++checked;
    }
  }
  // Every row the table marks real or integer, on both complex dtypes.
  EXPECT_GE(checked, 2 * 30);
  // The process stays usable: a complex op right after.
  const Tensor s = sum(complex_input<std::complex<double>>());
  EXPECT_TRUE(testing::complex_close(s, {{-2, 2.5}}, {0, 0}));
}

}  // namespace
}  // namespace vkt
