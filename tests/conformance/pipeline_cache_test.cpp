// The on-disk pipeline cache (src/vulkan/runtime/pipeline_cache.h): a backend writes it, the next
// one loads it, and a damaged or foreign file is rejected and rewritten, never trusted.
#include "vulkan/runtime/pipeline_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "common/settings.h"
#include "conformance/fixture.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

std::string cache_report(Backend& b) {
  for (const auto& [k, v] : b.properties()) {
    if (k == "pipeline_cache") return v;
  }
  return "";
}

std::vector<char> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class PipelineCache : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    dir_ = std::filesystem::temp_directory_path() /
           ("vkt-pipeline-cache-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    Overrides o = *overrides();
    o.cache_dir = dir_.string();
    cache_dir_.emplace(std::move(o));
  }
  void TearDown() override {
    cache_dir_.reset();
    std::filesystem::remove_all(dir_);
    VulkanTest::TearDown();
  }
  std::filesystem::path only_file() const {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir_)) files.push_back(e.path());
    EXPECT_EQ(files.size(), 1u);
    return files.empty() ? dir_ : files[0];
  }
  // A fresh backend runs one op, so it creates at least one pipeline, then is destroyed.
  static std::string run_once() {
    std::unique_ptr<Backend> b = vk::testing::separate_backend();
    const std::string report = cache_report(*b);
    const Tensor x = iota({1000}, DType::f32, std::nullopt, b.get());
    EXPECT_EQ(add(x, x).to_vector<float>()[999], 1998.0f);
    return report;
  }
  std::filesystem::path dir_;
  std::optional<OverrideScope> cache_dir_;
};

TEST_F(PipelineCache, WrittenThenLoaded) {
  EXPECT_NE(run_once().find(": new"), std::string::npos);
  const std::filesystem::path file = only_file();
  ASSERT_TRUE(std::filesystem::exists(file));
  EXPECT_NE(file.filename().string().find("pipelines-"), std::string::npos);
  EXPECT_NE(run_once().find(": loaded "), std::string::npos);
}

TEST_F(PipelineCache, DamagedFileIsRejectedAndRewritten) {
  run_once();
  const std::filesystem::path file = only_file();
  std::vector<char> bytes = read_file(file);
  ASSERT_GT(bytes.size(), 24u);
  for (std::size_t at : {std::size_t{3}, std::size_t{12}, bytes.size() - 1}) {
    std::vector<char> damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x5a);
    std::ofstream(file, std::ios::binary | std::ios::trunc)
        .write(damaged.data(), static_cast<std::streamsize>(damaged.size()));
    EXPECT_NE(run_once().find(": rejected ("), std::string::npos) << "byte " << at;
    EXPECT_NE(run_once().find(": loaded "), std::string::npos) << "rewritten after byte " << at;
  }
  // A well-formed file whose driver header names another device.
  std::vector<char> blob(bytes.begin() + 24, bytes.end());
  ASSERT_GE(blob.size(), sizeof(VkPipelineCacheHeaderVersionOne));
  blob[12] = static_cast<char>(blob[12] ^ 1);  // deviceID
  const std::vector<char> foreign = vk::PipelineCacheStore::wrap(blob);
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(foreign.data(), static_cast<std::streamsize>(foreign.size()));
  EXPECT_NE(run_once().find("rejected (another device or driver)"), std::string::npos);
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(bytes.data(), 10);  // truncated
  EXPECT_NE(run_once().find(": rejected ("), std::string::npos);
}

TEST_F(PipelineCache, OffWritesNothing) {
  const OverrideScope off("cache_dir=off");
  EXPECT_EQ(run_once(), "off");
  EXPECT_FALSE(std::filesystem::exists(dir_));
}

}  // namespace
}  // namespace vkt::testing
