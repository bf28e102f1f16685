// Complex (c64/c128) movement, indexing, reductions, scans, windows and dot on the cpu at
// sizes that take the threaded and tiled paths, against references computed here in
// complex<double> (the NumPy golden cases, complex_data_golden_test.cpp, cover small ones).
#include <gtest/gtest.h>

#include <complex>
#include <limits>
#include <random>
#include <vector>

#include "support/complex_compare.h"

namespace vkt {
namespace {

using testing::Complex;

template <class C>
class ComplexData : public ::testing::Test {};
using ComplexTypes = ::testing::Types<std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(ComplexData, ComplexTypes);

// Values with both parts in [-1, 1]; as C and as the exact complex<double> of those values.
template <class C>
std::pair<Tensor, std::vector<Complex>> random_tensor(const Shape& shape, std::uint32_t seed,
                                                      bool unit_modulus = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<C> v(static_cast<std::size_t>(numel(shape)));
  std::vector<Complex> ref(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = unit_modulus ? C(std::polar(1.0, 3.0 * u(rng))) : C(u(rng), u(rng));
    ref[i] = Complex(v[i].real(), v[i].imag());
  }
  return {from_vector(v, shape, &cpu()), ref};
}

template <class C>
testing::Tolerance accumulated(std::int64_t n) {
  const double eps = std::is_same_v<C, std::complex<float>> ? 0x1p-23 : 0x1p-52;
  return {4 * static_cast<double>(n) * eps, 4 * static_cast<double>(n) * eps};
}

// Reference reduction of x [outer, mid, inner] over mid (sum or product).
std::vector<Complex> reduce_mid(const std::vector<Complex>& x, std::int64_t outer, std::int64_t mid,
                                std::int64_t inner, bool prod) {
  std::vector<Complex> out(static_cast<std::size_t>(outer * inner), prod ? 1.0 : 0.0);
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t m = 0; m < mid; ++m) {
      for (std::int64_t i = 0; i < inner; ++i) {
        Complex& r = out[static_cast<std::size_t>(o * inner + i)];
        const Complex v = x[static_cast<std::size_t>((o * mid + m) * inner + i)];
        r = prod ? r * v : r + v;
      }
    }
  }
  return out;
}

TYPED_TEST(ComplexData, SumsAndProductsOnEveryThreadedPath) {
  using C = TypeParam;
  // One long output (split across threads), rows kept (row-wise accumulation, split too),
  // many outputs, and a middle axis.
  const struct {
    Shape shape;
    Axes axes;
    std::int64_t outer, mid, inner;
  } cases[] = {{{140000}, {}, 1, 140000, 1},
               {{70000, 2}, {0}, 1, 70000, 2},
               {{300, 700}, {1}, 300, 700, 1},
               {{20, 300, 30}, {1}, 20, 300, 30}};
  for (const auto& c : cases) {
    SCOPED_TRACE(shape_str(c.shape));
    const auto [t, ref] = random_tensor<C>(c.shape, 3);
    const Tensor s = sum(t, c.axes);
    EXPECT_EQ(s.dtype(), dtype_of_v<C>);
    EXPECT_TRUE(testing::complex_close(s, reduce_mid(ref, c.outer, c.mid, c.inner, false),
                                       accumulated<C>(64)));
    // Unit-modulus factors keep long products finite; rounding grows with the length.
    const auto [u, uref] = random_tensor<C>(c.shape, 4, true);
    EXPECT_TRUE(testing::complex_close(product(u, c.axes),
                                       reduce_mid(uref, c.outer, c.mid, c.inner, true),
                                       accumulated<C>(4 * c.mid)));
  }
}

TYPED_TEST(ComplexData, AllAndAnyTestBothParts) {
  using C = TypeParam;
  const std::int64_t n = 200000;
  std::vector<C> ones(static_cast<std::size_t>(n), C(0, 1));  // nonzero through im alone
  std::vector<C> zeros(static_cast<std::size_t>(n), C(0, -0.0));
  EXPECT_EQ(all(from_vector(ones, &cpu())).template to_vector<std::uint8_t>()[0], 1);
  EXPECT_EQ(any(from_vector(zeros, &cpu())).template to_vector<std::uint8_t>()[0], 0);
  ones[123457] = C(0, 0);
  zeros[199999] = C(0, 1e-30f);
  EXPECT_EQ(all(from_vector(ones, &cpu())).template to_vector<std::uint8_t>()[0], 0);
  EXPECT_EQ(any(from_vector(zeros, &cpu())).template to_vector<std::uint8_t>()[0], 1);
  const Tensor rows = from_vector(ones, {n / 2, 2}, &cpu());
  EXPECT_EQ(all(rows, {0}).template to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{1, 0}));
}

TYPED_TEST(ComplexData, CumulativeScansAlongEachAxis) {
  using C = TypeParam;
  const std::int64_t a = 40, b = 2100;  // inner > 1 takes the tiled scan (tiles of 1024)
  const auto [t, ref] = random_tensor<C>({a, b}, 5);
  for (bool reverse : {false, true}) {
    SCOPED_TRACE(reverse ? "reverse" : "forward");
    std::vector<Complex> along0(ref.size());
    for (std::int64_t j = 0; j < b; ++j) {
      Complex acc = 0;
      for (std::int64_t k = 0; k < a; ++k) {
        const std::int64_t i = reverse ? a - 1 - k : k;
        acc += ref[static_cast<std::size_t>(i * b + j)];
        along0[static_cast<std::size_t>(i * b + j)] = acc;
      }
    }
    EXPECT_TRUE(testing::complex_close(cumulative_sum(t, 0, reverse), along0, accumulated<C>(a)));
    // Products along axis 1: the first 8 factors in scan order, then ones (bounded values).
    std::vector<C> factors(ref.size());
    std::vector<Complex> along1(ref.size());
    for (std::int64_t i = 0; i < a; ++i) {
      Complex acc = 1;
      for (std::int64_t k = 0; k < b; ++k) {
        const auto e = static_cast<std::size_t>(i * b + (reverse ? b - 1 - k : k));
        const Complex f = k < 8 ? ref[e] : Complex(1);
        factors[e] = C(f);
        acc *= f;
        along1[e] = acc;
      }
    }
    EXPECT_TRUE(
        testing::complex_close(cumulative_product(from_vector(factors, {a, b}, &cpu()), 1, reverse),
                               along1, accumulated<C>(16)));
  }
}

TYPED_TEST(ComplexData, WindowSumWithStridesPaddingAndDilations) {
  using C = TypeParam;
  const std::int64_t h = 9, w = 11;
  const auto [t, ref] = random_tensor<C>({h, w}, 6);
  WindowOptions o;
  o.strides = {2, 1};
  o.padding = {{1, 2}, {0, 1}};
  o.dilations = {1, 2};
  const Shape dims{3, 2};
  const std::int64_t oh = (h + 3 - 3) / 2 + 1, ow = (w + 1 - 3) / 1 + 1;  // dilated width 3
  std::vector<Complex> sums, prods;
  for (std::int64_t i = 0; i < oh; ++i) {
    for (std::int64_t j = 0; j < ow; ++j) {
      Complex s = 0, p = 1;
      for (std::int64_t a = 0; a < 3; ++a) {
        for (std::int64_t b = 0; b < 2; ++b) {
          const std::int64_t y = i * 2 + a - 1, x = j + 2 * b;
          if (y < 0 || y >= h || x >= w) continue;  // padding: the identity
          s += ref[static_cast<std::size_t>(y * w + x)];
          p *= ref[static_cast<std::size_t>(y * w + x)];
        }
      }
      sums.push_back(s);
      prods.push_back(p);
    }
  }
  const Tensor ws = window_sum(t, dims, o);
  ASSERT_EQ(ws.shape(), (Shape{oh, ow}));
  EXPECT_TRUE(testing::complex_close(ws, sums, accumulated<C>(8)));
  EXPECT_TRUE(testing::complex_close(window_product(t, dims, o), prods, accumulated<C>(8)));
}

TYPED_TEST(ComplexData, MovementOfLargeTensorsKeepsEveryBit) {
  using C = TypeParam;
  const std::int64_t r = 300, c = 517;
  auto [t, ref] = random_tensor<C>({r, c}, 7);
  // Transpose (tiled), reverse, strided slice, broadcast, pad with interior, concatenate.
  const std::vector<Complex> tr = testing::as_complex_values(transpose(t, {1, 0}));
  const std::vector<Complex> rev = testing::as_complex_values(reverse(t, {1}));
  const std::vector<Complex> sl = testing::as_complex_values(slice(t, {1, 2}, {100, 170}, {3, 3}));
  for (std::int64_t i = 0; i < r; ++i) {
    for (std::int64_t j = 0; j < c; ++j) {
      const Complex v = ref[static_cast<std::size_t>(i * c + j)];
      ASSERT_EQ(tr[static_cast<std::size_t>(j * r + i)], v);
      ASSERT_EQ(rev[static_cast<std::size_t>(i * c + (c - 1 - j))], v);
      if (i >= 1 && (i - 1) % 3 == 0 && (i - 1) / 3 < 100 && j >= 2 && (j - 2) % 3 == 0 &&
          (j - 2) / 3 < 170) {
        ASSERT_EQ(sl[static_cast<std::size_t>((i - 1) / 3 * 170 + (j - 2) / 3)], v);
      }
    }
  }
  const C fill(-0.5f, 2.0f);
  const Tensor padded = pad(t, Scalar(std::complex<double>(fill)), {{1, 0, 1}, {0, -2, 0}});
  ASSERT_EQ(padded.shape(), (Shape{2 * r, c - 2}));
  const std::vector<Complex> pv = testing::as_complex_values(padded);
  for (std::int64_t i = 0; i < 2 * r; ++i) {
    for (std::int64_t j = 0; j < c - 2; ++j) {
      const Complex want = i % 2 == 1 ? ref[static_cast<std::size_t>((i / 2) * c + j)]
                                      : Complex(fill.real(), fill.imag());
      ASSERT_EQ(pv[static_cast<std::size_t>(i * (c - 2) + j)], want);
    }
  }
  const Tensor row = slice(t, {5, 0}, {1, c});
  const std::vector<Complex> bv = testing::as_complex_values(broadcast(row, {4, r, c}, {1, 2}));
  for (std::int64_t k = 0; k < 4 * r * c; k += 997) {
    ASSERT_EQ(bv[static_cast<std::size_t>(k)], ref[static_cast<std::size_t>(5 * c + k % c)]);
  }
  const std::vector<Complex> cat = testing::as_complex_values(concatenate({t, row}, 0));
  EXPECT_EQ(cat.size(), static_cast<std::size_t>((r + 1) * c));
  EXPECT_TRUE(std::equal(ref.begin(), ref.end(), cat.begin()));
  // put_slice writes the update over a copy.
  const Tensor put = put_slice(t, {10, 20}, slice(t, {0, 0}, {5, 7}));
  const std::vector<Complex> pu = testing::as_complex_values(put);
  EXPECT_EQ(pu[static_cast<std::size_t>(12 * c + 23)], ref[static_cast<std::size_t>(2 * c + 3)]);
  EXPECT_EQ(pu[static_cast<std::size_t>(9 * c + 20)], ref[static_cast<std::size_t>(9 * c + 20)]);
}

TYPED_TEST(ComplexData, IndexedAddAccumulatesDuplicatesInOrder) {
  using C = TypeParam;
  const std::int64_t n = 50, width = 3000;
  const auto [t, ref] = random_tensor<C>({n, width}, 8);
  std::vector<std::int64_t> rows;
  for (std::int64_t i = 0; i < 40; ++i) rows.push_back((i * 7) % n);
  rows.push_back(n + 3);  // out of range: skipped
  const auto m = static_cast<std::int64_t>(rows.size());
  const auto [upd, uref] = random_tensor<C>({m, width}, 9);
  const Tensor idx = from_vector(rows, {m, 1}, &cpu());
  std::vector<Complex> added = ref, put = ref;
  for (std::int64_t i = 0; i < m; ++i) {
    if (rows[static_cast<std::size_t>(i)] >= n) continue;
    for (std::int64_t j = 0; j < width; ++j) {
      const auto o = static_cast<std::size_t>(rows[static_cast<std::size_t>(i)] * width + j);
      added[o] += uref[static_cast<std::size_t>(i * width + j)];
      put[o] = uref[static_cast<std::size_t>(i * width + j)];
    }
  }
  EXPECT_TRUE(testing::complex_close(indexed_add(t, idx, upd), added, accumulated<C>(4)));
  EXPECT_TRUE(testing::complex_close(indexed_put(t, idx, upd), put, {0, 0}));
  // gather / take / take_along_axis / select move complex values unchanged.
  const Tensor taken = take(t, from_vector(std::vector<std::int64_t>{3, 3, 0}, &cpu()), 0);
  EXPECT_EQ(testing::as_complex_values(taken)[static_cast<std::size_t>(width + 5)],
            ref[static_cast<std::size_t>(3 * width + 5)]);
  std::vector<C> pred(static_cast<std::size_t>(n * width), C(0, 0));
  pred[17] = C(0, -1);
  const Tensor chosen = select(from_vector(pred, {n, width}, &cpu()), t, reverse(t, {1}));
  const std::vector<Complex> cv = testing::as_complex_values(chosen);
  EXPECT_EQ(cv[17], ref[17]);
  EXPECT_EQ(cv[18], ref[static_cast<std::size_t>(width - 1 - 18)]);
}

TYPED_TEST(ComplexData, BatchedDotAgainstNaiveProducts) {
  using C = TypeParam;
  const std::int64_t batch = 3, m = 33, k = 70, n = 29;
  // a [k, batch, m] and b [batch, n, k]: batch and contracting axes in non-gemm order.
  const auto [a, ar] = random_tensor<C>({k, batch, m}, 10);
  const auto [b, br] = random_tensor<C>({batch, n, k}, 11);
  const Tensor out = dot(a, {0}, {1}, b, {2}, {0});
  ASSERT_EQ(out.shape(), (Shape{batch, m, n}));
  std::vector<Complex> want;
  for (std::int64_t z = 0; z < batch; ++z) {
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        Complex s = 0;
        for (std::int64_t l = 0; l < k; ++l) {
          s += ar[static_cast<std::size_t>((l * batch + z) * m + i)] *
               br[static_cast<std::size_t>((z * n + j) * k + l)];
        }
        want.push_back(s);
      }
    }
  }
  EXPECT_TRUE(testing::complex_close(out, want, accumulated<C>(4 * k)));
  // No conjugation anywhere: (i)·(i) = -1.
  const Tensor i2 = dot(from_vector(std::vector<C>{C(0, 1)}, {1, 1}, &cpu()),
                        from_vector(std::vector<C>{C(0, 1)}, {1, 1}, &cpu()));
  EXPECT_TRUE(testing::complex_close(i2, {Complex(-1, 0)}, {0, 0}));
}

TYPED_TEST(ComplexData, ToBatchedAndTensorStartSlices) {
  using C = TypeParam;
  const auto [t, ref] = random_tensor<C>({5, 4}, 12);
  const std::vector<Tensor> batches = to_batched(t, 2);
  ASSERT_EQ(batches.size(), 3u);
  const std::vector<Complex> last = testing::as_complex_values(batches[2]);
  // The partial last batch repeats from the start (Leftover::repeat).
  EXPECT_EQ(last[0], ref[16]);
  EXPECT_EQ(last[4], ref[0]);
  const Tensor start0 = from_vector(std::vector<std::int64_t>{3}, Shape{}, &cpu());
  const Tensor start1 = from_vector(std::vector<std::int64_t>{1}, Shape{}, &cpu());
  const Tensor s = slice(t, {start0, start1}, {2, 2});
  const std::vector<Complex> sv = testing::as_complex_values(s);
  EXPECT_EQ(sv[0], ref[13]);
  EXPECT_EQ(sv[3], ref[18]);
  const Tensor put = put_slice(t, {start0, start1}, s);
  EXPECT_TRUE(testing::complex_close(put, ref, {0, 0}));
}

TYPED_TEST(ComplexData, AllCloseOnTheComplexModulus) {
  using C = TypeParam;
  using R = typename C::value_type;
  auto close = [](const std::vector<C>& a, const std::vector<C>& b, double rtol, double atol,
                  bool equal_nan = false) {
    const Tensor r = all_close(from_vector(a, &cpu()), from_vector(b, &cpu()),
                               AllCloseOptions{rtol, atol, equal_nan});
    EXPECT_EQ(r.dtype(), DType::u8);
    return r.template to_vector<std::uint8_t>()[0];
  };
  // a - b = (3, 4)·2^-12 with |b| = 1: |a - b| = 5·2^-12, while each part differs by at
  // most 4·2^-12. The modulus decides, not the parts.
  const R e = R(1) / R(4096);
  const std::vector<C> b = {C(0, 1), C(2, -1)};
  const std::vector<C> a = {C(3 * e, 1 + 4 * e), C(2, -1)};
  EXPECT_EQ(close(a, b, 4.5 * e, 0), 0);
  EXPECT_EQ(close(a, b, 5.5 * e, 0), 1);
  EXPECT_EQ(close(a, b, 0, 5.5 * e), 1);  // atol alone
  const R nan = std::numeric_limits<R>::quiet_NaN(), inf = std::numeric_limits<R>::infinity();
  // NaN in either part: close only to NaN, and only with equal_nan.
  EXPECT_EQ(close({C(nan, 0)}, {C(nan, 0)}, 1e-3, 0), 0);
  EXPECT_EQ(close({C(nan, 0)}, {C(0, nan)}, 1e-3, 0, true), 1);
  EXPECT_EQ(close({C(1, 0)}, {C(1, nan)}, 1e-3, 0, true), 0);
  // Infinities: close only when equal.
  EXPECT_EQ(close({C(inf, 1)}, {C(inf, 1)}, 1e-3, 0), 1);
  EXPECT_EQ(close({C(inf, 1)}, {C(inf, 2)}, 1e-3, 0), 0);
  EXPECT_EQ(close({C(inf, 1)}, {C(-inf, 1)}, 1e-3, 0), 0);
  // A real operand is promoted: 2 is close to 2 + 0i, not to 2 + i.
  const Tensor two = from_vector(std::vector<R>{2}, &cpu());
  EXPECT_EQ(all_close(two, from_vector(std::vector<C>{C(2, 0)}, &cpu()))
                .template to_vector<std::uint8_t>()[0],
            1);
  EXPECT_EQ(all_close(two, from_vector(std::vector<C>{C(2, 1)}, &cpu()))
                .template to_vector<std::uint8_t>()[0],
            0);
}

}  // namespace
}  // namespace vkt
