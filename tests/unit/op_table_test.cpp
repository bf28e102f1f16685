// The op table's columns agree with each other and with what the cpu reference does: each
// combine entry is the rule the op's kernel applies, and the fuse, grad and accuracy entries
// follow from the op's kind and dtypes where the table states a rule for them.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "vkt/backend/op_call.h"
#include "vkt/backend/op_info.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

bool combines(OpFamily f) {
  return f == OpFamily::reduce || f == OpFamily::argreduce || f == OpFamily::window ||
         f == OpFamily::cumulative || f == OpFamily::window_scatter;
}

bool elementwise(OpFamily f) {
  return f == OpFamily::unary || f == OpFamily::binary;
}

TEST(OpTable, CombineColumnCoversExactlyTheCombiningFamilies) {
  for (const OpInfo& info : kOpTable) {
    EXPECT_EQ(info.combine != Combine::none, combines(info.family)) << info.name;
  }
}

TEST(OpTable, FuseColumnFollowsTheFamilies) {
  for (const OpInfo& info : kOpTable) {
    if (elementwise(info.family)) {
      EXPECT_EQ(info.fuse, Fusion::elementwise) << info.name;
    }
    if (info.fuse == Fusion::reduction) {
      EXPECT_EQ(info.family, OpFamily::reduce) << info.name;
    }
    if (info.fuse == Fusion::dot) {
      EXPECT_EQ(info.family, OpFamily::linalg) << info.name;
    }
  }
}

// Integer and u8 results carry no gradient and are compared exactly; float functions are
// differentiable and held to the elementwise tolerance.
TEST(OpTable, GradAndAccuracyFollowTheKind) {
  for (const OpInfo& info : kOpTable) {
    if (writes_u8(info.op) || info.dtypes == OpDTypes::integer) {
      EXPECT_EQ(info.grad, Grad::none) << info.name;
      EXPECT_EQ(info.accuracy, Accuracy::exact) << info.name;
    }
    if (info.kind == OpKind::float_function) {
      EXPECT_EQ(info.grad, Grad::diff) << info.name;
      EXPECT_EQ(info.accuracy, Accuracy::ulps) << info.name;
    }
    if (info.family != OpFamily::window_scatter) {
      if (info.combine == Combine::sum) {
        EXPECT_EQ(info.accuracy, Accuracy::sum_order) << info.name;
      }
      if (info.combine == Combine::product) {
        EXPECT_EQ(info.accuracy, Accuracy::product_order) << info.name;
      }
    }
  }
}

// The combine entry is what the cpu kernel computes: each op over {2, 3, -1} (its last
// element for a scan, one window over all three for a window op).
double expected(Combine c) {
  switch (c) {
    case Combine::sum:
      return 4;
    case Combine::product:
      return -6;
    case Combine::max:
      return 3;
    case Combine::min:
      return -1;
    case Combine::all:
    case Combine::any:
      return 1;
    case Combine::argmax:
      return 1;
    case Combine::argmin:
      return 2;
    case Combine::none:
      break;
  }
  return -99;
}

Tensor run_on_cpu(const OpInfo& info, const Tensor& x) {
  const bool u8 = info.combine == Combine::all || info.combine == Combine::any;
  switch (info.family) {
    case OpFamily::reduce:
      return cpu().execute(
          OpCall{info.op, {x}, ReduceParams{{0}, false}, u8 ? DType::u8 : x.dtype(), {}});
    case OpFamily::argreduce:
      return cpu().execute(OpCall{info.op, {x}, ArgReduceParams{}, DType::s64, {}});
    case OpFamily::window:
      return cpu().execute(
          OpCall{info.op, {x}, WindowParams{{3}, {1}, {1}, {{0, 0}}}, x.dtype(), {1}});
    case OpFamily::cumulative:
      return cpu().execute(OpCall{info.op, {x}, CumulativeParams{}, x.dtype(), {3}});
    default:
      throw Error("[op_table_test] no call for " + std::string(info.name));
  }
}

TEST(OpTable, CombineColumnIsWhatTheCpuComputes) {
  const Tensor x = from_vector(std::vector<float>{2, 3, -1}, &cpu());
  int checked = 0;
  for (const OpInfo& info : kOpTable) {
    if (!combines(info.family) || info.family == OpFamily::window_scatter) continue;
    const Tensor r = as_type(run_on_cpu(info, x), DType::f64);
    EXPECT_EQ(r.to_vector<double>().back(), expected(info.combine)) << info.name;
    ++checked;
  }
  EXPECT_EQ(checked, 16);
}

}  // namespace
}  // namespace vkt
