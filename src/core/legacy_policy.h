// The bench's E column and the contract tests: the founding study's path (native ops off,
// fallback results uploaded back to the device), kept to show what it costs. Not public:
// vkt-bench and the tests reach it through the core layer's include root. Default: native
// on, fallback result stays on the cpu. Process-wide and atomic; dispatch.cpp reads it per op.
#pragma once

namespace vkt {

struct LegacyPolicy {
  bool native = true;
  bool upload_fallback_result = false;
};
void set_legacy_policy(LegacyPolicy p);
LegacyPolicy legacy_policy();

}  // namespace vkt
