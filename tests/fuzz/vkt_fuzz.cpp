// vkt_fuzz: differential fuzzing of the Vulkan backend against the cpu backend. Random
// programs (tests/fuzz/generate.cpp) run on both; any difference beyond the op's tolerance,
// or a different error class, is printed with the seed and a shrunk program listing, and
// the exit status is 1. Deterministic: program i of a run is made from (seed, i).
//   vkt_fuzz --seed 1 --seconds 100       (the ctest entry)
//   vkt_fuzz --seed 7 --first 1234 --programs 1   (replays one program)
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>

#include "fuzz/check.h"
#include "fuzz/generate.h"
#include "fuzz/rng.h"
#include "fuzz/runner.h"

int main(int argc, char** argv) {
  using namespace vkt::fuzz;
  CLI::App app{"vkt_fuzz: random op programs on the Vulkan backend against the cpu"};
  std::uint64_t seed = 1, first = 0, programs = 0;
  double seconds = 0;
  int max_failures = 3;
  bool no_shrink = false, verbose = false;
  app.add_option("--seed", seed, "run seed (program i is made from seed and i)");
  app.add_option("--first", first, "index of the first program");
  app.add_option("--programs", programs, "stop after this many programs (0: no limit)");
  app.add_option("--seconds", seconds, "stop after this many seconds (0: no limit)");
  app.add_option("--max-failures", max_failures, "stop after this many mismatching programs");
  app.add_flag("--no-shrink", no_shrink, "print failing programs as generated");
  app.add_flag("--verbose", verbose, "list every program");
  CLI11_PARSE(app, argc, argv);
  if (programs == 0 && seconds <= 0) programs = 100;

  vkt::Backend& gpu = vkt::vulkan();
  std::cout << "vkt_fuzz: device " << gpu.name() << "; flushes f32 subnormals: "
            << (flushes(vkt::DType::f32) ? "yes" : "no")
            << ", f64: " << (flushes(vkt::DType::f64) ? "yes" : "no") << "\n";
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  std::map<std::string, std::uint64_t> op_counts;
  std::uint64_t ran = 0, nodes = 0, errors = 0;
  int failures = 0;
  for (std::uint64_t i = first; programs == 0 || i < first + programs; ++i) {
    if (seconds > 0 && elapsed() >= seconds) break;
    const Program p = generate(mix(seed, i));
    std::vector<vkt::Tensor> results;
    const auto m = first_mismatch(p, &results);
    ++ran;
    nodes += p.nodes.size();
    for (std::size_t k = 0; k < p.nodes.size(); ++k) {
      ++op_counts[p.nodes[k].op];
      errors += results[k].defined() ? 0 : 1;
    }
    if (verbose) std::cout << "program " << i << ":\n" << listing(p, results);
    if (!m) continue;
    ++failures;
    std::cout << "\nMISMATCH: seed " << seed << ", program " << i << " (replay: vkt_fuzz --seed "
              << seed << " --first " << i << " --programs 1)\n"
              << "  at %" << m->node << " " << m->op << ": " << m->what << "\n"
              << "  program as generated (" << p.nodes.size() << " nodes):\n"
              << listing(p, results);
    if (!no_shrink) {
      const Program s = shrink(p, *m);
      std::vector<vkt::Tensor> sr;
      const auto sm = first_mismatch(s, &sr);
      std::cout << "  shrunk (" << s.nodes.size() << " nodes)"
                << (sm ? ": at %" + std::to_string(sm->node) + " " + sm->op + ": " + sm->what : std::string(": no longer fails"))
                << "\n" << listing(s, sr);
    }
    std::cout.flush();
    if (failures >= max_failures) break;
  }
  std::cout << "\nvkt_fuzz: " << ran << " programs, " << nodes << " nodes (" << errors
            << " errors compared), " << op_counts.size() << " distinct ops, " << elapsed()
            << " s; " << failures << " mismatching programs\n";
  if (verbose) {
    for (const auto& [op, count] : op_counts) std::cout << "  " << op << " " << count << "\n";
  }
  return failures == 0 ? 0 : 1;
}
