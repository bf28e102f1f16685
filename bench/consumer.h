// The consumer-aware bench (DESIGN.md section 5): columns A..E per (op, dtype, size).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "csv.h"

namespace vkt::bench {

struct ConsumerOptions {
  std::vector<std::string> ops;
  std::vector<std::int64_t> sizes;
  int min_reps = 30;
  int device = -1;
  // Columns C, D and D_vec only (and C's device time): a peer's rows where the cpu columns
  // of large sorts would take minutes of a GPU call.
  bool device_only = false;
  std::string out;  // CSV path; empty: bench_results/<machine>/consumer.csv
};

// Runs the bench, prints the table, writes the CSV; returns the rows.
std::vector<Row> run_consumer(const ConsumerOptions& opts);

}  // namespace vkt::bench
