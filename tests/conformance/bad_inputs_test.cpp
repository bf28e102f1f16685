// The bad-input catalogue on Vulkan: inputs live on the default device; a second backend
// on the same device (its own VkDevice) is the other side of the mixed-backend cases, and
// the forbidden-fallback cases turn one native kernel off at a time.
#include "conformance/fixture.h"
#include "support/bad_case_table.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

class BadInputs : public VulkanTest {};

TEST_F(BadInputs, CatalogueOnVulkan) {
  const std::unique_ptr<Backend> second = vk::testing::separate_backend();
  {
    const BadInputEnv env{gpu(), gpu(), *second,
                          [](Op op, bool on) { vk::testing::set_native_disabled(op, !on); }};
    run_bad_case_table(env, 200);
  }
  second->synchronize();
}

}  // namespace
}  // namespace vkt::testing
