// A fuzzing run: programs first, first + 1, ... made from (seed, index), run by several
// threads on the shared Vulkan backend, and accounted for in index order, so the counts,
// the mismatch reports and the stop after max_failures are those of a single-threaded run.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "fuzz/compile_check.h"
#include "fuzz/runner.h"
#include "vkt/ledger.h"

namespace vkt::fuzz {

struct CampaignOptions {
  std::uint64_t seed = 1, first = 0;
  std::uint64_t programs = 0;  // 0: no limit
  double seconds = 0;          // 0: no limit
  int max_failures = 3;
  int threads = 1;
  bool shrink = true;
  bool verbose = false;   // a listing of every program
  double progress_s = 0;  // a progress line this often (0: none), for runs that may be killed
  // Every this many programs (by index; 0: none) also run as one vkt::compile function on
  // the device against their eager run there (tests/fuzz/compile_check.h).
  std::uint64_t compiled_every = 0;
};

// Where the time went, summed over the threads (so it may pass the wall time).
struct CampaignTimes {
  std::uint64_t programs = 0;  // run, also those past a stop at max_failures
  std::uint64_t generate_ns = 0, shrink_ns = 0;
  std::uint64_t compiled_ns = 0;  // the compile checks (trace, plan, kernels, two calls)
  PhaseTimes run;
};

struct CampaignSummary {
  std::uint64_t programs = 0, nodes = 0, errors = 0;  // errors: nodes that threw on both sides
  std::map<std::string, std::uint64_t> op_counts;
  std::vector<std::uint64_t> failing;  // indices of the mismatching programs, in order
  double wall_s = 0;
  int threads = 1;
  CampaignTimes times;
  LedgerCounts ledger;    // over the whole run
  CompileStats compiled;  // the compile checks
};

// Runs the programs; reports (mismatches, --verbose listings) go to `out` in index order.
CampaignSummary run_campaign(const CampaignOptions& options, std::ostream& out);

// The end-of-run breakdown: programs per second, phase times, the ledger's counts.
std::string breakdown(const CampaignSummary& s);

// The default thread count: the hardware's, at most 16 (ops on the device are serialised,
// so more threads only overlap the host's share).
int default_threads();

}  // namespace vkt::fuzz
