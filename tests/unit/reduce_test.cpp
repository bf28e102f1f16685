// Reductions and arg-reductions on the cpu: a naive reference over every axes subset of a
// rank-4 tensor, identities, NaN, empty and rank-0 cases, tie-breaks and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "support/compare.h"
#include "support/run_op.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::as_doubles;
using testing::run_reduce;
using testing::tensors_close;

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

template <class T>
Tensor make(const std::vector<double>& values, const Shape& shape) {
  std::vector<T> d;
  for (double v : values) d.push_back(T(static_cast<compute_t<T>>(v)));
  return from_vector(d, shape, &cpu());
}

Tensor make_as(DType dtype, const std::vector<double>& values, const Shape& shape) {
  return visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return make<T>(values, shape);
  });
}

// Small values every dtype holds exactly (non-negative for unsigned types).
std::vector<double> test_values(DType dtype, std::int64_t n) {
  std::vector<double> v;
  for (std::int64_t i = 0; i < n; ++i) {
    const double x = static_cast<double>((i * 7) % 11);
    v.push_back(is_unsigned_integer(dtype) ? x : x - 5);
  }
  return v;
}

// Values whose long products stay finite and exact: 1, -1 (or 3), 2, 1.
std::vector<double> product_values(DType dtype, std::int64_t n) {
  std::vector<double> v;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t k = (i * 7) % 9;
    v.push_back(k == 0 ? 2.0 : k == 1 ? (is_unsigned_integer(dtype) ? 3.0 : -1.0) : 1.0);
  }
  return v;
}

// Naive reference: walks every input element, accumulating in double (floats) and in
// wrapping uint64 (integers).
Tensor reference_reduce(Op op, const Tensor& t, Axes axes, bool keep, DType out_dtype) {
  if (axes.empty()) {
    for (std::int64_t a = 0; a < t.rank(); ++a) axes.push_back(a);
  }
  Shape out_shape, out_full;
  for (std::int64_t a = 0; a < t.rank(); ++a) {
    const bool red = std::find(axes.begin(), axes.end(), a) != axes.end();
    out_full.push_back(red ? 1 : t.dim(a));
    if (!red || keep) out_shape.push_back(red ? 1 : t.dim(a));
  }
  const std::int64_t n_out = numel(out_full);
  const bool integral = is_integer(t.dtype());
  double init = 0;
  if (op == Op::product || op == Op::all) init = 1;
  if (op == Op::reduce_max) init = -kInf;
  if (op == Op::reduce_min) init = kInf;
  std::vector<double> acc(static_cast<std::size_t>(n_out), init);
  std::vector<std::uint64_t> bits(static_cast<std::size_t>(n_out), op == Op::product ? 1 : 0);
  const std::vector<double> x = as_doubles(t);
  const auto in_strides = contiguous_strides(t.shape());
  const auto out_strides = contiguous_strides(out_full);
  for (std::int64_t i = 0; i < t.size(); ++i) {
    std::int64_t o = 0;
    for (std::int64_t a = 0; a < t.rank(); ++a) {
      const std::int64_t coord = (i / in_strides[a]) % t.dim(a);
      if (out_full[a] != 1) o += coord * out_strides[a];
    }
    const double v = x[static_cast<std::size_t>(i)];
    double& r = acc[static_cast<std::size_t>(o)];
    std::uint64_t& b = bits[static_cast<std::size_t>(o)];
    const auto vb = static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
    switch (op) {
      case Op::sum:
        r += v;
        b += vb;
        break;
      case Op::product:
        r *= v;
        b *= vb;
        break;
      case Op::reduce_max:
        r = (std::isnan(v) || v > r || std::isnan(r)) ? (std::isnan(r) ? r : v) : r;
        break;
      case Op::reduce_min:
        r = (std::isnan(v) || v < r || std::isnan(r)) ? (std::isnan(r) ? r : v) : r;
        break;
      case Op::all:
        r = (r != 0 && v != 0) ? 1 : 0;
        break;
      case Op::any:
        r = (r != 0 || v != 0) ? 1 : 0;
        break;
      default:
        break;
    }
  }
  if (integral && (op == Op::sum || op == Op::product)) {
    return from_bytes(std::as_bytes(std::span<const std::uint64_t>(bits)), out_dtype, out_shape,
                      &cpu());
  }
  if (is_integer(out_dtype) && integral && (op == Op::reduce_max || op == Op::reduce_min)) {
    // Integer identities of empty reductions are the type's limits.
    for (double& r : acc) {
      if (std::isinf(r)) {
        r = visit_dtype(out_dtype, [&](auto tag) {
          using T = typename decltype(tag)::type;
          if constexpr (std::is_integral_v<T>) {
            return static_cast<double>(r < 0 ? std::numeric_limits<T>::lowest()
                                             : std::numeric_limits<T>::max());
          } else {
            return r;
          }
        });
      }
    }
  }
  return as_type(from_vector(acc, out_shape, &cpu()), out_dtype);
}

const DType kTestDTypes[] = {DType::u8, DType::s32, DType::s64, DType::f16, DType::f32, DType::f64};

TEST(Reduce, EveryAxesSubsetOfRank4MatchesReference) {
  const Shape shape{3, 4, 5, 6};
  const Op ops[] = {Op::all, Op::any, Op::sum, Op::product, Op::reduce_max, Op::reduce_min};
  for (DType dtype : kTestDTypes) {
    for (Op op : ops) {
      const auto values = op == Op::product ? product_values(dtype, numel(shape))
                                            : test_values(dtype, numel(shape));
      const Tensor t = make_as(dtype, values, shape);
      for (int mask = 0; mask < 16; ++mask) {
        Axes axes;
        for (std::int64_t a = 0; a < 4; ++a) {
          if (mask & (1 << a)) axes.push_back(a);
        }
        for (bool keep : {false, true}) {
          const Tensor got = run_reduce(op, t, axes, keep);
          const Tensor want = reference_reduce(op, t, axes, keep, got.dtype());
          EXPECT_TRUE(tensors_close(got, want)) << op_name(op) << " " << dtype_name(dtype)
                                                << " axes " << shape_str(axes) << " keep " << keep;
        }
      }
    }
  }
}

TEST(Reduce, OutputDTypesFollowNx) {
  const Tensor s8 = make<std::int8_t>({1, -2}, {2});
  const Tensor u16 = make<std::uint16_t>({1, 2}, {2});
  const Tensor h = make<f16>({1, 2}, {2});
  const Tensor b = make<bf16>({1.5, 2}, {2});
  EXPECT_EQ(sum(s8).dtype(), DType::s64);
  EXPECT_EQ(product(u16).dtype(), DType::u64);
  EXPECT_EQ(sum(h).dtype(), DType::f16);
  EXPECT_EQ(sum(b).dtype(), DType::bf16);
  EXPECT_EQ(sum(b).item<double>(), 3.5);
  EXPECT_EQ(reduce_max(s8).dtype(), DType::s8);
  EXPECT_EQ(all(h).dtype(), DType::u8);
  EXPECT_EQ(any(s8).dtype(), DType::u8);
  EXPECT_EQ(sum(s8).item<std::int64_t>(), -1);
}

TEST(Reduce, SumOfMillionF32MatchesDoubleSum) {
  const std::int64_t n = 1 << 20;
  std::vector<float> v(static_cast<std::size_t>(n));
  double exact = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    v[static_cast<std::size_t>(i)] = 0.1f + static_cast<float>((i * 2654435761u) % 1000) * 1e-3f;
    exact += static_cast<double>(v[static_cast<std::size_t>(i)]);
  }
  const Tensor t = from_vector(v, Shape{n}, &cpu());
  const double got = sum(t).item<double>();
  EXPECT_LE(std::fabs(got - exact), 1e-7 * exact) << got << " vs " << exact;
  // The same along each axis of a 2-D view: rows (contiguous) and columns (row-wise adds).
  const Tensor m = from_vector(v, Shape{1024, 1024}, &cpu());
  for (std::int64_t axis : {0, 1}) {
    const std::vector<float> got_axis = sum(m, {axis}).to_vector<float>();
    for (std::int64_t k = 0; k < 1024; k += 97) {
      double want = 0;
      for (std::int64_t j = 0; j < 1024; ++j) {
        want += static_cast<double>(
            v[static_cast<std::size_t>(axis == 0 ? j * 1024 + k : k * 1024 + j)]);
      }
      EXPECT_NEAR(got_axis[static_cast<std::size_t>(k)], want, 1e-6 * want) << axis << " " << k;
    }
  }
}

TEST(Reduce, LargeShapesTakeEveryParallelPathExactly) {
  // Integers make every split (per-thread chunks, row tiles, strided segments) exact.
  const std::vector<std::pair<Shape, Axes>> cases = {
      {{3, 100000}, {1}},   {{100000, 3}, {0}}, {{2, 70000, 3}, {0, 2}}, {{70000, 20}, {0}},
      {{5, 40000, 2}, {1}}, {{200000}, {}},     {{2, 20000}, {0}}};
  for (const auto& [shape, axes] : cases) {
    const Tensor t = make<std::int32_t>(test_values(DType::s32, numel(shape)), shape);
    for (Op op : {Op::sum, Op::reduce_max, Op::reduce_min, Op::any}) {
      const Tensor got = run_reduce(op, t, axes, false);
      EXPECT_TRUE(tensors_close(got, reference_reduce(op, t, axes, false, got.dtype())))
          << op_name(op) << " " << shape_str(shape) << " axes " << shape_str(axes);
    }
    const Tensor f = make<float>(test_values(DType::f32, numel(shape)), shape);
    const Tensor got = sum(f, axes);
    EXPECT_TRUE(tensors_close(got, reference_reduce(Op::sum, f, axes, false, DType::f32)));
  }
}

TEST(Reduce, EmptyReductionsGiveIdentities) {
  const Tensor f = make<float>({}, {0, 3});
  EXPECT_EQ(sum(f, {0}).to_vector<float>(), std::vector<float>(3, 0.0f));
  EXPECT_EQ(product(f, {0}).to_vector<float>(), std::vector<float>(3, 1.0f));
  EXPECT_EQ(reduce_max(f).item<double>(), -kInf);
  EXPECT_EQ(reduce_min(f).item<double>(), kInf);
  EXPECT_EQ(all(f).item<int>(), 1);
  EXPECT_EQ(any(f).item<int>(), 0);
  const Tensor i = make<std::int16_t>({}, {2, 0});
  EXPECT_EQ(reduce_max(i, {1}).to_vector<std::int16_t>(),
            std::vector<std::int16_t>(2, std::numeric_limits<std::int16_t>::lowest()));
  EXPECT_EQ(reduce_min(i, {1}).to_vector<std::int16_t>(),
            std::vector<std::int16_t>(2, std::numeric_limits<std::int16_t>::max()));
  EXPECT_EQ(product(i).item<std::int64_t>(), 1);
  // A 0-size output is 0-size whatever the input.
  const Tensor out = sum(f, {1}, true);
  EXPECT_EQ(out.shape(), (Shape{0, 1}));
}

TEST(Reduce, RankZeroReducesToItself) {
  const Tensor s = make<std::int32_t>({-7}, {});
  EXPECT_EQ(sum(s).shape(), Shape{});
  EXPECT_EQ(sum(s).item<std::int64_t>(), -7);
  EXPECT_EQ(reduce_min(s, {}, true).item<std::int32_t>(), -7);
  EXPECT_EQ(any(s).item<int>(), 1);
}

TEST(Reduce, NaNPropagatesThroughSumProductMaxMin) {
  for (std::int64_t n : {5, 100, 5000}) {
    for (std::int64_t pos : {std::int64_t{0}, n / 2, n - 1}) {
      std::vector<double> v(static_cast<std::size_t>(n), 1.0);
      v[static_cast<std::size_t>(pos)] = kNaN;
      for (DType dtype : {DType::f16, DType::f32, DType::f64}) {
        const Tensor t = make_as(dtype, v, {n});
        EXPECT_TRUE(std::isnan(sum(t).item<double>())) << n << " " << pos;
        EXPECT_TRUE(std::isnan(product(t).item<double>()));
        EXPECT_TRUE(std::isnan(reduce_max(t).item<double>())) << n << " " << pos;
        EXPECT_TRUE(std::isnan(reduce_min(t).item<double>())) << n << " " << pos;
        // Along the outer axis (row-wise path): only column `pos % 5` sees the NaN.
        if (n % 5 == 0) {
          const auto col = as_doubles(reduce_max(make_as(dtype, v, {n / 5, 5}), {0}));
          for (std::int64_t c = 0; c < 5; ++c) {
            EXPECT_EQ(std::isnan(col[static_cast<std::size_t>(c)]), c == pos % 5);
          }
        }
      }
    }
  }
  const Tensor t = make<float>({1, kNaN, 0}, {3});
  EXPECT_EQ(all(t).item<int>(), 0);  // NaN is true, 0 is false
  EXPECT_EQ(any(make<float>({0, kNaN}, {2})).item<int>(), 1);
  EXPECT_EQ(reduce_max(make<float>({-kInf, -kInf}, {2})).item<double>(), -kInf);
}

TEST(Reduce, IntegerSumsAndProductsWrap) {
  const std::int64_t big = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(sum(from_vector<std::int64_t>({big, 1}, &cpu())).item<std::int64_t>(),
            std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(sum(from_vector<std::uint64_t>({~std::uint64_t{0}, 2}, &cpu())).item<std::uint64_t>(),
            1u);
  // u8 sums widen to u64 instead of wrapping at 8 bits.
  EXPECT_EQ(sum(from_vector<std::uint8_t>({200, 100}, &cpu())).item<std::uint64_t>(), 300u);
  EXPECT_EQ(
      product(from_vector<std::int64_t>({std::int64_t{1} << 62, 4}, &cpu())).item<std::int64_t>(),
      0);
}

TEST(Reduce, BadAxesThrowAxisErrorNamingTheAxis) {
  const Tensor t = make<float>(test_values(DType::f32, 24), {2, 3, 4});
  const auto before = as_doubles(t);
  try {
    sum(t, {3});
    FAIL() << "no throw";
  } catch (const AxisError& e) {
    EXPECT_NE(std::string(e.what()).find("[sum]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("axis 3"), std::string::npos) << e.what();
  }
  try {
    reduce_max(t, {1, -2});
    FAIL() << "no throw";
  } catch (const AxisError& e) {
    EXPECT_NE(std::string(e.what()).find("[reduce_max]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("{1, -2}"), std::string::npos) << e.what();
  }
  EXPECT_THROW(all(t, {-4}), AxisError);
  EXPECT_THROW(sum(Tensor{}), Error);
  EXPECT_EQ(as_doubles(t), before);
}

// ---- argmax / argmin ----

TEST(ArgReduce, TieBreakLowAndHigh) {
  const Tensor t = make<std::int32_t>({1, 5, 2, 5, 0, 0}, {6});
  EXPECT_EQ(argmax(t).item<std::int64_t>(), 1);
  EXPECT_EQ(argmax(t, std::nullopt, false, TieBreak::high).item<std::int64_t>(), 3);
  EXPECT_EQ(argmin(t).item<std::int64_t>(), 4);
  EXPECT_EQ(argmin(t, std::nullopt, false, TieBreak::high).item<std::int64_t>(), 5);
  EXPECT_EQ(argmax(t).dtype(), DType::s32);
}

// Nx's :type: s32 by default, any integer dtype on request, the same indices in each; a type
// that cannot hold the axis's last index, or a non-integer one, is a TypeError naming both.
TEST(ArgReduce, IndexTypeOption) {
  std::vector<float> v(300, 1.0f);
  v[255] = 7.0f;
  v[3] = -7.0f;
  const Tensor t = from_vector(v, Shape{300}, &cpu());
  for (DType d : {DType::s32, DType::s64, DType::u16, DType::s16, DType::u64}) {
    const Tensor a = argmax(t, 0, false, TieBreak::low, d);
    EXPECT_EQ(a.dtype(), d);
    EXPECT_EQ(a.item<std::int64_t>(), 255) << dtype_name(d);
    EXPECT_EQ(argmin(t, std::nullopt, true, TieBreak::low, d).item<std::int64_t>(), 3);
    EXPECT_EQ(argsort(t, 0, Direction::desc, d).dtype(), d);
  }
  EXPECT_EQ(argmax(t).dtype(), DType::s32);
  EXPECT_EQ(argsort(t).dtype(), DType::s32);
  // u8 holds the indices of an axis of 256, not of 300.
  const Tensor rows = reshape(slice(t, {0}, {256}), {1, 256});
  EXPECT_EQ(argmax(rows, 1, false, TieBreak::low, DType::u8).item<std::int64_t>(), 255);
  try {
    argmax(t, 0, false, TieBreak::low, DType::u8);
    ADD_FAILURE() << "no throw";
  } catch (const TypeError& e) {
    EXPECT_STREQ(e.what(), "[argmax] index 299 does not fit the index type u8 (s64 holds it)");
  }
  EXPECT_THROW(argsort(t, 0, Direction::asc, DType::s8), TypeError);
  EXPECT_NO_THROW(argsort(reshape(t, {3, 100}), 1, Direction::asc, DType::s8));
  try {
    argmin(t, 0, false, TieBreak::low, DType::f32);
    ADD_FAILURE() << "no throw";
  } catch (const TypeError& e) {
    EXPECT_STREQ(e.what(), "[argmin] the index type must be an integer dtype, got f32");
  }
  EXPECT_THROW(argsort(t, 0, Direction::asc, DType::c64), TypeError);
}

TEST(ArgReduce, NaNIsTheExtremeFirstOrLast) {
  for (DType dtype : {DType::f16, DType::f32, DType::f64}) {
    const Tensor t = make_as(dtype, {1, kNaN, 9, kNaN, -3}, {5});
    EXPECT_EQ(argmax(t).item<std::int64_t>(), 1);
    EXPECT_EQ(argmin(t).item<std::int64_t>(), 1);
    EXPECT_EQ(argmax(t, 0, false, TieBreak::high).item<std::int64_t>(), 3);
    EXPECT_EQ(argmin(t, 0, false, TieBreak::high).item<std::int64_t>(), 3);
  }
}

TEST(ArgReduce, AxesKeepAxisAndRank0) {
  // {2, 3, 2}: argmax along axis 1 (inner kept: row-wise path) and axis 2 (contiguous).
  const Tensor t = make<float>({1, 9, 4, 2, 4, 7, 8, 0, 8, 3, -1, 3}, {2, 3, 2});
  const Tensor a1 = argmax(t, 1);
  EXPECT_EQ(a1.shape(), (Shape{2, 2}));
  EXPECT_EQ(a1.to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 0, 0, 1}));
  EXPECT_EQ(argmax(t, 1, true, TieBreak::high).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{2, 0, 1, 2}));
  EXPECT_EQ(argmax(t, 1, true).shape(), (Shape{2, 1, 2}));
  EXPECT_EQ(argmin(t, -1).to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 1, 0, 1, 1, 0}));
  EXPECT_EQ(argmax(t, std::nullopt, true).shape(), (Shape{1, 1, 1}));
  EXPECT_EQ(argmax(t, std::nullopt, true).item<std::int64_t>(), 1);
  EXPECT_EQ(argmin(make<double>({4}, {})).item<std::int64_t>(), 0);
  EXPECT_EQ(argmax(make<float>({}, {0, 3}), 1).shape(), (Shape{0}));
}

TEST(ArgReduce, LargeInputsAcrossThreadsKeepTieOrder) {
  const std::int64_t n = 300001;
  std::vector<std::uint8_t> v(static_cast<std::size_t>(n), 3);
  v[1000] = 9;
  v[n - 2] = 9;
  v[500] = 1;
  v[n - 10] = 1;
  const Tensor t = from_vector(v, Shape{n}, &cpu());
  EXPECT_EQ(argmax(t).item<std::int64_t>(), 1000);
  EXPECT_EQ(argmax(t, 0, false, TieBreak::high).item<std::int64_t>(), n - 2);
  EXPECT_EQ(argmin(t).item<std::int64_t>(), 500);
  EXPECT_EQ(argmin(t, 0, false, TieBreak::high).item<std::int64_t>(), n - 10);
  // Column-wise over many rows.
  const Tensor m = from_vector(v, Shape{n, 1}, &cpu());
  EXPECT_EQ(argmax(m, 0).item<std::int64_t>(), 1000);
  EXPECT_EQ(argmin(m, 0, false, TieBreak::high).item<std::int64_t>(), n - 10);
}

// The vectorised float paths (blocks of 2048, NaN-blind with an exact rescan of blocks
// holding NaN or inf) against a sequential scan, on rows with few distinct values (many
// ties), signed zeros, and NaN or infinities dropped into single blocks.
template <class T>
void check_extremes_against_sequential_scan(std::uint32_t seed) {
  const std::int64_t n = 2048 * 5 + 37;
  std::uint32_t state = seed;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  for (int pattern = 0; pattern < 6; ++pattern) {
    std::vector<T> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = static_cast<T>(static_cast<int>(next() % 7) - 3);  // ties
    if (pattern == 1) v[4100] = T(-0.0), v[9000] = T(0.0);
    if (pattern == 2) v[3000] = std::numeric_limits<T>::quiet_NaN();
    if (pattern == 3) v[7000] = std::numeric_limits<T>::infinity();
    if (pattern == 4) v[50] = -std::numeric_limits<T>::infinity(), v[6000] = T(9);
    if (pattern == 5) std::iota(v.begin(), v.end(), T(-5000));
    const Tensor t = from_vector(v, Shape{n}, &cpu());
    for (const bool want_max : {true, false}) {
      for (const bool high : {false, true}) {
        // Sequential reference: NaN is the extreme (first, or last with high).
        std::int64_t at = 0;
        for (std::int64_t i = 1; i < n; ++i) {
          const T x = v[static_cast<std::size_t>(i)], b = v[static_cast<std::size_t>(at)];
          bool take;
          if (std::isnan(b)) {
            take = high && std::isnan(x);
          } else if (std::isnan(x)) {
            take = true;
          } else {
            take = want_max ? (high ? x >= b : x > b) : (high ? x <= b : x < b);
          }
          if (take) at = i;
        }
        const TieBreak tie = high ? TieBreak::high : TieBreak::low;
        const Tensor got = want_max ? argmax(t, 0, false, tie) : argmin(t, 0, false, tie);
        EXPECT_EQ(got.item<std::int64_t>(), at)
            << "pattern " << pattern << " max " << want_max << " high " << high;
        if (!high) {
          const T ref = v[static_cast<std::size_t>(at)];
          const T value = (want_max ? reduce_max(t) : reduce_min(t)).template item<T>();
          if (std::isnan(ref)) {
            EXPECT_TRUE(std::isnan(value)) << "pattern " << pattern;
          } else {
            EXPECT_EQ(value, ref) << "pattern " << pattern << " max " << want_max;
          }
        }
      }
    }
  }
}

TEST(ArgReduce, VectorisedFloatRowsMatchASequentialScan) {
  check_extremes_against_sequential_scan<float>(7);
  check_extremes_against_sequential_scan<double>(11);
}

TEST(ArgReduce, EmptyAxisIsShapeErrorAndBadAxisIsAxisError) {
  const Tensor t = make<float>({}, {3, 0});
  try {
    argmax(t, 1);
    FAIL() << "no throw";
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("[argmax]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("size 0"), std::string::npos) << e.what();
  }
  EXPECT_THROW(argmin(t), ShapeError);
  try {
    argmin(make<float>({1, 2}, {2}), 1);
    FAIL() << "no throw";
  } catch (const AxisError& e) {
    EXPECT_NE(std::string(e.what()).find("[argmin]"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("axis 1"), std::string::npos) << e.what();
  }
  EXPECT_EQ(t.shape(), (Shape{3, 0}));
}

}  // namespace
}  // namespace vkt
