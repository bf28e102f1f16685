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
};

std::vector<Row> run_train(const TrainBenchOptions& o);

}  // namespace vkt::bench
