// Random elementwise programs for vkt::compile tests: a seed picks inputs (dtypes, shapes
// with size-0 and size-1 axes, broadcasting) and a chain of ops, conversions and literals,
// select and clip, and reductions (sum, max, min, product, any, all) over random axes,
// keeping them or not. The
// program is a plain function of tensors, so it runs eagerly and compiled, and the two results are
// compared.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "vkt/vkt.h"

namespace vkt::testing {

struct CorpusCase {
  std::vector<Tensor> inputs;  // on the cpu; tests move them where they run
  std::uint32_t seed = 0;
};

inline const std::vector<DType>& corpus_dtypes() {
  static const std::vector<DType> d = {DType::f32, DType::f32, DType::f16, DType::bf16, DType::s32,
                                       DType::u8,  DType::s16, DType::u32, DType::s64,  DType::f64};
  return d;
}

inline Tensor corpus_input(std::mt19937& rng, DType dtype, const Shape& shape) {
  std::uniform_real_distribution<double> real(-4.0, 4.0);
  std::uniform_int_distribution<int> small(-20, 20);
  std::vector<double> v(static_cast<std::size_t>(numel(shape)));
  for (double& x : v) x = is_float(dtype) ? real(rng) : small(rng);
  if (!v.empty() && is_float(dtype)) v[0] = 0.0;  // a zero in every float input
  return as_type(from_vector(v, shape, &cpu()), dtype);
}

inline CorpusCase make_corpus_case(std::uint32_t seed) {
  std::mt19937 rng(seed);
  static const std::vector<Shape> bases = {{},        {0},       {1},    {7},
                                           {3, 1, 4}, {2, 0, 3}, {5, 6}, {33, 17}};
  const Shape base = bases[rng() % bases.size()];
  CorpusCase c;
  c.seed = seed;
  const int inputs = 1 + static_cast<int>(rng() % 3);
  for (int i = 0; i < inputs; ++i) {
    Shape s = base;
    for (auto& d : s) {
      if (rng() % 4 == 0) d = 1;  // broadcast along this axis
    }
    if (!s.empty() && rng() % 4 == 0) s.erase(s.begin());  // a lower rank aligns right
    const DType d = corpus_dtypes()[rng() % corpus_dtypes().size()];
    c.inputs.push_back(corpus_input(rng, d, s));
  }
  return c;
}

// The program of a seed over its inputs: the same calls whether eager or traced.
inline Tensor corpus_program(std::uint32_t seed, const std::vector<Tensor>& in) {
  std::mt19937 rng(seed ^ 0x9e3779b9u);
  std::vector<Tensor> vals(in.begin(), in.end());
  auto pick = [&]() -> const Tensor& { return vals[rng() % vals.size()]; };
  static const std::vector<Op> unary_any = {Op::exp,   Op::log,  Op::sin,    Op::tanh,
                                            Op::sqrt,  Op::abs,  Op::negate, Op::sigmoid,
                                            Op::floor, Op::sign, Op::is_nan, Op::erf};
  static const std::vector<Op> unary_int = {Op::bitwise_not, Op::population_count};
  static const std::vector<Op> binary_any = {
      Op::add, Op::subtract, Op::multiply, Op::divide,      Op::min,
      Op::max, Op::less,     Op::equal,    Op::logical_and, Op::remainder};
  static const std::vector<Op> binary_int = {Op::bitwise_and, Op::bitwise_xor, Op::quotient};
  static const std::vector<DType> casts = {DType::f32, DType::f16,  DType::s32,
                                           DType::u8,  DType::bf16, DType::s64};
  const int steps = 2 + static_cast<int>(rng() % 10);
  for (int s = 0; s < steps; ++s) {
    const int kind = static_cast<int>(rng() % 12);
    const Tensor& a = pick();
    if (kind < 3) {
      const bool integer = is_integer(a.dtype()) && rng() % 3 == 0;
      const auto& ops = integer ? unary_int : unary_any;
      vals.push_back(unary(ops[rng() % ops.size()], a));
    } else if (kind < 7) {
      const Tensor& b = pick();
      const bool integer = is_integer(promote(a.dtype(), b.dtype())) && rng() % 3 == 0;
      const auto& ops = integer ? binary_int : binary_any;
      vals.push_back(binary(ops[rng() % ops.size()], a, b));
    } else if (kind == 7) {
      vals.push_back(as_type(a, casts[rng() % casts.size()]));
    } else if (kind == 8) {
      const int lit = static_cast<int>(rng() % 5) - 2;
      vals.push_back(rng() % 2 ? multiply(a, lit) : add(a, 0.5 * lit));
    } else if (kind == 10) {
      const Tensor& b = pick();
      vals.push_back(select(a, b, pick()));  // a predicate of any dtype
    } else if (kind == 11) {
      const Tensor& lo = pick();
      vals.push_back(rng() % 2 ? clip(a, lo, pick()) : clip(a, Scalar(-1), Scalar(2)));
    } else if (kind == 9 && a.rank() > 0) {
      // A reduction over random axes: its prologue fuses into it where the backend can. It
      // keeps the axes (still broadcastable against the others) unless it ends the program.
      static const std::vector<Op> reductions = {Op::sum,     Op::reduce_max, Op::reduce_min,
                                                 Op::product, Op::any,        Op::all};
      const Op op = reductions[rng() % reductions.size()];
      Axes axes;
      for (std::int64_t d = 0; d < a.rank(); ++d) {
        if (rng() % 2 == 0) axes.push_back(d);
      }
      if (axes.empty()) axes.push_back(static_cast<std::int64_t>(rng() % a.rank()));
      const bool keep = s + 1 < steps || rng() % 2 == 0;
      switch (op) {
        case Op::sum:
          vals.push_back(sum(a, axes, keep));
          break;
        case Op::reduce_max:
          vals.push_back(reduce_max(a, axes, keep));
          break;
        case Op::reduce_min:
          vals.push_back(reduce_min(a, axes, keep));
          break;
        case Op::product:
          vals.push_back(product(a, axes, keep));
          break;
        case Op::any:
          vals.push_back(any(a, axes, keep));
          break;
        default:
          vals.push_back(all(a, axes, keep));
          break;
      }
    }
  }
  return vals.back();
}

}  // namespace vkt::testing
