// Random dot programs for vkt::compile tests: a seed picks a float dtype, GEMM sizes (1 to
// 129, batched or not) and an elementwise epilogue over C, a bias row {N}, a bias column
// {M, 1} and literals; some also return C itself or a reduction of it (then C is read
// outside the epilogue). Run eagerly and compiled, the results are compared.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "vkt/vkt.h"

namespace vkt::testing {

// Four inputs on the cpu: x {[B,] M, K}, w {[B,] K, N}, row {N}, column {M, 1}.
inline std::vector<Tensor> make_dot_corpus_inputs(std::uint32_t seed) {
  std::mt19937 rng(seed);
  static const std::vector<std::int64_t> sizes = {1, 3, 17, 64, 129};
  static const std::vector<DType> dtypes = {DType::f32, DType::f32, DType::f32,
                                            DType::f64, DType::f16, DType::bf16};
  const DType d = dtypes[rng() % dtypes.size()];
  const std::int64_t m = sizes[rng() % sizes.size()], n = sizes[rng() % sizes.size()],
                     k = sizes[rng() % sizes.size()];
  const bool batched = rng() % 4 == 0;
  auto input = [&](Shape s) {
    std::uniform_real_distribution<double> real(-1.0, 1.0);
    std::vector<double> v(static_cast<std::size_t>(numel(s)));
    for (double& x : v) x = real(rng);
    return as_type(from_vector(v, s, &cpu()), d);
  };
  Shape xs = {m, k}, ws = {k, n};
  if (batched) {
    xs.insert(xs.begin(), 2);
    ws.insert(ws.begin(), 2);
  }
  return {input(xs), input(ws), input({n}), input({m, 1})};
}

// The program of a seed: the same calls whether eager or traced.
inline std::vector<Tensor> dot_corpus_program(std::uint32_t seed, const Tensor& x, const Tensor& w,
                                              const Tensor& row, const Tensor& col) {
  std::mt19937 rng(seed ^ 0x5bd1e995u);
  const Tensor c = x.rank() == 3 ? matmul(x, w) : dot(x, w);
  std::vector<Tensor> vals = {c};
  const std::vector<Tensor> extras = {row, col, c};
  static const std::vector<Op> unary_ops = {Op::exp, Op::tanh,   Op::sigmoid, Op::abs,
                                            Op::sin, Op::negate, Op::erf};
  static const std::vector<Op> binary_ops = {Op::add, Op::subtract, Op::multiply,
                                             Op::max, Op::min,      Op::divide};
  const int steps = 1 + static_cast<int>(rng() % 6);
  for (int s = 0; s < steps; ++s) {
    const Tensor& a = vals[rng() % vals.size()];
    switch (rng() % 5) {
      case 0:
        vals.push_back(unary(unary_ops[rng() % unary_ops.size()], a));
        break;
      case 1:
        vals.push_back(rng() % 2 ? multiply(a, 1.5) : add(a, -0.25));
        break;
      case 2:
        vals.push_back(as_type(as_type(a, rng() % 2 ? DType::f16 : DType::f32), a.dtype()));
        break;
      default: {
        const Tensor& b = rng() % 2 ? extras[rng() % extras.size()] : vals[rng() % vals.size()];
        vals.push_back(binary(binary_ops[rng() % binary_ops.size()], a, b));
        break;
      }
    }
  }
  switch (rng() % 6) {
    case 0:
      return {c, vals.back()};  // C returned too: written beside the epilogue
    case 1:
      return {vals.back(), sum(c, {c.rank() - 1})};  // C read outside the epilogue
    default:
      return {vals.back()};
  }
}

}  // namespace vkt::testing
