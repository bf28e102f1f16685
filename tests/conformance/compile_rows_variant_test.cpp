// The row variant's parser (src/vulkan/compile/compiled_rows_variant.h): wg, lanes, loop, shuffle,
// hold, max, divide, exp, bounds, rare, split by name with their choices; anything else is a
// vkt::Error naming the row variant and the item.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "vkt/error.h"
#include "vulkan/compile/compiled_rows_variant.h"

namespace vkt::vk {
namespace {

TEST(CompileRowsVariant, EmptyOrUnsetIsTheDefault) {
  for (const char* text : {static_cast<const char*>(nullptr), "", ",", ",,"}) {
    EXPECT_EQ(parse_row_variant(text), default_row_variant()) << (text ? text : "null");
  }
  EXPECT_EQ(
      default_row_variant().text(),
      "wg=256,lanes=256,loop=unrolled,shuffle=1,hold=registers,max=bits,divide=row,"
      "exp=proven,bounds=static,rare=once,split=1,first=2,first_loop=unrolled,first_rare=flag,"
      "first_opt=driver");
}

TEST(CompileRowsVariant, SetsEachKeyAndTheLaterValueWins) {
  const RowVariant v = parse_row_variant("wg=1024,lanes=64,loop=rolled,shuffle=0,hold=shared");
  EXPECT_EQ(v.workgroup, 1024u);
  EXPECT_EQ(v.max_lanes, 64u);
  EXPECT_FALSE(v.unrolled);
  EXPECT_FALSE(v.shuffle_only);
  EXPECT_TRUE(v.hold_shared);
  EXPECT_EQ(v.text(),
            "wg=1024,lanes=64,loop=rolled,shuffle=0,hold=shared,max=bits,divide=row,exp=proven,"
            "bounds=static,rare=once,split=1,first=2,first_loop=unrolled,first_rare=flag,"
            "first_opt=driver");
  EXPECT_EQ(parse_row_variant(v.text().c_str()), v);
  const RowVariant before =
      parse_row_variant("max=combine,divide=plain,exp=plain,bounds=always,exp=bits");
  EXPECT_FALSE(before.bits_minmax);
  EXPECT_FALSE(before.row_divisor);
  EXPECT_EQ(before.exp, RowVariant::Exp::bits);
  EXPECT_FALSE(before.static_bounds);
  EXPECT_EQ(parse_row_variant(before.text().c_str()), before);
  EXPECT_EQ(parse_row_variant("exp=plain").exp, RowVariant::Exp::plain);
  EXPECT_EQ(parse_row_variant("lanes=32,lanes=128").max_lanes, 128u);
  EXPECT_EQ(parse_row_variant("wg=512").workgroup, 512u);
  EXPECT_EQ(parse_row_variant("wg=64").workgroup, 64u);
  EXPECT_TRUE(parse_row_variant("loop=rolled,loop=unrolled").unrolled);
  EXPECT_FALSE(parse_row_variant("rare=inline").rare_once);
  EXPECT_TRUE(parse_row_variant("rare=inline,rare=once").rare_once);
  EXPECT_EQ(parse_row_variant("split=2").split, 2u);
  EXPECT_EQ(parse_row_variant("split=4").split, 4u);
  EXPECT_EQ(parse_row_variant("first=4").first_split, 4u);
  EXPECT_EQ(parse_row_variant("first=4,first=2").first_split, 2u);
  EXPECT_FALSE(parse_row_variant("first_loop=rolled").first_unrolled);
  EXPECT_TRUE(parse_row_variant("first_loop=rolled,first_loop=unrolled").first_unrolled);
  EXPECT_FALSE(parse_row_variant("first_rare=once").first_rare_flag);
  EXPECT_TRUE(parse_row_variant("first_rare=once,first_rare=flag").first_rare_flag);
  EXPECT_FALSE(parse_row_variant("first_rare=flag").rare_flag);  // never a key
  EXPECT_FALSE(parse_row_variant("first_opt=none").first_optimized);
  EXPECT_TRUE(parse_row_variant("first_opt=none,first_opt=driver").first_optimized);
  EXPECT_EQ(parse_row_variant(parse_row_variant("first_opt=none").text().c_str()),
            parse_row_variant("first_opt=none"));
}

TEST(CompileRowsVariant, BadItemsAreErrorsNamingTheVariantAndTheItem) {
  for (const char* item :
       {"wg=32",       "wg=2048",    "wg=",      "lanes=16",          "lanes=512",
        "lanes=abc",   "loop=yes",   "loop",     "shuffle=2",         "shuffle=on",
        "hold=local",  "unroll=1",   "=256",     "wg=256 ",           "Wg=256",
        "max=",        "max=int",    "divide=1", "exp=fast",          "exp",
        "bounds=none", "rare=never", "rare",     "split=3",           "split=0",
        "split=8",     "first=1",    "first=3",  "first_rare=inline", "first_opt=off"}) {
    const std::string text = std::string("lanes=64,") + item;
    try {
      (void)parse_row_variant(text.c_str());
      ADD_FAILURE() << "no error for " << text;
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("row variant"), std::string::npos) << what;
      EXPECT_NE(what.find(std::string("'") + item + "'"), std::string::npos) << what;
      EXPECT_NE(what.find("lanes=32|64|128|256"), std::string::npos) << what;
    }
  }
}

// The hook (tests, vkt-bench chain --rows) is the only way to another variant.
TEST(CompileRowsVariant, TheHookSetsTheVariantAndNulloptRestoresTheDefault) {
  EXPECT_EQ(row_variant(), default_row_variant());
  const RowVariant rolled = parse_row_variant("loop=rolled,lanes=64");
  testing::set_row_variant(rolled);
  EXPECT_EQ(row_variant(), rolled);
  testing::set_row_variant(std::nullopt);
  EXPECT_EQ(row_variant(), default_row_variant());
}

}  // namespace
}  // namespace vkt::vk
