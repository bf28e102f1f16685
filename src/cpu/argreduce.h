// argmax / argmin on the cpu (included by reduce.cpp only). The input is seen as
// (outer, axis, inner); the flattened case is (1, size, 1). NaN counts as the extreme:
// with the low tie-break the first NaN wins, with the high one the last NaN.
#pragma once

#include <algorithm>
#include <vector>

#include "cpu/extreme_simd.h"
#include "cpu/kernels.h"
#include "cpu/reduce_ops.h"

namespace vkt::cpu_kernels {
namespace argreduce_detail {

// Does candidate x (met after `best`) replace it?
template <class C, bool kMax, bool kHigh>
inline bool replaces(C x, C best) {
  const bool x_nan = is_nan_value(x), best_nan = is_nan_value(best);
  if (best_nan) return kHigh && x_nan;
  if (x_nan) return true;
  if constexpr (kMax) {
    return kHigh ? x >= best : x > best;
  } else {
    return kHigh ? x <= best : x < best;
  }
}

template <class C>
struct Best {
  C value;
  std::int64_t index;
};

// Scans x[r * step] for r in [r0, r1) (r1 > r0).
template <class T, bool kMax, bool kHigh>
Best<compute_t<T>> scan(const T* x, std::int64_t step, std::int64_t r0, std::int64_t r1) {
  using C = compute_t<T>;
  Best<C> best{static_cast<C>(x[r0 * step]), r0};
  for (std::int64_t r = r0 + 1; r < r1; ++r) {
    const C v = static_cast<C>(x[r * step]);
    if (replaces<C, kMax, kHigh>(v, best.value)) best = {v, r};
  }
  return best;
}

// Scans x[r0, r1) of a contiguous row. Float rows go a block at a time through the
// vectorised arg-extreme; blocks with NaN or inf, and other targets, take the exact scan.
template <class T, bool kMax, bool kHigh>
Best<compute_t<T>> scan_row(const T* x, std::int64_t r0, std::int64_t r1) {
#ifdef VKT_EXTREME_SIMD
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    constexpr std::int64_t kBlock = 2048;
    Best<T> best = scan<T, kMax, kHigh>(x, 1, r0, r0 + 1);
    for (std::int64_t b = r0 + 1; b < r1; b += kBlock) {
      const std::int64_t e = std::min(b + kBlock, r1);
      bool special = false;
      T extreme{};
      const std::int64_t at = simd_arg_extreme<T, kMax, kHigh>(x + b, e - b, extreme, special);
      const Best<T> block = special ? scan<T, kMax, kHigh>(x, 1, b, e) : Best<T>{extreme, b + at};
      if (replaces<T, kMax, kHigh>(block.value, best.value)) best = block;
    }
    return best;
  }
#endif
  return scan<T, kMax, kHigh>(x, 1, r0, r1);
}

template <class T, bool kMax, bool kHigh>
void run(const T* in, std::int64_t* out, std::int64_t outer, std::int64_t axis_size,
         std::int64_t inner) {
  using C = compute_t<T>;
  const std::int64_t threads = max_threads();
  if (inner == 1 && outer < threads && axis_size >= 2 * kGrain) {
    // Few long rows: each thread scans a chunk; chunks merge in order, so ties and NaN
    // resolve as in one sequential scan.
    const std::int64_t chunks = threads;
    std::vector<Best<C>> parts(static_cast<std::size_t>(outer * chunks));
    parallel_for(outer * chunks, 1, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t task = b; task < e; ++task) {
        const std::int64_t o = task / chunks, c = task % chunks;
        parts[static_cast<std::size_t>(task)] = scan_row<T, kMax, kHigh>(
            in + o * axis_size, axis_size * c / chunks, axis_size * (c + 1) / chunks);
      }
    });
    for (std::int64_t o = 0; o < outer; ++o) {
      Best<C> best = parts[static_cast<std::size_t>(o * chunks)];
      for (std::int64_t c = 1; c < chunks; ++c) {
        const Best<C>& p = parts[static_cast<std::size_t>(o * chunks + c)];
        if (replaces<C, kMax, kHigh>(p.value, best.value)) best = p;
      }
      out[o] = best.index;
    }
    return;
  }
  if (inner == 1) {
    parallel_for(outer, std::max<std::int64_t>(1, kGrain / axis_size),
                 [&](std::int64_t b, std::int64_t e) {
                   for (std::int64_t o = b; o < e; ++o) {
                     out[o] = scan_row<T, kMax, kHigh>(in + o * axis_size, 0, axis_size).index;
                   }
                 });
    return;
  }
  // Inner axis kept: compare whole rows against a row of running bests, a tile at a time.
  constexpr std::int64_t kTile = 512;
  const std::int64_t tiles = (inner + kTile - 1) / kTile;
  const std::int64_t grain =
      std::max<std::int64_t>(1, kGrain / (std::min(kTile, inner) * axis_size));
  parallel_for(outer * tiles, grain, [&](std::int64_t b, std::int64_t e) {
    C best[kTile];
    for (std::int64_t task = b; task < e; ++task) {
      const std::int64_t o = task / tiles, j0 = (task % tiles) * kTile;
      const std::int64_t n = std::min(kTile, inner - j0);
      const T* base = in + o * axis_size * inner + j0;
      std::int64_t* idx = out + o * inner + j0;
      for (std::int64_t j = 0; j < n; ++j) {
        best[j] = static_cast<C>(base[j]);
        idx[j] = 0;
      }
      for (std::int64_t r = 1; r < axis_size; ++r) {
        const T* row = base + r * inner;
        for (std::int64_t j = 0; j < n; ++j) {
          const C v = static_cast<C>(row[j]);
          if (replaces<C, kMax, kHigh>(v, best[j])) {
            best[j] = v;
            idx[j] = r;
          }
        }
      }
    }
  });
}

}  // namespace argreduce_detail

inline Tensor run_argreduce(const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  const ArgReduceParams& p = call.get<ArgReduceParams>();
  Tensor out = make_output(call);
  if (out.size() == 0) return out;
  std::int64_t outer = 1, axis_size = in.size(), inner = 1;
  if (p.axis >= 0) {
    const auto a = static_cast<std::size_t>(p.axis);
    axis_size = in.shape()[a];
    for (std::size_t i = 0; i < a; ++i) outer *= in.shape()[i];
    for (std::size_t i = a + 1; i < in.shape().size(); ++i) inner *= in.shape()[i];
  }
  if (axis_size == 0) {
    throw ShapeError("[" + std::string(op_name(call.op)) + "] cannot reduce an axis of size 0");
  }
  const bool is_max = call.op == Op::argmax;
  visit_dtype(in.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* x = data<T>(in);
    std::int64_t* o = mutable_data<std::int64_t>(out);
    using namespace argreduce_detail;
    if (is_max) {
      p.tie_high ? run<T, true, true>(x, o, outer, axis_size, inner)
                 : run<T, true, false>(x, o, outer, axis_size, inner);
    } else {
      p.tie_high ? run<T, false, true>(x, o, outer, axis_size, inner)
                 : run<T, false, false>(x, o, outer, axis_size, inner);
    }
  });
  return out;
}

}  // namespace vkt::cpu_kernels
