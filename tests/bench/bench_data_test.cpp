// VKT_BENCH_DATA=random: vkt-bench's hashed values equal, bit for bit, the ones the peers
// make (bench/peers/peer_common.py), through the committed list the python wrote
// (scripts/golden/gen_bench_data.py).
#include "bench_data.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cases.h"

namespace {

using vkt::bench::f32_data;
using vkt::bench::hashed_unit;
using vkt::bench::hashed_value;

struct GoldenValue {
  std::uint64_t index;
  double scale, offset;
  std::uint64_t top24;
  std::uint32_t bits;
};

std::vector<GoldenValue> golden_values() {
  std::ifstream in(VKT_BENCH_DATA_GOLDEN);
  std::vector<GoldenValue> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    GoldenValue g{};
    fields >> g.index >> g.scale >> g.offset >> g.top24 >> std::hex >> g.bits;
    if (!fields) throw std::runtime_error("bench_data.txt: bad line '" + line + "'");
    out.push_back(g);
  }
  return out;
}

// Sets VKT_BENCH_DATA for its lifetime, then restores what was there.
class BenchDataEnv {
 public:
  explicit BenchDataEnv(const char* value) {
    const char* old = std::getenv("VKT_BENCH_DATA");
    had_ = old != nullptr;
    if (had_) old_ = old;
    if (value != nullptr) {
      setenv("VKT_BENCH_DATA", value, 1);
    } else {
      unsetenv("VKT_BENCH_DATA");
    }
  }
  ~BenchDataEnv() {
    if (had_) {
      setenv("VKT_BENCH_DATA", old_.c_str(), 1);
    } else {
      unsetenv("VKT_BENCH_DATA");
    }
  }
  BenchDataEnv(const BenchDataEnv&) = delete;
  BenchDataEnv& operator=(const BenchDataEnv&) = delete;

 private:
  bool had_ = false;
  std::string old_;
};

TEST(BenchData, HashedValuesEqualThePeersList) {
  const std::vector<GoldenValue> golden = golden_values();
  ASSERT_EQ(golden.size(), 3u * (1000u + 11u));  // three (scale, offset) pairs
  for (const GoldenValue& g : golden) {
    EXPECT_EQ(static_cast<std::uint64_t>(hashed_unit(g.index) * 16777216.0), g.top24)
        << "index " << g.index;
    EXPECT_EQ(std::bit_cast<std::uint32_t>(hashed_value(g.index, g.scale, g.offset)), g.bits)
        << "index " << g.index << " scale " << g.scale << " offset " << g.offset;
  }
}

TEST(BenchData, RandomInputsAreTheHashedValues) {
  const BenchDataEnv random("random");
  // The tensors the cases build: f32_data with each case's scale and offset.
  std::map<std::pair<double, double>, std::vector<float>> built;
  for (const GoldenValue& g : golden_values()) {
    if (g.index >= 1000) continue;
    auto [it, fresh] = built.try_emplace({g.scale, g.offset});
    if (fresh) it->second = f32_data(1000, {10, 100}, g.scale, g.offset).to_vector<float>();
    EXPECT_EQ(std::bit_cast<std::uint32_t>(it->second.at(g.index)), g.bits)
        << "index " << g.index << " scale " << g.scale << " offset " << g.offset;
  }
  EXPECT_EQ(built.size(), 3u);
  const std::vector<float> seed = vkt::bench::seed_data(1000, {1000}).to_vector<float>();
  EXPECT_EQ(std::bit_cast<std::uint32_t>(seed[1]),
            std::bit_cast<std::uint32_t>(hashed_value(1, 1.0, 0.01)));
}

TEST(BenchData, WithoutTheVariableTheInputsAreTheRamp) {
  for (const char* value : {static_cast<const char*>(nullptr), "ramp"}) {
    const BenchDataEnv env(value);
    const std::vector<float> v = vkt::bench::seed_data(1000, {1000}).to_vector<float>();
    EXPECT_FLOAT_EQ(v[0], 0.01f);
    EXPECT_FLOAT_EQ(v[500], 0.51f);
    EXPECT_FLOAT_EQ(v[999], 1.009f);
  }
}

// A value the bench does not know is an error naming the variable, not the ramp by default.
TEST(BenchData, AnUnknownValueIsAnError) {
  const BenchDataEnv env("randm");
  try {
    (void)vkt::bench::seed_data(16, {16});
    FAIL() << "VKT_BENCH_DATA=randm was accepted";
  } catch (const vkt::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("VKT_BENCH_DATA='randm'"), std::string::npos) << what;
    EXPECT_NE(what.find("ramp, random"), std::string::npos) << what;
  }
}

}  // namespace
