// Native movement ops (src/vulkan/ops/movement.cpp) against the cpu, bit for bit, for one dtype
// of every width and kind, on the native path and the fallback path (movement_check.h).
#include "common/settings.h"
#include "conformance/movement_check.h"
#include "vulkan/ops/movement_words.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

class VulkanMovement : public MovementCheck {};

TEST_F(VulkanMovement, Broadcast) {
  struct Case {
    Shape in, out;
    Axes axes;
  };
  const std::vector<Case> cases = {
      {{}, {70001}, {}},          {{}, {}, {}},      {{1}, {2, 3, 4}, {}},
      {{3, 1}, {3, 5}, {}},       {{5}, {4, 5}, {}}, {{5}, {5, 4}, {0}},
      {{2, 1, 3}, {2, 4, 3}, {}}, {{0}, {3, 0}, {}}, {{2, 1, 3, 1, 2, 1}, {2, 2, 3, 2, 2, 3}, {}},
      {{1, 7}, {300, 7}, {}},
  };
  for (DType d : kWidthDTypes) {
    for (const Case& c : cases) {
      check(describe("broadcast", d, c.out),
            [&](const auto& in) { return broadcast(in[0], c.out, c.axes); },
            {random_tensor(d, c.in, 1)});
    }
  }
}

TEST_F(VulkanMovement, Transpose) {
  struct Case {
    Shape in;
    Axes perm;
  };
  const std::vector<Case> cases = {
      {{}, {}},
      {{0, 3}, {1, 0}},
      {{1}, {0}},
      {{7}, {0}},
      {{3, 5}, {1, 0}},
      {{33, 65}, {1, 0}},
      {{2, 40, 70}, {0, 2, 1}},
      {{3, 4, 5}, {2, 0, 1}},
      {{3, 4, 5}, {1, 0, 2}},
      {{2, 3, 4, 5}, {3, 1, 2, 0}},
      {{2, 1, 3, 2, 2, 3}, {5, 4, 3, 2, 1, 0}},
      {{300, 257}, {1, 0}},
      {{64, 1, 9}, {2, 1, 0}},
      {{9, 2}, {1, 0}},
  };
  // Both paths on every device: lavapipe takes the strided one by default.
  for (vk::TransposePath path : {vk::TransposePath::tiled, vk::TransposePath::strided}) {
    vk::set_transpose_path(path);
    for (DType d : kWidthDTypes) {
      for (const Case& c : cases) {
        check(describe("transpose", d, c.in),
              [&](const auto& in) { return transpose(in[0], c.perm); },
              {random_tensor(d, c.in, 2)});
      }
    }
  }
  vk::set_transpose_path(vk::TransposePath::by_device);
}

// The tiled path for 4-byte words takes 64x64 tiles of 16-byte quads where rows and cols
// are multiples of 4, else the 32x33 tile of words: whole tiles, partial edge tiles,
// batches, and shapes that stay on the word tile.
TEST_F(VulkanMovement, TransposeWideTiles) {
  const std::vector<Shape> shapes = {{4, 64},      {64, 64},  {68, 132}, {3, 128, 64},
                                     {2, 36, 100}, {256, 12}, {66, 64},  {64, 70}};
  vk::set_transpose_path(vk::TransposePath::tiled);
  for (DType d : {DType::f32, DType::s32, DType::f16, DType::f64}) {
    for (const Shape& s : shapes) {
      Axes perm(s.size());
      for (std::size_t a = 0; a < s.size(); ++a) perm[a] = static_cast<std::int64_t>(a);
      std::swap(perm[s.size() - 1], perm[s.size() - 2]);
      check(describe("transpose", d, s), [&](const auto& in) { return transpose(in[0], perm); },
            {random_tensor(d, s, 3)});
    }
  }
  vk::set_transpose_path(vk::TransposePath::by_device);
}

TEST_F(VulkanMovement, Pad) {
  struct Case {
    Shape in;
    std::vector<PadAxis> config;
  };
  const std::vector<Case> cases = {
      {{}, {}},
      {{5}, {{2, 3, 0}}},
      {{7}, {{-2, -1, 0}}},
      {{4}, {{0, 0, 2}}},
      {{4}, {{-3, -2, 2}}},
      {{3, 4}, {{1, -1, 1}, {-2, 3, 0}}},
      {{0, 3}, {{1, 1, 0}, {0, 0, 0}}},
      {{8750, 8}, {{1, 1, 0}, {1, 1, 0}}},
      {{2, 1, 2, 1, 2, 3}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {-1, 0, 0}, {0, -1, 1}}},
      {{3}, {{-4, 1, 0}}},
  };
  for (DType d : kWidthDTypes) {
    for (const Case& c : cases) {
      for (Scalar v : {Scalar(0), Scalar(-3.5)}) {
        check(describe("pad", d, c.in), [&](const auto& in) { return pad(in[0], v, c.config); },
              {random_tensor(d, c.in, 3)});
      }
    }
  }
}

TEST_F(VulkanMovement, Reverse) {
  struct Case {
    Shape in;
    Axes axes;
  };
  const std::vector<Case> cases = {
      {{}, {}},         {{0}, {0}},
      {{7}, {0}},       {{3, 5}, {1}},
      {{3, 5}, {0, 1}}, {{2, 3, 4, 5}, {0, 2}},
      {{70001}, {0}},   {{1, 2, 1, 3, 1, 5}, {1, 3, 5}},
  };
  for (DType d : kWidthDTypes) {
    for (const Case& c : cases) {
      check(describe("reverse", d, c.in), [&](const auto& in) { return reverse(in[0], c.axes); },
            {random_tensor(d, c.in, 4)});
    }
  }
}

TEST_F(VulkanMovement, Slice) {
  struct Case {
    Shape in;
    std::vector<std::int64_t> start, lengths, strides;
  };
  const std::vector<Case> cases = {
      {{10}, {1}, {4}, {2}},
      {{10}, {0}, {0}, {1}},
      {{5, 6}, {1, 2}, {3, 2}, {1, 3}},
      {{5, 6}, {2, 0}, {2, 6}, {1, 1}},
      {{70001}, {5}, {7000}, {10}},
      {{2, 3, 2, 3, 2, 3}, {0, 1, 0, 1, 0, 1}, {2, 2, 2, 2, 1, 2}, {1, 1, 1, 1, 1, 1}},
      {{1}, {0}, {1}, {1}},
  };
  for (DType d : kWidthDTypes) {
    for (const Case& c : cases) {
      check(describe("slice", d, c.in),
            [&](const auto& in) { return slice(in[0], c.start, c.lengths, c.strides); },
            {random_tensor(d, c.in, 5)});
    }
  }
}

TEST_F(VulkanMovement, PutSlice) {
  struct Case {
    Shape t, update;
    std::vector<std::int64_t> start;
  };
  const std::vector<Case> cases = {
      {{8750, 8}, {1, 8}, {4375, 0}},
      {{5, 6}, {2, 3}, {1, 2}},
      {{10}, {3}, {8}},
      {{70001}, {1000}, {500}},
      {{4, 8}, {0, 8}, {1, 0}},
      {{2, 3, 2, 3, 2, 3}, {1, 2, 1, 2, 1, 2}, {1, 0, 1, 1, 0, 1}},
      {{}, {}, {}},
  };
  for (DType d : kWidthDTypes) {
    for (const Case& c : cases) {
      check(describe("put_slice", d, c.t),
            [&](const auto& in) { return put_slice(in[0], c.start, in[1]); },
            {random_tensor(d, c.t, 6), random_tensor(d, c.update, 7)});
    }
  }
}

TEST_F(VulkanMovement, Concatenate) {
  struct Case {
    std::vector<Shape> in;
    std::int64_t axis;
  };
  const std::vector<Case> cases = {
      {{{70001}, {3}}, 0},          {{{3, 4}, {3, 2}, {3, 0}}, 1},
      {{{2, 3, 4}, {2, 3, 1}}, 2},  {{{2, 3, 4}, {2, 1, 4}}, 1},
      {{{7000, 10}, {7000, 3}}, 1}, {{{0, 3}, {0, 2}}, 1},
      {{{1, 5}, {1, 7}}, 1},        {{{2, 1, 2, 1, 2, 3}, {2, 1, 2, 1, 2, 1}}, 5},
  };
  for (DType d : kWidthDTypes) {
    for (const Case& c : cases) {
      std::vector<Tensor> inputs;
      for (std::size_t i = 0; i < c.in.size(); ++i)
        inputs.push_back(random_tensor(d, c.in[i], 8 + i));
      check(
          describe("concatenate", d, c.in[0]),
          [&](const auto& in) { return concatenate(in, c.axis); }, inputs);
    }
  }
}

// Inner concatenates, row slices and put_slice whose inner runs and offsets are multiples of
// 16 bytes, next to ones that are not (odd inner extents, offsets off a 16-byte boundary, a
// tail row of a 16-element run plus one), for every width.
TEST_F(VulkanMovement, RunsOnAndOff16ByteWords) {
  for (DType d : kWidthDTypes) {
    check(describe("concatenate", d, {5, 16}), [&](const auto& in) { return concatenate(in, 1); },
          {random_tensor(d, {5, 16}, 81), random_tensor(d, {5, 32}, 82)});
    check(describe("concatenate", d, {3, 2, 16}),
          [&](const auto& in) { return concatenate(in, 2); },
          {random_tensor(d, {3, 2, 16}, 83), random_tensor(d, {3, 2, 48}, 84),
           random_tensor(d, {3, 2, 17}, 85)});
    check(describe("concatenate", d, {1025, 16}),
          [&](const auto& in) { return concatenate(in, 1); },
          {random_tensor(d, {1025, 16}, 86), random_tensor(d, {1025, 16}, 87)});
    check(describe("slice", d, {9, 64}),
          [&](const auto& in) {
            return slice(in[0], {1, 16}, {5, 32});
          },
          {random_tensor(d, {9, 64}, 88)});
    check(describe("slice", d, {9, 64}),
          [&](const auto& in) {
            return slice(in[0], {1, 3}, {5, 32});
          },
          {random_tensor(d, {9, 64}, 89)});
    check(describe("put_slice", d, {9, 64}),
          [&](const auto& in) {
            return put_slice(in[0], {2, 16}, in[1]);
          },
          {random_tensor(d, {9, 64}, 90), random_tensor(d, {4, 16}, 91)});
  }
}

// More workgroups than maxComputeWorkGroupCount[0] allows on lavapipe (65535): the grid
// becomes 2-D and every invocation still finds its element.
TEST_F(VulkanMovement, GridPastOneDimension) {
  const std::int64_t n = (std::int64_t{1} << 24) + 4097;
  check("pad u8 past one grid row",
        [&](const auto& in) {
          return pad(in[0], Scalar(7), {{3, -2, 0}});
        },
        {random_tensor(DType::u8, {n}, 61)});
}

// The compute-shader copy path (chosen on NVIDIA) for every op that copies contiguous runs:
// outer concatenate, put_slice (t, then a whole-row update), contiguous slices, indexed
// updates (the copy of t), at word-aligned and unaligned offsets. concatenate and put_slice
// by copies (their one-pass gathers: movement_one_pass_test.cpp).
TEST_F(VulkanMovement, ComputeShaderCopyPath) {
  const OverrideScope copies("one_pass_movement=0");
  const vk::CopyPath before = vk::testing::copy_path();
  vk::testing::set_copy_path(vk::CopyPath::compute_shader);
  for (DType d : {DType::u8, DType::f16, DType::f32, DType::f64}) {
    check(describe("concatenate", d, {7}), [&](const auto& in) { return concatenate(in, 0); },
          {random_tensor(d, {7}, 71), random_tensor(d, {5}, 72), random_tensor(d, {3}, 73)});
    check(describe("put_slice", d, {9, 3}),
          [&](const auto& in) {
            return put_slice(in[0], {3, 0}, in[1]);
          },
          {random_tensor(d, {9, 3}, 74), random_tensor(d, {2, 3}, 75)});
    check(describe("slice", d, {9, 3}),
          [&](const auto& in) {
            return slice(in[0], {1, 0}, {5, 3});
          },
          {random_tensor(d, {9, 3}, 76)});
    check(describe("indexed_put", d, {9, 3}),
          [&](const auto& in) { return indexed_put(in[0], in[1], in[2]); },
          {random_tensor(d, {9, 3}, 77), s64_indices({4, 1, 4}, {3, 1}),
           random_tensor(d, {3, 3}, 78)});
  }
  vk::testing::set_copy_path(before);
}

// Views past six axes after collapsing, and tensors past maxStorageBufferRange, are not
// native (supports() is false): the core falls back and the result is still right.
TEST_F(VulkanMovement, BeyondShaderLimitsFallsBack) {
  const Shape high(8, 2);
  const Tensor t = random_tensor(DType::f32, high, 51);
  {
    LedgerScope scope;
    const Tensor g = transpose(copy(t, gpu()), {7, 6, 5, 4, 3, 2, 1, 0});
    EXPECT_EQ(scope.delta().fallbacks, 1u);
    expect_same(g, transpose(t, {7, 6, 5, 4, 3, 2, 1, 0}));
  }
  const std::vector<PadAxis> config(8, PadAxis{1, 0, 0});
  {
    LedgerScope scope;
    const Tensor g = pad(copy(t, gpu()), Scalar(1), config);
    EXPECT_EQ(scope.delta().fallbacks, 1u);
    expect_same(g, pad(t, Scalar(1), config));
  }
  const Tensor big = random_tensor(DType::u8, {600, 700}, 52);
  const Tensor dev = copy(big, gpu());
  const std::uint64_t range = vk::testing::device_limits().max_storage_range;
  vk::testing::set_storage_range_limit(256 * 1024);
  {
    LedgerScope scope;
    const Tensor g = transpose(dev, {1, 0});
    EXPECT_EQ(scope.delta().fallbacks, 1u);
    expect_same(g, transpose(big, {1, 0}));
  }
  vk::testing::set_storage_range_limit(range);
}

}  // namespace
}  // namespace vkt::testing
