// Gradient fuzzing: a generated program, rewritten to f64, differentiated with vkt::grad
// and checked against central finite differences at every primal element.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "fuzz/program.h"

namespace vkt::fuzz {

// Where the analytic gradient and the finite differences disagree (or vkt::grad threw an
// error other than Unsupported, which is a broken rule too).
struct GradMismatch {
  std::uint64_t seed = 0;
  int primal = -1;            // node index in `listing` (the rewritten program)
  std::int64_t element = -1;  // flat index into that primal
  double analytic = 0;
  double numeric = 0;         // central difference, h = 2.5e-6
  double numeric_coarse = 0;  // central difference, h = 1e-5
  std::string what;           // the error vkt::grad threw, when it threw
  std::string listing;        // the rewritten program (primals and their values included)
  std::string describe() const;
};

// What became of the programs given to check_gradients.
struct GradStats {
  std::int64_t programs = 0;
  std::int64_t checked = 0;         // differentiated and compared
  std::int64_t cut_at_complex = 0;  // checked up to their first complex node
  // Reason -> programs: "bitcast", "no_float_leaf", "too_many_elements",
  // "rewrite_throws", "large_values", "fine_remainder", "no_loss_node", "unsupported".
  std::map<std::string, std::int64_t> skipped;
  std::map<std::string, std::int64_t> unsupported;     // op -> programs it stopped
  std::map<std::string, std::int64_t> rewrite_throws;  // op -> programs it stopped
  std::int64_t elements_compared = 0;
  std::int64_t elements_kinked = 0;     // the two step sizes disagreed: not compared
  std::int64_t elements_nonfinite = 0;  // analytic NaN/inf behind a NaN/inf intermediate
  std::int64_t mismatches = 0;
  std::string summary() const;
};

struct GradCheckOptions {
  std::int64_t max_primal_elements = 64;  // all primals together
  std::int64_t max_node_elements = 4096;  // the largest node
  // Test hook: applied to each analytic gradient element before the comparison, so a test
  // can show that a wrong rule is caught without touching a rule.
  std::function<double(double)> corrupt_analytic;
  // Where vkt::grad runs (the primals, leaves and loss weights made there); the finite
  // differences always run on the cpu. Null: the cpu.
  Backend* device = nullptr;
};

// Checks p's gradients; the first mismatch, or nothing (also when p is skipped: see stats).
std::optional<GradMismatch> check_gradients(const Program& p, GradStats& stats,
                                            const GradCheckOptions& options = {});

// The smallest program found by removing nodes (with their dependents) from p while
// check_gradients still reports a mismatch; p when it reports none.
Program shrink_gradient_mismatch(const Program& p, const GradCheckOptions& options = {});

}  // namespace vkt::fuzz
