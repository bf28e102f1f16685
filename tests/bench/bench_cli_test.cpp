// vkt-bench as a user meets it: the CSV schema and literal ratios, and bad arguments
// (exit code 2, a clear message, no partial file).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include "cases.h"
#include "csv.h"

namespace {

namespace fs = std::filesystem;

struct Result {
  int code;
  std::string output;
};

Result run(const std::string& args) {
  const std::string cmd = std::string(VKT_BENCH_EXE) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (p && fgets(buf.data(), buf.size(), p)) out += buf.data();
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

fs::path temp_dir() {
  fs::path d = fs::temp_directory_path() / ("vkt-bench-test-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

TEST(BenchCli, UnknownOpIsRejected) {
  const fs::path out = temp_dir() / "unknown.csv";
  const Result r = run("consumer --ops concatenate,frobnicate --sizes 1024 --out " + out.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("unknown op 'frobnicate'"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out));
}

TEST(BenchCli, BadSizeIsRejected) {
  const fs::path out = temp_dir() / "badsize.csv";
  for (const char* sizes : {"1024,abc", "-16", "1000", "0", "16x"}) {
    const Result r = run(std::string("consumer --sizes ") + sizes + " --out " + out.string());
    EXPECT_EQ(r.code, 2) << sizes << ": " << r.output;
    EXPECT_NE(r.output.find("bad size"), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(out));
  }
}

TEST(BenchCli, ConvRejectsBadBatchesAndDtypes) {
  const fs::path out = temp_dir() / "conv.csv";
  for (const char* args : {"--batches 0", "--batches 2x", "--batches ,", "--dtypes s32",
                           "--dtypes f32,f8", "--passes backward"}) {
    const Result r = run(std::string("conv ") + args + " --out " + out.string());
    EXPECT_EQ(r.code, 2) << args << ": " << r.output;
    EXPECT_NE(r.output.find("conv"), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(out));
  }
}

// matmul --variants and conv --set take library override names (common/settings.h): an
// unknown name (an old variable's among them) or a bad value names it.
TEST(BenchCli, BadOverridesAreRejected) {
  const fs::path out = temp_dir() / "overrides.csv";
  for (const char* args : {"matmul --sizes 64 --variants x:VKT_VK_DOT_KERNEL=reg",
                           "matmul --sizes 64 --variants x:dot_kernel=fast",
                           "conv --set conv_gemm=2", "conv --set conv_tile=64x64x8"}) {
    const Result r = run(std::string(args) + " --out " + out.string());
    EXPECT_EQ(r.code, 2) << args << ": " << r.output;
    EXPECT_NE(r.output.find("override"), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(out));
  }
}

TEST(BenchCli, UnwritablePathIsRejectedBeforeAnyWork) {
  const Result r = run("consumer --sizes 1024 --out /nonexistent-dir/x.csv");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("/nonexistent-dir"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists("/nonexistent-dir/x.csv"));
}

TEST(BenchCli, UnknownSubcommandAndOptionExitWithTwo) {
  EXPECT_EQ(run("frobnicate").code, 2);
  EXPECT_EQ(run("consumer --frobnicate").code, 2);
  EXPECT_EQ(run("consumer --reps 0").code, 2);
  EXPECT_EQ(run("--help").code, 0);
}

double num(const vkt::bench::Row& row, const std::string& key) {
  return std::stod(vkt::bench::field(row, key));
}

TEST(BenchCli, ConsumerCsvHasTheSchemaAndLiteralRatios) {
  const fs::path out = temp_dir() / "consumer.csv";
  const Result r =
      run("consumer --ops concatenate,pad --sizes 1024,16384 --reps 3 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("D/B"), std::string::npos) << r.output;  // the printed table
  const auto rows = vkt::bench::read_csv(out.string());
  ASSERT_EQ(rows.size(), 4u);
  const std::vector<std::string> required = {
      "host",        "os",         "kernel",       "cpu",       "cores",        "device",
      "device_type", "driver",     "vk_api",       "commit",    "build_type",   "date",
      "op",          "dtype",      "shape",        "size",      "path",         "A_us",
      "B_us",        "C_us",       "D_us",         "E_us",      "A_p95_us",     "D_min_us",
      "D_over_B",    "D_over_E",   "C_over_A",     "floor_us",  "D_over_floor", "D_uploads",
      "D_downloads", "D_bytes_up", "D_bytes_down", "D_submits", "E_uploads",    "E_submits"};
  for (const auto& key : required) {
    bool found = false;
    for (const auto& [k, v] : rows[0]) found |= k == key;
    EXPECT_TRUE(found) << "missing column " << key;
  }
  for (const auto& row : rows) {
    EXPECT_GT(num(row, "A_us"), 0);
    EXPECT_GE(num(row, "B_us"), num(row, "B_min_us"));
    if (vkt::bench::field(row, "path") == "cpu-only") continue;
    // Ratios are literal: D/B, D/E, C/A (the seed stored the inverse under these names).
    EXPECT_NEAR(num(row, "D_over_B"), num(row, "D_us") / num(row, "B_us"),
                1e-3 * num(row, "D_over_B") + 1e-4);
    EXPECT_NEAR(num(row, "D_over_E"), num(row, "D_us") / num(row, "E_us"),
                1e-3 * num(row, "D_over_E") + 1e-4);
    EXPECT_NEAR(num(row, "C_over_A"), num(row, "C_us") / num(row, "A_us"),
                1e-3 * num(row, "C_over_A") + 1e-4);
    EXPECT_GE(num(row, "E_downloads"), 1);  // the legacy path reads its inputs back
  }
}

using vkt::bench::field;

std::vector<std::string> keys(const vkt::bench::Row& row) {
  std::vector<std::string> out;
  for (const auto& [k, v] : row) out.push_back(k);
  return out;
}

// The columns A..E to C_gpu_GFLOPs as bench/rows.cpp's add_timed_columns writes them for
// conv and fft (their peers, bench/peers/torch_{conv,fft}.py, write the same order).
std::vector<std::string> timed_columns() {
  std::vector<std::string> out;
  for (const char* x : {"A", "B", "C", "D", "E"})
    for (const char* s : {"_us", "_min_us", "_p95_us", "_reps"}) out.push_back(x + std::string(s));
  for (const char* k :
       {"C_gpu_us", "C_gpu_min_us", "D_over_B", "D_over_E", "C_over_A", "out_bytes", "d2h_GBps",
        "floor_us", "D_over_floor", "GFLOP", "A_GFLOPs", "C_gpu_GFLOPs"})
    out.emplace_back(k);
  return out;
}

std::vector<std::string> host_columns() {
  return {"host",        "os",     "kernel", "cpu",    "cores",      "device",
          "device_type", "driver", "vk_api", "commit", "build_type", "date"};
}

// floor_us = C + out_bytes at the measured device-to-host rate, D_over_floor = D / floor.
void expect_floor(const vkt::bench::Row& row) {
  // The printed cells carry 3 decimals: the transfer term's error is the rate's rounding.
  const double transfer = num(row, "out_bytes") / (num(row, "d2h_GBps") * 1000.0);
  EXPECT_NEAR(num(row, "floor_us"), num(row, "C_us") + transfer, 3e-3 + 1e-3 * transfer);
  EXPECT_NEAR(num(row, "D_over_floor"), num(row, "D_us") / num(row, "floor_us"),
              1e-3 * num(row, "D_over_floor") + 1e-4);
}

TEST(BenchCli, ConvCsvKeepsItsColumnsAndFloor) {
  const fs::path out = temp_dir() / "conv.csv";
  const Result r =
      run("conv --dtypes f32 --batches 1 --channels 4 --hw 4 --reps 2 --gemm-alone "
          "--out " +
          out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto rows = vkt::bench::read_csv(out.string());
  ASSERT_EQ(rows.size(), 2u);  // the layer, then its GEMM alone
  std::vector<std::string> expected = host_columns();
  for (const char* k : {"op", "dtype", "shape", "kernel", "padding", "pass", "size", "path"})
    expected.emplace_back(k);
  for (const std::string& k : timed_columns()) expected.push_back(k);
  expected.emplace_back("C_gpu_im2col_us");
  expected.emplace_back("C_gpu_gemm_us");
  EXPECT_EQ(keys(rows[0]), expected);
  // "kernel" twice: the host's (the OS kernel, column 2), then the conv kernel's shape.
  const std::size_t conv_kernel = host_columns().size() + 3;
  EXPECT_EQ(rows[0].at(conv_kernel).second, "{4, 4, 3, 3}");
  EXPECT_NE(rows[0].at(2).second, "{4, 4, 3, 3}");
  EXPECT_EQ(field(rows[0], "size"), "64");
  EXPECT_EQ(field(rows[0], "out_bytes"), "256");
  EXPECT_EQ(field(rows[0], "path"), "native");
  EXPECT_GT(num(rows[0], "E_us"), 0);
  expect_floor(rows[0]);
  // The GEMM alone times C and D only.
  EXPECT_EQ(field(rows[1], "path"), "gemm-alone");
  for (const char* empty : {"A_us", "B_us", "E_us", "C_over_A", "D_over_B", "A_GFLOPs"})
    EXPECT_EQ(field(rows[1], empty), "") << empty;
  expect_floor(rows[1]);
}

// --passes: the layer's conv and its two backward convs, a row each in the order asked; a
// kernel cotangent's output is the kernel's shape.
TEST(BenchCli, ConvTimesTheBackwardPasses) {
  const fs::path out = temp_dir() / "conv-passes.csv";
  const Result r =
      run("conv --dtypes f32 --batches 2 --channels 4 --hw 5 --reps 2 "
          "--passes forward,input_cotangent,kernel_cotangent --out " +
          out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto rows = vkt::bench::read_csv(out.string());
  ASSERT_EQ(rows.size(), 3u);
  const char* passes[] = {"forward", "input_cotangent", "kernel_cotangent"};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(field(rows[i], "pass"), passes[i]);
    EXPECT_EQ(field(rows[i], "path"), "native") << passes[i];
    EXPECT_GT(num(rows[i], "A_us"), 0) << passes[i];
    EXPECT_GT(num(rows[i], "C_gpu_us"), 0) << passes[i];
    expect_floor(rows[i]);
  }
  EXPECT_EQ(field(rows[1], "out_bytes"), "800");  // {2, 4, 5, 5} f32
  EXPECT_EQ(field(rows[2], "out_bytes"), "576");  // {4, 4, 3, 3} f32
}

TEST(BenchCli, FftCsvKeepsItsColumnsWithAndWithoutADevice) {
  const fs::path out = temp_dir() / "fft.csv";
  std::vector<std::string> expected = host_columns();
  for (const char* k : {"op", "dtype", "shape", "size", "path"}) expected.emplace_back(k);
  for (const std::string& k : timed_columns()) expected.push_back(k);
  expected.emplace_back("library");
  Result r = run("fft --sizes 64 --batch 2 --reps 2 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  auto rows = vkt::bench::read_csv(out.string());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(keys(rows[0]), expected);
  EXPECT_EQ(field(rows[0], "shape"), "{2, 64}");
  EXPECT_EQ(field(rows[0], "out_bytes"), "1024");
  EXPECT_EQ(field(rows[0], "path"), "native");
  EXPECT_EQ(field(rows[0], "library"), "vktensor");
  expect_floor(rows[0]);
  r = run("fft --sizes 64 --reps 2 --cpu-only --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  rows = vkt::bench::read_csv(out.string());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(keys(rows[0]), expected);
  EXPECT_EQ(field(rows[0], "path"), "cpu-only");
  for (const char* empty : {"C_us", "D_us", "E_us", "d2h_GBps", "floor_us", "D_over_floor"})
    EXPECT_EQ(field(rows[0], empty), "") << empty;
  EXPECT_GT(num(rows[0], "A_us"), 0);
}

// A training step's rows on the cpu: eager and compiled, no fallback, the pool's peak zero
// (the cpu pools no device memory); an unknown case is refused before any work.
TEST(BenchCli, TrainRowsOnTheCpu) {
  const fs::path out = temp_dir() / "train.csv";
  Result r = run("train --cases mlp,nope --cpu-only --out " + out.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("'nope'"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out));
  r = run("train --cases mlp --cpu-only --reps 1 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto rows = vkt::bench::read_csv(out.string());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(field(rows[0], "mode"), "eager");
  EXPECT_EQ(field(rows[1], "mode"), "compiled");
  for (const auto& row : rows) {
    EXPECT_EQ(field(row, "case"), "mlp");
    EXPECT_EQ(field(row, "fallbacks"), "0");
    EXPECT_GT(num(row, "step_us"), 0);
    EXPECT_EQ(num(row, "peak_reserved_MiB"), 0);
  }
  EXPECT_EQ(field(rows[1], "plan_reuses"), "1");  // the compiled step replays its plan
}

// The overhead split adds up: rest = C - device time - recording, per row; device time is
// present where the device has timestamps (lavapipe has them). The last row, submit_wait, is
// an empty batch's round trip: nothing recorded.
TEST(BenchCli, OverheadSplitAddsUp) {
  const fs::path out = temp_dir() / "overhead.csv";
  const Result r = run("overhead --ops add,pad --reps 3 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto rows = vkt::bench::read_csv(out.string());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(vkt::bench::field(rows[2], "op"), "submit_wait");
  for (const auto& row : rows) {
    if (vkt::bench::field(row, "op") != "submit_wait") {
      EXPECT_GT(num(row, "record_us"), 0);
    }
    EXPECT_GT(num(row, "C_gpu_us"), 0);
    EXPECT_NEAR(num(row, "rest_us"),
                num(row, "C_us") - num(row, "C_gpu_us") - num(row, "record_us"), 2e-3);
  }
}

// sort_flat / argsort_flat: the sort's data as one flat line (the radix sort's bench rows).
TEST(BenchCli, FlatSortRowsAreOneLine) {
  const fs::path out = temp_dir() / "sort-flat.csv";
  const Result r =
      run("ops --ops sort_flat,argsort_flat --sizes 8192 --reps 1 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto rows = vkt::bench::read_csv(out.string());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(vkt::bench::field(rows[0], "op"), "sort_flat");
  EXPECT_EQ(vkt::bench::field(rows[1], "op"), "argsort_flat");
  for (const auto& row : rows) {
    EXPECT_EQ(vkt::bench::field(row, "shape"), "{8192}");
    EXPECT_EQ(vkt::bench::field(row, "dtype"), "f32");
    EXPECT_GT(num(row, "cpu_us"), 0);
  }
}

// gather_resident: the seed's gather with its indices on the device, so the op runs natively
// with nothing uploaded per call (gather's row uploads its host-held indices every call).
TEST(BenchCli, GatherResidentRowKeepsItsIndicesOnTheDevice) {
  const vkt::bench::OpCase resident = vkt::bench::make_case("gather_resident", 1024);
  const vkt::bench::OpCase seed = vkt::bench::make_case("gather", 1024);
  ASSERT_EQ(resident.inputs.size(), 2u);
  EXPECT_FALSE(resident.inputs[1].stays_on_cpu);
  EXPECT_TRUE(seed.inputs[1].stays_on_cpu);
  EXPECT_EQ(resident.shape, seed.shape);
  EXPECT_TRUE(vkt::bench::shape_variant_case("gather_resident"));
  const fs::path out = temp_dir() / "gather-resident.csv";
  const Result r = run("ops --ops gather_resident --sizes 1024 --reps 1 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto rows = vkt::bench::read_csv(out.string());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(vkt::bench::field(rows[0], "op"), "gather_resident");
  EXPECT_EQ(vkt::bench::field(rows[0], "shape"), "{1024}");
  EXPECT_NE(vkt::bench::field(rows[0], "path"), "fallback");
}

// The overhead bench's chain rows (--ops chain): chain1, chain4, chain16 at 16384, each
// with the whole chain's recording time and one dispatch per op, the host stages of one of
// its ops, then submit_wait.
TEST(BenchCli, OverheadChainRows) {
  const fs::path out = temp_dir() / "overhead_chain.csv";
  const Result r = run("overhead --ops chain --reps 2 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto rows = vkt::bench::read_csv(out.string());
  ASSERT_EQ(rows.size(), 11u);
  EXPECT_EQ(vkt::bench::field(rows[2], "op"), "chain16");
  EXPECT_EQ(vkt::bench::field(rows[2], "size"), "16384");
  EXPECT_EQ(vkt::bench::field(rows[2], "dispatches"), "16");
  EXPECT_GT(num(rows[2], "record_us"), num(rows[0], "record_us"));
  // Then the host stages of the chain's op, host time only: one dispatch per op.
  EXPECT_EQ(vkt::bench::field(rows[3], "op"), "host:whole_op");
  EXPECT_GT(num(rows[3], "record_us"), 0);
  EXPECT_EQ(num(rows[3], "dispatches"), 1);
  EXPECT_EQ(vkt::bench::field(rows[3], "C_us"), "");
  EXPECT_EQ(vkt::bench::field(rows[4], "op"), "host:literal");
  EXPECT_EQ(num(rows[4], "dispatches"), 0);
  EXPECT_EQ(vkt::bench::field(rows[10], "op"), "submit_wait");
}

}  // namespace
