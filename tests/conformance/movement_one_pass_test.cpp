// concatenate and put_slice in one gather pass (src/vulkan/ops/movement_one_pass.cpp) and by
// copies (outer-axis concatenate, put_slice), both forced (Overrides::one_pass_movement),
// against the cpu bit for bit: every element width (1, 2, 4, 8, 16 bytes), odd sizes, runs
// that are not whole 16-byte words (tails), more inputs than one pass reads, empty inputs,
// and inputs made by device slices at odd offsets. Plus the commands each path records, and
// the rule.
#include "common/settings.h"
#include "conformance/movement_check.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

class VulkanMovementOnePass : public MovementCheck {
 protected:
  // Every width, c128's 16-byte words included.
  static std::vector<DType> widths() {
    std::vector<DType> d = kWidthDTypes;
    d.push_back(DType::c64);
    d.push_back(DType::c128);
    return d;
  }
};

// The paths forced: "one_pass" everywhere, or "copies" where there are any (inner-axis
// concatenate has only the one pass).
struct Path {
  const char* name;
  const char* overrides;
};
const Path kPaths[] = {{"one_pass", "one_pass_movement=1"}, {"copies", "one_pass_movement=0"}};

struct ConcatCase {
  std::vector<Shape> in;
  std::int64_t axis;
};

const std::vector<ConcatCase> kConcatCases = {
    {{{1024}, {1024}}, 0},
    {{{7}, {5}, {3}}, 0},
    {{{70001}, {3}}, 0},
    {{{4}, {0}, {5}}, 0},
    {{{3}, {8}, {1}, {9}, {16}}, 0},
    {{{1, 5}, {1, 7}}, 1},
    {{{128, 8}, {128, 8}}, 1},
    {{{5, 16}, {5, 32}}, 1},
    {{{3, 2, 16}, {3, 2, 48}, {3, 2, 17}}, 2},
    {{{1025, 8}, {1025, 8}}, 1},
    {{{7, 3}, {7, 5}}, 1},
    {{{2, 3}, {2, 1}, {2, 4}, {2, 2}, {2, 5}}, 1},
    {{{4, 1, 3}, {4, 2, 3}}, 1},
    {{{2, 0}, {2, 3}}, 1},
    {{{3, 4}, {3, 2}, {3, 0}}, 1},
    {{{2, 1, 2, 1, 2, 3}, {2, 1, 2, 1, 2, 1}}, 5},
    {{{2, 3, 1, 2, 1, 2, 2}, {2, 3, 1, 2, 1, 2, 1}}, 6},
    {{{7001, 3}, {7001, 2}}, 1},
};

TEST_F(VulkanMovementOnePass, Concatenate) {
  for (const Path& path : kPaths) {
    const OverrideScope force(path.overrides);
    const std::string mode = path.name;
    for (DType d : widths()) {
      for (const ConcatCase& c : kConcatCases) {
        std::vector<Tensor> inputs;
        for (std::size_t i = 0; i < c.in.size(); ++i)
          inputs.push_back(random_tensor(d, c.in[i], 20 + i));
        check(
            describe("concatenate " + mode, d, c.in[0]),
            [&](const auto& in) { return concatenate(in, c.axis); }, inputs);
      }
    }
  }
}

// Inputs made on the device by slices starting at odd element offsets, with runs of every
// length modulo 4.
TEST_F(VulkanMovementOnePass, ConcatenateOfSlices) {
  for (const Path& path : kPaths) {
    const OverrideScope force(path.overrides);
    const std::string mode = path.name;
    for (DType d : widths()) {
      check(describe("concatenate of slices " + mode, d, {9, 21}),
            [&](const auto& in) {
              return concatenate(
                  {slice(in[0], {1, 3}, {6, 13}), slice(in[1], {0, 1}, {6, 6}), in[2]}, 1);
            },
            {random_tensor(d, {9, 21}, 31), random_tensor(d, {6, 9}, 32),
             random_tensor(d, {6, 4}, 33)});
      check(describe("concatenate of slices " + mode, d, {101}),
            [&](const auto& in) {
              return concatenate({slice(in[0], {3}, {61}), slice(in[0], {1}, {2})}, 0);
            },
            {random_tensor(d, {101}, 34)});
    }
  }
}

struct PutSliceCase {
  Shape t, update;
  std::vector<std::int64_t> start;
};

const std::vector<PutSliceCase> kPutSliceCases = {
    {{128, 8}, {1, 8}, {64, 0}},
    {{8750, 8}, {1, 8}, {4375, 0}},
    {{9, 64}, {4, 16}, {2, 16}},
    {{9, 64}, {4, 13}, {2, 3}},
    {{5, 6}, {2, 3}, {1, 2}},
    {{10}, {3}, {7}},
    {{70001}, {1000}, {500}},
    {{70001}, {70001}, {0}},
    {{4, 8}, {0, 8}, {1, 0}},
    {{3, 1, 5}, {2, 1, 5}, {1, 0, 0}},
    {{2, 3, 2, 3, 2, 3}, {1, 2, 1, 2, 1, 2}, {1, 0, 1, 1, 0, 1}},
    {{2, 2, 3, 2, 3, 2, 4}, {1, 2, 1, 2, 1, 2, 4}, {1, 0, 1, 0, 2, 0, 0}},
    {{6, 7, 5}, {6, 2, 5}, {0, 5, 0}},
    {{}, {}, {}},
    {{1}, {1}, {0}},
};

TEST_F(VulkanMovementOnePass, PutSlice) {
  for (const Path& path : kPaths) {
    const OverrideScope force(path.overrides);
    const std::string mode = path.name;
    for (DType d : widths()) {
      for (const PutSliceCase& c : kPutSliceCases) {
        check(describe("put_slice " + mode, d, c.t),
              [&](const auto& in) { return put_slice(in[0], c.start, in[1]); },
              {random_tensor(d, c.t, 40), random_tensor(d, c.update, 41)});
      }
    }
  }
}

// The update made on the device by a slice at an odd offset.
TEST_F(VulkanMovementOnePass, PutSliceOfSlice) {
  for (const Path& path : kPaths) {
    const OverrideScope force(path.overrides);
    const std::string mode = path.name;
    for (DType d : widths()) {
      check(describe("put_slice of a slice " + mode, d, {7, 10}),
            [&](const auto& in) {
              return put_slice(in[0], {2, 1}, slice(in[1], {1, 3}, {3, 7}));
            },
            {random_tensor(d, {7, 10}, 42), random_tensor(d, {5, 11}, 43)});
    }
  }
}

// One dispatch and no copy on the one-pass path; more than three inputs take a pass per
// three. The copy paths: a copy per input (outer axis), a copy of t and one of the update;
// inner-axis concatenate stays one pass.
TEST_F(VulkanMovementOnePass, CommandsRecorded) {
  const Tensor a = copy(random_tensor(DType::f32, {1024}, 50), gpu());
  const Tensor b = copy(random_tensor(DType::f32, {1024}, 51), gpu());
  const Tensor t = copy(random_tensor(DType::f32, {128, 8}, 52), gpu());
  const Tensor u = copy(random_tensor(DType::f32, {1, 8}, 53), gpu());
  auto counts = [](const std::function<Tensor()>& f) {
    LedgerScope scope;
    f();
    return scope.delta();
  };
  {
    const OverrideScope force("one_pass_movement=1");
    LedgerCounts c = counts([&] { return concatenate({a, b}, 0); });
    EXPECT_EQ(c.dispatches, 1u);
    EXPECT_EQ(c.device_copies, 0u);
    c = counts([&] { return concatenate({a, b, a, b}, 0); });
    EXPECT_EQ(c.dispatches, 2u);
    c = counts([&] { return concatenate({t, t}, 1); });
    EXPECT_EQ(c.dispatches, 1u);
    c = counts([&] { return put_slice(t, {64, 0}, u); });
    EXPECT_EQ(c.dispatches, 1u);
    EXPECT_EQ(c.device_copies, 0u);
  }
  {
    const OverrideScope force("one_pass_movement=0");
    LedgerCounts c = counts([&] { return concatenate({a, b}, 0); });
    EXPECT_EQ(c.device_copies, 2u);
    c = counts([&] { return concatenate({t, t}, 1); });
    EXPECT_EQ(c.dispatches, 1u);
    EXPECT_EQ(c.device_copies, 0u);
    c = counts([&] { return put_slice(t, {64, 0}, u); });
    EXPECT_EQ(c.device_copies, 2u);  // a whole-row update is a copy too
  }
}

// The rule: one pass for inner-axis concatenate everywhere; outer-axis concatenate and
// put_slice take it only where the shader copy path won the device's copy measurement.
TEST_F(VulkanMovementOnePass, DefaultFollowsCopyPath) {
  const vk::CopyPath before = vk::testing::copy_path();
  const std::uint64_t small_before = vk::testing::small_copy_max();
  const Tensor a = copy(random_tensor(DType::f32, {1024}, 54), gpu());
  const Tensor t = copy(random_tensor(DType::f32, {128, 8}, 55), gpu());
  const Tensor u = copy(random_tensor(DType::f32, {1, 8}, 56), gpu());
  for (vk::CopyPath path : {vk::CopyPath::compute_shader, vk::CopyPath::transfer_command}) {
    vk::testing::set_copy_path(path);
    const bool shader = path == vk::CopyPath::compute_shader;
    LedgerScope outer;
    concatenate({a, a}, 0);
    EXPECT_EQ(outer.delta().device_copies, shader ? 0u : 2u);
    LedgerScope inner;
    concatenate({t, t}, 1);
    EXPECT_EQ(inner.delta().dispatches, 1u);
    LedgerScope put;
    put_slice(t, {64, 0}, u);
    EXPECT_EQ(put.delta().device_copies, shader ? 0u : 2u);
  }
  vk::testing::set_copy_path(before);
  vk::testing::set_small_copy_max(small_before);
}

}  // namespace
}  // namespace vkt::testing
