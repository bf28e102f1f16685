// The check every deallocate test makes (cpu and Vulkan): using a deallocated tensor throws
// Deallocated, its message starting "[op]" with the op the caller called and saying why.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "vkt/error.h"

namespace vkt::testing {

template <class F>
void expect_deallocated(const std::string& op, F&& f) {
  try {
    f();
    ADD_FAILURE() << op << ": no throw";
  } catch (const Deallocated& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("[" + op + "]", 0), 0u) << what;
    EXPECT_NE(what.find("deallocated"), std::string::npos) << what;
  }
}

}  // namespace vkt::testing
