// Elementwise binary ops on the cpu. The core has already promoted both inputs to the one
// dtype the op computes in (shapes may differ; they broadcast to out_shape). Comparisons
// and logical ops write u8; everything else writes the input dtype.
#include <cmath>
#include <string>
#include <type_traits>

#include "cpu/elementwise_complex.h"
#include "cpu/elementwise_loops.h"
#include "cpu/elementwise_math.h"
#include "cpu/wide_loops.h"

namespace vkt::cpu_kernels {
namespace {

// Arithmetic valid for every dtype; C is the compute type (float for f16/bf16).
template <class C, class Go>
bool arithmetic(Op op, Go go) {
  constexpr bool is_fp = std::is_floating_point_v<C>;
  switch (op) {
    case Op::add:
      if constexpr (is_fp) {
        return go([](C a, C b) { return a + b; });
      } else {
        return go([](C a, C b) { return wrapping_add(a, b); });
      }
    case Op::subtract:
      if constexpr (is_fp) {
        return go([](C a, C b) { return a - b; });
      } else {
        return go([](C a, C b) { return wrapping_sub(a, b); });
      }
    case Op::multiply:
      if constexpr (is_fp) {
        return go([](C a, C b) { return a * b; });
      } else {
        return go([](C a, C b) { return wrapping_mul(a, b); });
      }
    case Op::pow:
      if constexpr (is_fp) {
        // C's pow(x, 0) = pow(1, y) = 1 for every NaN; glibc gives NaN for a signalling one.
        return go([](C a, C b) { return b == C(0) || a == C(1) ? C(1) : std::pow(a, b); });
      } else {
        return go([](C a, C b) { return integer_pow(a, b); });
      }
    case Op::remainder:
      if constexpr (is_fp) {
        return go([](C a, C b) { return std::fmod(a, b); });
      } else {
        return go([](C a, C b) { return integer_remainder(a, b); });
      }
    case Op::min:
      return go([](C a, C b) { return pick_min(a, b); });
    case Op::max:
      return go([](C a, C b) { return pick_max(a, b); });
    default:
      break;
  }
  if constexpr (is_fp) {
    switch (op) {
      case Op::divide:
        return go([](C a, C b) { return a / b; });
      case Op::atan2:
        return go([](C a, C b) { return std::atan2(a, b); });
      default:
        break;
    }
  } else {
    switch (op) {
      case Op::quotient:
        return go([](C a, C b) { return integer_quotient(a, b); });
      case Op::bitwise_and:
        return go([](C a, C b) { return static_cast<C>(a & b); });
      case Op::bitwise_or:
        return go([](C a, C b) { return static_cast<C>(a | b); });
      case Op::bitwise_xor:
        return go([](C a, C b) { return static_cast<C>(a ^ b); });
      case Op::left_shift:
        return go([](C a, C b) { return shift_left(a, b); });
      case Op::right_shift:
        return go([](C a, C b) { return shift_right(a, b); });
      default:
        break;
    }
  }
  return false;
}

// Comparisons (in the promoted type, IEEE for NaN) and logical ops (nonzero is true).
template <class C, class Go>
bool predicate(Op op, Go go) {
  using B = std::uint8_t;
  switch (op) {
    case Op::equal:
      return go([](C a, C b) { return static_cast<B>(a == b); });
    case Op::not_equal:
      return go([](C a, C b) { return static_cast<B>(a != b); });
    case Op::less:
      return go([](C a, C b) { return static_cast<B>(a < b); });
    case Op::less_equal:
      return go([](C a, C b) { return static_cast<B>(a <= b); });
    case Op::greater:
      return go([](C a, C b) { return static_cast<B>(a > b); });
    case Op::greater_equal:
      return go([](C a, C b) { return static_cast<B>(a >= b); });
    case Op::logical_and:
      return go([](C a, C b) { return static_cast<B>((a != C(0)) & (b != C(0))); });
    case Op::logical_or:
      return go([](C a, C b) { return static_cast<B>((a != C(0)) | (b != C(0))); });
    case Op::logical_xor:
      return go([](C a, C b) { return static_cast<B>((a != C(0)) ^ (b != C(0))); });
    default:
      return false;
  }
}

// c64/c128 operands: a complex result, or u8 for comparisons and logical ops.
bool run_complex(const OpCall& call, const Tensor& a, const Tensor& b, Tensor& out,
                 const BroadcastPlan& plan) {
  const std::int64_t n = out.size();
  return visit_complex_dtype(a.dtype(), [&](auto tag) {
    using Z = typename decltype(tag)::type;
    using R = typename Z::value_type;
    const Z* pa = data<Z>(a);
    const Z* pb = data<Z>(b);
    if (writes_u8(call.op)) {
      std::uint8_t* po = mutable_data<std::uint8_t>(out);
      return complex_predicate_binary_op<R>(call.op, [&](auto f) {
        map_binary(pa, pb, po, plan, n, cheap_grain<std::uint8_t, Z, Z>(), f);
        return true;
      });
    }
    if (call.out_dtype != a.dtype()) return false;
    Z* po = mutable_data<Z>(out);
    const bool costly = call.op == Op::pow || call.op == Op::divide;
    const std::int64_t grain = costly ? kGrain : cheap_grain<Z, Z, Z>();
    return complex_arithmetic_op<R>(call.op, [&](auto f) {
      map_binary(pa, pb, po, plan, n, grain, f);
      return true;
    });
  });
}

[[noreturn]] void no_kernel(Op op, DType in, DType out) {
  throw Unsupported("[" + std::string(op_name(op)) + "] has no cpu kernel for " +
                    std::string(dtype_name(in)) + " -> " + std::string(dtype_name(out)));
}

}  // namespace

Tensor run_binary(const OpCall& call) {
  const Tensor& a = call.inputs.at(0);
  const Tensor& b = call.inputs.at(1);
  if (a.dtype() != b.dtype()) {
    throw Unsupported(
        "[" + std::string(op_name(call.op)) + "] cpu kernel expects one input dtype, got " +
        std::string(dtype_name(a.dtype())) + " and " + std::string(dtype_name(b.dtype())));
  }
  Tensor out = make_output(call);
  const std::int64_t n = out.size();
  const BroadcastPlan plan = plan_broadcast(a.shape(), b.shape(), call.out_shape);
  if (is_complex(a.dtype())) {
    if (!run_complex(call, a, b, out, plan)) no_kernel(call.op, a.dtype(), call.out_dtype);
    return out;
  }
  const bool done = visit_dtype(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    const T* pa = data<T>(a);
    const T* pb = data<T>(b);
    if (writes_u8(call.op)) {
      std::uint8_t* po = mutable_data<std::uint8_t>(out);
      return predicate<C>(call.op, [&](auto f) {
        map_binary(pa, pb, po, plan, n, cheap_grain<std::uint8_t, T, T>(), f);
        return true;
      });
    }
    if (call.out_dtype != a.dtype()) return false;
    T* po = mutable_data<T>(out);
    // Library calls (pow, fmod, atan2) and integer division are worth a second thread
    // sooner than the one-instruction ops.
    const bool costly = call.op == Op::pow || call.op == Op::remainder || call.op == Op::atan2 ||
                        call.op == Op::divide || call.op == Op::quotient;
    const std::int64_t grain = costly ? kGrain : cheap_grain<T, T, T>();
    // Float add, subtract, multiply and divide in the widest ISA (one rounding each: the
    // same bits); the rest at the baseline.
    constexpr bool wide_type = std::is_same_v<T, float> || std::is_same_v<T, double>;
    const bool wide = wide_type && (call.op == Op::add || call.op == Op::subtract ||
                                    call.op == Op::multiply || call.op == Op::divide);
    return arithmetic<C>(call.op, [&](auto f) {
      if constexpr (wide_type) {
        if (wide) {
          map_binary_wide(pa, pb, po, plan, n, grain, f);
          return true;
        }
      }
      map_binary(pa, pb, po, plan, n, grain, f);
      return true;
    });
  });
  if (!done) no_kernel(call.op, a.dtype(), call.out_dtype);
  return out;
}

}  // namespace vkt::cpu_kernels
