// common::word_choice / word_count, the parsers every setting goes through: empty takes the
// fallback, each word its index, and anything else an error naming the setting, its value and
// what is accepted.
#include "common/word_choice.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>

#include "vkt/error.h"

namespace vkt::testing {
namespace {

using common::word_choice;
using common::word_count;

constexpr const char* kName = "VKT_TEST_WORD_CHOICE";

std::string message_of(const auto& read) {
  try {
    read();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(WordChoice, EmptyTakesTheFallback) {
  EXPECT_EQ(word_choice("", kName, {"auto", "vec4", "scalar"}, 0, "t"), 0);
  EXPECT_EQ(word_choice("", kName, {"auto", "vec4", "scalar"}, -1, "t"), -1);
  EXPECT_EQ(word_count("", kName, 0, 10, "t"), std::nullopt);
}

TEST(WordChoice, EachWordGivesItsIndex) {
  const char* words[] = {"auto", "vec4", "scalar"};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(word_choice(words[i], kName, {"auto", "vec4", "scalar"}, -1, "t"), i) << words[i];
  }
}

TEST(WordChoice, AnyOtherWordIsAnErrorNamingSettingValueAndWords) {
  for (const char* bad : {"Vec4", "vec4 ", " auto", "2", "autoo"}) {
    EXPECT_THROW((void)word_choice(bad, kName, {"auto", "vec4", "scalar"}, 0, "reduce"), Error)
        << bad;
  }
  EXPECT_EQ(message_of([] {
              (void)word_choice("vec8", kName, {"auto", "vec4", "scalar"}, 0, "reduce");
            }),
            "[reduce] VKT_TEST_WORD_CHOICE='vec8': expected auto, vec4 or scalar");
  EXPECT_EQ(message_of([] {
              (void)word_choice("vec8", kName, {"1", "2"}, 0, "reduce");
            }),
            "[reduce] VKT_TEST_WORD_CHOICE='vec8': expected 1 or 2");
  EXPECT_EQ(message_of([] { (void)word_choice("vec8", kName, {"busy"}, -1, "vulkan"); }),
            "[vulkan] VKT_TEST_WORD_CHOICE='vec8': expected busy");
}

TEST(WordChoice, CountsWithinTheRangeAreRead) {
  for (const auto& [text, n] : {std::pair{"0", 0ull}, {"7", 7ull}, {"0010", 10ull}}) {
    EXPECT_EQ(word_count(text, kName, 0, 10, "t"), n) << text;
  }
  EXPECT_EQ(word_count("18446744073709551615", kName, 0, UINT64_MAX, "t"), UINT64_MAX);
}

TEST(WordChoice, NonNumbersAndOutOfRangeCountsAreErrors) {
  for (const char* bad : {"eight", "-1", "+1", "8x", " 8", "8 ", "1e3", "0x10", "1.5"}) {
    EXPECT_THROW((void)word_count(bad, kName, 0, 1000, "t"), Error) << bad;
  }
  EXPECT_THROW((void)word_count("18446744073709551616", kName, 0, UINT64_MAX, "t"), Error);
  EXPECT_EQ(message_of([] { (void)word_count("0", kName, 1, 256, "vulkan"); }),
            "[vulkan] VKT_TEST_WORD_CHOICE='0': expected a whole number from 1 to 256");
  EXPECT_EQ(message_of([] { (void)word_count("257", kName, 1, 256, "vulkan"); }),
            "[vulkan] VKT_TEST_WORD_CHOICE='257': expected a whole number from 1 to 256");
}

}  // namespace
}  // namespace vkt::testing
