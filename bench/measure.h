// Timing one op case on one backend, the unit every bench is made of.
#pragma once

#include <array>
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
// The column's median as a CSV cell, or an empty cell where it was not measured.
inline std::string median_or_empty(const Column& c) {
  return c.measured ? fmt_num(c.stats.median_us) : "";
}
Column measure(const OpCase& c, Backend& b, Read read, const TimingPlan& plan);

// <prefix>_gpu_us and <prefix>_gpu_min_us: the column's device-clock median and minimum,
// empty where it has none.
void add_device_time(Row& row, const std::string& prefix, const Column& c);

// The columns A to E (median, min, p95, reps of each), C's device time, D/B, D/E, C/A, the
// bytes read and the read floor (D against C plus out_bytes at the `d2h` rate, bytes per us;
// 0: no device), and GFLOP/s of A and of C's device time, in the order the conv and fft
// CSVs have them.
void add_timed_columns(Row& row, const std::array<const Column*, 5>& a_to_e, std::size_t out_bytes,
                       double d2h, double floor_us, double flop);

}  // namespace vkt::bench
