// NumPy golden cases for conv (scripts/golden/gen_conv.py): the cpu backend against a direct
// float64 convolution written from Nx's definition.
#include <gtest/gtest.h>

#include "golden/golden.h"
#include "support/compare.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

ConvOptions options(const nlohmann::json& p) {
  ConvOptions o;
  o.strides = p.at("strides").get<std::vector<std::int64_t>>();
  for (const auto& pad : p.at("padding")) {
    o.padding.emplace_back(pad.at(0).get<std::int64_t>(), pad.at(1).get<std::int64_t>());
  }
  o.input_dilation = p.at("input_dilation").get<std::vector<std::int64_t>>();
  o.kernel_dilation = p.at("kernel_dilation").get<std::vector<std::int64_t>>();
  o.feature_group_size = p.at("feature_group_size").get<std::int64_t>();
  o.batch_group_size = p.at("batch_group_size").get<std::int64_t>();
  const std::string mode = p.at("mode").get<std::string>();
  o.padding_mode = mode == "same"    ? ConvPadding::same
                   : mode == "valid" ? ConvPadding::valid
                                     : ConvPadding::config;
  o.input_permutation = p.at("input_permutation").get<Axes>();
  o.kernel_permutation = p.at("kernel_permutation").get<Axes>();
  o.output_permutation = p.at("output_permutation").get<Axes>();
  return o;
}

TEST(ConvGolden, MatchesNumpy) {
  const auto cases = testing::load_golden("conv");
  ASSERT_GE(cases.size(), 25u);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const Tensor got = conv(c.inputs[0], c.inputs[1], options(c.params));
    EXPECT_EQ(got.dtype(), c.expected.dtype());
    EXPECT_TRUE(testing::tensors_close(got, c.expected));
  }
}

}  // namespace
}  // namespace vkt
