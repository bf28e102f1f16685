// window_scatter_max / window_scatter_min on the cpu: each window's chosen position is
// found in parallel, then the source values are added in window order on one thread, so
// collisions sum in the same order every run (Nx's BinaryBackend order).
#include <type_traits>
#include <vector>

#include "cpu/kernels.h"

namespace vkt::cpu_kernels {
namespace {

// Adds in T; integers wrap (through the unsigned type, no signed overflow).
template <class T>
T add_in(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return static_cast<T>(static_cast<compute_t<T>>(a) + static_cast<compute_t<T>>(b));
  }
}

// The flat input index each window chooses (-1 when the window lies in padding only).
template <class T>
std::vector<std::int64_t> chosen_positions(const T* in, const Shape& in_shape, const Shape& windows,
                                           const WindowParams& p, bool want_max) {
  using C = compute_t<T>;
  const std::size_t rank = in_shape.size();
  const std::int64_t count = numel(windows);
  std::vector<std::int64_t> chosen(static_cast<std::size_t>(count), -1);
  if (rank == 0) {
    if (count == 1) chosen[0] = 0;
    return chosen;
  }
  const std::vector<std::int64_t> in_strides = contiguous_strides(in_shape);
  parallel_for(
      count, std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(1, numel(p.dims))),
      [&](std::int64_t b, std::int64_t e) {
        std::vector<std::int64_t> idx(rank), lo(rank), hi(rank), k(rank), start(rank);
        for (std::int64_t w = b; w < e; ++w) {
          std::int64_t rest = w;
          for (std::size_t a = rank; a-- > 0;) {
            idx[a] = rest % windows[a];
            rest /= windows[a];
          }
          bool empty = false;
          for (std::size_t a = 0; a < rank; ++a) {
            start[a] = idx[a] * p.strides[a] - p.padding[a].first;
            const std::int64_t dil = p.dilations[a], dim = in_shape[a];
            lo[a] = start[a] < 0 ? (-start[a] + dil - 1) / dil : 0;
            hi[a] = start[a] > dim - 1 ? 0 : std::min(p.dims[a], (dim - 1 - start[a]) / dil + 1);
            if (lo[a] >= hi[a]) empty = true;
            k[a] = lo[a];
          }
          if (empty) continue;
          std::int64_t best_at = -1;
          C best{};
          while (true) {
            std::int64_t offset = 0;
            for (std::size_t a = 0; a < rank; ++a) {
              offset += (start[a] + k[a] * p.dilations[a]) * in_strides[a];
            }
            const C x = static_cast<C>(in[offset]);
            // x >= best (x <= best): ties go to the later position, as Nx's >= select.
            if (best_at < 0 || (want_max ? x >= best : x <= best)) {
              best = x;
              best_at = offset;
            }
            std::size_t a = rank;
            while (a-- > 0) {
              if (++k[a] < hi[a]) break;
              k[a] = lo[a];
            }
            if (a == static_cast<std::size_t>(-1)) break;
          }
          chosen[static_cast<std::size_t>(w)] = best_at;
        }
      });
  return chosen;
}

}  // namespace

Tensor run_window_scatter(const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  const Tensor& source = call.inputs.at(1);
  const auto& p = call.get<WindowScatterParams>();
  Tensor out = make_output(call);
  if (out.size() == 0) return out;
  std::vector<std::int64_t> chosen;
  visit_dtype(in.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    chosen = chosen_positions<T>(data<T>(in), in.shape(), source.shape(), p.window,
                                 call.op == Op::window_scatter_max);
  });
  visit_dtype(call.out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = mutable_data<T>(out);
    const T init = p.init_value.as<T>();
    std::fill(o, o + out.size(), init);
    const T* src = data<T>(source);
    for (std::size_t w = 0; w < chosen.size(); ++w) {
      if (chosen[w] >= 0) o[chosen[w]] = add_in(o[chosen[w]], src[w]);
    }
  });
  return out;
}

}  // namespace vkt::cpu_kernels
