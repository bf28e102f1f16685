// Complex tensors native on Vulkan: movement and indexing against the same op on a real
// "twin" on the cpu (complex_native_check.h), bit for bit; creation and as_type against
// std::complex computed here; rank 0 and empty tensors. Every call must run natively (no
// fallback) with validation on.
#include "conformance/complex_native_check.h"

namespace vkt::testing {
namespace {

using namespace complex_native;  // NOLINT(google-build-using-namespace): the shared helpers

TEST_F(VulkanComplex, MovementMatchesRealTwin) {
  for (DType d : kComplex) {
    const Tensor x = random_tensor(d, {3, 1, 5}, 1);
    twin_check(
        "broadcast",
        [](const auto& in) {
          return broadcast(in[0], {2, 3, 4, 5});
        },
        [&](const auto& in) {
          return broadcast(in[0], with_pair({2, 3, 4, 5}, d));
        },
        {x}, {true});
    const Tensor y = random_tensor(d, {7, 33, 41}, 2);
    twin_check(
        "transpose",
        [](const auto& in) {
          return transpose(in[0], {0, 2, 1});
        },
        [&](const auto& in) {
          return transpose(in[0], with_pair_axis({0, 2, 1}, 3, d));
        },
        {y}, {true});
    twin_check(
        "transpose 3",
        [](const auto& in) {
          return transpose(in[0], {2, 0, 1});
        },
        [&](const auto& in) {
          return transpose(in[0], with_pair_axis({2, 0, 1}, 3, d));
        },
        {y}, {true});
    twin_check(
        "reverse",
        [](const auto& in) {
          return reverse(in[0], {0, 2});
        },
        [](const auto& in) {
          return reverse(in[0], {0, 2});
        },
        {y}, {true});
    twin_check(
        "slice",
        [](const auto& in) {
          return slice(in[0], {1, 2, 3}, {5, 10, 13}, {1, 3, 3});
        },
        [&](const auto& in) {
          return d == DType::c128 ? slice(in[0], {1, 2, 3, 0}, {5, 10, 13, 2}, {1, 3, 3, 1})
                                  : slice(in[0], {1, 2, 3}, {5, 10, 13}, {1, 3, 3});
        },
        {y}, {true});
    const Tensor u = random_tensor(d, {2, 5, 7}, 3);
    twin_check(
        "put_slice",
        [](const auto& in) {
          return put_slice(in[0], {3, 20, 30}, in[1]);
        },
        [&](const auto& in) {
          return put_slice(in[0],
                           d == DType::c128 ? std::vector<std::int64_t>{3, 20, 30, 0}
                                            : std::vector<std::int64_t>{3, 20, 30},
                           in[1]);
        },
        {y, u}, {true, true});
    const Tensor z = random_tensor(d, {7, 2, 41}, 4);
    for (std::int64_t axis : {0, 1}) {
      twin_check(
          "concatenate",
          [&](const auto& in) {
            return concatenate({in[0], in[1]}, axis);
          },
          [&](const auto& in) {
            return concatenate({in[0], in[1]}, axis);
          },
          {y, axis == 0 ? random_tensor(d, {3, 33, 41}, 5) : z}, {true, true});
    }
  }
}

// The shared-memory tiled transpose (GPUs' default) on c64; c128 always takes the strided
// path (movement.cpp's use_tiled_transpose).
TEST_F(VulkanComplex, TiledTranspose) {
  vk::set_transpose_path(vk::TransposePath::tiled);
  for (DType d : kComplex) {
    twin_check(
        "transpose tiled",
        [](const auto& in) {
          return transpose(in[0], {0, 2, 1});
        },
        [&](const auto& in) {
          return transpose(in[0], with_pair_axis({0, 2, 1}, 3, d));
        },
        {random_tensor(d, {3, 70, 45}, 12)}, {true});
  }
  vk::set_transpose_path(vk::TransposePath::by_device);
}

TEST_F(VulkanComplex, PadWithAComplexValue) {
  const std::vector<PadAxis> config = {{1, 2, 0}, {-1, 3, 2}, {0, 0, 1}};
  // c64: the value's bits as one u64 word; c128: a value whose two parts are equal, so the
  // twin's fill is one u64 word too.
  const Cplx<float> v64(1.5f, -2.25f);
  std::uint64_t bits64 = 0;
  std::memcpy(&bits64, &v64, 8);
  twin_check(
      "pad c64", [&](const auto& in) { return pad(in[0], v64, config); },
      [&](const auto& in) { return pad(in[0], bits64, config); },
      {random_tensor(DType::c64, {4, 5, 6}, 6)}, {true});
  const Cplx<double> v128(-0.75, -0.75);
  std::uint64_t bits128 = 0;
  std::memcpy(&bits128, &v128, 8);
  std::vector<PadAxis> config2 = config;
  config2.push_back({0, 0, 0});
  twin_check(
      "pad c128", [&](const auto& in) { return pad(in[0], v128, config); },
      [&](const auto& in) { return pad(in[0], bits128, config2); },
      {random_tensor(DType::c128, {4, 5, 6}, 7)}, {true});
  // Crops past the whole input on one axis, crops and spaces out on another.
  const std::vector<PadAxis> crop = {{-4, 1, 0}, {2, -3, 1}, {0, 0, 0}};
  std::vector<PadAxis> crop2 = crop;
  crop2.push_back({0, 0, 0});
  twin_check(
      "pad c128 crop", [&](const auto& in) { return pad(in[0], v128, crop); },
      [&](const auto& in) { return pad(in[0], bits128, crop2); },
      {random_tensor(DType::c128, {4, 5, 6}, 8)}, {true});
  twin_check(
      "pad c64 crop", [&](const auto& in) { return pad(in[0], v64, crop); },
      [&](const auto& in) { return pad(in[0], bits64, crop); },
      {random_tensor(DType::c64, {4, 5, 6}, 9)}, {true});
}

TEST_F(VulkanComplex, IndexingMatchesRealTwin) {
  for (DType d : kComplex) {
    const Tensor t = random_tensor(d, {6, 5, 3}, 8);
    const Tensor idx = s64_indices({0, 4, 5, -1, 2, 9, 3, 1}, {4, 2});
    twin_check(
        "gather",
        [](const auto& in) {
          return gather(in[0], in[1], {0, 1});
        },
        [](const auto& in) {
          return gather(in[0], in[1], {0, 1});
        },
        {t, idx}, {true, false});
    const Tensor flat = s64_indices({2, 0, 4, 4, 1}, {5});
    twin_check(
        "take", [](const auto& in) { return take(in[0], in[1], 1); },
        [](const auto& in) { return take(in[0], in[1], 1); }, {t, flat}, {true, false});
    const Tensor along = s64_indices({0, 1, 2, 2, 1, 0, 1, 1, 1}, {1, 3, 3});
    twin_check(
        "take_along_axis",
        [](const auto& in) {
          return take_along_axis(in[0], broadcast(in[1], {6, 3, 3}), 1);
        },
        [&](const auto& in) {
          const Tensor i3 = broadcast(in[1], {6, 3, 3});
          return take_along_axis(
              in[0], d == DType::c128 ? broadcast(reshape(i3, {6, 3, 3, 1}), {6, 3, 3, 2}) : i3, 1);
        },
        {t, along}, {true, false});
    const Tensor pred = random_tensor(DType::u8, {6, 5, 3}, 9);
    const Tensor other = random_tensor(d, {6, 5, 3}, 10);
    twin_check(
        "select", [](const auto& in) { return select(in[0], in[1], in[2]); },
        [&](const auto& in) {
          const Tensor p =
              d == DType::c128 ? broadcast(reshape(in[0], {6, 5, 3, 1}), {6, 5, 3, 2}) : in[0];
          return select(p, in[1], in[2]);
        },
        {pred, t, other}, {false, true, true});
    const Tensor rows = s64_indices({1, 3, 1, 7, 0}, {5, 1});
    const Tensor updates = random_tensor(d, {5, 5, 3}, 11);
    twin_check(
        "indexed_put", [](const auto& in) { return indexed_put(in[0], in[1], in[2], {0}); },
        [](const auto& in) { return indexed_put(in[0], in[1], in[2], {0}); }, {t, rows, updates},
        {true, false, true});
  }
}

template <class R>
void creation_case(Backend& gpu) {
  const DType d = complex_dtype<R>();
  const Cplx<R> value(R(-3.5), std::numeric_limits<R>::denorm_min());
  const Tensor f = copy(full({3, 7}, value, d, &gpu), cpu());
  expect_complex_eq(complex_values<R>(f), std::vector<Cplx<R>>(21, value), "full");
  const Tensor io = copy(iota({4, 5}, d, 1, &gpu), cpu());
  std::vector<Cplx<R>> want;
  for (int i = 0; i < 20; ++i) want.emplace_back(R(i % 5), R(0));
  expect_complex_eq(complex_values<R>(io), want, "iota");
  const Tensor e = copy(eye({3, 4}, d, &gpu), cpu());
  want.clear();
  for (int i = 0; i < 12; ++i) want.emplace_back(R(i / 4 == i % 4 ? 1 : 0), R(0));
  expect_complex_eq(complex_values<R>(e), want, "eye");
}

// Rank 0 and empty tensors through movement, elementwise ops and dot.
TEST_F(VulkanComplex, RankZeroAndEmpty) {
  for (DType d : kComplex) {
    twin_check(
        "broadcast rank 0",
        [](const auto& in) {
          return broadcast(in[0], {3, 2});
        },
        [&](const auto& in) {
          return broadcast(in[0], with_pair({3, 2}, d));
        },
        {random_tensor(d, {}, 13)}, {true});
    twin_check(
        "concatenate empty",
        [](const auto& in) {
          return concatenate({in[0], in[1]}, 1);
        },
        [](const auto& in) {
          return concatenate({in[0], in[1]}, 1);
        },
        {random_tensor(d, {2, 0}, 14), random_tensor(d, {2, 3}, 15)}, {true, true});
    twin_check(
        "slice to empty",
        [](const auto& in) {
          return slice(in[0], {1, 0}, {0, 3});
        },
        [&](const auto& in) {
          return d == DType::c128 ? slice(in[0], {1, 0, 0}, {0, 3, 2})
                                  : slice(in[0], {1, 0}, {0, 3});
        },
        {random_tensor(d, {2, 3}, 16)}, {true});
  }
  const std::vector<Cplx<float>> one = {{1.5f, -2.f}};
  const Tensor s = complex_tensor(one, {});
  expect_complex_eq(complex_values<float>(native(
                        "multiply rank 0",
                        [](const auto& in) { return binary(Op::multiply, in[0], in[1]); }, {s, s})),
                    std::vector<Cplx<float>>{one[0] * one[0]}, "multiply rank 0");
  const Tensor e = complex_tensor(std::vector<Cplx<double>>{}, {0, 4});
  EXPECT_EQ(
      native("add empty", [](const auto& in) { return binary(Op::add, in[0], in[1]); }, {e, e})
          .shape(),
      (Shape{0, 4}));
  EXPECT_EQ(native("abs empty", [](const auto& in) { return unary(Op::abs, in[0]); }, {e}).shape(),
            (Shape{0, 4}));
  const Tensor z =
      native("dot M=0", [](const auto& in) { return dot(in[0], {1}, {}, in[1], {0}, {}); },
             {complex_tensor(std::vector<Cplx<double>>{}, {0, 3}),
              complex_tensor(std::vector<Cplx<double>>(6), {3, 2})});
  EXPECT_EQ(z.shape(), (Shape{0, 2}));
  const Tensor sum0 = native("sum of empty", [](const auto& in) { return sum(in[0], {0}); }, {e});
  expect_complex_eq(complex_values<double>(sum0), std::vector<Cplx<double>>(4), "sum of empty");
}

TEST_F(VulkanComplex, Creation) {
  LedgerScope scope;
  creation_case<float>(gpu());
  creation_case<double>(gpu());
  EXPECT_EQ(scope.delta().fallbacks, 0u) << scope.delta().to_string();
}

TEST_F(VulkanComplex, AsType) {
  const std::vector<Cplx<float>> v64 = special_values<float>(257, 12);
  const std::vector<Cplx<double>> v128 = special_values<double>(257, 13);
  const Tensor c64 = complex_tensor(v64, {257});
  const Tensor c128 = complex_tensor(v128, {257});
  // complex -> complex: both parts converted (widening exact, narrowing rounds once).
  std::vector<Cplx<double>> wide;
  for (auto z : v64) wide.emplace_back(z.real(), z.imag());
  expect_complex_eq(
      complex_values<double>(
          native("c64->c128", [](const auto& in) { return as_type(in[0], DType::c128); }, {c64})),
      wide, "c64 -> c128");
  std::vector<Cplx<float>> narrow;
  for (auto z : v128)
    narrow.emplace_back(static_cast<float>(z.real()), static_cast<float>(z.imag()));
  expect_complex_eq(
      complex_values<float>(
          native("c128->c64", [](const auto& in) { return as_type(in[0], DType::c64); }, {c128})),
      narrow, "c128 -> c64");
  // complex -> real: the real part, converted as the real dtype would be.
  const Tensor re =
      native("c64->f32", [](const auto& in) { return as_type(in[0], DType::f32); }, {c64});
  const Tensor s =
      native("c128->s32", [](const auto& in) { return as_type(in[0], DType::s32); }, {c128});
  const std::vector<float> re_v = re.to_vector<float>();
  const std::vector<std::int32_t> s_v = s.to_vector<std::int32_t>();
  for (std::size_t i = 0; i < v64.size(); ++i) {
    const float w = v64[i].real();
    EXPECT_EQ(std::memcmp(&re_v[i], &w, 4), 0) << i;
    EXPECT_EQ(s_v[i], convert<std::int32_t>(v128[i].real())) << i;
  }
  // real -> complex: imaginary 0.
  const Tensor from_s =
      native("s16->c64", [](const auto& in) { return as_type(in[0], DType::c64); },
             {from_vector(std::vector<std::int16_t>{-7, 0, 32767}, {3})});
  expect_complex_eq(complex_values<float>(from_s),
                    std::vector<Cplx<float>>{{-7.f, 0.f}, {0.f, 0.f}, {32767.f, 0.f}},
                    "s16 -> c64");
}

}  // namespace
}  // namespace vkt::testing
