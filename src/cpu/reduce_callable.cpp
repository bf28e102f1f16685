// reduce / window_reduce with a caller's function on the cpu. The function is reached
// through FoldRun once per run of elements (the innermost reduced axis, or a window row),
// so a typed function is inlined over the run. Outputs are spread over threads.
#include <cstring>
#include <exception>
#include <mutex>
#include <vector>

#include "cpu/kernels.h"

namespace vkt::cpu_kernels {
namespace {

// parallel_for for a body that runs the caller's function: an exception it throws must not
// leave an OpenMP region (that terminates); the first one is rethrown after the join.
template <class F>
void parallel_for_rethrowing(std::int64_t n, std::int64_t grain, F&& f) {
  std::exception_ptr first;
  std::mutex mutex;
  parallel_for(n, grain, [&](std::int64_t b, std::int64_t e) {
    try {
      f(b, e);
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!first) first = std::current_exception();
    }
  });
  if (first) std::rethrow_exception(first);
}

// The output index `o` as per-axis coordinates of `shape`.
void unflatten(std::int64_t o, const Shape& shape, std::vector<std::int64_t>& idx) {
  for (std::size_t a = shape.size(); a-- > 0;) {
    idx[a] = o % shape[a];
    o /= shape[a];
  }
}

// Each output folds its reduced positions in row-major order, one run per innermost
// reduced axis.
void reduce_runs(const std::byte* in, std::byte* out, std::size_t item, const Shape& in_shape,
                 const CallableReduceParams& p, std::int64_t outputs, const std::byte* acc_bytes) {
  const std::size_t rank = in_shape.size();
  const std::vector<std::int64_t> strides = contiguous_strides(in_shape);
  std::vector<bool> reduced(rank, false);
  for (std::int64_t a : p.axes) reduced[static_cast<std::size_t>(a)] = true;
  Shape kept_shape, red_shape;
  std::vector<std::int64_t> kept_strides, red_strides;
  for (std::size_t a = 0; a < rank; ++a) {
    (reduced[a] ? red_shape : kept_shape).push_back(in_shape[a]);
    (reduced[a] ? red_strides : kept_strides).push_back(strides[a]);
  }
  const std::int64_t run = red_shape.empty() ? 1 : red_shape.back();
  const std::int64_t run_stride = red_strides.empty() ? 0 : red_strides.back();
  const std::int64_t runs =
      red_shape.empty() ? 1 : numel(red_shape) / std::max<std::int64_t>(run, 1);
  parallel_for_rethrowing(
      outputs, std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(1, numel(red_shape))),
      [&](std::int64_t b, std::int64_t e) {
        std::vector<std::int64_t> k(kept_shape.size()), r(red_shape.size());
        for (std::int64_t o = b; o < e; ++o) {
          unflatten(o, kept_shape, k);
          std::int64_t base = 0;
          for (std::size_t a = 0; a < k.size(); ++a) base += k[a] * kept_strides[a];
          std::byte* acc = out + static_cast<std::size_t>(o) * item;
          std::memcpy(acc, acc_bytes, item);
          if (run == 0) continue;
          for (std::int64_t j = 0; j < runs; ++j) {
            std::int64_t offset = base;
            if (!red_shape.empty()) {
              unflatten(j * run, red_shape, r);
              for (std::size_t a = 0; a + 1 < r.size(); ++a) offset += r[a] * red_strides[a];
            }
            p.fold_run(acc, in + static_cast<std::size_t>(offset) * item, run, run_stride);
          }
        }
      });
}

// Each output folds its whole window in row-major order; positions in the padding fold
// `acc` (a stride-0 run over one copy of it), as Nx pads with acc.
void window_runs(const std::byte* in, std::byte* out, std::size_t item, const Shape& in_shape,
                 const Shape& out_shape, const CallableWindowParams& cp,
                 const std::byte* acc_bytes) {
  const WindowParams& p = cp.window;
  const std::size_t rank = in_shape.size();
  if (rank == 0) {
    std::memcpy(out, acc_bytes, item);
    cp.fold_run(out, in, 1, 1);
    return;
  }
  const std::vector<std::int64_t> strides = contiguous_strides(in_shape);
  const std::size_t last = rank - 1;
  parallel_for_rethrowing(
      numel(out_shape),
      std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(1, numel(p.dims))),
      [&](std::int64_t b, std::int64_t e) {
        std::vector<std::int64_t> idx(rank), start(rank), lo(rank), hi(rank), k(rank);
        for (std::int64_t o = b; o < e; ++o) {
          unflatten(o, out_shape, idx);
          for (std::size_t a = 0; a < rank; ++a) {
            start[a] = idx[a] * p.strides[a] - p.padding[a].first;
            const std::int64_t dil = p.dilations[a], dim = in_shape[a];
            lo[a] = start[a] < 0 ? (-start[a] + dil - 1) / dil : 0;
            hi[a] = start[a] > dim - 1 ? 0 : std::min(p.dims[a], (dim - 1 - start[a]) / dil + 1);
            k[a] = 0;
          }
          // The innermost window row: padding before, inside the input, padding after.
          const std::int64_t row = p.dims[last];
          const std::int64_t pre = std::min(lo[last], row);
          const std::int64_t mid = std::max<std::int64_t>(0, hi[last] - lo[last]);
          const std::int64_t post = row - pre - mid;
          std::byte* acc = out + static_cast<std::size_t>(o) * item;
          std::memcpy(acc, acc_bytes, item);
          while (true) {
            bool inside = true;
            std::int64_t offset = 0;
            for (std::size_t a = 0; a < last; ++a) {
              inside = inside && k[a] >= lo[a] && k[a] < hi[a];
              offset += (start[a] + k[a] * p.dilations[a]) * strides[a];
            }
            if (!inside) {
              cp.fold_run(acc, acc_bytes, row, 0);
            } else {
              cp.fold_run(acc, acc_bytes, pre, 0);
              if (mid > 0) {
                offset += (start[last] + lo[last] * p.dilations[last]) * strides[last];
                cp.fold_run(acc, in + static_cast<std::size_t>(offset) * item, mid,
                            p.dilations[last] * strides[last]);
              }
              cp.fold_run(acc, acc_bytes, post, 0);
            }
            std::size_t a = last;
            while (a-- > 0) {
              if (++k[a] < p.dims[a]) break;
              k[a] = 0;
            }
            if (a == static_cast<std::size_t>(-1)) break;
          }
        }
      });
}

}  // namespace

Tensor run_callable(const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  Tensor out = make_output(call);
  if (out.size() == 0) return out;
  const std::size_t item = itemsize(call.out_dtype);
  std::vector<std::byte> acc_bytes(item);
  const Scalar acc = call.op == Op::reduce ? call.get<CallableReduceParams>().acc
                                           : call.get<CallableWindowParams>().acc;
  visit_any_dtype(call.out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = acc.as<T>();
    std::memcpy(acc_bytes.data(), &v, item);
  });
  const auto* src = static_cast<const std::byte*>(in.storage()->host_data());
  auto* dst = mutable_data<std::byte>(out);
  if (call.op == Op::reduce) {
    reduce_runs(src, dst, item, in.shape(), call.get<CallableReduceParams>(), out.size(),
                acc_bytes.data());
  } else {
    window_runs(src, dst, item, in.shape(), call.out_shape, call.get<CallableWindowParams>(),
                acc_bytes.data());
  }
  return out;
}

}  // namespace vkt::cpu_kernels
