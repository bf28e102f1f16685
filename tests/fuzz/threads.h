// Runs fuzz programs from several threads at once on one shared backend and compares every
// node's outcome with a single-threaded replay of the same program (the thread-safety
// contract in include/vkt/backend.h). Used by the unit suite (cpu, also under TSan) and
// the conformance suite (Vulkan).
#pragma once

#include <string>
#include <thread>
#include <vector>

#include "fuzz/generate.h"
#include "fuzz/replay.h"
#include "fuzz/rng.h"

namespace vkt::fuzz {

// The first difference found, or an empty string. Each of `threads` threads runs its own
// programs, `rounds` times, all starting together.
inline std::string threads_agree(Backend& b, int threads, int rounds, std::uint64_t seed) {
  std::vector<std::vector<Program>> programs(static_cast<std::size_t>(threads));
  std::vector<std::vector<std::vector<NodeOutcome>>> expected(programs.size());
  for (std::size_t t = 0; t < programs.size(); ++t) {
    for (int r = 0; r < rounds; ++r) {
      programs[t].push_back(generate(mix(seed, t * 1000 + static_cast<std::uint64_t>(r))));
      expected[t].push_back(replay(programs[t].back(), b));
    }
  }
  std::vector<std::string> failures(programs.size());
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < programs.size(); ++t) {
    pool.emplace_back([&, t] {
      for (std::size_t r = 0; r < programs[t].size(); ++r) {
        const std::vector<NodeOutcome> got = replay(programs[t][r], b);
        for (std::size_t i = 0; i < got.size(); ++i) {
          if (got[i] == expected[t][r][i]) continue;
          failures[t] = "thread " + std::to_string(t) + ", program " + std::to_string(r) +
                        ", node %" + std::to_string(i) + " " + programs[t][r].nodes[i].op +
                        " differs from the single-threaded run (error '" + got[i].error + "' vs '" +
                        expected[t][r][i].error + "')\n" + listing(programs[t][r], {});
          return;
        }
      }
    });
  }
  for (std::thread& th : pool) th.join();
  for (const std::string& f : failures) {
    if (!f.empty()) return f;
  }
  return {};
}

}  // namespace vkt::fuzz
