#include "fuzz/campaign.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <utility>

#include "fuzz/generate.h"
#include "fuzz/rng.h"
#include "vulkan/runtime/validation.h"

namespace vkt::fuzz {
namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t ns_since(Clock::time_point start) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
}

// One program's outcome, waiting to be accounted for in index order.
struct Finished {
  std::size_t nodes = 0;
  std::uint64_t errors = 0;
  std::vector<std::string> ops;
  bool failed = false;
  std::string report;  // the mismatch report and the --verbose listing
  CompileStats compiled;
};

// The compile check of program i (compile_check.h), reported as a mismatch of its own.
void check_program_compiled(const CampaignOptions& o, std::uint64_t i, const Program& p,
                            Finished& f, std::ostringstream& text, CampaignTimes& times) {
  const Clock::time_point start = Clock::now();
  const std::uint64_t messages = vk::validation_message_count();
  Backend& gpu = vulkan();
  std::optional<CompileMismatch> m = check_compiled(p, gpu, f.compiled);
  gpu.synchronize();
  if (!m && vk::validation_message_count() != messages) {
    m = CompileMismatch{p.seed, -1, "compile", "the validation layer reported messages", "", ""};
    ++f.compiled.mismatches;
  }
  times.compiled_ns += ns_since(start);
  if (!m) return;
  f.failed = true;
  text << "\nCOMPILED MISMATCH: seed " << o.seed << ", program " << i
       << " (replay: vkt_fuzz --seed " << o.seed << " --first " << i
       << " --programs 1 --threads 1 --compiled-every 1)\n"
       << m->describe();
  if (o.shrink) {
    const Clock::time_point shrink_start = Clock::now();
    CompileStats scratch;
    const auto small = check_compiled(shrink_compile_mismatch(p, gpu), gpu, scratch);
    times.shrink_ns += ns_since(shrink_start);
    if (small) text << "\nshrunk: " << small->describe();
  }
}

Finished run_program(const CampaignOptions& o, std::uint64_t i, CampaignTimes& times) {
  Finished f;
  std::ostringstream text;
  try {
    const Clock::time_point start = Clock::now();
    const Program p = generate(mix(o.seed, i));
    times.generate_ns += ns_since(start);
    std::vector<Tensor> results;
    const std::optional<Mismatch> m = first_mismatch(p, &results, &times.run);
    f.nodes = p.nodes.size();
    for (std::size_t k = 0; k < p.nodes.size(); ++k) {
      f.ops.push_back(p.nodes[k].op);
      f.errors += results[k].defined() ? 0 : 1;
    }
    if (o.verbose) text << "program " << i << ":\n" << listing(p, results);
    if (!m && o.compiled_every != 0 && i % o.compiled_every == 0) {
      check_program_compiled(o, i, p, f, text, times);
    }
    if (m) {
      f.failed = true;
      text << "\nMISMATCH: seed " << o.seed << ", program " << i << " (replay: vkt_fuzz --seed "
           << o.seed << " --first " << i << " --programs 1 --threads 1)\n"
           << "  at %" << m->node << " " << m->op << ": " << m->what << "\n"
           << "  program as generated (" << p.nodes.size() << " nodes):\n"
           << listing(p, results);
      if (o.shrink) {
        const Clock::time_point shrink_start = Clock::now();
        const Program s = shrink(p, *m);
        std::vector<Tensor> sr;
        const auto sm = first_mismatch(s, &sr);
        times.shrink_ns += ns_since(shrink_start);
        text << "  shrunk (" << s.nodes.size() << " nodes)"
             << (sm ? ": at %" + std::to_string(sm->node) + " " + sm->op + ": " + sm->what
                    : std::string(": no longer fails"))
             << "\n"
             << listing(s, sr);
      }
    }
  } catch (const std::exception& e) {  // the fuzzer's own failure: reported, not fatal
    f.failed = true;
    text << "\nFUZZER ERROR: seed " << o.seed << ", program " << i << ": " << e.what() << "\n";
  }
  f.report = text.str();
  return f;
}

// Programs finish in any order; they are accounted for (counted, reported, checked against
// max_failures) in index order, under the mutex.
class InOrder {
 public:
  InOrder(const CampaignOptions& o, CampaignSummary& s, std::ostream& out)
      : options_(o),
        summary_(s),
        out_(out),
        next_(o.first),
        start_(Clock::now()),
        last_progress_(start_) {}

  // Adds program i's outcome; false once the run must stop (max_failures reached).
  bool add(std::uint64_t i, Finished f, const CampaignTimes& times) {
    std::lock_guard lock(mutex_);
    add_times(times);
    pending_.emplace(i, std::move(f));
    while (!stopped_) {
      auto it = pending_.find(next_);
      if (it == pending_.end()) break;
      account(it->second);
      pending_.erase(it);
      ++next_;
    }
    progress();
    return !stopped_;
  }

 private:
  void add_times(const CampaignTimes& t) {
    summary_.times.programs += 1;
    summary_.times.generate_ns += t.generate_ns;
    summary_.times.shrink_ns += t.shrink_ns;
    summary_.times.compiled_ns += t.compiled_ns;
    summary_.times.run += t.run;
  }
  void account(const Finished& f) {
    ++summary_.programs;
    summary_.nodes += f.nodes;
    summary_.errors += f.errors;
    for (const std::string& op : f.ops) ++summary_.op_counts[op];
    summary_.compiled += f.compiled;
    out_ << f.report;
    if (!f.failed) return;
    out_.flush();
    summary_.failing.push_back(next_);
    stopped_ = static_cast<int>(summary_.failing.size()) >= options_.max_failures;
  }

  void progress() {
    if (options_.progress_s <= 0) return;
    const Clock::time_point now = Clock::now();
    if (std::chrono::duration<double>(now - last_progress_).count() < options_.progress_s) return;
    last_progress_ = now;
    out_ << "vkt_fuzz: progress: " << summary_.programs << " programs, " << summary_.failing.size()
         << " mismatching, " << std::chrono::duration<double>(now - start_).count() << " s"
         << std::endl;
  }

  const CampaignOptions& options_;
  CampaignSummary& summary_;
  std::ostream& out_;
  std::mutex mutex_;
  std::map<std::uint64_t, Finished> pending_;
  std::uint64_t next_;  // the next index to account for
  bool stopped_ = false;
  Clock::time_point start_, last_progress_;
};

}  // namespace

CampaignSummary run_campaign(const CampaignOptions& o, std::ostream& out) {
  CampaignSummary summary;
  summary.threads = std::max(1, o.threads);
  const LedgerScope counts;
  const Clock::time_point start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  InOrder in_order(o, summary, out);
  std::atomic<std::uint64_t> next{o.first};
  std::atomic<bool> stop{false};
  // Each thread claims the next index after checking the clock, so every claimed program
  // runs and the claimed indices have no gaps.
  auto work = [&] {
    while (!stop.load()) {
      if (o.seconds > 0 && elapsed() >= o.seconds) return;
      const std::uint64_t i = next.fetch_add(1);
      if (o.programs != 0 && i >= o.first + o.programs) return;
      CampaignTimes times;
      Finished f = run_program(o, i, times);
      if (!in_order.add(i, std::move(f), times)) stop.store(true);
    }
  };
  if (summary.threads == 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < summary.threads; ++t) pool.emplace_back(work);
    for (std::thread& th : pool) th.join();
  }
  summary.wall_s = elapsed();
  summary.ledger = counts.delta();
  return summary;
}

std::string breakdown(const CampaignSummary& s) {
  const CampaignTimes& t = s.times;
  const double programs = static_cast<double>(std::max<std::uint64_t>(t.programs, 1));
  const double thread_ns = s.wall_s * 1e9 * s.threads;
  char line[256];
  std::ostringstream text;
  std::snprintf(line, sizeof line, "vkt_fuzz breakdown: %.1f programs/s (%d threads, %.1f s)\n",
                static_cast<double>(s.programs) / std::max(s.wall_s, 1e-9), s.threads, s.wall_s);
  text << line << "  thread time per program, ms (share of all threads' time):";
  const std::pair<const char*, std::uint64_t> phases[] = {
      {"generate", t.generate_ns},        {"cpu", t.run.cpu_ns},
      {"vulkan record", t.run.record_ns}, {"vulkan wait", t.run.wait_ns},
      {"read back", t.run.read_ns},       {"compare", t.run.compare_ns},
      {"compiled", t.compiled_ns},        {"shrink", t.shrink_ns}};
  std::uint64_t total = 0;
  for (const auto& phase : phases) {
    total += phase.second;
    std::snprintf(line, sizeof line, " %s %.3f (%.0f%%);", phase.first,
                  static_cast<double>(phase.second) / 1e6 / programs,
                  100.0 * static_cast<double>(phase.second) / std::max(thread_ns, 1.0));
    text << line;
  }
  std::snprintf(line, sizeof line, " all %.3f\n", static_cast<double>(total) / 1e6 / programs);
  text << line;
  const LedgerCounts& l = s.ledger;
  auto per = [&](std::uint64_t n) { return static_cast<double>(n) / programs; };
  std::snprintf(line, sizeof line,
                "  ledger per program: submits %.1f, waits %.1f, dispatches %.1f, uploads %.1f, "
                "downloads %.1f, allocations %.1f, fallbacks %.1f\n",
                per(l.submits), per(l.waits), per(l.dispatches), per(l.uploads), per(l.downloads),
                per(l.allocations), per(l.fallbacks));
  text << line;
  std::snprintf(line, sizeof line,
                "  ledger over the run: submits %llu, pipelines_created %llu, "
                "pipeline_create_us %llu (%.3f ms per program), kernel_compiles %llu "
                "kernel_compile_us %llu, transfers %llu up %llu down\n",
                static_cast<unsigned long long>(l.submits),
                static_cast<unsigned long long>(l.pipelines_created),
                static_cast<unsigned long long>(l.pipeline_create_us),
                static_cast<double>(l.pipeline_create_us) / 1e3 / programs,
                static_cast<unsigned long long>(l.kernel_compiles),
                static_cast<unsigned long long>(l.kernel_compile_us),
                static_cast<unsigned long long>(l.uploads),
                static_cast<unsigned long long>(l.downloads));
  text << line;
  if (s.compiled.programs > 0) text << "  " << s.compiled.summary() << "\n";
  return text.str();
}

int default_threads() {
  const unsigned hw = std::thread::hardware_concurrency();
  return static_cast<int>(std::clamp(hw, 1u, 16u));
}

}  // namespace vkt::fuzz
