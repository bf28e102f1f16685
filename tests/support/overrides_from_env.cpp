// Every test binary applies VKT_TEST_OVERRIDES ("name=value,...", vkt::Overrides' fields; a
// test-side variable, not the library's) for the whole process before any test runs: a
// ctest entry or a measurement runs the suite with a rule's other side forced.
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "common/settings.h"

namespace {

[[maybe_unused]] const bool applied = [] {
  const char* spec = std::getenv("VKT_TEST_OVERRIDES");
  if (spec == nullptr || *spec == '\0') return false;
  try {
    new vkt::OverrideScope(spec);  // for the process's life: never restored
  } catch (const std::exception& e) {
    std::fprintf(stderr, "VKT_TEST_OVERRIDES: %s\n", e.what());
    std::_Exit(2);
  }
  return true;
}();

}  // namespace
