// common::env_choice / env_switch / env_count: unset and empty take the fallback, each word
// its index, and anything else an error naming the variable, its value and what is accepted.
#include "common/env_choice.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "support/scoped_env.h"
#include "vkt/error.h"

namespace vkt::testing {
namespace {

using common::env_choice;
using common::env_count;
using common::env_switch;

constexpr const char* kName = "VKT_TEST_ENV_CHOICE";

// The variable unset for a scope (ScopedEnvVar restores what was there).
struct Unset : ScopedEnvVar {
  Unset() : ScopedEnvVar(kName, "") { unsetenv(kName); }
};

std::string message_of(const auto& read) {
  try {
    read();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(EnvChoice, UnsetAndEmptyTakeTheFallback) {
  {
    const Unset unset;
    EXPECT_EQ(env_choice(kName, {"auto", "vec4", "scalar"}, 0, "t"), 0);
    EXPECT_EQ(env_choice(kName, {"auto", "vec4", "scalar"}, -1, "t"), -1);
    EXPECT_TRUE(env_switch(kName, "on", "off", true, "t"));
    EXPECT_FALSE(env_switch(kName, "on", "off", false, "t"));
    EXPECT_EQ(env_count(kName, 0, 10, "t"), std::nullopt);
  }
  const ScopedEnvVar empty(kName, "");
  EXPECT_EQ(env_choice(kName, {"a", "b"}, 1, "t"), 1);
  EXPECT_TRUE(env_switch(kName, "on", "off", true, "t"));
  EXPECT_EQ(env_count(kName, 1, 10, "t"), std::nullopt);
}

TEST(EnvChoice, EachWordGivesItsIndex) {
  const char* words[] = {"auto", "vec4", "scalar"};
  for (int i = 0; i < 3; ++i) {
    const ScopedEnvVar v(kName, words[i]);
    EXPECT_EQ(env_choice(kName, {"auto", "vec4", "scalar"}, -1, "t"), i) << words[i];
  }
  {
    const ScopedEnvVar v(kName, "off");
    EXPECT_FALSE(env_switch(kName, "on", "off", true, "t"));
  }
  const ScopedEnvVar v(kName, "on");
  EXPECT_TRUE(env_switch(kName, "on", "off", false, "t"));
}

TEST(EnvChoice, AnyOtherWordIsAnErrorNamingVariableValueAndWords) {
  for (const char* bad : {"Vec4", "vec4 ", " auto", "2", "autoo"}) {
    const ScopedEnvVar v(kName, bad);
    EXPECT_THROW((void)env_choice(kName, {"auto", "vec4", "scalar"}, 0, "reduce"), Error) << bad;
  }
  const ScopedEnvVar v(kName, "vec8");
  EXPECT_EQ(message_of([] {
              (void)env_choice(kName, {"auto", "vec4", "scalar"}, 0, "reduce");
            }),
            "[reduce] VKT_TEST_ENV_CHOICE='vec8': expected auto, vec4 or scalar");
  EXPECT_EQ(message_of([] { (void)env_switch(kName, "1", "2", false, "reduce"); }),
            "[reduce] VKT_TEST_ENV_CHOICE='vec8': expected 1 or 2");
  EXPECT_EQ(message_of([] { (void)env_choice(kName, {"busy"}, -1, "vulkan"); }),
            "[vulkan] VKT_TEST_ENV_CHOICE='vec8': expected busy");
}

TEST(EnvChoice, AValueInHandIsReadTheSameWay) {
  EXPECT_EQ(common::word_choice("", kName, {"none", "inline"}, 0, "t"), 0);
  EXPECT_EQ(common::word_choice("inline", kName, {"none", "inline"}, 0, "t"), 1);
  EXPECT_EQ(message_of([] {
              (void)common::word_choice("O3", kName, {"none", "inline"}, 0, "c");
            }),
            "[c] VKT_TEST_ENV_CHOICE='O3': expected none or inline");
}

TEST(EnvChoice, CountsWithinTheRangeAreRead) {
  for (const auto& [text, n] : {std::pair{"0", 0ull}, {"7", 7ull}, {"0010", 10ull}}) {
    const ScopedEnvVar v(kName, text);
    EXPECT_EQ(env_count(kName, 0, 10, "t"), n) << text;
  }
  const ScopedEnvVar v(kName, "18446744073709551615");
  EXPECT_EQ(env_count(kName, 0, UINT64_MAX, "t"), UINT64_MAX);
}

TEST(EnvChoice, NonNumbersAndOutOfRangeCountsAreErrors) {
  for (const char* bad : {"eight", "-1", "+1", "8x", " 8", "8 ", "1e3", "0x10", "1.5"}) {
    const ScopedEnvVar v(kName, bad);
    EXPECT_THROW((void)env_count(kName, 0, 1000, "t"), Error) << bad;
  }
  {
    const ScopedEnvVar v(kName, "18446744073709551616");  // 2^64
    EXPECT_THROW((void)env_count(kName, 0, UINT64_MAX, "t"), Error);
  }
  {
    const ScopedEnvVar v(kName, "0");
    EXPECT_EQ(message_of([] { (void)env_count(kName, 1, 256, "vulkan"); }),
              "[vulkan] VKT_TEST_ENV_CHOICE='0': expected a whole number from 1 to 256");
  }
  const ScopedEnvVar v(kName, "257");
  EXPECT_EQ(message_of([] { (void)env_count(kName, 1, 256, "vulkan"); }),
            "[vulkan] VKT_TEST_ENV_CHOICE='257': expected a whole number from 1 to 256");
}

}  // namespace
}  // namespace vkt::testing
