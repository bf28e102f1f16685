// The base of every Vulkan test: fails a test during which the validation layer reported
// a warning or error, and gives the default device's backend.
#pragma once

#include <gtest/gtest.h>

#include "vkt/vkt.h"
#include "vulkan/runtime/testing.h"
#include "vulkan/runtime/validation.h"

namespace vkt::testing {

class VulkanTest : public ::testing::Test {
 protected:
  void SetUp() override { messages_before_ = vk::validation_message_count(); }
  void TearDown() override {
    vulkan().synchronize();  // messages about in-flight work arrive by now
    EXPECT_EQ(vk::validation_message_count(), messages_before_)
        << "the Vulkan validation layer reported messages during this test (see stderr)";
  }
  static Backend& gpu() { return vulkan(); }

 private:
  std::uint64_t messages_before_ = 0;
};

// vkt::compile tests that count a compiled call's dispatches, compiles or ledger entries:
// compile tiers off (a GPU's default is on), so each call runs the full kernels and nothing
// compiles on another thread.
class VulkanUntieredTest : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    vk::testing::set_compile_tiers(false);
  }
  void TearDown() override {
    vk::testing::set_compile_tiers(std::nullopt);
    VulkanTest::TearDown();
  }
};

}  // namespace vkt::testing
