// vkt-bench as a user meets it: the CSV schema and literal ratios, and bad arguments
// (exit code 2, a clear message, no partial file).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

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
  for (const char* args :
       {"--batches 0", "--batches 2x", "--batches ,", "--dtypes s32", "--dtypes f32,f8"}) {
    const Result r = run(std::string("conv ") + args + " --out " + out.string());
    EXPECT_EQ(r.code, 2) << args << ": " << r.output;
    EXPECT_NE(r.output.find("conv"), std::string::npos) << r.output;
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
