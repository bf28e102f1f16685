// The DenormPreserve patch (src/vulkan/runtime/float_controls.cpp) on every embedded module: the
// result still parses as SPIR-V, gains the capability, the extension and one execution mode
// per entry point and width, and keeps every original instruction. lavapipe reports no
// shaderDenormPreserveFloat32, so the patched modules only run on devices that do (H200).
#include "vulkan/runtime/float_controls.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "vkt/error.h"
#include "vulkan/runtime/spirv.h"

namespace vkt::vk {
namespace {

struct Counts {
  int denorm_capability = 0, float_controls_extension = 0, entry_points = 0, float64 = 0;
  std::vector<std::uint32_t> preserve_widths;
  std::size_t instructions = 0;
};

Counts scan(const std::vector<std::uint32_t>& w) {
  Counts c;
  for (std::size_t i = 5; i < w.size();) {
    const std::uint32_t op = w[i] & 0xffffu, count = w[i] >> 16;
    EXPECT_TRUE(count > 0 && i + count <= w.size()) << "instruction at word " << i;
    if (count == 0 || i + count > w.size()) break;
    if (op == 17 && w[i + 1] == 4464) ++c.denorm_capability;
    if (op == 17 && w[i + 1] == 10) ++c.float64;
    if (op == 10) {
      const char* name = reinterpret_cast<const char*>(&w[i + 1]);
      if (std::string(name) == "SPV_KHR_float_controls") ++c.float_controls_extension;
    }
    if (op == 15) ++c.entry_points;
    if (op == 16 && w[i + 2] == 4459) {
      EXPECT_EQ(c.entry_points, 1) << "execution mode before or between entry points";
      c.preserve_widths.push_back(w[i + 3]);
    }
    ++c.instructions;
    i += count;
  }
  return c;
}

TEST(FloatControls, DenormPreservePatchKeepsEveryModuleWellFormed) {
  for (const SpirvModule& m : embedded_spirv()) {
    const std::vector<std::uint32_t> original(m.words.begin(), m.words.end());
    const Counts before = scan(original);
    ASSERT_EQ(before.entry_points, 1) << m.name;
    EXPECT_EQ(with_denorm_preserve(m.words, false, false), original) << m.name;
    const std::vector<std::uint32_t> patched = with_denorm_preserve(m.words, true, true);
    const Counts after = scan(patched);
    EXPECT_EQ(after.denorm_capability, 1) << m.name;
    EXPECT_EQ(after.float_controls_extension, 1) << m.name;
    const std::vector<std::uint32_t> widths =
        before.float64 ? std::vector<std::uint32_t>{32, 64} : std::vector<std::uint32_t>{32};
    EXPECT_EQ(after.preserve_widths, widths) << m.name;
    EXPECT_EQ(after.instructions, before.instructions + 2 + widths.size()) << m.name;
  }
}

TEST(FloatControls, MalformedModuleIsAnError) {
  const std::vector<std::uint32_t> header = {0x07230203u, 0x00010300u, 0u, 10u, 0u};
  std::vector<std::uint32_t> bad = header;
  bad.push_back(5u << 16 | 17u);  // claims 5 words, has 1
  EXPECT_THROW(with_denorm_preserve(bad, true, false), Error);
  EXPECT_THROW(with_denorm_preserve(std::vector<std::uint32_t>{1u, 2u}, true, false), Error);
}

}  // namespace
}  // namespace vkt::vk
