// The bad-input catalogue (issue 10, item 4): one list, run by the unit suite on the cpu
// (tests/unit/bad_inputs_test.cpp) and by the conformance suite on Vulkan.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "support/bad_cases_apigaps.h"
#include "support/bad_cases_compute.h"
#include "support/bad_cases_elementwise.h"
#include "support/bad_cases_fft.h"
#include "support/bad_cases_shape.h"
#include "support/bad_inputs.h"

namespace vkt::testing {

inline std::vector<BadCase> bad_case_table() {
  std::vector<BadCase> v;
  add_elementwise_cases(v);
  add_creation_cases(v);
  add_read_cases(v);
  add_movement_cases(v);
  add_index_cases(v);
  add_reduce_cases(v);
  add_sort_linalg_cases(v);
  add_forbidden_fallback_cases(v);
  add_apigaps_cases(v);
  add_apigaps_forbidden_cases(v);
  add_fft_cases(v);
  return v;
}

// Runs every case; the table must hold at least `min_cases`, with unique names.
inline void run_bad_case_table(const BadInputEnv& env, std::size_t min_cases) {
  const std::vector<BadCase> cases = bad_case_table();
  EXPECT_GE(cases.size(), min_cases);
  std::set<std::string> names;
  for (const BadCase& c : cases) {
    EXPECT_TRUE(names.insert(c.name).second) << "two cases named " << c.name;
    run_bad_case(c, env);
  }
  std::printf("[ catalogue ] %zu bad-input cases on %s\n", cases.size(), env.home.name().c_str());
}

}  // namespace vkt::testing
