// The op-only benches: ops (coverage), shapes (speed-up vs size), matmul, chain.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cases.h"
#include "csv.h"
#include "host_info.h"
#include "table.h"
#include "vkt/backend.h"

namespace vkt::bench {

struct SuiteOptions {
  std::vector<std::string> ops;     // empty: the bench's default set
  std::vector<std::int64_t> sizes;  // empty: the bench's default grid
  int min_reps = 30;
  int device = -1;
  std::string out;  // empty: bench_results/<machine>/<bench>.csv
  // matmul only (matmul.cpp): dtypes, environment variants, rounds of fresh operands, and
  // the largest n the cpu column is measured at.
  std::vector<std::string> dtypes;
  std::string variants;
  int rounds = 1;
  std::int64_t cpu_max = 4096;
  // chain only: the row kernel's variant, "key=value,..." (compiled_rows_variant.h); "": default.
  std::string rows;
};

std::vector<Row> run_ops(const SuiteOptions& o);
std::vector<Row> run_shapes(const SuiteOptions& o);
std::vector<Row> run_matmul(const SuiteOptions& o);
std::vector<Row> run_chain(const SuiteOptions& o);  // chain.cpp

// Shared by the suites: a progress line on stderr, the table printed and the CSV written,
// and the fields every row starts with.
void progress(std::size_t i, std::size_t total, const std::string& what);
void finish(const std::string& path, const std::vector<Row>& rows, const Table& table);
Row case_row(const HostInfo& h, const OpCase& c, std::int64_t n);
// What the device-only suites (overhead, first_call) start from: the Vulkan backend, the
// host's fields, the CSV path (checked writable) and the sizes (default 1024 elements).
struct DeviceSuite {
  Backend& dev;
  HostInfo host;
  std::string path;
  std::vector<std::int64_t> sizes;
};
// Throws std::invalid_argument naming `bench` where the machine has no Vulkan device.
DeviceSuite device_suite(const SuiteOptions& o, const std::string& bench);
// overhead.cpp: an op's fixed cost split into recording, device time and the rest.
std::vector<Row> run_overhead(const SuiteOptions& o);
// first_call.cpp: an op's first call in the process against its warm calls.
std::vector<Row> run_first_call(const SuiteOptions& o);

}  // namespace vkt::bench
