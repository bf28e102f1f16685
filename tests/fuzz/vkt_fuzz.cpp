// vkt_fuzz: differential fuzzing of the Vulkan backend against the cpu backend. Random
// programs (tests/fuzz/generate.cpp) run on both; any difference beyond the op's tolerance,
// or a different error class, is printed with the seed and a shrunk program listing, and
// the exit status is 1. Deterministic: program i of a run is made from (seed, i), and
// threads change only the speed (tests/fuzz/campaign.h). Ends with a breakdown of the time.
//   vkt_fuzz --seed 1 --seconds 100       (the ctest entry)
//   vkt_fuzz --seed 7 --first 1234 --programs 1   (replays one program)
//   vkt_fuzz --seed 3 --programs 5000 --set conv_winograd=1   (another side of a rule)
#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>

#include "common/settings.h"
#include "fuzz/campaign.h"
#include "fuzz/check.h"

int main(int argc, char** argv) {
  using namespace vkt::fuzz;
  CLI::App app{"vkt_fuzz: random op programs on the Vulkan backend against the cpu"};
  CampaignOptions o;
  o.threads = default_threads();
  bool no_shrink = false;
  std::string sets;
  app.add_option("--seed", o.seed, "run seed (program i is made from seed and i)");
  app.add_option("--first", o.first, "index of the first program");
  app.add_option("--programs", o.programs, "stop after this many programs (0: no limit)");
  app.add_option("--seconds", o.seconds, "stop after this many seconds (0: no limit)");
  app.add_option("--max-failures", o.max_failures, "stop after this many mismatching programs");
  app.add_option("--threads", o.threads,
                 "programs run at once on the shared device (default: the hardware's, at most 16)")
      ->check(CLI::Range(1, 256));
  app.add_option("--progress", o.progress_s, "print a progress line this often, in seconds");
  app.add_option("--compiled-every", o.compiled_every,
                 "also run every Nth program as one vkt::compile function against its eager run "
                 "on the device (0: never)");
  app.add_flag("--no-shrink", no_shrink, "print failing programs as generated");
  app.add_flag("--verbose", o.verbose, "list every program");
  app.add_option("--set", sets,
                 "library overrides for the whole run, 'name=value,...' (src/common/settings.h), "
                 "e.g. conv_winograd=1: every conv it applies to takes Winograd's algorithms; a "
                 "mismatch replays with the same --set");
  CLI11_PARSE(app, argc, argv);
  std::optional<vkt::OverrideScope> override_scope;
  try {
    if (!sets.empty()) override_scope.emplace(sets);
  } catch (const vkt::Error& e) {
    std::cerr << "vkt_fuzz: --set: " << e.what() << "\n";
    return 2;
  }
  if (o.programs == 0 && o.seconds <= 0) o.programs = 100;
  o.shrink = !no_shrink;

  vkt::Backend& gpu = vkt::vulkan();
  std::cout << "vkt_fuzz: device " << gpu.name()
            << "; flushes f32 subnormals: " << (flushes(vkt::DType::f32) ? "yes" : "no")
            << ", f64: " << (flushes(vkt::DType::f64) ? "yes" : "no") << "; " << o.threads
            << " threads" << (sets.empty() ? "" : "; overrides " + sets) << "\n";
  // Whether this run starts from pipelines a previous one stored (VKT_CACHE_DIR).
  for (const auto& [key, value] : gpu.properties()) {
    if (key == "pipeline_cache") std::cout << "vkt_fuzz: pipeline cache " << value << "\n";
  }
  const CampaignSummary s = run_campaign(o, std::cout);
  std::cout << "\nvkt_fuzz: " << s.programs << " programs, " << s.nodes << " nodes (" << s.errors
            << " errors compared), " << s.op_counts.size() << " distinct ops, " << s.wall_s
            << " s; " << s.failing.size() << " mismatching programs\n"
            << breakdown(s);
  if (o.verbose) {
    for (const auto& [op, count] : s.op_counts) std::cout << "  " << op << " " << count << "\n";
  }
  return s.failing.empty() ? 0 : 1;
}
