// Where the golden data lives (golden.h): the only unit-test file compiled with the checkout's
// path, VKT_GOLDEN_SOURCE_DIR.
#include <cstdlib>
#include <string>

namespace vkt::testing {

std::string golden_dir() {
  const char* env_dir = std::getenv("VKT_GOLDEN_DIR");
  return env_dir != nullptr ? env_dir : VKT_GOLDEN_SOURCE_DIR;
}

}  // namespace vkt::testing
