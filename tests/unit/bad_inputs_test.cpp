// The bad-input catalogue on the cpu backend: every case throws the promised vkt error
// naming its op, leaves its inputs' bytes alone, and the next op works. Two fake devices
// stand in for the mixed-backend and forbidden-fallback cases.
#include <gtest/gtest.h>

#include "support/bad_case_table.h"
#include "unit/fake_backend.h"

namespace vkt::testing {
namespace {

TEST(BadInputs, CatalogueOnCpu) {
  FakeBackend device{"fake0"}, device2{"fake1"};  // no native ops: everything falls back
  const BadInputEnv env{cpu(), device, device2, [](Op, bool) {}};
  run_bad_case_table(env, 200);
}

}  // namespace
}  // namespace vkt::testing
