// VKT_VK_FFT's parser (src/vulkan/ops/fft_tuning.h): VkFFT fields by name with their ranges,
// rows=wide|vendor|narrow, input=direct|copy and report=0|1; anything else is a vkt::Error
// naming the item.
#include "vulkan/ops/fft_tuning.h"

#include <gtest/gtest.h>

#include <string>

#include "vkt/error.h"

namespace vkt::vk {
namespace {

TEST(FftTuning, EmptyOrUnsetChangesNothing) {
  for (const char* text : {static_cast<const char*>(nullptr), "", ","}) {
    const FftTuning t = parse_fft_tuning(text);
    EXPECT_TRUE(t.vkfft.empty());
    EXPECT_TRUE(t.direct_input);
    EXPECT_FALSE(t.report);
    EXPECT_EQ(t.rows, FftRows::vendor);
  }
}

TEST(FftTuning, SetsFieldsByName) {
  const FftTuning t = parse_fft_tuning(
      "coalescedMemory=128,aimThreads=256,useLUT=1,input=copy,report=1,rows=narrow");
  EXPECT_EQ(t.vkfft.size(), 3u);
  EXPECT_EQ(t.vkfft.at("coalescedMemory"), 128u);
  EXPECT_EQ(t.vkfft.at("aimThreads"), 256u);
  EXPECT_EQ(t.vkfft.at("useLUT"), 1u);
  EXPECT_FALSE(t.direct_input);
  EXPECT_TRUE(t.report);
  EXPECT_EQ(t.rows, FftRows::narrow);
  EXPECT_EQ(parse_fft_tuning("rows=vendor").rows, FftRows::vendor);
  EXPECT_EQ(fft_tuning_keys().size(), 9u);
}

TEST(FftTuning, BadItemsAreErrorsNamingThem) {
  const struct {
    const char* text;
    const char* named;
  } cases[] = {
      {"coalescedMemry=64", "'coalescedMemry=64' names no known key"},
      {"coalescedMemory", "'coalescedMemory' has no '='"},
      {"coalescedMemory=48", "a power of two from 8 to 1024"},
      {"coalescedMemory=2048", "a power of two from 8 to 1024"},
      {"aimThreads=12x", "an integer from 32 to 1024"},
      {"useLUT=0", "an integer from 1 to 1"},
      {"registerBoost4Step=2", "names no known key"},
      {"disableReorderFourStep=1", "names no known key"},
      {"input=both", "input=direct or input=copy"},
      {"report=yes", "report=0 or report=1"},
      {"rows=thin", "rows=wide, rows=vendor or rows=narrow"},
  };
  for (const auto& c : cases) {
    try {
      (void)parse_fft_tuning(c.text);
      ADD_FAILURE() << c.text << " was accepted";
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("[fft] VKT_VK_FFT: ", 0), 0u) << what;
      EXPECT_NE(what.find(c.named), std::string::npos) << what;
      EXPECT_NE(what.find("coalescedMemory, aimThreads"), std::string::npos) << what;
    }
  }
}

}  // namespace
}  // namespace vkt::vk
