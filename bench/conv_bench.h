// vkt-bench conv (conv.cpp): a ResNet-style 3x3 convolution with the consumer columns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "csv.h"

namespace vkt::bench {

struct ConvBenchOptions {
  std::vector<std::string> dtypes = {"f32", "f16"};
  std::vector<std::int64_t> batches = {32};
  std::int64_t channels = 64, hw = 56;
  // forward, input_cotangent, kernel_cotangent: the layer's conv and its backward convs
  std::vector<std::string> passes = {"forward"};
  int min_reps = 30;
  int device = -1;
  bool device_only = false;  // columns C and D only (tuning runs)
  bool gemm_alone = false;   // a row per dtype timing the im2col path's GEMM alone (a dot)
  std::string overrides;     // --set: library overrides, "name=value,..." (common/settings.h)
  std::string out;           // empty: bench_results/<machine>/conv.csv
};

std::vector<Row> run_conv_bench(const ConvBenchOptions& o);

}  // namespace vkt::bench
