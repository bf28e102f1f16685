// Elementwise unary ops on the cpu. The core has already converted integer inputs of float
// functions to f32, so those cases only see float types; f16/bf16 compute in float and
// round once; f64 is computed in double.
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "cpu/elementwise_complex.h"
#include "cpu/elementwise_math.h"
#include "cpu/wide_loops.h"

namespace vkt::cpu_kernels {
namespace {

template <class C>
C exp_of(C x) {
  if constexpr (std::is_same_v<C, float>) {
    return exp_f32(x);
  } else {
    return std::exp(x);
  }
}
template <class C>
C log_of(C x) {
  if constexpr (std::is_same_v<C, float>) {
    return log_f32(x);
  } else {
    return std::log(x);
  }
}

// The float functions, on compute type C (float or double).
template <class T, class Out>
bool run_float_function(Op op, const T* in, Out* out, std::int64_t n) {
  using C = compute_t<T>;
  auto go = [&](auto f) {
    map_unary_wide(in, out, n, kGrain, f);
    return true;
  };
  switch (op) {
    case Op::exp:
      return go([](C x) { return exp_of(x); });
    case Op::expm1:
      return go([](C x) { return std::expm1(x); });
    case Op::log:
      return go([](C x) { return log_of(x); });
    case Op::log1p:
      return go([](C x) { return std::log1p(x); });
    case Op::sigmoid:
      return go([](C x) { return C(1) / (C(1) + exp_of(-x)); });
    case Op::cos:
      return go([](C x) { return std::cos(x); });
    case Op::sin:
      return go([](C x) { return std::sin(x); });
    case Op::tan:
      return go([](C x) { return std::tan(x); });
    case Op::cosh:
      return go([](C x) { return std::cosh(x); });
    case Op::sinh:
      return go([](C x) { return std::sinh(x); });
    case Op::tanh:
      if constexpr (std::is_same_v<C, float>) {
        return go([](C x) { return tanh_f32(x); });
      } else {
        return go([](C x) { return std::tanh(x); });
      }
    case Op::acos:
      return go([](C x) { return std::acos(x); });
    case Op::asin:
      return go([](C x) { return std::asin(x); });
    case Op::atan:
      return go([](C x) { return std::atan(x); });
    case Op::acosh:
      return go([](C x) { return std::acosh(x); });
    case Op::asinh:
      return go([](C x) { return std::asinh(x); });
    case Op::atanh:
      return go([](C x) { return std::atanh(x); });
    case Op::sqrt:
      return go([](C x) { return std::sqrt(x); });
    case Op::rsqrt:
      return go([](C x) { return C(1) / std::sqrt(x); });
    case Op::cbrt:
      return go([](C x) { return std::cbrt(x); });
    case Op::phase:  // the angle of x + 0i: pi for negative x and -0, NaN stays NaN
      return go([](C x) { return std::isnan(x) ? x : std::atan2(C(0), x); });
    case Op::erf:
      return go([](C x) { return std::erf(x); });
    case Op::erfc:
      return go([](C x) { return std::erfc(x); });
    case Op::erf_inv:
      // Computed in double and rounded once: exact to the dtype's precision.
      if constexpr (std::is_same_v<C, float>) {
        return go([](C x) { return static_cast<C>(erf_inv_f64<true>(static_cast<double>(x))); });
      } else {
        return go([](C x) { return static_cast<C>(erf_inv_f64(static_cast<double>(x))); });
      }
    default:
      return false;
  }
}

// Ops that keep the type, for every dtype.
template <class T>
bool run_same_type(Op op, const T* in, T* out, std::int64_t n) {
  using C = compute_t<T>;
  auto go = [&](auto f) {
    map_unary(in, out, n, cheap_grain<T, T>(), f);
    return true;
  };
  constexpr bool is_fp = std::is_floating_point_v<C>;
  switch (op) {
    case Op::abs:
      if constexpr (is_fp) {
        return go([](C x) { return std::fabs(x); });
      } else if constexpr (std::is_signed_v<C>) {
        return go([](C x) { return x < 0 ? wrapping_sub(C(0), x) : x; });  // abs(MIN) = MIN
      } else {
        return go([](C x) { return x; });
      }
    case Op::negate:
      if constexpr (is_fp) {
        return go([](C x) { return -x; });
      } else {
        return go([](C x) { return wrapping_sub(C(0), x); });
      }
    case Op::sign:
      if constexpr (is_fp) {
        // NaN stays NaN and zeros keep their sign, as in NumPy.
        return go([](C x) { return x > 0 ? C(1) : (x < 0 ? C(-1) : x); });
      } else {
        return go([](C x) { return static_cast<C>((x > 0) - (x < 0)); });
      }
    case Op::ceil:
      if constexpr (is_fp) {
        return go([](C x) { return ceil_value(x); });
      } else {
        return go([](C x) { return x; });
      }
    case Op::floor:
      if constexpr (is_fp) {
        return go([](C x) { return floor_value(x); });
      } else {
        return go([](C x) { return x; });
      }
    case Op::round:  // half away from zero
      if constexpr (is_fp) {
        return go([](C x) { return round_half_away(x); });
      } else {
        return go([](C x) { return x; });
      }
    case Op::conjugate:
    case Op::real:
      host::parallel_memcpy(out, in, n * static_cast<std::int64_t>(sizeof(T)));
      return true;
    case Op::imag:
      map_unary(in, out, n, cheap_grain<T, T>(), [](C) { return C(0); });
      return true;
    default:
      break;
  }
  if constexpr (std::is_integral_v<C>) {
    using U = std::make_unsigned_t<C>;
    switch (op) {
      case Op::bitwise_not:
        return go([](C x) { return static_cast<C>(~x); });
      case Op::count_leading_zeros:
        return go([](C x) { return static_cast<C>(leading_zeros_bits(static_cast<U>(x))); });
      case Op::population_count:
        return go([](C x) { return static_cast<C>(population_count_bits(static_cast<U>(x))); });
      default:
        break;
    }
  }
  return false;
}

template <class T>
bool run_predicate(Op op, const T* in, std::uint8_t* out, std::int64_t n) {
  using C = compute_t<T>;
  auto go = [&](auto f) {
    map_unary(in, out, n, cheap_grain<std::uint8_t, T>(),
              [f](C x) { return static_cast<std::uint8_t>(f(x)); });
    return true;
  };
  if (op == Op::logical_not) return go([](C x) { return x == C(0); });  // -0 too; NaN is not 0
  if constexpr (std::is_floating_point_v<C>) {
    if (op == Op::is_nan) return go([](C x) { return is_nan_value(x); });
    if (op == Op::is_infinity) {
      return go([](C x) {
        return x == std::numeric_limits<C>::infinity() || x == -std::numeric_limits<C>::infinity();
      });
    }
    return false;
  } else {
    if (op != Op::is_nan && op != Op::is_infinity) return false;
    if (n > 0) std::memset(out, 0, static_cast<std::size_t>(n));  // integers are finite
    return true;
  }
}

// c64/c128 inputs: complex results, the real type of the parts (abs, real, imag, phase), or
// u8 predicates. Ops that only move or test parts take the streaming grain; library calls
// (hypot, atan2, cexp...) the compute-bound one.
bool run_complex(Op op, const Tensor& in, Tensor& out, DType out_dtype) {
  const std::int64_t n = out.size();
  const bool moves_parts =
      op == Op::negate || op == Op::conjugate || op == Op::real || op == Op::imag;
  return visit_complex_dtype(in.dtype(), [&](auto tag) {
    using Z = typename decltype(tag)::type;
    using R = typename Z::value_type;
    const Z* src = data<Z>(in);
    if (op_kind(op) == OpKind::predicate) {
      if (out_dtype != DType::u8) return false;
      return complex_predicate_op<R>(op, [&](auto f) {
        map_unary(src, mutable_data<std::uint8_t>(out), n, cheap_grain<std::uint8_t, Z>(), f);
        return true;
      });
    }
    if (out_dtype == to_real_type(in.dtype())) {
      return complex_to_real_op<R>(op, [&](auto f) {
        map_unary(src, mutable_data<R>(out), n, moves_parts ? cheap_grain<R, Z>() : kGrain, f);
        return true;
      });
    }
    if (out_dtype != in.dtype()) return false;
    return complex_unary_op<R>(op, [&](auto f) {
      map_unary(src, mutable_data<Z>(out), n, moves_parts ? cheap_grain<Z, Z>() : kGrain, f);
      return true;
    });
  });
}

[[noreturn]] void no_kernel(Op op, DType in, DType out) {
  throw Unsupported("[" + std::string(op_name(op)) + "] has no cpu kernel for " +
                    std::string(dtype_name(in)) + " -> " + std::string(dtype_name(out)));
}

}  // namespace

Tensor run_unary(const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  Tensor out = make_output(call);
  const std::int64_t n = out.size();
  if (is_complex(in.dtype())) {
    if (!run_complex(call.op, in, out, call.out_dtype))
      no_kernel(call.op, in.dtype(), call.out_dtype);
    return out;
  }
  const bool done = visit_dtype(in.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (op_kind(call.op) == OpKind::predicate) {
      if (call.out_dtype != DType::u8) return false;
      return run_predicate(call.op, data<T>(in), mutable_data<std::uint8_t>(out), n);
    }
    if (call.out_dtype != in.dtype()) return false;
    if constexpr (is_float_v<T>) {
      if (run_float_function(call.op, data<T>(in), mutable_data<T>(out), n)) return true;
    }
    return run_same_type(call.op, data<T>(in), mutable_data<T>(out), n);
  });
  if (!done) no_kernel(call.op, in.dtype(), call.out_dtype);
  return out;
}

}  // namespace vkt::cpu_kernels
