// Every complex path native on Vulkan against the cpu backend's complex kernels, with
// validation on, on odd sizes, broadcasts and non-contiguous dot layouts. Exact ops must
// match bit for bit (two NaNs match); rounded ops within the documented ulps of the part
// type relative to |expected| (docs/semantics-complex-vulkan.md).
#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <limits>

#include "conformance/complex_placement.h"
#include "conformance/movement_check.h"
#include "vkt/ledger.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

// Parts from a small set with specials one time in four (zeros of both signs, a subnormal,
// inf, NaN), otherwise values in [-10, 10].
Tensor complex_input(DType d, const Shape& shape, std::uint64_t seed, bool specials = true) {
  const double parts[] = {0.0,
                          -0.0,
                          1e-310,
                          std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity(),
                          std::numeric_limits<double>::quiet_NaN(),
                          1.0,
                          -2.5};
  const auto n = static_cast<std::size_t>(numel(shape));
  std::vector<std::complex<double>> v(n);
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 3;
  auto part = [&] {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const std::uint64_t r = x >> 33;
    if (specials && r % 4 == 0) return parts[(r / 4) % std::size(parts)];
    return static_cast<double>(static_cast<std::int64_t>(r % 20001) - 10000) / 1000.0;
  };
  for (auto& z : v) z = {part(), part()};
  if (d == DType::c128) return from_vector(v, shape);
  std::vector<std::complex<float>> f(n);
  for (std::size_t i = 0; i < n; ++i) f[i] = std::complex<float>(v[i]);
  return from_vector(f, shape);
}

class VulkanComplexVsCpu : public VulkanTest {
 protected:
  DType dtype_ = DType::c64;  // the case's complex dtype, for the trace

  // ulps == 0: bit-identical (NaNs of any payload match). Otherwise per part within
  // ulps * epsilon(part type) * |expected element|.
  void compare(const std::string& what, const OpFn& f, const std::vector<Tensor>& cpu_inputs,
               double ulps = 0) {
    compare_on(
        what,
        [&](Backend& on) {
          if (&on == &cpu()) return f(cpu_inputs);
          std::vector<Tensor> dev;
          for (const Tensor& t : cpu_inputs) dev.push_back(copy(t, on));
          return f(dev);
        },
        ulps);
  }

  // f(backend): the op with its inputs on (or created on) that backend.
  void compare_on(const std::string& what, const std::function<Tensor(Backend&)>& f,
                  double ulps = 0) {
    SCOPED_TRACE(what + " " + std::string(dtype_name(dtype_)));
    // Every op here has a cpu kernel (the reference): a missing one fails the test.
    const Tensor expected = f(cpu());
    LedgerScope scope;
    const Tensor got = f(gpu());
    expect_complex_placement(scope.delta(), got, gpu(), dtype_, what);
    ASSERT_EQ(got.dtype(), expected.dtype());
    ASSERT_EQ(got.shape(), expected.shape());
    expect_close(got, expected, ulps);
  }

  static void expect_close(const Tensor& got, const Tensor& expected, double ulps) {
    const DType d = got.dtype();
    if (!is_complex(d) && d != DType::f32 && d != DType::f64) {
      EXPECT_EQ(got.to_bytes(), expected.to_bytes());
      return;
    }
    // Everything as complex<double> pairs (a real dtype has imaginary 0).
    const std::vector<std::complex<double>> g = widen(got), w = widen(expected);
    const double eps = to_real_type(d) == DType::f32 ? 0x1p-23 : 0x1p-52;
    const double tiny = to_real_type(d) == DType::f32 ? 0x1p-149 : 0x1p-1074;
    int bad = 0;
    for (std::size_t i = 0; i < g.size() && bad < 5; ++i) {
      const double scale = std::abs(w[i]);
      for (int p = 0; p < 2; ++p) {
        const double a = p == 0 ? g[i].real() : g[i].imag();
        const double b = p == 0 ? w[i].real() : w[i].imag();
        bool ok = false;
        if (std::isnan(b) || std::isnan(a)) {
          ok = std::isnan(a) && std::isnan(b);
        } else if (ulps == 0 || std::isinf(b) ||
                   !std::isfinite(scale)) {  // beside NaN / inf: equal
          ok = std::memcmp(&a, &b, sizeof(double)) == 0;
        } else {
          // plus two units of the part type's smallest subnormal (subnormal results)
          ok = std::abs(a - b) <= ulps * eps * scale + 2 * tiny;
        }
        if (!ok) {
          ++bad;
          ADD_FAILURE() << "element " << i << " part " << p << ": got " << g[i] << " want " << w[i];
        }
      }
    }
  }

  // The elements as (re, im) doubles, read from the bytes (a real float has imaginary 0).
  static std::vector<std::complex<double>> widen(const Tensor& t) {
    const std::vector<std::byte> bytes = t.to_bytes();
    std::vector<std::complex<double>> out;
    auto read = [&](auto tag, std::size_t parts) {
      using R = decltype(tag);
      std::vector<R> v(bytes.size() / sizeof(R));
      if (!bytes.empty()) std::memcpy(v.data(), bytes.data(), bytes.size());
      for (std::size_t i = 0; i < v.size(); i += parts) {
        out.emplace_back(static_cast<double>(v[i]),
                         parts == 2 ? static_cast<double>(v[i + 1]) : 0.0);
      }
    };
    switch (t.dtype()) {
      case DType::c64:
        read(float{}, 2);
        break;
      case DType::c128:
        read(double{}, 2);
        break;
      case DType::f32:
        read(float{}, 1);
        break;
      default:
        read(double{}, 1);
        break;
    }
    return out;
  }
};

const DType kComplex[] = {DType::c64, DType::c128};

TEST_F(VulkanComplexVsCpu, MovementAndIndexing) {
  for (DType d : kComplex) {
    dtype_ = d;
    const Tensor x = complex_input(d, {7, 1, 33}, 1);
    const Tensor y = complex_input(d, {7, 33, 41}, 2);
    compare("broadcast", [](const auto& in) { return broadcast(in[0], {3, 7, 5, 33}); }, {x});
    compare("transpose", [](const auto& in) { return transpose(in[0], {2, 0, 1}); }, {y});
    compare("transpose tiled", [](const auto& in) { return transpose(in[0], {0, 2, 1}); }, {y});
    compare(
        "pad",
        [](const auto& in) {
          return pad(in[0], std::complex<double>(1.5, -2.0), {{1, 2, 1}, {0, -1, 0}, {3, 0, 2}});
        },
        {x});
    compare("reverse", [](const auto& in) { return reverse(in[0], {0, 2}); }, {y});
    compare("slice",
            [](const auto& in) {
              return slice(in[0], {1, 0, 3}, {3, 30, 9}, {2, 1, 4});
            },
            {y});
    compare("put_slice",
            [](const auto& in) {
              return put_slice(in[0], {2, 4, 5}, in[1]);
            },
            {y, complex_input(d, {3, 5, 7}, 3)});
    compare("concatenate inner",
            [](const auto& in) {
              return concatenate({in[0], in[1]}, 1);
            },
            {y, complex_input(d, {7, 2, 41}, 4)});
    compare("concatenate outer",
            [](const auto& in) {
              return concatenate({in[0], in[1]}, 0);
            },
            {y, complex_input(d, {2, 33, 41}, 5)});
    const Tensor idx = from_vector(std::vector<std::int64_t>{0, 4, 6, -1, 2, 99}, {3, 2});
    compare("gather", [](const auto& in) { return gather(in[0], in[1], {0, 1}); }, {y, idx});
    compare("take", [](const auto& in) { return take(in[0], in[1], 2); }, {y, idx});
    const Tensor along = from_vector(std::vector<std::int64_t>{0, 32, 5, 7, 1, 3, 2}, {1, 7, 1});
    compare("take_along_axis",
            [](const auto& in) {
              return take_along_axis(in[0], broadcast(in[1], {7, 7, 41}), 1);
            },
            {y, along});
    compare("select complex pred", [](const auto& in) { return select(in[0], in[1], in[2]); },
            {complex_input(d, {7, 33, 41}, 6), y, complex_input(d, {7, 33, 41}, 7)});
    const Tensor rows = from_vector(std::vector<std::int64_t>{3, 1, 3, 9}, {4, 1});
    compare("indexed_put", [](const auto& in) { return indexed_put(in[0], in[1], in[2], {0}); },
            {y, rows, complex_input(d, {4, 33, 41}, 8)});
    compare("indexed_add", [](const auto& in) { return indexed_add(in[0], in[1], in[2], {0}); },
            {y, rows, complex_input(d, {4, 33, 41}, 9)});
  }
}

TEST_F(VulkanComplexVsCpu, CreationAndConversion) {
  for (DType d : kComplex) {
    dtype_ = d;
    compare_on("full", [&](Backend& on) {
      return full({5, 3}, std::complex<double>(-1, 2), d, &on);
    });
    compare_on("iota", [&](Backend& on) { return iota({4, 9}, d, 1, &on); });
    compare_on("eye", [&](Backend& on) { return eye({3, 5}, d, &on); });
    const Tensor x = complex_input(d, {1001}, 10);
    for (DType to :
         {DType::f32, DType::f64, DType::s32, DType::u8, DType::f16, DType::c64, DType::c128}) {
      compare("as_type to " + std::string(dtype_name(to)),
              [&](const auto& in) { return as_type(in[0], to); }, {x});
    }
    compare("as_type from s64", [&](const auto& in) { return as_type(in[0], d); },
            {from_vector(std::vector<std::int64_t>{-5, 0, 1 << 30, 7}, {4})});
  }
}

TEST_F(VulkanComplexVsCpu, Elementwise) {
  for (DType d : kComplex) {
    dtype_ = d;
    const Tensor a = complex_input(d, {3, 5, 67}, 11), b = complex_input(d, {3, 5, 67}, 12);
    const Tensor fa = complex_input(d, {3, 5, 67}, 13, false);
    const Tensor fb = complex_input(d, {3, 5, 67}, 14, false);
    for (Op op : {Op::add, Op::subtract, Op::equal, Op::not_equal, Op::logical_and, Op::logical_or,
                  Op::logical_xor}) {
      compare(std::string(op_name(op)), [op](const auto& in) { return binary(op, in[0], in[1]); },
              {a, b});
    }
    for (Op op : {Op::multiply, Op::divide}) {
      compare(
          std::string(op_name(op)), [op](const auto& in) { return binary(op, in[0], in[1]); },
          {fa, fb}, 4);
      compare(
          std::string(op_name(op)) + " broadcast",
          [op](const auto& in) { return binary(op, in[0], in[1]); },
          {fa, complex_input(d, {5, 1}, 15, false)}, 4);
      compare(
          std::string(op_name(op)) + " scalar",
          [op](const auto& in) { return binary(op, in[0], in[1]); },
          {complex_input(d, {}, 16, false), fb}, 4);
    }
    for (Op op : {Op::negate, Op::conjugate, Op::real, Op::imag, Op::is_nan, Op::is_infinity,
                  Op::logical_not}) {
      compare(std::string(op_name(op)), [op](const auto& in) { return unary(op, in[0]); }, {a});
    }
    compare(
        "abs", [](const auto& in) { return unary(Op::abs, in[0]); }, {a}, 2);
    compare(
        "phase", [](const auto& in) { return unary(Op::phase, in[0]); }, {a}, 2);
    for (Op op : {Op::exp, Op::log, Op::sqrt}) {
      compare(
          std::string(op_name(op)), [op](const auto& in) { return unary(op, in[0]); }, {a}, 8);
    }
  }
}

TEST_F(VulkanComplexVsCpu, Reductions) {
  for (DType d : kComplex) {
    dtype_ = d;
    const Tensor x = complex_input(d, {6, 257, 5}, 17, false);
    // Sums in another order than the cpu's: within n ulps of the sum of magnitudes, checked
    // against |expected| here as a loose bound for these well-conditioned inputs.
    compare(
        "sum all", [](const auto& in) { return sum(in[0]); }, {x}, 4096);
    compare(
        "sum axis 1", [](const auto& in) { return sum(in[0], {1}); }, {x}, 512);
    compare(
        "sum axes 0 2 keep",
        [](const auto& in) {
          return sum(in[0], {0, 2}, true);
        },
        {x}, 512);
    compare(
        "window_sum",
        [](const auto& in) {
          return window_sum(in[0], {2, 3, 1},
                            WindowOptions{{1, 2, 1}, {{1, 0}, {0, 2}, {0, 0}}, {}});
        },
        {x}, 16);
    compare(
        "cumulative_sum", [](const auto& in) { return cumulative_sum(in[0], 1, true); }, {x}, 512);
    compare("all",
            [](const auto& in) {
              return all(in[0], {0, 2});
            },
            {complex_input(d, {6, 257, 5}, 19)});
    compare("any", [](const auto& in) { return any(in[0], {1}); },
            {complex_input(d, {6, 257, 5}, 18)});
  }
}

TEST_F(VulkanComplexVsCpu, Dot) {
  for (DType d : kComplex) {
    dtype_ = d;
    const Tensor a = complex_input(d, {2, 37, 29}, 19, false);
    const Tensor b = complex_input(d, {2, 29, 23}, 20, false);
    compare(
        "batched", [](const auto& in) { return dot(in[0], {2}, {0}, in[1], {1}, {0}); }, {a, b},
        512);
    compare(
        "a transposed", [](const auto& in) { return dot(in[0], {1}, {0}, in[1], {2}, {0}); },
        {a, complex_input(d, {2, 5, 37}, 21, false)}, 512);
    compare(
        "matmul", [](const auto& in) { return dot(in[0], in[1]); },
        {complex_input(d, {65, 130}, 22, false), complex_input(d, {130, 33}, 23, false)}, 512);
  }
}

}  // namespace
}  // namespace vkt::testing
