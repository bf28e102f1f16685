// Timing one op case on one backend, the unit every bench is made of.
#pragma once

#include <cstddef>
#include <vector>

#include "cases.h"
#include "csv.h"
#include "stats.h"
#include "vkt/ledger.h"

namespace vkt::bench {

struct Column {
  Stats stats;
  Stats device;  // Read::none on a device with timestamps: the device's own clock
  bool has_device_time = false;
  // Per pass of an op that marks its passes (Backend::device_timer_passes_us), when every
  // timed repetition reported the same number of them.
  std::vector<Stats> passes;
  LedgerCounts ledger;  // of one extra repetition after the timed ones
  bool measured = false;
};

// How a repetition ends once the op is issued.
enum class Read {
  none,       // wait until the op is complete (synchronize): the op alone
  to_cpu,     // the consumer read: to_cpu(), then the elements in place (host_span), as a
              // PyTorch user does .cpu() and .numpy(); a cpu result is used where it is
  to_vector,  // a copy of the elements into a new std::vector (to_vector), fresh pages too
};

// The least warm-up before timing on `b`: device_min_warmup_us() on a GPU (stats.h), the
// TimingPlan's own on the cpu backend and on a cpu device such as lavapipe (no such governor).
double min_warmup_us(const Backend& b, const TimingPlan& plan);

// Places the inputs on `b` (outside the timing), then times the op and `read`.
Column measure(const OpCase& c, Backend& b, Read read, const TimingPlan& plan);
// The column's median as a CSV cell, or an empty cell where it was not measured.
inline std::string median_or_empty(const Column& c) {
  return c.measured ? fmt_num(c.stats.median_us) : "";
}
// x's median over y's (a literal ratio, DESIGN.md section 5) as a CSV cell; empty where
// either was not measured or y's median is 0.
std::string median_ratio(const Column& x, const Column& y);

// <prefix>_gpu_us and <prefix>_gpu_min_us: the column's device-clock median and minimum,
// empty where it has none.
void add_device_time(Row& row, const std::string& prefix, const Column& c);

}  // namespace vkt::bench
