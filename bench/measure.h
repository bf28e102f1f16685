// Timing one op case on one backend, the unit every bench is made of.
#pragma once

#include "cases.h"
#include "stats.h"
#include "vkt/ledger.h"

namespace vkt::bench {

struct Column {
  Stats stats;
  LedgerCounts ledger;  // of one extra repetition after the timed ones
  bool measured = false;
};

// Places the inputs on `b` (outside the timing), then times the op until complete; with
// `read`, each repetition also reads the whole result as a consumer would (to_bytes).
Column measure(const OpCase& c, Backend& b, bool read, const TimingPlan& plan);

}  // namespace vkt::bench
