// Pruning generated GLSL of the functions main never reaches (src/vulkan/compile/glsl_prune.cpp),
// before shaderc compiles it: the text transform on small cases, then whole kernels with the
// shared headers, whose SPIR-V must be the words the unpruned text gives. The Vulkan suite's
// staging pass also runs every kernel it generates both ways (VKT_TEST_PRUNE_CHECK=1, below).
#include "vulkan/compile/glsl_prune.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/settings.h"
#include "vulkan/compile/kernel_cache.h"

namespace vkt::vk {
namespace {

// VKT_TEST_PRUNE_CHECK=1 (a test-side variable; ctest's vulkan_staging sets it) turns on
// Overrides::prune_check for the whole run: every generated kernel is compiled pruned and
// whole, an Error where the two give other SPIR-V. Scopes that replace all overrides at once
// (OverrideScope(Overrides{})) leave it off for their span.
bool prune_check_asked() {
  const char* v = std::getenv("VKT_TEST_PRUNE_CHECK");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}
class PruneCheckEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    if (prune_check_asked()) scope_ = std::make_unique<OverrideScope>("prune_check=1");
  }
  void TearDown() override { scope_.reset(); }

 private:
  std::unique_ptr<OverrideScope> scope_;
};
[[maybe_unused]] ::testing::Environment* const kPruneCheck =
    ::testing::AddGlobalTestEnvironment(new PruneCheckEnvironment);

TEST(GlslPrune, TheTestVariableTurnsTheCheckOn) {
  EXPECT_EQ(overrides()->prune_check, prune_check_asked());
}

std::size_t lines(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

TEST(GlslPrune, KeepsWhatMainReachesAndBlanksTheRestLineForLine) {
  const std::string src =
      "#version 450\n"
      "struct Pair { float a; float b; };\n"
      "layout(binding = 0) buffer Out { float v[]; } out0;\n"
      "float leaf(float x) { return x * 2.0; }\n"
      "float leaf(int x) { return float(x); }\n"  // an overload: kept with its name
      "float middle(float x)\n{\n  return leaf(x) + 1e5;\n}\n"
      "float unused(float x) { /* } */ return middle(x); }\n"
      "float unused_too(Pair p) {\n  // {\n  return p.a;\n}\n"
      "float proto(float x);\n"
      "const float k = 3.0;\n"
      "void main() { out0.v[0] = middle(k); }\n";
  const std::optional<std::string> pruned = prune_unreached_functions(src);
  ASSERT_TRUE(pruned.has_value());
  EXPECT_EQ(lines(*pruned), lines(src));
  for (const char* kept :
       {"float leaf(float x)", "float leaf(int x)", "float middle(float x)", "struct Pair",
        "buffer Out", "float proto(float x);", "void main()", "const float k"}) {
    EXPECT_NE(pruned->find(kept), std::string::npos) << kept << "\n" << *pruned;
  }
  EXPECT_EQ(pruned->find("unused"), std::string::npos) << *pruned;
}

TEST(GlslPrune, GlobalInitialisersReachFunctionsToo) {
  const std::string src =
      "float seed() { return 1.0; }\n"
      "float g = seed();\n"
      "void main() { g += 1.0; }\n";
  const std::optional<std::string> pruned = prune_unreached_functions(src);
  ASSERT_TRUE(pruned.has_value());
  EXPECT_NE(pruned->find("float seed()"), std::string::npos);
}

TEST(GlslPrune, TextItDoesNotUnderstandIsLeftWhole) {
  EXPECT_FALSE(prune_unreached_functions("void main() { if (true) { }\n").has_value());
  EXPECT_FALSE(prune_unreached_functions("void main() { } }\n").has_value());
  EXPECT_FALSE(prune_unreached_functions("void main() { } /* open\n").has_value());
  EXPECT_FALSE(prune_unreached_functions("float f() { return 1.0; }\n").has_value());  // no main
}

// Kernels shaped as vkt::compile generates them: the shared headers included whole, a few of
// their functions called (row kernels, an elementwise chain, f64), with and without the
// VKT_ONLY_OPS selection.
TEST(GlslPrune, GeneratedKernelsCompileToTheSameSpirv) {
  // The includes in the order compiled_glsl.h writes them.
  const std::string headers =
      "#include \"common.glsl\"\n#include \"dtype_value.glsl\"\n#include \"float_bits.glsl\"\n"
      "#include \"elementwise_math.glsl\"\n#ifdef VKT_F64\n#include \"elementwise_math_f64.glsl\"\n"
      "#endif\n#include \"op_codes.glsl\"\n#include \"elementwise_binary_ops.glsl\"\n"
      "#include \"elementwise_unary_ops.glsl\"\n";
  const std::string buffers =
      "layout(binding = 0) readonly buffer Leaf0 { float v[]; } leaf0;\n"
      "layout(binding = 1) writeonly buffer Out0 { float v[]; } out0;\n";
  const std::vector<std::string> kernels = {
      "#version 450\n#extension GL_EXT_control_flow_attributes : require\n#define "
      "VKT_ONLY_OPS\n#define VKT_KEEP_OP_EXP\n#define VKT_KEEP_OP_DIVIDE\n" +
          headers + "#include \"compiled_rows_math.glsl\"\n" + buffers +
          "void main() {\n  const uint i = gl_GlobalInvocationID.x;\n"
          "  out0.v[i] = float_binary(3u, exp_f32_nonpositive_flat(leaf0.v[i]), 2.0);\n}\n",
      "#version 450\n" + headers + buffers +
          "void main() {\n  const uint i = gl_GlobalInvocationID.x;\n"
          "  out0.v[i] = float_function(0u, float_binary(0u, leaf0.v[i], 1.0));\n}\n",
      "#version 450\n#define VKT_I64\n#define VKT_F64\n" + headers + buffers +
          "void main() {\n  const uint i = gl_GlobalInvocationID.x;\n"
          "  out0.v[i] = float(double_binary(3u, double(leaf0.v[i]), 3.0lf));\n}\n",
  };
  for (const std::string& k : kernels) {
    const std::vector<std::uint32_t> whole = testing::compile_generated(k, false);
    const std::vector<std::uint32_t> pruned = testing::compile_generated(k, true);
    ASSERT_FALSE(whole.empty());
    EXPECT_EQ(pruned, whole) << k;
  }
}

}  // namespace
}  // namespace vkt::vk
