// Settings from the environment (every variable the library reads: a bad value is an error
// naming it and its value) and the overrides tests and vkt-bench set.
#include "common/settings.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "vkt/error.h"

namespace vkt::testing {
namespace {

Settings parse(const std::map<std::string, std::string>& env) {
  return parse_settings([&](const char* name) -> std::string_view {
    const auto it = env.find(name);
    return it == env.end() ? std::string_view() : std::string_view(it->second);
  });
}

std::string message_of(const auto& run) {
  try {
    run();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Settings, DefaultsWhereNothingIsSet) {
  const Settings s = parse({{"HOME", "/home/u"}});
  EXPECT_EQ(s.backend, DefaultBackend::cpu);
  EXPECT_EQ(s.fallback, FallbackPolicy::allow);
  EXPECT_FALSE(s.validation);
  EXPECT_FALSE(s.poison.has_value());
  EXPECT_EQ(s.cache_dir, "/home/u/.cache/vktensor");
  EXPECT_FALSE(s.staging);
  EXPECT_FALSE(s.host_pool_mb.has_value());
  EXPECT_EQ(s.isa_cap, IsaCap::avx512);
  EXPECT_TRUE(s.device.empty());
}

TEST(Settings, EveryVariableIsRead) {
  const Settings s = parse({{"VKT_BACKEND", "vulkan"},
                            {"VKT_DEVICE", "NVIDIA"},
                            {"VKT_FALLBACK", "error"},
                            {"VKT_VALIDATION", "1"},
                            {"VKT_POISON", "0"},
                            {"VKT_CACHE_DIR", "/tmp/c"},
                            {"VKT_COMPILE_DUMP", "1"},
                            {"VKT_VK_PIPELINE_STATS", "1"},
                            {"VKT_VK_STAGING", "1"},
                            {"VKT_VK_NO_PUSH_DESCRIPTOR", "1"},
                            {"VKT_HOST_POOL_MB", "64"},
                            {"VKT_VK_POOL_CAP_MB", "1024"},
                            {"VKT_VK_PINNED_MB", "0"},
                            {"VKT_BLAS_LIBRARY", "libopenblas.so.0"},
                            {"VKT_CPU_ISA", "sse2"}});
  EXPECT_EQ(s.backend, DefaultBackend::vulkan);
  EXPECT_EQ(s.device, "NVIDIA");
  EXPECT_EQ(s.fallback, FallbackPolicy::error);
  EXPECT_TRUE(s.validation);
  EXPECT_EQ(s.poison, std::optional<bool>(false));
  EXPECT_EQ(s.cache_dir, "/tmp/c");
  EXPECT_TRUE(s.compile_dump);
  EXPECT_TRUE(s.pipeline_stats);
  EXPECT_TRUE(s.staging);
  EXPECT_TRUE(s.no_push_descriptor);
  EXPECT_EQ(s.host_pool_mb, std::optional<std::uint64_t>(64));
  EXPECT_EQ(s.device_pool_mb, std::optional<std::uint64_t>(1024));
  EXPECT_EQ(s.pinned_mb, std::optional<std::uint64_t>(0));
  EXPECT_EQ(s.blas_library, "libopenblas.so.0");
  EXPECT_EQ(s.isa_cap, IsaCap::sse2);
}

TEST(Settings, CacheDirOffAndXdg) {
  EXPECT_EQ(parse({{"VKT_CACHE_DIR", "off"}, {"HOME", "/h"}}).cache_dir, "");
  EXPECT_EQ(parse({{"XDG_CACHE_HOME", "/x"}, {"HOME", "/h"}}).cache_dir, "/x/vktensor");
  EXPECT_EQ(parse({}).cache_dir, "");
}

TEST(Settings, ABadValueNamesTheVariableAndTheValue) {
  const std::map<std::string, std::string> bad = {
      {"VKT_BACKEND", "gpu"},      {"VKT_FALLBACK", "loud"},
      {"VKT_VALIDATION", "yes"},   {"VKT_POISON", "2"},
      {"VKT_COMPILE_DUMP", "on"},  {"VKT_VK_PIPELINE_STATS", "x"},
      {"VKT_VK_STAGING", "true"},  {"VKT_VK_NO_PUSH_DESCRIPTOR", "-1"},
      {"VKT_HOST_POOL_MB", "64M"}, {"VKT_VK_POOL_CAP_MB", " 1"},
      {"VKT_VK_PINNED_MB", "-5"},  {"VKT_CPU_ISA", "neon"}};
  for (const auto& entry : bad) {  // no structured bindings: clang 14 cannot capture them
    const std::string& name = entry.first;
    const std::string& value = entry.second;
    const std::string m = message_of([&] { parse({{name, value}}); });
    EXPECT_NE(m.find(name + "='" + value + "'"), std::string::npos) << m;
    EXPECT_NE(m.find("expected"), std::string::npos) << m;
  }
}

TEST(Settings, OverrideScopesNestAndRestore) {
  EXPECT_FALSE(overrides()->reduce_vec4.has_value());
  {
    const OverrideScope outer("reduce_vec4=1,reduce_groups=7");
    EXPECT_EQ(overrides()->reduce_vec4, std::optional<bool>(true));
    {
      const OverrideScope inner("reduce_groups=9,dot_kernel=reg");
      EXPECT_EQ(overrides()->reduce_vec4, std::optional<bool>(true));  // kept from outer
      EXPECT_EQ(overrides()->reduce_groups, std::optional<std::uint32_t>(9));
      EXPECT_EQ(overrides()->dot_kernel, std::optional<std::string>("reg"));
    }
    EXPECT_EQ(overrides()->reduce_groups, std::optional<std::uint32_t>(7));
    EXPECT_FALSE(overrides()->dot_kernel.has_value());
  }
  EXPECT_FALSE(overrides()->reduce_vec4.has_value());
}

TEST(Settings, ABadOverrideIsAnErrorAndChangesNothing) {
  EXPECT_NE(message_of([] { OverrideScope s("no_such=1"); }).find("no_such"), std::string::npos);
  EXPECT_NE(message_of([] { OverrideScope s("dot_kernel=fast"); }).find("dot_kernel='fast'"),
            std::string::npos);
  EXPECT_NE(message_of([] { OverrideScope s("block_mb=0"); }).find("block_mb"), std::string::npos);
  EXPECT_NE(message_of([] { OverrideScope s("sort_digit_bits=6"); }).find("expected 8 or 4"),
            std::string::npos);
  EXPECT_NE(message_of([] { OverrideScope s("coopmat"); }).find("name=value"), std::string::npos);
  EXPECT_FALSE(overrides()->dot_kernel.has_value());
}

}  // namespace
}  // namespace vkt::testing
