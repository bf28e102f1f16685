// Loop drivers shared by the elementwise kernels: a contiguous map for unary ops and a
// broadcasting map for binary ops. Both split the output into contiguous ranges for
// parallel_for and run plain indexed loops the compiler can vectorise.
#pragma once

#include <cstdint>
#include <vector>

#include "common/broadcast_plan.h"
#include "cpu/kernels.h"

namespace vkt::cpu_kernels {

// Loads as the compute type (f16/bf16 -> float); stores by rounding once to T.
template <class T>
inline compute_t<T> load(T v) {
  return static_cast<compute_t<T>>(v);
}
template <class T, class R>
inline T store(R v) {
  if constexpr (is_half_v<T>) {
    return T(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

// Items per thread for one-instruction ops (add, compare, abs...): memory bound, so the
// measured streaming grain over the bytes each item reads and writes. Library-call and
// transcendental ops use kGrain.
template <class Out, class... In>
std::int64_t cheap_grain() {
  return stream_grain(static_cast<std::int64_t>((sizeof(In) + ... + sizeof(Out))));
}

// out[i] = f(in[i]) over n elements.
template <class In, class Out, class F>
void map_unary(const In* in, Out* out, std::int64_t n, std::int64_t grain, F f) {
  parallel_for(n, grain, [&](std::int64_t begin, std::int64_t end) {
    const In* __restrict src = in + begin;
    Out* __restrict dst = out + begin;
    const std::int64_t len = end - begin;
    for (std::int64_t i = 0; i < len; ++i) dst[i] = store<Out>(f(load(src[i])));
  });
}

// The broadcast iteration space (dims and input strides) is common::plan_broadcast.
using common::BroadcastPlan;
using common::plan_broadcast;

// One contiguous run of the output: the four stride patterns of the inputs get their own
// loop so the common ones (same shape, one operand a scalar) vectorise.
template <class T, class Out, class F>
inline void binary_row(const T* a, std::int64_t sa, const T* b, std::int64_t sb, Out* out,
                       std::int64_t len, F f) {
  const T* __restrict pa = a;
  const T* __restrict pb = b;
  Out* __restrict po = out;
  if (sa == 1 && sb == 1) {
    for (std::int64_t i = 0; i < len; ++i) po[i] = store<Out>(f(load(pa[i]), load(pb[i])));
  } else if (sa == 0 && sb == 1) {
    const auto x = load(pa[0]);
    for (std::int64_t i = 0; i < len; ++i) po[i] = store<Out>(f(x, load(pb[i])));
  } else if (sa == 1 && sb == 0) {
    const auto y = load(pb[0]);
    for (std::int64_t i = 0; i < len; ++i) po[i] = store<Out>(f(load(pa[i]), y));
  } else {
    const Out v = store<Out>(f(load(pa[0]), load(pb[0])));
    for (std::int64_t i = 0; i < len; ++i) po[i] = v;
  }
}

// out[i] = f(a[ia(i)], b[ib(i)]) over the broadcast output, each contiguous run of the
// output by row(a, sa, b, sb, out, len, f) (binary_row, or a wider ISA's: wide_loops.h).
template <class T, class Out, class F, class Row>
void map_binary_rows(const T* a, const T* b, Out* out, const BroadcastPlan& plan, std::int64_t n,
                     std::int64_t grain, F f, Row row) {
  const std::size_t rank = plan.dims.size(), inner = rank - 1;
  const std::int64_t inner_len = plan.dims[inner];
  const std::int64_t sa_inner = plan.a_strides[inner], sb_inner = plan.b_strides[inner];
  parallel_for(n, grain, [&](std::int64_t begin, std::int64_t end) {
    // Multi-index of `begin` and the matching input offsets.
    common::SmallDims idx(rank);
    std::int64_t rest = begin, oa = 0, ob = 0;
    for (std::size_t k = rank; k-- > 0;) {
      idx[k] = rest % plan.dims[k];
      rest /= plan.dims[k];
      oa += idx[k] * plan.a_strides[k];
      ob += idx[k] * plan.b_strides[k];
    }
    std::int64_t i = begin;
    while (i < end) {
      const std::int64_t len = std::min(inner_len - idx[inner], end - i);
      row(a + oa, sa_inner, b + ob, sb_inner, out + i, len, f);
      i += len;
      idx[inner] += len;
      oa += len * sa_inner;
      ob += len * sb_inner;
      // Carry into the outer axes when a row is complete.
      for (std::size_t k = inner; idx[k] == plan.dims[k] && k > 0; --k) {
        oa -= idx[k] * plan.a_strides[k];
        ob -= idx[k] * plan.b_strides[k];
        idx[k] = 0;
        ++idx[k - 1];
        oa += plan.a_strides[k - 1];
        ob += plan.b_strides[k - 1];
      }
    }
  });
}

template <class T, class Out, class F>
void map_binary(const T* a, const T* b, Out* out, const BroadcastPlan& plan, std::int64_t n,
                std::int64_t grain, F f) {
  map_binary_rows(a, b, out, plan, n, grain, f,
                  [](const T* pa, std::int64_t sa, const T* pb, std::int64_t sb, Out* po,
                     std::int64_t len, F g) { binary_row(pa, sa, pb, sb, po, len, g); });
}

}  // namespace vkt::cpu_kernels
