// Compile fuzzing: a generated program run eagerly on one backend and as one vkt::compile
// function on the same backend; compiled results must equal eager ones bit for bit
// (docs/compile.md), on the first call (trace, plan, kernels) and on a replay.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "fuzz/program.h"

namespace vkt::fuzz {

struct CompileMismatch {
  std::uint64_t seed = 0;
  int node = -1;        // the program node whose compiled result differs (-1: the call threw)
  std::string op;       // its op, or the op being traced when the call threw
  std::string what;     // the first differing element, or the error
  std::string listing;  // the program with the eager results' shapes
  std::string plan;     // the compiled function's plan (groups and steps)
  std::string describe() const;
};

struct CompileStats {
  std::int64_t programs = 0;
  std::int64_t compiled = 0;  // traced, run twice and compared
  std::int64_t outputs_compared = 0;
  std::int64_t traced_ops = 0;                  // op nodes inside the compiled functions
  std::int64_t traced_creation = 0;             // full, iota and eye made inside them
  std::map<std::string, std::int64_t> skipped;  // reason -> programs ("no_ops")
  std::int64_t mismatches = 0;
  CompileStats& operator+=(const CompileStats& o);
  std::string summary() const;
};

struct CompileCheckOptions {
  // Test hook: applied to each compiled result's bytes before the comparison, so a test can
  // show that a wrong kernel would be caught without breaking one.
  std::function<void(std::vector<std::byte>&)> corrupt_compiled;
};

// "" when `got` is `want` (dtype, shape and every byte), else where they first differ. A NaN
// matches any NaN (docs/compile.md: a fused kernel keeps NaNs, not their sign or payload:
// a 16-bit float passes through f32 there), per part of a complex element.
std::string compiled_difference(const Tensor& want, const Tensor& got,
                                const CompileCheckOptions& options = {});

// Runs p's nodes eagerly on `where`, then the nodes that ran (leaves as arguments, creation
// ops and every op traced) as one compiled function on `where`, called twice; the first
// difference, or nothing.
std::optional<CompileMismatch> check_compiled(const Program& p, Backend& where, CompileStats& stats,
                                              const CompileCheckOptions& options = {});

// check_compiled over programs 0 .. count-1 of `seed` on `where`: their summed stats; each
// of the first `reports` mismatching programs goes to `report` (its index, and the shrunk
// program's mismatch described).
CompileStats check_compiled_programs(
    std::uint64_t seed, std::int64_t count, Backend& where,
    const std::function<void(std::int64_t, const std::string&)>& report, int reports = 3);

// The smallest program found by removing nodes (with their dependents) from p while
// check_compiled still reports a mismatch at the same op; p when it reports none.
Program shrink_compile_mismatch(const Program& p, Backend& where,
                                const CompileCheckOptions& options = {});

}  // namespace vkt::fuzz
