// Complex arithmetic native on Vulkan against std::complex computed here. Tolerances
// (docs/semantics-complex-vulkan.md): add, subtract, negate, conjugate, real, imag, the
// predicates exact; multiply, divide and abs within a few ulp of the part type relative to
// |expected|; dot within K ulp relative to sum |a||b|.
#include <type_traits>

#include "conformance/complex_native_check.h"

namespace vkt::testing {
namespace {

using namespace complex_native;  // NOLINT(google-build-using-namespace): the shared helpers

// |got - want| per part within ulps of the part type, relative to |want| (a complex
// result's natural scale); NaN where want is NaN, infinities equal.
template <class R>
void expect_complex_near(const std::vector<Cplx<R>>& got, const std::vector<Cplx<R>>& want,
                         double ulps, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  const double eps = std::numeric_limits<R>::epsilon();
  int bad = 0;
  for (std::size_t i = 0; i < got.size() && bad < 5; ++i) {
    const double scale =
        std::max<double>(std::abs(std::complex<double>(want[i])), std::numeric_limits<R>::min());
    for (int part = 0; part < 2; ++part) {
      const double g = part == 0 ? got[i].real() : got[i].imag();
      const double w = part == 0 ? want[i].real() : want[i].imag();
      // Beside a NaN part the scale is unknown: the other part must then be equal.
      const bool ok = std::isnan(w)       ? std::isnan(g)
                      : std::isinf(w)     ? g == w
                      : std::isnan(scale) ? g == w
                                          : std::abs(g - w) <= ulps * eps * scale;
      if (!ok) {
        ++bad;
        ADD_FAILURE() << what << " element " << i << " part " << part << ": got " << got[i]
                      << " want " << want[i];
      }
    }
  }
}

template <class R>
std::vector<Cplx<R>> reference(Op op, const std::vector<Cplx<R>>& a,
                               const std::vector<Cplx<R>>& b) {
  std::vector<Cplx<R>> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    switch (op) {
      case Op::add:
        out[i] = a[i] + b[i];
        break;
      case Op::subtract:
        out[i] = a[i] - b[i];
        break;
      case Op::multiply:
        out[i] = a[i] * b[i];
        break;
      case Op::divide:
        out[i] = a[i] / b[i];
        break;
      default:
        break;
    }
  }
  return out;
}

template <class R>
std::vector<std::uint8_t> u8_values(const Tensor& t) {
  return t.to_vector<std::uint8_t>();
}

template <class R>
void elementwise_case(std::uint64_t seed) {
  const std::size_t n = 1031;
  const std::vector<Cplx<R>> a = special_values<R>(n, seed), b = special_values<R>(n, seed + 1);
  const Tensor ta = complex_tensor(a, {n}), tb = complex_tensor(b, {n});
  auto bin = [](Op op) { return [op](const auto& in) { return binary(op, in[0], in[1]); }; };
  auto un = [](Op op) { return [op](const auto& in) { return unary(op, in[0]); }; };
  // Exact: add, subtract (every special value), negate, conjugate, real, imag, predicates.
  for (Op op : {Op::add, Op::subtract}) {
    expect_complex_eq(complex_values<R>(native(std::string(op_name(op)), bin(op), {ta, tb})),
                      reference(op, a, b), std::string(op_name(op)));
  }
  std::vector<Cplx<R>> neg, conj;
  std::vector<R> re, im, absv;
  std::vector<std::uint8_t> nan, inf, lnot, eq, ne, land;
  for (std::size_t i = 0; i < n; ++i) {
    neg.push_back(-a[i]);
    conj.push_back(std::conj(a[i]));
    re.push_back(a[i].real());
    im.push_back(a[i].imag());
    absv.push_back(std::abs(a[i]));
    nan.push_back(std::isnan(a[i].real()) || std::isnan(a[i].imag()));
    inf.push_back(std::isinf(a[i].real()) || std::isinf(a[i].imag()));
    lnot.push_back(a[i] == Cplx<R>(0, 0));
    const Cplx<R> other = i % 3 == 0 ? a[i] : b[i];
    eq.push_back(a[i] == other);
    ne.push_back(a[i] != other);
    land.push_back(a[i] != Cplx<R>(0, 0) && other != Cplx<R>(0, 0));
  }
  expect_complex_eq(complex_values<R>(native("negate", un(Op::negate), {ta})), neg, "negate");
  expect_complex_eq(complex_values<R>(native("conjugate", un(Op::conjugate), {ta})), conj,
                    "conjugate");
  const std::vector<R> got_re = native("real", un(Op::real), {ta}).template to_vector<R>();
  const std::vector<R> got_im = native("imag", un(Op::imag), {ta}).template to_vector<R>();
  EXPECT_EQ(std::memcmp(got_re.data(), re.data(), n * sizeof(R)), 0) << "real";
  EXPECT_EQ(std::memcmp(got_im.data(), im.data(), n * sizeof(R)), 0) << "imag";
  EXPECT_EQ(u8_values<R>(native("is_nan", un(Op::is_nan), {ta})), nan);
  EXPECT_EQ(u8_values<R>(native("is_infinity", un(Op::is_infinity), {ta})), inf);
  EXPECT_EQ(u8_values<R>(native("logical_not", un(Op::logical_not), {ta})), lnot);
  std::vector<Cplx<R>> others;
  for (std::size_t i = 0; i < n; ++i) others.push_back(i % 3 == 0 ? a[i] : b[i]);
  const Tensor to = complex_tensor(others, {n});
  EXPECT_EQ(u8_values<R>(native("equal", bin(Op::equal), {ta, to})), eq);
  EXPECT_EQ(u8_values<R>(native("not_equal", bin(Op::not_equal), {ta, to})), ne);
  EXPECT_EQ(u8_values<R>(native("logical_and", bin(Op::logical_and), {ta, to})), land);
  // abs (hypot) within 2 ulp; inf beside NaN is inf.
  const std::vector<R> got_abs = native("abs", un(Op::abs), {ta}).template to_vector<R>();
  const double eps = std::numeric_limits<R>::epsilon();
  for (std::size_t i = 0; i < n; ++i) {
    const R w = absv[i], g = got_abs[i];
    const bool ok = std::isnan(w)   ? std::isnan(g)
                    : std::isinf(w) ? g == w
                                    : std::abs(double(g) - w) <= 2 * eps * w;
    EXPECT_TRUE(ok) << "abs " << a[i] << ": got " << g << " want " << w;
  }
  // multiply, divide within 4 ulp of |expected| on finite operands of moderate size.
  std::vector<Cplx<R>> fa, fb;
  auto finite = [](Cplx<R> z) {
    auto f = [](R x) {
      return std::isfinite(x) && std::abs(x) < R(1e15) && std::abs(x) > R(1e-15) ? x : R(1.25);
    };
    return Cplx<R>(f(z.real()), f(z.imag()));
  };
  for (std::size_t i = 0; i < n; ++i) {
    fa.push_back(finite(a[i]));
    fb.push_back(finite(b[i]));
  }
  const Tensor tfa = complex_tensor(fa, {n}), tfb = complex_tensor(fb, {n});
  for (Op op : {Op::multiply, Op::divide}) {
    expect_complex_near(complex_values<R>(native(std::string(op_name(op)), bin(op), {tfa, tfb})),
                        reference(op, fa, fb), 4.0, std::string(op_name(op)));
  }
  // Broadcast modes: a scalar operand on either side, and a strided broadcast.
  const Tensor row = complex_tensor(std::vector<Cplx<R>>(fa.begin(), fa.begin() + 7), {7});
  const Tensor col = complex_tensor(std::vector<Cplx<R>>(fb.begin(), fb.begin() + 5), {5, 1});
  std::vector<Cplx<R>> want;
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 7; ++j)
      want.push_back(fa[static_cast<std::size_t>(j)] * fb[static_cast<std::size_t>(i)]);
  }
  expect_complex_near(
      complex_values<R>(native("multiply broadcast", bin(Op::multiply), {row, col})), want, 4.0,
      "multiply broadcast");
  const Tensor one = complex_tensor(std::vector<Cplx<R>>{fb[3]}, {});
  want.clear();
  for (std::size_t j = 0; j < 7; ++j) want.push_back(fb[3] - fa[j]);
  expect_complex_eq(complex_values<R>(native("subtract scalar", bin(Op::subtract), {one, row})),
                    want, "subtract scalar");
}

// exp, log, sqrt against glibc's cexp / clog / csqrt (std::complex), specials included:
// NaN and infinite parts where the host has them, others within 8 ulp of |expected|.
template <class R>
void function_case(std::uint64_t seed) {
  const std::size_t n = 2053;
  std::vector<Cplx<R>> a = special_values<R>(n, seed);
  // Points near the unit circle and near 1, where log's real part is small.
  for (std::size_t i = 0; i < 64; ++i) {
    const R t = R(0.1) * R(i);
    a[i] = {std::cos(t) * (R(1) + R(i % 7) * std::numeric_limits<R>::epsilon()), std::sin(t)};
    a[i + 64] = {R(1) + R(i) * R(1e-3), R(i % 5) * R(1e-3)};
  }
  // Past exp's overflow with a small imaginary part: exp's real part overflows, its imaginary
  // part does not (exp(re / 2) twice, in that order; an H100 overflowed both).
  const R big = std::is_same_v<R, float> ? R(100) : R(1000);
  const R tiny = std::is_same_v<R, float> ? R(1e-30) : R(1e-300);
  a[128] = {big, tiny};
  a[129] = {big, -tiny};
  a[130] = {big * R(1.3), tiny * R(3)};
  const Tensor ta = complex_tensor(a, {n});
  for (Op op : {Op::exp, Op::log, Op::sqrt}) {
    std::vector<Cplx<R>> want;
    for (auto z : a)
      want.push_back(op == Op::exp ? std::exp(z) : op == Op::log ? std::log(z) : std::sqrt(z));
    const Tensor got =
        native(std::string(op_name(op)), [op](const auto& in) { return unary(op, in[0]); }, {ta});
    expect_complex_near(
        complex_values<R>(got), want, 8.0,
        std::string(op_name(op)) + " " + std::string(dtype_name(complex_dtype<R>())));
  }
}

// phase = atan2(im, re) (std::arg), zeros' signs and infinities included, within 2 ulp.
template <class R>
void phase_case(std::uint64_t seed) {
  const std::vector<Cplx<R>> a = special_values<R>(1031, seed);
  const std::vector<R> got = native("phase", [](const auto& in) { return unary(Op::phase, in[0]); },
                                    {complex_tensor(a, {1031})})
                                 .template to_vector<R>();
  for (std::size_t i = 0; i < a.size(); ++i) {
    const R w = std::arg(a[i]), g = got[i];
    // 2 ulp, or 2 units of the smallest subnormal for a subnormal angle.
    const double tol = 2 * std::numeric_limits<R>::epsilon() * std::abs(w) +
                       2 * double(std::numeric_limits<R>::denorm_min());
    const bool ok = std::isnan(w)
                        ? std::isnan(g)
                        : std::abs(double(g) - w) <= tol && std::signbit(g) == std::signbit(w);
    EXPECT_TRUE(ok) << "phase " << a[i] << ": got " << g << " want " << w;
  }
}

// cumulative_sum scans each part (another association than a sequential sum: within n
// ulps of the running sum of magnitudes).
TEST_F(VulkanComplex, PhaseAndCumulativeSum) {
  phase_case<float>(71);
  phase_case<double>(72);
  std::vector<Cplx<float>> v;
  for (int i = 0; i < 3 * 1000; ++i) v.emplace_back(float(i % 17) - 8.f, float(i % 5) * 0.5f);
  for (bool reverse : {false, true}) {
    const std::vector<Cplx<float>> got = complex_values<float>(
        native("cumulative_sum", [&](const auto& in) { return cumulative_sum(in[0], 1, reverse); },
               {complex_tensor(v, {3, 1000})}));
    for (int r = 0; r < 3; ++r) {
      std::complex<double> acc = 0;
      for (int k = 0; k < 1000; ++k) {
        const int j = reverse ? 999 - k : k;
        const std::size_t at = static_cast<std::size_t>(r * 1000 + j);
        acc += std::complex<double>(v[at]);
        // Small integers and halves: every partial sum is exact in f32.
        EXPECT_EQ(std::complex<double>(got[at]), acc) << r << " " << j;
      }
    }
  }
}

// window_sum on a 2-d c64 and c128 with strides, padding and dilation; small integer parts,
// so every sum is exact whatever the order.
template <class R>
void window_case() {
  const std::int64_t rows = 9, cols = 11;
  std::vector<Cplx<R>> v;
  for (int i = 0; i < rows * cols; ++i) v.emplace_back(R(i % 13) - 6, R(i % 7) * R(0.5));
  const WindowOptions opts{{1, 2}, {{1, 0}, {0, 2}}, {1, 2}};
  const Tensor got = native("window_sum",
                            [&](const auto& in) {
                              return window_sum(in[0], {2, 3}, opts);
                            },
                            {complex_tensor(v, {rows, cols})});
  // Padded extents 10 x 13; dilated window 2 x 5; strides 1, 2: out 9 x 5.
  ASSERT_EQ(got.shape(), (Shape{9, 5}));
  const std::vector<Cplx<R>> g = complex_values<R>(got);
  for (std::int64_t o0 = 0; o0 < 9; ++o0) {
    for (std::int64_t o1 = 0; o1 < 5; ++o1) {
      Cplx<R> want = 0;
      for (std::int64_t w0 = 0; w0 < 2; ++w0) {
        for (std::int64_t w1 = 0; w1 < 3; ++w1) {
          const std::int64_t i0 = o0 + w0 - 1, i1 = 2 * o1 + 2 * w1;  // padding lo (1, 0)
          if (i0 >= 0 && i0 < rows && i1 < cols)
            want += v[static_cast<std::size_t>(i0 * cols + i1)];
        }
      }
      EXPECT_EQ(g[static_cast<std::size_t>(o0 * 5 + o1)], want) << o0 << " " << o1;
    }
  }
}

TEST_F(VulkanComplex, WindowSum) {
  window_case<float>();
  window_case<double>();
}

TEST_F(VulkanComplex, ExpLogSqrt) {
  function_case<float>(61);
  function_case<double>(62);
}

TEST_F(VulkanComplex, Elementwise) {
  elementwise_case<float>(21);
  elementwise_case<double>(22);
}

TEST_F(VulkanComplex, IndexedAddAndComplexPredicate) {
  const std::vector<Cplx<float>> t = special_values<float>(15, 31);
  std::vector<Cplx<float>> upd;
  for (int i = 0; i < 9; ++i) upd.emplace_back(0.5f * float(i), -0.25f * float(i));
  const Tensor idx = s64_indices({4, 1, 4}, {3, 1});
  const Tensor got =
      native("indexed_add", [](const auto& in) { return indexed_add(in[0], in[1], in[2], {0}); },
             {complex_tensor(t, {5, 3}), idx, complex_tensor(upd, {3, 3})});
  std::vector<Cplx<float>> want = t;
  const int rows[] = {4, 1, 4};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c)
      want[static_cast<std::size_t>(rows[r] * 3 + c)] += upd[static_cast<std::size_t>(r * 3 + c)];
  }
  expect_complex_eq(complex_values<float>(got), want, "indexed_add c64");
  std::vector<Cplx<double>> t128, upd128, want128;
  for (auto z : t) t128.emplace_back(z.real(), z.imag());
  for (auto z : upd) upd128.emplace_back(z.real() / 3.0, z.imag() * 1e300);
  want128 = t128;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      want128[static_cast<std::size_t>(rows[r] * 3 + c)] +=
          upd128[static_cast<std::size_t>(r * 3 + c)];
    }
  }
  const Tensor got128 = native("indexed_add c128",
                               [](const auto& in) { return indexed_add(in[0], in[1], in[2], {0}); },
                               {complex_tensor(t128, {5, 3}), idx, complex_tensor(upd128, {3, 3})});
  expect_complex_eq(complex_values<double>(got128), want128, "indexed_add c128");
  // select with a complex predicate: true where either part is nonzero (-0 is zero).
  const std::vector<Cplx<double>> pred = {{0, 0},      {-0.0, 0}, {0, -0.0},
                                          {0, 1e-310}, {2, 0},    {std::nan(""), 0}};
  const Tensor on_true = full({6}, 1.0, DType::f64), on_false = full({6}, 0.0, DType::f64);
  const Tensor sel =
      native("select c128 pred", [](const auto& in) { return select(in[0], in[1], in[2]); },
             {complex_tensor(pred, {6}), on_true, on_false});
  EXPECT_EQ(sel.to_vector<double>(), (std::vector<double>{0, 0, 0, 1, 1, 1}));
}

// dot within K ulp of the part type relative to sum_k |a||b| (the bound of any summation
// order; the cpu's cgemm / zgemm and the device's real GEMM order differently).
template <class R>
void dot_case(const Shape& as, const Axes& ca, const Axes& ba, const Shape& bs, const Axes& cb,
              const Axes& bb, std::uint64_t seed) {
  std::vector<Cplx<R>> av, bv;
  for (auto z : special_values<R>(static_cast<std::size_t>(numel(as)), seed)) {
    auto f = [](R x) { return std::isfinite(x) && std::abs(x) < R(100) ? x : R(0.5); };
    av.emplace_back(f(z.real()), f(z.imag()));
  }
  for (auto z : special_values<R>(static_cast<std::size_t>(numel(bs)), seed + 1)) {
    auto f = [](R x) { return std::isfinite(x) && std::abs(x) < R(100) ? x : R(-0.5); };
    bv.emplace_back(f(z.real()), f(z.imag()));
  }
  const Tensor a = complex_tensor(av, as), b = complex_tensor(bv, bs);
  const Tensor got =
      native("dot", [&](const auto& in) { return dot(in[0], ca, ba, in[1], cb, bb); }, {a, b});
  // Independent: via real and imaginary parts as real tensors built here.
  auto plane = [](const std::vector<Cplx<R>>& v, const Shape& s, bool imag_part) {
    std::vector<double> out;
    for (auto z : v) out.push_back(imag_part ? z.imag() : z.real());
    return from_vector(out, s);
  };
  auto absplane = [](const std::vector<Cplx<R>>& v, const Shape& s) {
    std::vector<double> out;
    for (auto z : v) out.push_back(std::abs(std::complex<double>(z)));
    return from_vector(out, s);
  };
  const Tensor ar = plane(av, as, false), ai = plane(av, as, true);
  const Tensor br = plane(bv, bs, false), bi = plane(bv, bs, true);
  auto d = [&](const Tensor& x, const Tensor& y) { return dot(x, ca, ba, y, cb, bb); };
  const std::vector<double> wr =
      binary(Op::subtract, d(ar, br), d(ai, bi)).template to_vector<double>();
  const std::vector<double> wi = binary(Op::add, d(ar, bi), d(ai, br)).template to_vector<double>();
  const std::vector<double> bound =
      d(absplane(av, as), absplane(bv, bs)).template to_vector<double>();
  const std::vector<Cplx<R>> g = complex_values<R>(got);
  ASSERT_EQ(g.size(), wr.size());
  std::int64_t k = 1;
  for (std::int64_t ax : ca) k *= as[static_cast<std::size_t>(ax)];
  const double tol = double(k + 2) * std::numeric_limits<R>::epsilon();
  for (std::size_t i = 0; i < g.size(); ++i) {
    EXPECT_LE(std::abs(g[i].real() - wr[i]), tol * bound[i] + 1e-300) << "dot re " << i;
    EXPECT_LE(std::abs(g[i].imag() - wi[i]), tol * bound[i] + 1e-300) << "dot im " << i;
  }
}

TEST_F(VulkanComplex, Dot) {
  // Plain, odd sizes, K = 1, batched, a contracted on its outer axis (copied first), b's
  // free axes on both sides of K (batch stride 0 after the split), and K = 0.
  dot_case<float>({17, 29}, {1}, {}, {29, 13}, {0}, {}, 41);
  dot_case<float>({5, 1}, {1}, {}, {1, 3}, {0}, {}, 42);
  dot_case<float>({3, 9, 11}, {2}, {0}, {3, 11, 7}, {1}, {0}, 43);
  dot_case<float>({23, 6}, {0}, {}, {23, 10}, {0}, {}, 44);
  dot_case<float>({4, 5}, {1}, {}, {3, 5, 2}, {1}, {}, 45);
  dot_case<float>({130, 70}, {1}, {}, {70, 90}, {0}, {}, 46);
  dot_case<float>({4, 700}, {1}, {}, {700, 3}, {0}, {}, 49);  // K split into chunks
  dot_case<double>({17, 29}, {1}, {}, {29, 13}, {0}, {}, 47);
  dot_case<double>({2, 9, 11}, {1}, {0}, {2, 9, 7}, {1}, {0}, 48);
  // K = 0: zeros.
  const Tensor z =
      native("dot K=0", [](const auto& in) { return dot(in[0], {1}, {}, in[1], {0}, {}); },
             {complex_tensor(std::vector<Cplx<float>>{}, {3, 0}),
              complex_tensor(std::vector<Cplx<float>>{}, {0, 4})});
  expect_complex_eq(complex_values<float>(z), std::vector<Cplx<float>>(12), "dot K=0");
}

// sum as two real sums of the parts (within n ulps of the sum of magnitudes), any as
// "either part nonzero somewhere", all as "every element has a nonzero part"; product falls
// back.
TEST_F(VulkanComplex, SumAndAny) {
  const Shape shape{6, 257, 5};
  std::vector<Cplx<float>> v = special_values<float>(6 * 257 * 5, 51);
  for (auto& z : v) {
    auto f = [](float x) { return std::isfinite(x) && std::abs(x) < 1e6f ? x : 0.75f; };
    z = {f(z.real()), f(z.imag())};
  }
  const Tensor x = complex_tensor(v, shape);
  const Tensor s = native("sum axis 1", [](const auto& in) { return sum(in[0], {1}, true); }, {x});
  EXPECT_EQ(s.shape(), (Shape{6, 1, 5}));
  const std::vector<Cplx<float>> got = complex_values<float>(s);
  for (int o = 0; o < 6; ++o) {
    for (int i = 0; i < 5; ++i) {
      std::complex<double> want = 0;
      double mag = 0;
      for (int k = 0; k < 257; ++k) {
        const Cplx<float> z = v[static_cast<std::size_t>((o * 257 + k) * 5 + i)];
        want += std::complex<double>(z);
        mag += std::abs(z.real()) + std::abs(z.imag());
      }
      const Cplx<float> g = got[static_cast<std::size_t>(o * 5 + i)];
      const double tol = 257 * 0x1p-23 * mag;
      EXPECT_LE(std::abs(g.real() - want.real()), tol) << o << " " << i;
      EXPECT_LE(std::abs(g.imag() - want.imag()), tol) << o << " " << i;
    }
  }
  const Tensor total = native("sum all c128", [](const auto& in) { return sum(in[0]); },
                              {as_type_host<double>(v, shape)});
  std::complex<double> want_total = 0;
  for (auto z : v) want_total += std::complex<double>(z);
  const Cplx<double> g = complex_values<double>(total)[0];
  EXPECT_NEAR(g.real(), want_total.real(), 1e-9 * std::abs(want_total) + 1e-6);
  EXPECT_NEAR(g.imag(), want_total.imag(), 1e-9 * std::abs(want_total) + 1e-6);
  // any: rows of zeros but for one imaginary part (-0 counts as zero).
  std::vector<Cplx<float>> zeros(12, Cplx<float>(0.f, -0.f));
  zeros[7] = {0.f, 1e-42f};
  const Tensor a = native("any", [](const auto& in) { return any(in[0], {1}); },
                          {complex_tensor(zeros, {3, 4})});
  EXPECT_EQ(a.to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{0, 1, 0}));
  // all: rows of nonzero elements but for one (both parts -0) in row 2; keep_axes.
  std::vector<Cplx<float>> ones(12, Cplx<float>(0.f, 2.f));
  ones[3] = {1e-42f, 0.f};
  ones[9] = {-0.f, -0.f};
  const Tensor al = native("all", [](const auto& in) { return all(in[0], {1}, true); },
                           {complex_tensor(ones, {3, 4})});
  EXPECT_EQ(al.shape(), (Shape{3, 1}));
  EXPECT_EQ(al.to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{1, 1, 0}));
}

}  // namespace
}  // namespace vkt::testing
