// NumPy golden cases for fft, ifft, rfft, irfft, fft2, ifft2 (scripts/golden/gen_fft.py): the
// cpu backend in c64 and c128 (real inputs in f32 and f64, integer inputs as given) against
// numpy.fft in complex128, within the tolerance of support/fft_check.h.
#include <gtest/gtest.h>

#include <fstream>
#include <optional>

#include "golden/golden.h"
#include "support/fft_check.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

struct FftCase {
  std::string name, op;
  nlohmann::json params;
  nlohmann::json input, expected;
};

std::vector<FftCase> load_fft_cases() {
  const std::string path = testing::golden_dir() + "/fft.json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("golden: cannot open " + path);
  const nlohmann::json doc = nlohmann::json::parse(in);
  std::vector<FftCase> out;
  for (const auto& c : doc.at("cases")) {
    out.push_back({c.at("name").get<std::string>(), c.at("op").get<std::string>(), c.at("params"),
                   c.at("inputs").at(0), c.at("expected")});
  }
  return out;
}

// The input in `as` (complex inputs: c64 or c128; real ones: f32 or f64; integers as given).
Tensor input_as(const nlohmann::json& j, DType as) {
  const std::string dtype = j.at("dtype").get<std::string>();
  const Shape shape = j.at("shape").get<Shape>();
  if (dtype == "c128")
    return testing::complex_tensor(j.at("data").get<std::vector<double>>(), as, shape);
  const Tensor t = testing::golden_tensor(j);
  return dtype == "f64" ? as_type(t, as) : t;
}

std::vector<std::complex<double>> expected_values(const nlohmann::json& j) {
  const std::vector<double> data = j.at("data").get<std::vector<double>>();
  std::vector<std::complex<double>> out;
  if (j.at("dtype").get<std::string>() == "c128") {
    for (std::size_t i = 0; i + 1 < data.size(); i += 2) out.emplace_back(data[i], data[i + 1]);
  } else {
    for (double v : data) out.emplace_back(v, 0.0);
  }
  return out;
}

std::optional<std::int64_t> length_of(const nlohmann::json& p) {
  if (p.at("length").is_null()) return std::nullopt;
  return p.at("length").get<std::int64_t>();
}

Tensor run(const FftCase& c, const Tensor& x) {
  const nlohmann::json& p = c.params;
  if (c.op == "fft2" || c.op == "ifft2") {
    const auto lengths = p.at("lengths").get<std::vector<std::int64_t>>();
    const auto axes = p.at("axes").get<Axes>();
    return c.op == "fft2" ? fft2(x, lengths, axes) : ifft2(x, lengths, axes);
  }
  const std::int64_t axis = p.at("axis").get<std::int64_t>();
  if (c.op == "fft") return fft(x, length_of(p), axis);
  if (c.op == "ifft") return ifft(x, length_of(p), axis);
  if (c.op == "rfft") return rfft(x, length_of(p), axis);
  return irfft(x, length_of(p), axis);
}

// The points transformed (the product over both axes for fft2/ifft2), which set the tolerance.
std::int64_t transform_points(const FftCase& c, const Tensor& x) {
  const nlohmann::json& p = c.params;
  auto size = [&](std::int64_t axis) {
    const std::int64_t rank = x.rank();
    return x.shape()[static_cast<std::size_t>(axis < 0 ? axis + rank : axis)];
  };
  if (c.op == "fft2" || c.op == "ifft2") {
    const auto lengths = p.at("lengths").get<std::vector<std::int64_t>>();
    const auto axes = p.at("axes").get<Axes>();
    return lengths.empty() ? size(axes[0]) * size(axes[1]) : lengths[0] * lengths[1];
  }
  const std::int64_t axis = p.at("axis").get<std::int64_t>();
  if (const auto n = length_of(p)) return *n;
  return c.op == "irfft" ? 2 * (size(axis) - 1) : size(axis);
}

TEST(FftGolden, MatchesNumpy) {
  const auto cases = load_fft_cases();
  ASSERT_GE(cases.size(), 150u);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string in_dtype = c.input.at("dtype").get<std::string>();
    std::vector<DType> variants;
    if (in_dtype == "c128")
      variants = {DType::c64, DType::c128};
    else if (in_dtype == "f64")
      variants = {DType::f32, DType::f64};
    else
      variants = {dtype_from_name(in_dtype)};
    const auto want = expected_values(c.expected);
    for (DType d : variants) {
      SCOPED_TRACE(dtype_name(d));
      const Tensor x = input_as(c.input, d);
      const Tensor got = run(c, x);
      const DType complex = to_complex_type(x.dtype());
      EXPECT_EQ(got.dtype(), c.op == "irfft" ? to_real_type(complex) : complex);
      EXPECT_EQ(got.shape(), c.expected.at("shape").get<Shape>());
      EXPECT_TRUE(testing::spectra_close(testing::complex_values(got), want, complex,
                                         transform_points(c, x)));
    }
  }
}

}  // namespace
}  // namespace vkt
