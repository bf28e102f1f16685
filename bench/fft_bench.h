// vkt-bench fft (fft.cpp): fft of c64/c128 lines with the consumer columns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "csv.h"

namespace vkt::bench {

struct FftBenchOptions {
  std::vector<std::string> dtypes = {"c64"};
  // Each a single line of that many points (16M: the goal size).
  std::vector<std::int64_t> sizes = {4096, 65536, 1048576, 16777216};
  std::int64_t batch = 1;  // lines per tensor: {batch, size}, transformed along the last axis
  int min_reps = 30;
  int device = -1;
  bool device_only = false;  // columns C and D only
  std::string out;           // empty: bench_results/<machine>/fft.csv
};

std::vector<Row> run_fft_bench(const FftBenchOptions& o);

}  // namespace vkt::bench
