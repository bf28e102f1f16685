// For measurement only: reproduce the pre-Tier-1 path (native ops off, fallback results
// uploaded back to the device). Default: native on, fallback result stays on the cpu.
// Process-wide and atomic; the dispatch core (src/core/dispatch.cpp) reads it per op.
#pragma once

namespace vkt {

struct LegacyPolicy {
  bool native = true;
  bool upload_fallback_result = false;
};
void set_legacy_policy(LegacyPolicy p);
LegacyPolicy legacy_policy();

}  // namespace vkt
