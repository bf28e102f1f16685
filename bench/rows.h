// The consumer columns A to E of one case (DESIGN.md section 5) and the row fields built
// from them, shared by the benches that write them (consumer, conv, fft).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "cases.h"
#include "csv.h"
#include "host_info.h"
#include "measure.h"

namespace vkt::bench {

struct ConsumerColumns {
  Column a, b, c, d, e;
};

// Which columns a row times besides C and D (those whenever there is a device): A and B
// on the cpu, and E (needs a device).
struct ColumnChoice {
  bool cpu = true;
  bool legacy = true;
};

// What a bench of consumer columns sets up before its first case, in this order: the
// device (null: none), the host's fields, the CSV path (checked writable before any work),
// the floor's device-to-host rate and the timing plan.
struct ConsumerRun {
  Backend* dev = nullptr;
  HostInfo host;
  std::string out;
  double d2h = 0;
  TimingPlan plan;
};
// `out` empty: bench_results/<machine>/<bench>.csv.
ConsumerRun start_consumer_run(int device, const std::string& out, const std::string& bench,
                               int min_reps);

// A and B on the cpu, C and D on `dev` (null: none), E on `dev` by the legacy path; in
// that order, each only where `which` and the device allow it.
ConsumerColumns measure_consumer_columns(const OpCase& c, Backend* dev, ColumnChoice which,
                                         const TimingPlan& plan);
// E: D's op and read with the native path off and the fallback's result uploaded back, as
// the pre-Tier-1 backend ran; the process's legacy policy is restored afterwards.
Column measure_legacy(const OpCase& c, Backend& dev, const TimingPlan& plan);

// The device-to-host rate the floor uses, bytes per us, measured once per run with a
// 256 MiB read; 0 without a device.
double floor_d2h_rate(Backend* dev);
// The PCIe floor: C's median plus `out_bytes` at `d2h`; 0 where C was not measured.
double floor_us(const Column& c, std::size_t out_bytes, double d2h);
// The path column: "cpu-only" without a device, "fallback" where D's op ran by host
// fallback, else "native".
std::string path_taken(const Backend* dev, const Column& d);

// A row's leading fields: the host's, then op, dtype, shape, `case_extra` (a bench's own
// case fields), size and path.
Row case_fields(const HostInfo& host, const std::string& op, const std::string& dtype,
                const Shape& shape, const Row& case_extra, std::int64_t size,
                const std::string& path);

// The columns A to E (median, min, p95, reps of each), C's device time, D/B, D/E, C/A, the
// bytes read and the read floor (C plus out_bytes at `d2h`, bytes per us; 0: no device),
// and GFLOP/s of A and of C's device time, in the order the conv and fft CSVs have them.
void add_timed_columns(Row& row, const ConsumerColumns& cols, std::size_t out_bytes, double d2h,
                       double flop);

}  // namespace vkt::bench
