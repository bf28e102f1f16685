// vkt-bench train (train.cpp): a training step's time, dispatches and peak device memory.
#pragma once

#include <string>
#include <vector>

#include "csv.h"

namespace vkt::bench {

struct TrainBenchOptions {
  std::vector<std::string> cases = {"mlp", "resnet_block"};
  int min_reps = 20;
  int device = -1;  // kNoDevice: the cpu
  std::string out;  // empty: bench_results/<machine>/train.csv
  // Non-empty: also each step's device time by op (Backend::begin_op_profile), the median
  // over profile_steps steps, written to this CSV.
  std::string profile_out;
  int profile_steps = 5;
};

std::vector<Row> run_train(const TrainBenchOptions& o);

}  // namespace vkt::bench
