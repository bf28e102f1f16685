#include "cpu/compile/compiled_rows_wide.h"

#include "cpu/wide_loops.h"

namespace vkt::cpu_kernels {
namespace {

#if defined(__x86_64__) && defined(__GNUC__)
// One row: a and b step by 1 along it or stay on one element (sa, sb: 1 or 0).
template <class T, class F>
inline void row(const T* __restrict a, bool sa, const T* __restrict b, bool sb, T* __restrict o,
                std::int64_t len, F f) {
  if (sa && sb) {
    for (std::int64_t i = 0; i < len; ++i) o[i] = f(a[i], b[i]);
  } else if (sa) {
    const T y = b[0];
    for (std::int64_t i = 0; i < len; ++i) o[i] = f(a[i], y);
  } else if (sb) {
    const T x = a[0];
    for (std::int64_t i = 0; i < len; ++i) o[i] = f(x, b[i]);
  } else {
    const T v = f(a[0], b[0]);
    for (std::int64_t i = 0; i < len; ++i) o[i] = v;
  }
}

// How an operand of the block reads: its row step (per row: len or 0) and along the row.
struct Operand {
  const void* data;
  std::int64_t row_step;
  bool along;
};

template <class T, class F>
__attribute__((target("avx2,fma"))) void rows_avx2(Operand a, Operand b, T* o, std::int64_t m,
                                                   std::int64_t len, F f) {
  for (std::int64_t r = 0; r < m; ++r) {
    row(static_cast<const T*>(a.data) + r * a.row_step, a.along,
        static_cast<const T*>(b.data) + r * b.row_step, b.along, o + r * len, len, f);
  }
}
template <class T, class F>
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,fma"))) void rows_avx512(
    Operand a, Operand b, T* o, std::int64_t m, std::int64_t len, F f) {
  for (std::int64_t r = 0; r < m; ++r) {
    row(static_cast<const T*>(a.data) + r * a.row_step, a.along,
        static_cast<const T*>(b.data) + r * b.row_step, b.along, o + r * len, len, f);
  }
}

// t as an operand of a {m, len} block, or nullopt for another shape.
bool operand(const Tensor& t, std::int64_t m, std::int64_t len, Operand& out) {
  const Shape& s = t.shape();
  out.data = t.storage()->host_data();
  if (t.size() == 1) {
    out.row_step = 0;
    out.along = false;
  } else if ((s.size() == 2 && s[0] == m && s[1] == len) || (m == 1 && s == Shape{len})) {
    out.row_step = len;
    out.along = true;
  } else if (s.size() == 2 && s[0] == m && s[1] == 1) {
    out.row_step = 1;
    out.along = false;
  } else if (s.size() == 2 && s[0] == 1 && s[1] == len) {
    out.row_step = 0;
    out.along = true;
  } else {
    return false;
  }
  return true;
}

template <class T>
Tensor run_wide(const OpCall& call, Operand a, Operand b, std::int64_t m, std::int64_t len,
                VectorIsa isa) {
  Tensor out = make_output(call);
  T* o = mutable_data<T>(out);
  auto go = [&](auto f) {
    if (isa == VectorIsa::avx512) {
      rows_avx512<T>(a, b, o, m, len, f);
    } else {
      rows_avx2<T>(a, b, o, m, len, f);
    }
  };
  // As elementwise_binary.cpp's float arithmetic: one correctly rounded operation.
  switch (call.op) {
    case Op::add:
      go([](T x, T y) { return x + y; });
      break;
    case Op::subtract:
      go([](T x, T y) { return x - y; });
      break;
    case Op::multiply:
      go([](T x, T y) { return x * y; });
      break;
    default:
      go([](T x, T y) { return x / y; });
      break;
  }
  return out;
}
#endif

}  // namespace

Tensor wide_row_binary(const OpCall& call) {
#if defined(__x86_64__) && defined(__GNUC__)
  const VectorIsa isa = vector_isa();
  const Op op = call.op;
  const bool arithmetic =
      op == Op::add || op == Op::subtract || op == Op::multiply || op == Op::divide;
  const DType d = call.out_dtype;
  const std::size_t rank = call.out_shape.size();
  if (isa == VectorIsa::baseline || !arithmetic || (d != DType::f32 && d != DType::f64) ||
      call.inputs.size() != 2 || rank < 1 || rank > 2)
    return Tensor();
  // A flat block {len} (compiled.cpp's elementwise groups) is one row.
  const std::int64_t m = rank == 2 ? call.out_shape[0] : 1, len = call.out_shape.back();
  Operand a{}, b{};
  for (const Tensor& in : call.inputs) {
    if (in.dtype() != d) return Tensor();
  }
  if (!operand(call.inputs[0], m, len, a) || !operand(call.inputs[1], m, len, b)) return Tensor();
  return d == DType::f32 ? run_wide<float>(call, a, b, m, len, isa)
                         : run_wide<double>(call, a, b, m, len, isa);
#else
  (void)call;
  return Tensor();
#endif
}

}  // namespace vkt::cpu_kernels
