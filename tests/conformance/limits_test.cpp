// Device limits: a tensor past maxStorageBufferRange is not bound to a shader (the op falls
// back and stays correct); one past maxMemoryAllocationSize is refused with a clear error.
#include "conformance/fixture.h"
#include "support/compare.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

class Limits : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    saved_ = vk::testing::device_limits();
  }
  void TearDown() override {
    vk::testing::set_storage_range_limit(saved_.max_storage_range);
    vk::testing::set_allocation_limit(saved_.max_allocation);
    VulkanTest::TearDown();
  }
  vk::DeviceLimits saved_;
};

TEST_F(Limits, PastStorageRangeFallsBackCorrectly) {
  const Tensor h = iota({1000}, DType::s32);
  const Tensor g = transfer(h, gpu());
  vk::testing::set_storage_range_limit(1024);  // 4000 bytes do not fit
  LedgerScope scope;
  const Tensor r = as_type(g, DType::f32);
  EXPECT_EQ(scope.delta().fallbacks, 1u) << scope.delta().to_string();
  EXPECT_TRUE(tensors_close(r, as_type(h, DType::f32), Tolerance{0, 0}));
  // A small tensor still runs natively.
  LedgerScope small;
  as_type(iota({10}, DType::s32, std::nullopt, &gpu()), DType::f32);
  EXPECT_EQ(small.delta().fallbacks, 0u);
}

TEST_F(Limits, PastAllocationSizeIsRefusedClearly) {
  vk::testing::set_allocation_limit(1 << 20);
  const std::vector<float> big(1 << 19);  // 2 MiB
  try {
    from_vector(big, &gpu());
    FAIL() << "no exception";
  } catch (const OutOfMemory& e) {
    EXPECT_NE(std::string(e.what()).find("maxMemoryAllocationSize"), std::string::npos) << e.what();
  }
  vk::testing::set_allocation_limit(saved_.max_allocation);
  EXPECT_EQ(from_vector(big, &gpu()).to_vector<float>().size(), big.size());  // still usable
}

}  // namespace
}  // namespace vkt::testing
