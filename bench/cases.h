// Benchmark cases: for an op and a size n, the inputs (built on the cpu from non-zero
// iota-based data) and the call. Shared by the consumer, ops and shapes benches.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "vkt/vkt.h"

namespace vkt::bench {

struct BenchInput {
  Tensor value;               // on the cpu
  bool stays_on_cpu = false;  // the seed keeps index tensors on the host
};

struct OpCase {
  std::string op;
  DType dtype = DType::f32;
  Shape shape;  // the main input's shape
  std::vector<BenchInput> inputs;
  std::function<Tensor(const std::vector<Tensor>&)> run;
};

// The seed's seven consumer ops.
const std::vector<std::string>& seed_ops();
// Every op name a case exists for (the whole op surface).
std::vector<std::string> case_ops();
// Cases that run another case's op on another shape or placement (sort_flat: sort of one
// flat line; gather_resident: gather with its indices on the device; multiply_literal and
// multiply_scalar: a number, or a rank-0 tensor on the device): bench rows, not ops,
// so the coverage table leaves them out.
bool shape_variant_case(const std::string& op);
// Throws std::invalid_argument for an unknown op or a size the op's shape cannot take.
OpCase make_case(const std::string& op, std::int64_t n);

// The inputs placed for a run on `b` (cpu-held inputs stay on the cpu).
std::vector<Tensor> place_inputs(const OpCase& c, Backend& b);
// f32 iota(n)/n + 0.01: the seed's data (VKT_BENCH_DATA=random: bench_data.h's hashed
// values).
Tensor seed_data(std::int64_t n, const Shape& shape);
// The decompositions' and solvers' cases (cases_linalg.cpp), part of the table above.
std::map<std::string, std::function<OpCase(std::int64_t)>> linalg_makers();

}  // namespace vkt::bench
