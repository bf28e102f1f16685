// vkt-bench: the consumer-aware benchmark suite. Bad arguments exit with code 2 and leave
// no file behind.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "cases.h"
#include "commands.h"
#include "common/settings.h"
#include "consumer.h"
#include "conv_bench.h"
#include "device.h"
#include "fft_bench.h"
#include "suite.h"
#include "train_bench.h"

namespace {

// Sizes are element counts (multiples of 16, >= 16), or for matmul square dimensions (>= 1).
std::vector<std::int64_t> parse_sizes(const std::string& list, bool matmul_dims = false) {
  std::vector<std::int64_t> sizes;
  std::size_t pos = 0;
  while (pos <= list.size()) {
    const std::size_t comma = std::min(list.find(',', pos), list.size());
    const std::string item = list.substr(pos, comma - pos);
    std::size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    const bool ok = matmul_dims ? v >= 1 : (v >= 16 && v % 16 == 0);
    if (item.empty() || used != item.size() || !ok) {
      throw CLI::ValidationError(
          "--sizes", "bad size '" + item + "': " +
                         (matmul_dims ? "matmul sizes are integers >= 1"
                                      : "sizes are integers >= 16 and multiples of 16"));
    }
    sizes.push_back(v);
    pos = comma + 1;
  }
  return sizes;
}

std::vector<std::string> parse_ops(const std::string& list,
                                   const std::vector<std::string>& fallback,
                                   const std::string& also_known = "") {
  if (list.empty()) return fallback;
  const std::vector<std::string> known = vkt::bench::case_ops();
  std::set<std::string> known_set(known.begin(), known.end());
  if (!also_known.empty()) known_set.insert(also_known);
  std::vector<std::string> ops;
  std::size_t pos = 0;
  while (pos <= list.size()) {
    const std::size_t comma = std::min(list.find(',', pos), list.size());
    const std::string op = list.substr(pos, comma - pos);
    if (op == "all") {
      ops.insert(ops.end(), known.begin(), known.end());
    } else if (known_set.count(op) == 0) {
      throw CLI::ValidationError(
          "--ops", "unknown op '" + op + "' (vkt-bench list-ops prints the known ones)");
    } else {
      ops.push_back(op);
    }
    pos = comma + 1;
  }
  return ops;
}

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> items;
  std::size_t pos = 0;
  while (pos < list.size()) {
    const std::size_t comma = std::min(list.find(',', pos), list.size());
    if (comma > pos) items.push_back(list.substr(pos, comma - pos));
    pos = comma + 1;
  }
  return items;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"vkt-bench: what a vktensor op costs the program that consumes its result"};
  app.require_subcommand(1);
  std::string override_spec;
  app.add_option("--override", override_spec,
                 "force the other side of a rule for this run: name=value,... (the fields of "
                 "vkt::Overrides, src/common/settings.h: dot_kernel=reg, reduce_vec4=1, ...)");

  std::string ops_list, sizes_list = "1024,16384,262144,1048576", out;
  int reps = 30, device = -1;
  auto* consumer = app.add_subcommand(
      "consumer",
      "columns A..E per (op, dtype, size): cpu, cpu+read, vulkan, vulkan+read, legacy path");
  consumer->add_option("--ops", ops_list,
                       "comma-separated ops (default: the seed's seven; 'all' for every op)");
  consumer->add_option("--sizes", sizes_list, "comma-separated sizes n")->capture_default_str();
  consumer->add_option("--reps", reps, "minimum timed repetitions per column (after 2 warm-ups)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  consumer->add_option("--out", out, "CSV path (default bench_results/<machine>/consumer.csv)");
  consumer->add_option("--device", device,
                       "Vulkan device index (default: VKT_DEVICE or the best device)");
  consumer->add_flag_callback(
      "--cpu-only", [&] { device = vkt::bench::kNoDevice; },
      "columns A and B only (no device, no to_vector columns)");
  bool consumer_device_only = false;
  consumer->add_flag("--device-only", consumer_device_only,
                     "columns C, D and D_vec only (no cpu or legacy columns)");

  // ops, shapes, matmul, chain, overhead, firstcall share their options.
  std::map<std::string, CLI::App*> suites;
  std::string suite_sizes;
  for (const auto& [name, help] : std::vector<std::pair<std::string, std::string>>{
           {"ops", "every op: op-only time on cpu and vulkan, speedup = cpu/vulkan, path"},
           {"shapes",
            "speed-up vs size (256..16M) for compute, reduction and movement families, with "
            "crossover"},
           {"matmul",
            "square matmul 16..4096 (--sizes for more), f32 and f64 (--dtypes for f16, bf16, c64, "
            "c128; complex GFLOP/s count 8 real flops per multiply-add): "
            "ms, GFLOP/s and device time, inputs resident, upload excluded; --variants and "
            "--rounds compare kernels and operand placements in one process"},
           {"chain", "k = 1, 4, 16 elementwise ops on resident data, then one read"},
           {"overhead",
            "an op's fixed cost on the device (default: seed ops and add, exp, sum, "
            "transpose at 1024): host recording, device time, and the submit and wait; "
            "then chain1, chain4, chain16 (16384 f32, the whole chain's recording; --ops "
            "chain), and submit_wait, an empty batch's round trip"},
           {"firstcall",
            "each op's first call in this process (default: exp, add at 1024; inputs resident), "
            "its warm calls' median and the pipelines the first call created; run with the "
            "disk caches off, one op per process, for the cold first call "
            "(scripts/first-call-gpu.sh)"}}) {
    auto* s = app.add_subcommand(name, help);
    s->add_option("--ops", ops_list, "comma-separated ops (default: the bench's set)");
    s->add_option("--sizes", suite_sizes, "comma-separated sizes (default: the bench's grid)");
    s->add_option("--reps", reps, "minimum timed repetitions")->check(CLI::Range(1, 100000));
    s->add_option("--out", out, "CSV path (default bench_results/<machine>/<bench>.csv)");
    s->add_option("--device", device, "Vulkan device index");
    s->add_flag_callback(
        "--cpu-only", [&] { device = vkt::bench::kNoDevice; }, "time the cpu backend only");
    suites[name] = s;
  }

  std::string matmul_dtypes = "f32,f64", matmul_variants;
  int matmul_rounds = 1;
  std::int64_t matmul_cpu_max = 4096;
  {
    auto* m = suites.at("matmul");
    m->add_option("--dtypes", matmul_dtypes, "comma-separated: f32, f64, f16, bf16, c64, c128")
        ->capture_default_str();
    m->add_option(
        "--variants", matmul_variants,
        "'name:override=value,override=value;name2:...': each variant forces these library "
        "overrides (src/common/settings.h: dot_kernel, dot_tile, dot_vec, coopmat, coopmat_api, "
        "coopmat_tile, block_mb, ...) for its rows; default: one variant, the library's rules");
    m->add_option("--rounds", matmul_rounds,
                  "rounds per (variant, dtype, n), each with freshly uploaded operands (the "
                  "earlier rounds' kept alive, so each round's live elsewhere)")
        ->check(CLI::Range(1, 100));
    m->add_option("--cpu-max", matmul_cpu_max, "largest n with a cpu column")
        ->capture_default_str();
  }

  std::string chain_rows;
  suites.at("chain")->add_option(
      "--rows", chain_rows,
      "the row kernel's variant for softmax and layernorm, 'key=value,...' "
      "(src/vulkan/compile/compiled_rows_variant.h; the CSV's compile_rows)");

  vkt::bench::ConvBenchOptions conv_opts;
  std::string conv_dtypes = "f32,f16", conv_batches = "32", conv_passes = "forward";
  auto* conv = app.add_subcommand(
      "conv",
      "a ResNet-style 3x3 conv layer (batch x channels x hw x hw, pad 1; default 32 x 64 x 56 "
      "x 56), columns A..E, device time and GFLOP/s");
  conv->add_option("--dtypes", conv_dtypes, "comma-separated: f32, f16, bf16, f64")
      ->capture_default_str();
  conv->add_option("--batches", conv_batches, "comma-separated batch sizes")->capture_default_str();
  conv->add_option("--channels", conv_opts.channels, "input and output channels")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  conv->add_option("--hw", conv_opts.hw, "height and width")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  conv->add_option("--passes", conv_passes,
                   "comma-separated: forward, input_cotangent, kernel_cotangent (the layer's "
                   "backward convs: vkt::vjp's pullback from the output's cotangent)")
      ->capture_default_str();
  conv->add_option("--reps", conv_opts.min_reps, "minimum timed repetitions per column")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  conv->add_option("--out", conv_opts.out, "CSV path (default bench_results/<machine>/conv.csv)");
  conv->add_option("--device", conv_opts.device, "Vulkan device index");
  conv->add_flag_callback(
      "--cpu-only", [&] { conv_opts.device = vkt::bench::kNoDevice; }, "columns A and B only");
  conv->add_flag("--device-only", conv_opts.device_only,
                 "columns C and D only (tuning runs, with --set)");
  conv->add_flag("--gemm-alone", conv_opts.gemm_alone,
                 "also time the im2col path's GEMM alone: a dot with its M, N, K, batch and "
                 "layouts (rows with path gemm-alone; columns C and D)");
  conv->add_option("--set", conv_opts.overrides,
                   "library overrides for the run, 'name=value,...' (src/common/settings.h), "
                   "e.g. conv_gemm=1 (im2col + the GEMM) or conv_gemm=0 (the implicit GEMM)");

  vkt::bench::FftBenchOptions fft_opts;
  std::string fft_dtypes = "c64", fft_sizes = "4096,65536,1048576,16777216";
  auto* fft = app.add_subcommand(
      "fft",
      "fft along the last axis of {batch, n} complex tensors (default one line of 4K, "
      "64K, 1M and 16M c64 points), columns A..E, device time and GFLOP/s");
  fft->add_option("--dtypes", fft_dtypes, "comma-separated: c64, c128")->capture_default_str();
  fft->add_option("--sizes", fft_sizes, "comma-separated line lengths")->capture_default_str();
  fft->add_option("--batch", fft_opts.batch, "lines per tensor")
      ->check(CLI::Range(1, 1 << 24))
      ->capture_default_str();
  fft->add_option("--reps", fft_opts.min_reps, "minimum timed repetitions per column")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  fft->add_option("--out", fft_opts.out, "CSV path (default bench_results/<machine>/fft.csv)");
  fft->add_option("--device", fft_opts.device, "Vulkan device index");
  fft->add_flag_callback(
      "--cpu-only", [&] { fft_opts.device = vkt::bench::kNoDevice; }, "columns A and B only");
  fft->add_flag("--device-only", fft_opts.device_only, "columns C and D only");

  vkt::bench::TrainBenchOptions train_opts;
  std::string train_cases = "mlp,resnet_block";
  auto* train = app.add_subcommand(
      "train",
      "one training step (forward, backward, SGD update) of an MLP 784-1024-1024-10 (batch 256) "
      "and a ResNet basic block (64 channels, 56x56, batch 32), f32, eager and compiled: the "
      "step's time with the loss read, its dispatches and the device's peak memory");
  train->add_option("--cases", train_cases, "comma-separated: mlp, resnet_block")
      ->capture_default_str();
  train->add_option("--reps", train_opts.min_reps, "minimum timed steps per mode")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  train->add_option("--out", train_opts.out,
                    "CSV path (default bench_results/<machine>/train.csv)");
  train->add_option("--profile-out", train_opts.profile_out,
                    "also write each op's device time in a step (median of --profile-steps) "
                    "to this CSV");
  train->add_option("--profile-steps", train_opts.profile_steps, "steps the profile takes")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  train->add_option("--device", train_opts.device, "Vulkan device index");
  train->add_flag_callback(
      "--cpu-only", [&] { train_opts.device = vkt::bench::kNoDevice; }, "the cpu backend");

  auto* info = app.add_subcommand("info", "devices, memory heaps and types, limits, features");
  info->add_option("--device", device, "Vulkan device index");

  std::string coverage_out = "docs/coverage.md";
  auto* coverage = app.add_subcommand(
      "coverage", "op x dtype table: accepted on cpu, native or fallback on vulkan");
  coverage->add_option("--out", coverage_out, "markdown path")->capture_default_str();
  coverage->add_option("--device", device, "Vulkan device index");
  coverage->add_flag_callback(
      "--cpu-only", [&] { device = vkt::bench::kNoDevice; }, "cpu column only");
  std::vector<std::string> coverage_reports;
  coverage
      ->add_option("--tests-json", coverage_reports,
                   "googletest JSON reports (--gtest_output=json:FILE) the Nx table counts from")
      ->delimiter(',');
  bool coverage_list_tests = false;
  coverage->add_flag("--list-tests", coverage_list_tests,
                     "print the tests the Nx table links and exit");

  auto* list_ops = app.add_subcommand("list-ops", "print the ops the benches know");

  std::vector<std::string> compare_files;
  std::string compare_column = "D_us";
  auto* compare = app.add_subcommand(
      "compare", "join several CSVs on (op, dtype, size); print a markdown table of one column");
  compare->add_option("files", compare_files, "CSV files")->required()->check(CLI::ExistingFile);
  compare->add_option("--column", compare_column, "column or ratio to show")->capture_default_str();
  compare->add_option("--out", out, "also write the table to this markdown file");

  try {
    app.parse(argc, argv);
    std::optional<vkt::OverrideScope> forced;
    if (!override_spec.empty()) forced.emplace(override_spec);
    if (consumer->parsed()) {
      vkt::bench::ConsumerOptions o;
      o.ops = parse_ops(ops_list, vkt::bench::seed_ops());
      o.sizes = parse_sizes(sizes_list);
      o.min_reps = reps;
      o.device = device;
      o.device_only = consumer_device_only;
      o.out = out;
      vkt::bench::run_consumer(o);
    } else if (conv->parsed()) {
      // Checked before any work, so a bad list leaves no file and costs nothing.
      conv_opts.dtypes = split_list(conv_dtypes);
      for (const std::string& d : conv_opts.dtypes) {
        if (d != "f32" && d != "f16" && d != "bf16" && d != "f64") {
          throw std::invalid_argument("conv --dtypes: '" + d + "' is not f32, f16, bf16 or f64");
        }
      }
      conv_opts.passes = split_list(conv_passes);
      for (const std::string& p : conv_opts.passes) {
        if (p != "forward" && p != "input_cotangent" && p != "kernel_cotangent") {
          throw std::invalid_argument("conv --passes: '" + p +
                                      "' is not forward, input_cotangent or kernel_cotangent");
        }
      }
      conv_opts.batches.clear();
      for (const std::string& b : split_list(conv_batches)) {
        std::size_t used = 0;
        long long v = 0;
        try {
          v = std::stoll(b, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != b.size() || v < 1) {
          throw std::invalid_argument("conv --batches: bad batch size '" + b + "' (integers >= 1)");
        }
        conv_opts.batches.push_back(v);
      }
      if (conv_opts.dtypes.empty() || conv_opts.batches.empty()) {
        throw std::invalid_argument("conv: --dtypes and --batches need at least one entry");
      }
      vkt::bench::run_conv_bench(conv_opts);
    } else if (fft->parsed()) {
      fft_opts.dtypes = split_list(fft_dtypes);
      for (const std::string& d : fft_opts.dtypes) {
        if (d != "c64" && d != "c128") {
          throw std::invalid_argument("fft --dtypes: '" + d + "' is not c64 or c128");
        }
      }
      fft_opts.sizes = parse_sizes(fft_sizes);  // multiples of 16, as the other benches
      if (fft_opts.dtypes.empty() || fft_opts.sizes.empty()) {
        throw std::invalid_argument("fft: --dtypes and --sizes need at least one entry");
      }
      vkt::bench::run_fft_bench(fft_opts);
    } else if (train->parsed()) {
      // Checked before any work, so a bad list leaves no file and costs nothing.
      train_opts.cases = split_list(train_cases);
      for (const std::string& c : train_opts.cases) {
        if (c != "mlp" && c != "resnet_block") {
          throw std::invalid_argument("train --cases: '" + c + "' is not mlp or resnet_block");
        }
      }
      if (train_opts.cases.empty()) throw std::invalid_argument("train: --cases is empty");
      vkt::bench::run_train(train_opts);
    } else if (info->parsed()) {
      vkt::bench::run_info(device);
    } else if (coverage->parsed()) {
      if (coverage_list_tests) {
        vkt::bench::print_coverage_tests();
      } else {
        vkt::bench::run_coverage(device, coverage_out, coverage_reports);
      }
    } else if (list_ops->parsed()) {
      for (const auto& op : vkt::bench::case_ops()) std::printf("%s\n", op.c_str());
    } else if (compare->parsed()) {
      vkt::bench::run_compare(compare_files, compare_column, out);
    } else {
      vkt::bench::SuiteOptions o;
      // chain's --ops names its workloads (chain1, chain4, chain16, mlp, softmax, layernorm).
      // overhead's --ops also takes "chain" (its chain rows).
      o.ops = suites.at("chain")->parsed()
                  ? split_list(ops_list)
                  : parse_ops(ops_list, {}, suites.at("overhead")->parsed() ? "chain" : "");
      o.sizes = suite_sizes.empty() ? std::vector<std::int64_t>{}
                                    : parse_sizes(suite_sizes, suites.at("matmul")->parsed());
      o.min_reps = reps;
      o.device = device;
      o.out = out;
      o.dtypes = split_list(matmul_dtypes);
      o.variants = matmul_variants;
      o.rounds = matmul_rounds;
      o.cpu_max = matmul_cpu_max;
      o.rows = chain_rows;
      if (suites.at("ops")->parsed()) vkt::bench::run_ops(o);
      if (suites.at("shapes")->parsed()) vkt::bench::run_shapes(o);
      if (suites.at("matmul")->parsed()) vkt::bench::run_matmul(o);
      if (suites.at("chain")->parsed()) vkt::bench::run_chain(o);
      if (suites.at("overhead")->parsed()) vkt::bench::run_overhead(o);
      if (suites.at("firstcall")->parsed()) vkt::bench::run_first_call(o);
    }
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "vkt-bench: %s\n", e.what());
    return 2;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "vkt-bench: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vkt-bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
