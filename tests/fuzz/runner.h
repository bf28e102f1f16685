// Runs a fuzz program on the Vulkan backend and on the cpu and finds the first node whose
// results (or errors) differ; shrinks a failing program greedily.
#pragma once

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

// `cpu_results` (optional) receives the cpu's result of every node (undefined: it threw).
std::optional<Mismatch> first_mismatch(const Program& p, std::vector<Tensor>* cpu_results = nullptr);

// Drops nodes, shrinks leaf shapes and replaces the failing node's inputs by constants
// while a mismatch at an op of the same name stays; at most `attempts` reruns.
Program shrink(Program p, const Mismatch& m, int attempts = 300);

}  // namespace vkt::fuzz
