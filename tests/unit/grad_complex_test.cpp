// Gradients of complex values and of the fft family: Nx's convention (dL/dx - i dL/dy) checked
// by central differences on the real and imaginary parts, exactly on small cases, and against
// Nx's own published fft gradients; the device and vkt::compile give the cpu's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "support/grad_check.h"
#include "vkt/compile.h"
#include "vkt/grad.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using C = std::complex<double>;
using Ts = std::vector<Tensor>;
using grad_check::check;
using grad_check::Fn;
using grad_check::values;

const Scalar kI = Scalar(C(0.0, 1.0));

// c128 values with both parts in [lo, hi).
Tensor complex_values(const Shape& shape, double lo, double hi, std::uint32_t seed) {
  const Tensor re = as_type(values(shape, lo, hi, seed), DType::c128);
  const Tensor im = as_type(values(shape, lo, hi, seed + 1000), DType::c128);
  return add(re, multiply(im, kI));
}

Tensor from_complex(const std::vector<C>& v, const Shape& shape) {
  return from_vector<C>(v, shape, &cpu());
}

// The gradient Nx's convention defines, by central differences: dL/dx - i dL/dy for each
// element of a c128 primal, dL/dx for an f64 one.
std::vector<std::vector<C>> numeric_gradient(const Fn& f, const Ts& primals) {
  const double h = 1e-6;
  std::vector<std::vector<C>> out;
  for (std::size_t p = 0; p < primals.size(); ++p) {
    const bool cplx = primals[p].dtype() == DType::c128;
    std::vector<C> base;
    if (cplx) {
      base = primals[p].to_vector<C>();
    } else {
      for (double x : primals[p].to_vector<double>()) base.emplace_back(x, 0.0);
    }
    std::vector<C> grads;
    for (std::size_t i = 0; i < base.size(); ++i) {
      auto at = [&](C delta) {
        std::vector<C> moved = base;
        moved[i] += delta;
        Ts args = primals;
        if (cplx) {
          args[p] = from_complex(moved, primals[p].shape());
        } else {
          std::vector<double> re;
          for (const C& z : moved) re.push_back(z.real());
          args[p] = from_vector<double>(re, primals[p].shape(), &cpu());
        }
        return f(args).item<double>();
      };
      const double dx = (at(C(h, 0)) - at(C(-h, 0))) / (2 * h);
      const double dy = cplx ? (at(C(0, h)) - at(C(0, -h))) / (2 * h) : 0.0;
      grads.emplace_back(dx, -dy);
    }
    out.push_back(std::move(grads));
  }
  return out;
}

std::vector<C> as_complex_vector(const Tensor& t) {
  if (t.dtype() == DType::c128) return t.to_vector<C>();
  std::vector<C> out;
  for (double x : t.to_vector<double>()) out.emplace_back(x, 0.0);
  return out;
}

// vkt::grad of f (a real f64 scalar) against numeric_gradient, relative to max(1, |numeric|);
// each cotangent has its primal's dtype and shape.
void check_complex(const std::string& what, const Fn& f, const Ts& primals,
                   double tolerance = 1e-6) {
  SCOPED_TRACE(what);
  const TensorFunction wrapped = [&](const Ts& a) { return Ts{f(a)}; };
  const Ts got = grad(wrapped, primals);
  ASSERT_EQ(got.size(), primals.size());
  const std::vector<std::vector<C>> want = numeric_gradient(f, primals);
  for (std::size_t p = 0; p < got.size(); ++p) {
    ASSERT_EQ(got[p].shape(), primals[p].shape());
    ASSERT_EQ(got[p].dtype(), primals[p].dtype());
    const std::vector<C> g = as_complex_vector(got[p]);
    double worst = 0;
    for (std::size_t i = 0; i < g.size(); ++i) {
      worst = std::max(worst, std::abs(g[i] - want[p][i]) / std::max(1.0, std::abs(want[p][i])));
    }
    EXPECT_LT(worst, tolerance) << "primal " << p;
  }
}

// A real loss that reads both parts of a complex value: sum(re(v) w1 + im(v) w2).
Tensor both_parts(const Tensor& v, const Tensor& w1, const Tensor& w2) {
  return sum(add(multiply(real(v), w1), multiply(imag(v), w2)));
}

void expect_near(const Tensor& got, const std::vector<C>& want, double tol, const char* what) {
  SCOPED_TRACE(what);
  const std::vector<C> g = as_complex_vector(got);
  ASSERT_EQ(g.size(), want.size());
  for (std::size_t i = 0; i < g.size(); ++i) {
    EXPECT_NEAR(g[i].real(), want[i].real(), tol) << "element " << i;
    EXPECT_NEAR(g[i].imag(), want[i].imag(), tol) << "element " << i;
  }
}

TEST(GradComplex, TheCheckerRejectsTheConjugateConvention) {
  // PyTorch's gradient of |z|^2 is 2z; Nx's and JAX's is 2 conj(z).
  const Fn f = [](const Ts& a) { return sum(multiply(abs(a[0]), abs(a[0]))); };
  const Tensor z = complex_values({3}, -1, 1, 1);
  const std::vector<C> want = numeric_gradient(f, {z})[0];
  const std::vector<C> zs = z.to_vector<C>();
  for (std::size_t i = 0; i < zs.size(); ++i) {
    EXPECT_NEAR(std::abs(want[i] - 2.0 * std::conj(zs[i])), 0, 1e-6);
    EXPECT_GT(std::abs(want[i] - 2.0 * zs[i]), 1e-2);
  }
}

// Nx: grad(abs) of a complex z is re(g) conj(z) / |z|; the loss |z|^2 = |z| |z| gives
// g = 2 |z|, so the gradient at z = 1 + 2i is 2 conj(z) = 2 - 4i (dL/dx - i dL/dy).
TEST(GradComplex, ConventionOnOnePoint) {
  const Tensor z = from_complex({C(1, 2)}, {});
  const auto g = [&](const Fn& f) {
    return grad([&](const Ts& a) { return Ts{f(a)}; }, {z})[0].item<C>();
  };
  EXPECT_EQ(g([](const Ts& a) { return multiply(abs(a[0]), abs(a[0])); }), C(2, -4));
  EXPECT_EQ(g([](const Ts& a) { return real(multiply(a[0], conjugate(a[0]))); }), C(2, -4));
  EXPECT_EQ(g([](const Ts& a) { return real(a[0]); }), C(1, 0));
  EXPECT_EQ(g([](const Ts& a) { return imag(a[0]); }), C(0, -1));
  // re(z^2) = x^2 - y^2: 2x + 2iy = 2z, holomorphic: g f'(z) with no conjugate.
  EXPECT_EQ(g([](const Ts& a) { return real(multiply(a[0], a[0])); }), C(2, 4));
  // phase = atan2(y, x): (-y / |z|^2) - i (x / |z|^2) = -i / z.
  const C d_phase = g([](const Ts& a) { return phase(a[0]); });
  EXPECT_NEAR(std::abs(d_phase - C(-0.4, -0.2)), 0, 1e-15);
  // At 0 abs and phase have no derivative: Nx's abs takes 0 there, and so does phase.
  const Tensor zero = from_complex({C(0, 0)}, {});
  EXPECT_EQ(grad([](const Ts& a) { return Ts{abs(a[0])}; }, {zero})[0].item<C>(), C(0, 0));
  EXPECT_EQ(grad([](const Ts& a) { return Ts{phase(a[0])}; }, {zero})[0].item<C>(), C(0, 0));
}

// Nx's grad of a complex output seeds it with 1: the pullback of ones. Nx's own test values
// (nx/test/nx/defn/grad_test.exs, "fft and ifft").
TEST(GradComplex, NxFftGradientsOfAComplexSum) {
  const Tensor t = from_complex({5, 5, 0, 0, 2, 2, 2, 2, 0, C(0, 1), 0, 0}, {3, 4});
  const auto pulled = [&](const TensorFunction& f) {
    Vjp v = vjp(f, {t});
    return v.pullback({full({}, 1, DType::c128)})[0];
  };
  const auto first_column = [](C v) { return std::vector<C>{v, 0, 0, 0, v, 0, 0, 0, v, 0, 0, 0}; };
  expect_near(pulled([](const Ts& a) { return Ts{sum(fft(a[0]))}; }), first_column(4), 1e-12,
              "fft");
  expect_near(pulled([](const Ts& a) { return Ts{sum(fft(a[0], 8))}; }), first_column(8), 1e-12,
              "fft length 8");
  expect_near(pulled([](const Ts& a) { return Ts{sum(ifft(a[0]))}; }), first_column(1), 1e-12,
              "ifft");
  expect_near(pulled([](const Ts& a) { return Ts{sum(ifft(a[0], 8))}; }), first_column(1), 1e-12,
              "ifft length 8");
  // Composed, on t padded to 6 columns and cropped back to 4 by the transform.
  const Tensor wide = pad(t, 0, {{0, 0, 0}, {0, 2, 0}});
  const auto composed = [&](Tensor (*transform)(const Tensor&, std::optional<std::int64_t>,
                                                std::int64_t)) {
    Vjp v =
        vjp([transform](const Ts& a) { return Ts{sum(exp(transform(cos(a[0]), 4, -1)))}; }, {wide});
    return v.pullback({full({}, 1, DType::c128)})[0];
  };
  expect_near(composed(&fft),
              {14.16124, 12.1516, 0, 0, 0, 0, -2.89999, 0.737196, 0.737196, 0.737196, 0, 0, 0,
               C(0, -108.54785), 0, 0, 0, 0},
              1e-3, "fft composed");
  expect_near(composed(&ifft),
              {1.0896463, 0.28715, 0, 0, 0, 0, -0.8319124, 0.077385, 0.077385, 0.077385, 0, 0, 0,
               C(0, -0.57873374), 0, 0, 0, 0},
              1e-5, "ifft composed");
}

TEST(GradComplex, ElementwiseRulesOfComplexPrimals) {
  const Shape shape{2, 3};
  const Tensor w1 = values(shape, -1, 1, 10);
  const Tensor w2 = values(shape, -1, 1, 11);
  using Unary = Tensor (*)(const Tensor&);
  const std::vector<std::pair<const char*, Unary>> unary = {
      {"exp", &exp},     {"expm1", &expm1},     {"log", &log},
      {"log1p", &log1p}, {"sigmoid", &sigmoid}, {"sin", &sin},
      {"cos", &cos},     {"tan", &tan},         {"sinh", &sinh},
      {"cosh", &cosh},   {"tanh", &tanh},       {"asin", &asin},
      {"acos", &acos},   {"atan", &atan},       {"asinh", &asinh},
      {"acosh", &acosh}, {"atanh", &atanh},     {"sqrt", &sqrt},
      {"rsqrt", &rsqrt}, {"negate", &negate},   {"conjugate", &conjugate}};
  // Both half planes: acosh's principal branch differs from 1 / sqrt(z^2 - 1) where re(z) < 0.
  const Tensor z = complex_values(shape, -0.9, 0.9, 3);
  for (const auto& [name, op] : unary) {
    check_complex(name, [op = op, &w1, &w2](const Ts& a) { return both_parts(op(a[0]), w1, w2); },
                  {z});
  }
  // Real-valued results: each reads its own part of z.
  const std::vector<std::pair<const char*, Unary>> to_real = {
      {"abs", &abs}, {"real", &real}, {"imag", &imag}, {"phase", &phase}};
  for (const auto& [name, op] : to_real) {
    check_complex(name, [op = op, &w1](const Ts& a) { return sum(multiply(op(a[0]), w1)); }, {z});
  }
  using Binary = Tensor (*)(const Tensor&, const Tensor&);
  const std::vector<std::pair<const char*, Binary>> binary = {{"add", &add},
                                                              {"subtract", &subtract},
                                                              {"multiply", &multiply},
                                                              {"divide", &divide},
                                                              {"pow", &pow}};
  for (const auto& [name, op] : binary) {
    for (const auto& [sa, sb] :
         std::vector<std::pair<Shape, Shape>>{{{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{2, 1}, {1, 3}}}) {
      const Tensor a = add(complex_values(sa, 0.2, 1.0, 20), 0.5);
      const Tensor b = complex_values(sb, 0.2, 1.0, 21);
      check_complex(std::string(name) + " " + shape_str(sa) + " " + shape_str(sb),
                    [op = op, &w1, &w2](const Ts& t) { return both_parts(op(t[0], t[1]), w1, w2); },
                    {a, b});
      // A real operand meeting a complex one keeps the real part of its share.
      const Tensor real_a = add(values(sa, 0.2, 1.0, 22), 0.5);
      check_complex(std::string(name) + " real and complex " + shape_str(sa),
                    [op = op, &w1, &w2](const Ts& t) { return both_parts(op(t[0], t[1]), w1, w2); },
                    {real_a, b});
    }
  }
}

TEST(GradComplex, AsTypeBetweenRealAndComplex) {
  const Tensor w1 = values({4}, -1, 1, 30);
  const Tensor w2 = values({4}, -1, 1, 31);
  const Tensor x = values({4}, -1, 1, 32);
  const Tensor z = complex_values({4}, -1, 1, 33);
  // real -> complex: the real part of the complex cotangent.
  check_complex(
      "f64 to c128",
      [&](const Ts& a) { return both_parts(multiply(as_type(a[0], DType::c128), z), w1, w2); },
      {x});
  // complex -> real: the real part, as Nx's as_type (its grad is real's).
  check_complex("c128 to f64",
                [&](const Ts& a) { return sum(multiply(exp(as_type(a[0], DType::f64)), w1)); },
                {z});
  // complex -> complex of another width: the cotangent cast back, in Nx's convention.
  const Tensor g = grad(
      [&](const Ts& a) {
        return Ts{sum(as_type(imag(multiply(as_type(a[0], DType::c64), C(0.0, 2.0))), DType::f64))};
      },
      {z})[0];
  EXPECT_EQ(g.dtype(), DType::c128);
  expect_near(g, std::vector<C>(4, C(2, 0)), 0, "c128 to c64");
}

// Moving, reducing and contracting complex values: transposes, with no conjugate.
TEST(GradComplex, StructuralRulesCarryComplexValues) {
  const Tensor a = complex_values({3, 4}, -1, 1, 40);
  const Tensor b = complex_values({4, 2}, -1, 1, 41);
  const Tensor w1 = values({3, 2}, -1, 1, 42);
  const Tensor w2 = values({3, 2}, -1, 1, 43);
  check_complex("dot", [&](const Ts& t) { return both_parts(dot(t[0], t[1]), w1, w2); }, {a, b});
  check_complex("slice, transpose, concatenate, broadcast",
                [&](const Ts& t) {
                  const Tensor s = slice(t[0], {0, 1}, {3, 2}, {});
                  const Tensor j = concatenate({s, transpose(slice(t[1], {1, 0}, {2, 2}, {}))}, 0);
                  const Tensor row = broadcast(slice(t[0], {2, 0}, {1, 2}, {}), {3, 2});
                  return both_parts(add(slice(j, {1, 0}, {3, 2}, {}), row), w1, w2);
                },
                {a, b});
  check_complex("sum and product",
                [&](const Ts& t) {
                  return both_parts(add(sum(t[0], {1}), product(t[0], {1})), values({3}, -1, 1, 46),
                                    values({3}, -1, 1, 47));
                },
                {a});
  check_complex("cumulative_sum and select",
                [&](const Ts& t) {
                  const Tensor c = cumulative_sum(t[0], 1);
                  const Tensor pick = greater(values({3, 4}, -1, 1, 48), 0);
                  return both_parts(select(pick, c, multiply(t[0], t[0])),
                                    values({3, 4}, -1, 1, 49), values({3, 4}, -1, 1, 50));
                },
                {a});
}

// The window, conv and indexing rules move or contract values the same way.
TEST(GradComplex, WindowConvAndIndexingRulesCarryComplexValues) {
  const Tensor a = complex_values({3, 4}, 0.3, 1, 70);
  const Tensor w1 = values({2, 3}, -1, 1, 71);
  const Tensor w2 = values({2, 3}, -1, 1, 72);
  check_complex("window_sum",
                [&](const Ts& t) {
                  return both_parts(window_sum(t[0], {2, 2}), w1, w2);
                },
                {a});
  check_complex("window_product",
                [&](const Ts& t) {
                  return both_parts(window_product(t[0], {2, 2}), w1, w2);
                },
                {a});
  check_complex("cumulative_product",
                [&](const Ts& t) {
                  return both_parts(cumulative_product(t[0], 1), values({3, 4}, -1, 1, 73),
                                    values({3, 4}, -1, 1, 74));
                },
                {a});
  const Tensor idx = from_vector<std::int32_t>({2, 0, 2}, {3}, &cpu());
  check_complex(
      "take and indexed_add",
      [&](const Ts& t) {
        const Tensor taken = take(t[0], idx, 0);
        const Tensor back = indexed_add(t[0], reshape(idx, {3, 1}), taken);
        return both_parts(add(taken, back), values({3, 4}, -1, 1, 75), values({3, 4}, -1, 1, 76));
      },
      {a});
  const Tensor x = complex_values({1, 2, 5, 5}, -1, 1, 77);
  const Tensor k = complex_values({3, 2, 2, 2}, -1, 1, 78);
  const Tensor wc1 = values({1, 3, 4, 4}, -1, 1, 79);
  const Tensor wc2 = values({1, 3, 4, 4}, -1, 1, 80);
  check_complex("conv", [&](const Ts& t) { return both_parts(conv(t[0], t[1]), wc1, wc2); },
                {x, k});
}

// The factorizations' rules are written for real values: complex ones are refused.
TEST(GradComplex, FactorizationsRefuseComplexValues) {
  const Tensor a = complex_values({2, 2}, -1, 1, 60);
  try {
    grad([](const Ts& t) { return Ts{abs(determinant(t[0]))}; }, {a});
    FAIL() << "a complex determinant's gradient was not refused";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("[grad] determinant"), std::string::npos) << e.what();
  }
}

struct Transform {
  std::int64_t axis;
  std::optional<std::int64_t> length;
};

// Lengths shorter than, equal to and longer than `size`.
std::vector<std::optional<std::int64_t>> lengths_around(std::int64_t size) {
  std::vector<std::optional<std::int64_t>> out = {std::nullopt, size + 3};
  if (size > 1) out.push_back(size - 1);
  return out;
}

std::string describe(const std::string& loss, const Shape& shape, std::int64_t axis,
                     std::optional<std::int64_t> length) {
  return loss + " " + shape_str(shape) + " axis " + std::to_string(axis) + " length " +
         (length ? std::to_string(*length) : std::string("default"));
}

TEST(GradComplex, FftAndIfft) {
  std::uint32_t seed = 100;
  for (const Shape& shape : {Shape{8}, Shape{3, 5}, Shape{2, 1, 6}}) {
    for (std::int64_t axis : {std::int64_t{0}, std::int64_t{-1}}) {
      const std::size_t at = axis < 0 ? shape.size() - 1 : 0;
      for (auto length : lengths_around(shape[at])) {
        Shape out = shape;
        if (length) out[at] = *length;
        const Tensor w1 = values(out, -1, 1, seed++);
        const Tensor w2 = values(out, -1, 1, seed++);
        const Tensor x = values(shape, -1, 1, seed++);
        const Tensor z = complex_values(shape, -1, 1, seed++);
        const Fn power = [=](const Ts& a) {
          const Tensor s = abs(fft(a[0], length, axis));
          return sum(multiply(s, s));
        };
        check_complex(describe("sum |fft|^2", shape, axis, length), power, {x}, 1e-5);
        check_complex(describe("sum |fft|^2", shape, axis, length), power, {z}, 1e-5);
        const Fn weighted_real = [=](const Ts& a) {
          return sum(multiply(real(fft(a[0], length, axis)), w1));
        };
        check_complex(describe("sum re(fft) w", shape, axis, length), weighted_real, {x});
        check_complex(describe("sum re(fft) w", shape, axis, length), weighted_real, {z});
        const Fn inverse = [=](const Ts& a) {
          return both_parts(ifft(a[0], length, axis), w1, w2);
        };
        check_complex(describe("ifft both parts", shape, axis, length), inverse, {x});
        check_complex(describe("ifft both parts", shape, axis, length), inverse, {z});
      }
    }
  }
}

TEST(GradComplex, RfftAndIrfft) {
  std::uint32_t seed = 300;
  for (const Shape& shape : {Shape{8}, Shape{3, 5}, Shape{2, 1, 6}}) {
    for (std::int64_t axis : {std::int64_t{0}, std::int64_t{-1}}) {
      const std::size_t at = axis < 0 ? shape.size() - 1 : 0;
      const std::int64_t size = shape[at];
      for (auto length : lengths_around(size)) {
        const std::int64_t n = length.value_or(size);
        Shape spectrum = shape;
        spectrum[at] = n / 2 + 1;
        Shape signal = shape;
        signal[at] = n;
        const Tensor x = values(shape, -1, 1, seed++);
        const Tensor ws1 = values(spectrum, -1, 1, seed++);
        const Tensor ws2 = values(spectrum, -1, 1, seed++);
        const Tensor w = values(signal, -1, 1, seed++);
        // The dropped mirrored half never reaches the loss.
        check_complex(describe("rfft both parts", shape, axis, length),
                      [=](const Ts& a) { return both_parts(rfft(a[0], length, axis), ws1, ws2); },
                      {x});
        check_complex(
            describe("sum |rfft|^2", shape, axis, length),
            [=](const Ts& a) {
              const Tensor s = abs(rfft(a[0], length, axis));
              return sum(multiply(s, s));
            },
            {x}, 1e-5);
        check_complex(
            describe("sum irfft(rfft) w", shape, axis, length),
            [=](const Ts& a) { return sum(multiply(irfft(rfft(a[0], length, axis), n, axis), w)); },
            {x});
        // irfft of a complex spectrum of the axis's size: padded or cropped to n / 2 + 1
        // points, the imaginary parts of the zero and Nyquist points ignored.
        const Tensor z = complex_values(shape, -1, 1, seed++);
        for (std::int64_t m : {n, n + 1, std::max<std::int64_t>(1, n - 2)}) {
          Shape out = shape;
          out[at] = m;
          const Tensor wm = values(out, -1, 1, seed++);
          check_complex(describe("sum irfft(z) w", shape, axis, m),
                        [=](const Ts& a) { return sum(multiply(irfft(a[0], m, axis), wm)); }, {z});
          check_complex(describe("sum irfft(x) w", shape, axis, m),
                        [=](const Ts& a) { return sum(multiply(irfft(a[0], m, axis), wm)); }, {x});
        }
      }
    }
  }
}

// fft2 is two one-axis transforms; its gradient composes theirs.
TEST(GradComplex, Fft2ComposesTheOneAxisRules) {
  const Tensor z = complex_values({3, 4}, -1, 1, 500);
  const Tensor w1 = values({4, 3}, -1, 1, 501);
  const Tensor w2 = values({4, 3}, -1, 1, 502);
  check_complex("fft2 with lengths",
                [&](const Ts& a) {
                  return both_parts(fft2(a[0], {4, 3}), w1, w2);
                },
                {z});
  check_complex("ifft2 with lengths",
                [&](const Ts& a) {
                  return both_parts(ifft2(a[0], {4, 3}), w1, w2);
                },
                {z});
}

Backend* vulkan_or_null() {
  try {
    return &vulkan();
  } catch (const NoDevice&) {
    return nullptr;
  }
}

// The spectral rules in public ops: the device and vkt::compile give the cpu's cotangents.
TEST(GradComplex, DeviceAndCompileGiveTheCpusGradient) {
  const Tensor x = as_type(values({3, 6}, -1, 1, 600), DType::f32);
  const Tensor z = as_type(complex_values({3, 5}, -1, 1, 601), DType::c64);
  const Tensor w = as_type(values({3, 7}, -1, 1, 602), DType::f32);
  const TensorFunction loss = [w](const Ts& a) {
    const Tensor s = abs(fft(a[1], 4, 0));
    const Tensor r = irfft(multiply(rfft(a[0], 8, -1), exp(conjugate(a[1]))), 7, -1);
    return Ts{add(sum(multiply(r, w)), sum(multiply(s, phase(fft(a[1], 4, 0)))))};
  };
  const Ts expected = grad(loss, {x, z});
  const auto expect_same = [&](const Ts& got, const char* what) {
    SCOPED_TRACE(what);
    ASSERT_EQ(got.size(), 2u);
    const std::vector<float> gx = got[0].to_vector<float>();
    const std::vector<float> ex = expected[0].to_vector<float>();
    for (std::size_t i = 0; i < ex.size(); ++i)
      EXPECT_NEAR(gx[i], ex[i], 1e-3 * (1 + std::abs(ex[i])));
    const auto gz = got[1].to_vector<std::complex<float>>();
    const auto ez = expected[1].to_vector<std::complex<float>>();
    for (std::size_t i = 0; i < ez.size(); ++i)
      EXPECT_NEAR(std::abs(gz[i] - ez[i]), 0, 1e-3 * (1 + std::abs(ez[i])));
  };
  auto compiled = compile(grad(loss, std::vector<int>{0, 1}));
  expect_same(compiled(Ts{x, z}), "compile");
  Backend* gpu = vulkan_or_null();
  if (gpu == nullptr) GTEST_SKIP() << "no Vulkan device";
  expect_same(grad(loss, {transfer(x, *gpu), transfer(z, *gpu)}), "vulkan");
}

}  // namespace
}  // namespace vkt
