// The narrow dtypes against tests/golden/data/narrow.json (scripts/golden/gen_narrow.py):
// expected codes from the formats' definitions by exhaustive search over exact fractions, so
// this checks vktensor's conversions and its widened arithmetic against an independent
// implementation; and Nx's packed binary of s2/s4/u2/u4.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "golden/golden.h"

namespace vkt::testing {
namespace {

nlohmann::json narrow_cases() {
  std::ifstream in(golden_dir() + "/narrow.json");
  if (!in) throw std::runtime_error("golden: cannot open narrow.json in " + golden_dir());
  return nlohmann::json::parse(in).at("cases");
}

Tensor codes_tensor(const nlohmann::json& codes, DType d) {
  return bitcast(from_vector(codes.get<std::vector<std::uint8_t>>(), &cpu()), d);
}

std::vector<std::uint8_t> codes_of(const Tensor& t) {
  return bitcast(t, DType::u8).to_cpu().to_vector<std::uint8_t>();
}

TEST(NarrowGolden, EveryCaseMatches) {
  int checked = 0;
  for (const nlohmann::json& c : narrow_cases()) {
    const std::string op = c.at("op"), name = c.at("name");
    const DType d = dtype_from_name(c.at("dtype").get<std::string>());
    ++checked;
    if (op == "decode") {
      const Tensor values = as_type(codes_tensor(c.at("codes"), d), DType::f64);
      const std::vector<double> got = values.to_vector<double>();
      for (std::size_t i = 0; i < got.size(); ++i) {
        const double want = golden_number(c.at("values")[i]);
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(got[i])) << name << " code " << i;
        } else {
          EXPECT_EQ(got[i], want) << name << " code " << i;
        }
      }
    } else if (op == "encode") {
      std::vector<double> values;
      for (const auto& v : c.at("values")) values.push_back(golden_number(v));
      // NaN's sign is not JSON's to carry: the golden NaNs are positive.
      const std::vector<std::uint8_t> got = codes_of(as_type(from_vector(values, &cpu()), d));
      for (std::size_t i = 0; i < values.size(); ++i) {
        EXPECT_EQ(int(got[i]), int(c.at("codes")[i])) << name << " of " << values[i];
      }
    } else if (op == "pack") {
      const std::vector<std::int32_t> values = c.at("values").get<std::vector<std::int32_t>>();
      const Tensor t = as_type(from_vector(values, &cpu()), d);
      std::vector<std::byte> want;
      for (int b : c.at("binary").get<std::vector<int>>())
        want.push_back(static_cast<std::byte>(b));
      EXPECT_EQ(t.to_bytes(), want) << name;
      const Tensor back = from_bytes(want, d, {static_cast<std::int64_t>(values.size())}, &cpu());
      EXPECT_EQ(as_type(back, DType::s32).to_vector<std::int32_t>(), values) << name;
    } else {
      const Tensor a = codes_tensor(c.at("a"), d), b = codes_tensor(c.at("b"), d);
      const Tensor got = op == "add"        ? add(a, b)
                         : op == "subtract" ? subtract(a, b)
                         : op == "multiply" ? multiply(a, b)
                                            : divide(a, b);
      EXPECT_EQ(got.dtype(), d) << name;
      const std::vector<std::uint8_t> want = c.at("codes").get<std::vector<std::uint8_t>>();
      const std::vector<std::uint8_t> have = codes_of(got);
      for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(int(have[i]), int(want[i]))
            << name << " " << int(c.at("a")[i]) << " " << op << " " << int(c.at("b")[i]);
      }
    }
  }
  EXPECT_EQ(checked, 32);  // the generator's case count: none skipped
}

}  // namespace
}  // namespace vkt::testing
