// The overhead bench's chain rows (overhead_chain.cpp).
#pragma once

#include <vector>

#include "host_info.h"
#include "measure.h"
#include "table.h"

namespace vkt::bench {

// One overhead row for case `c` of `size` elements: C (median, min), its device time, the
// host time to record it, the rest (C less both), the empty batch's round trip, submits and
// dispatches; also added to `table`.
Row overhead_row(const HostInfo& h, const OpCase& c, std::int64_t size, const Column& cc,
                 const Stats& record, double empty_sync_us, Table& table);

// Rows chain1, chain4, chain16 (16384 f32): C, its device time, the host time to record the
// whole chain, the rest; in the columns and order of the overhead bench's other rows.
std::vector<Row> chain_overhead_rows(Backend& dev, const HostInfo& h, const TimingPlan& plan,
                                     double empty_sync_us, Table& table);

// Rows host:<stage> (overhead_stages.cpp): the host microseconds per call of each stage of
// the chain's op (whole op, literal, upload, op chained and independent, execute, supports),
// record_us only; `dispatches` per call.
std::vector<Row> host_stage_rows(Backend& dev, const HostInfo& h, const TimingPlan& plan,
                                 double empty_sync_us, Table& table);

}  // namespace vkt::bench
