// Runs a fuzz program on the Vulkan backend and on the cpu and finds the first node whose
// results (or errors) differ; shrinks a failing program greedily.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/program.h"

namespace vkt::fuzz {

struct Mismatch {
  int node = -1;
  std::string op;
  std::string what;
};

// Where one program's time went (steady_clock nanoseconds), summed by callers.
struct PhaseTimes {
  std::uint64_t cpu_ns = 0;      // every node on the cpu (the reference)
  std::uint64_t record_ns = 0;   // every node given to the device (recorded, not waited for)
  std::uint64_t wait_ns = 0;     // the device finishing the program's work (one synchronize)
  std::uint64_t read_ns = 0;     // every device result read back once
  std::uint64_t compare_ns = 0;  // the checks, with reruns on the cpu's inputs

  PhaseTimes& operator+=(const PhaseTimes& o);
};

// `cpu_results` (optional) receives the cpu's result of every node (undefined: it threw);
// `times` (optional) gets this run's phase times added.
std::optional<Mismatch> first_mismatch(const Program& p, std::vector<Tensor>* cpu_results = nullptr,
                                       PhaseTimes* times = nullptr);

// Drops nodes, shrinks leaf shapes and replaces the failing node's inputs by constants
// while a mismatch at an op of the same name stays; at most `attempts` reruns.
Program shrink(Program p, const Mismatch& m, int attempts = 300);

}  // namespace vkt::fuzz
