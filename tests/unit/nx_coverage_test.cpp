// The Nx coverage table's data (bench/nx_callbacks.h) links only tests that exist: one of this
// binary by its registry, a Vulkan conformance test by its TEST or TEST_F line in the sources.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "../bench/nx_callbacks.h"
#include "golden/golden.h"
#include "vkt/vkt.h"

namespace vkt::bench {
namespace {

std::set<std::string> registered_tests() {
  std::set<std::string> names;
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  for (int s = 0; s < unit.total_test_suite_count(); ++s) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(s);
    for (int t = 0; t < suite.total_test_count(); ++t) {
      names.insert(std::string(suite.name()) + "." + suite.GetTestInfo(t)->name());
    }
  }
  return names;
}

// The conformance binary is another program (and absent without Vulkan): read its sources,
// found beside the golden data this binary already locates.
std::string conformance_sources() {
  const std::filesystem::path dir =
      std::filesystem::path(vkt::testing::golden_dir()) / ".." / ".." / "conformance";
  std::string all;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".cpp") continue;
    std::ifstream f(entry.path());
    std::stringstream text;
    text << f.rdbuf();
    all += text.str();
  }
  return all;
}

bool defined_in(const std::string& sources, const std::string& test) {
  const std::size_t dot = test.find('.');
  if (dot == std::string::npos) return false;
  const std::string args = "(" + test.substr(0, dot) + ", " + test.substr(dot + 1) + ")";
  return sources.find("TEST" + args) != std::string::npos ||
         sources.find("TEST_F" + args) != std::string::npos;
}

TEST(NxCoverage, EveryLinkedTestExists) {
  const std::set<std::string> here = registered_tests();
  const std::string sources = conformance_sources();
  ASSERT_NE(sources.find("TEST_F(Elementwise, "), std::string::npos) << "no conformance sources";
  for (const NxCallback& c : nx_all_callbacks()) {
    if (c.test.empty()) continue;
    EXPECT_TRUE(here.count(c.test) == 1 || defined_in(sources, c.test))
        << c.nx << " links '" << c.test << "', which neither binary has";
  }
  EXPECT_FALSE(defined_in(sources, "Elementwise.NoSuchTest"));  // the check can say no
}

TEST(NxCoverage, ACallbackWithAnEquivalentLinksATestAndOnlyThen) {
  for (const NxCallback& c : nx_all_callbacks()) {
    EXPECT_EQ(c.vktensor.empty(), c.test.empty()) << c.nx;
    EXPECT_TRUE(c.differs.empty() || !c.vktensor.empty()) << c.nx;
  }
}

// Nx 0.13.1's backend.ex: 54 named callbacks, 24 binary and 37 unary elementwise ones; each
// elementwise one maps to an elementwise op of the op table.
TEST(NxCoverage, CallbacksAreNxsOnceEachAndElementwiseOnesMapToOps) {
  EXPECT_EQ(nx_named_callbacks().size(), 54u);
  EXPECT_EQ(nx_elementwise_callbacks().size(), 61u);
  std::set<std::string> names;
  for (const NxCallback& c : nx_all_callbacks()) EXPECT_TRUE(names.insert(c.nx).second) << c.nx;
  for (const NxCallback& c : nx_elementwise_callbacks()) {
    const OpFamily f = op_family(op_from_name(c.vktensor));
    EXPECT_TRUE(f == OpFamily::unary || f == OpFamily::binary) << c.nx;
  }
}

}  // namespace
}  // namespace vkt::bench
