// gather, take, take_along_axis, select, clip, indexed_add, indexed_put on the cpu.
// Indices arrive as s64 (the core casts them). Gathers clamp them into range; indexed_add/put
// skip rows with any out-of-range index and apply the rows in order (put: the last wins).
#include <cstring>
#include <span>
#include <type_traits>

#include "cpu/strided.h"

namespace vkt::cpu_kernels {
namespace {

using Index = std::int64_t;

Index clamp_index(Index i, Index dim) {
  return i < 0 ? 0 : (i >= dim ? dim - 1 : i);
}

// Element offsets (in t) of t's axes not in `axes`, in row-major order of those axes; empty
// when they are t's trailing axes, i.e. one contiguous block.
std::vector<Index> rest_offsets(const Shape& shape, const Axes& axes) {
  const auto strides = contiguous_strides(shape);
  Shape rest_shape;
  std::vector<Index> rest_strides;
  for (std::size_t a = 0; a < shape.size(); ++a) {
    if (std::find(axes.begin(), axes.end(), static_cast<std::int64_t>(a)) != axes.end()) continue;
    rest_shape.push_back(shape[a]);
    rest_strides.push_back(strides[a]);
  }
  bool trailing = true;
  for (std::size_t j = 0; j < axes.size(); ++j) {
    trailing =
        trailing && std::find(axes.begin(), axes.end(), static_cast<std::int64_t>(j)) != axes.end();
  }
  if (trailing) return {};
  std::vector<Index> offsets(static_cast<std::size_t>(numel(rest_shape)));
  std::vector<Index> idx(rest_shape.size(), 0);
  Index off = 0;
  for (auto& o : offsets) {
    o = off;
    for (std::size_t k = rest_shape.size(); k-- > 0;) {
      off += rest_strides[k];
      if (++idx[k] < rest_shape[k]) break;
      off -= rest_strides[k] * rest_shape[k];
      idx[k] = 0;
    }
  }
  return offsets;
}

// Copies `rest` elements from src + base (at the rest offsets, or contiguous) to dst.
template <class W>
void copy_rest(W* dst, const W* src, Index rest, const std::vector<Index>& offsets) {
  if (offsets.empty()) {
    if (rest * static_cast<Index>(sizeof(W)) < 512) {
      for (Index r = 0; r < rest; ++r) dst[r] = src[r];  // short rows: no memcpy call
    } else {
      std::memcpy(dst, src, static_cast<std::size_t>(rest) * sizeof(W));
    }
    return;
  }
  for (Index r = 0; r < rest; ++r) dst[r] = src[offsets[static_cast<std::size_t>(r)]];
}

template <class W>
void run_gather(const OpCall& call, W* out) {
  const Tensor& t = call.inputs[0];
  const Tensor& indices = call.inputs[1];
  const Axes& axes = call.get<GatherParams>().axes;
  const Index* idx = data<Index>(indices);
  const W* src = data<W>(t);
  const auto strides = contiguous_strides(t.shape());
  const auto k = static_cast<Index>(axes.size());
  const Shape& ishape = indices.shape();
  const Index batch = numel(std::span<const std::int64_t>(ishape.data(), ishape.size() - 1));
  const Index rest = batch == 0 ? 0 : numel(call.out_shape) / batch;
  const auto offsets = rest_offsets(t.shape(), axes);
  if (k == 1 && rest == 1 && offsets.empty()) {
    // One element per index (gather of scattered elements): latency bound, a cache line
    // read per item at worst, so threads pay from the streaming grain of a line per item.
    const auto a = static_cast<std::size_t>(axes[0]);
    const Index dim = t.shape()[a], stride = strides[a];
    parallel_for(batch, stream_grain(64), [&](Index b, Index e) {
      for (Index i = b; i < e; ++i) out[i] = src[clamp_index(idx[i], dim) * stride];
    });
    return;
  }
  parallel_for(batch, std::max<Index>(1, kGrain / std::max<Index>(rest, 1)), [&](Index b, Index e) {
    for (Index i = b; i < e; ++i) {
      Index base = 0;
      for (Index j = 0; j < k; ++j) {
        const auto a = static_cast<std::size_t>(axes[static_cast<std::size_t>(j)]);
        base += clamp_index(idx[i * k + j], t.shape()[a]) * strides[a];
      }
      copy_rest(out + i * rest, src + base, rest, offsets);
    }
  });
}

// t viewed as {outer, dim, inner} around `axis`.
struct AxisView {
  Index outer = 1, dim = 1, inner = 1;
  AxisView(const Shape& shape, std::int64_t axis) {
    for (std::int64_t a = 0; a < static_cast<std::int64_t>(shape.size()); ++a) {
      const Index d = shape[static_cast<std::size_t>(a)];
      if (a < axis) outer *= d;
      if (a == axis) dim = d;
      if (a > axis) inner *= d;
    }
  }
};

template <class W>
void run_take(const OpCall& call, W* out) {
  const Tensor& t = call.inputs[0];
  const AxisView v(t.shape(), call.get<AxisParams>().axis);
  const Index n = call.inputs[1].size();
  const Index* idx = data<Index>(call.inputs[1]);
  const W* src = data<W>(t);
  const std::vector<Index> contiguous;
  parallel_for(v.outer * n, std::max<Index>(1, kGrain / v.inner), [&](Index b, Index e) {
    // Output row `row` is (o, k) = (row / n, row % n): divided once, then counted.
    Index o = b / n, k = b % n;
    for (Index row = b; row < e; ++row) {
      const Index j = clamp_index(idx[k], v.dim);
      copy_rest(out + row * v.inner, src + (o * v.dim + j) * v.inner, v.inner, contiguous);
      if (++k == n) k = 0, ++o;
    }
  });
}

template <class W>
void run_take_along_axis(const OpCall& call, W* out) {
  const Tensor& t = call.inputs[0];
  const std::int64_t axis = call.get<AxisParams>().axis;
  const AxisView v(t.shape(), axis);
  const Index n = call.out_shape[static_cast<std::size_t>(axis)];
  const Index* idx = data<Index>(call.inputs[1]);
  const W* src = data<W>(t);
  parallel_for(v.outer * n, std::max<Index>(1, kGrain / v.inner), [&](Index b, Index e) {
    for (Index row = b; row < e; ++row) {
      const W* s = src + (row / n) * v.dim * v.inner;
      const Index* ir = idx + row * v.inner;
      W* d = out + row * v.inner;
      for (Index i = 0; i < v.inner; ++i) d[i] = s[clamp_index(ir[i], v.dim) * v.inner + i];
    }
  });
}

template <class W>
void run_select(const OpCall& call, W* out) {
  const W* a = data<W>(call.inputs[1]);
  const W* b = data<W>(call.inputs[2]);
  // A complex predicate is true when either part is nonzero (complex != 0).
  visit_any_dtype(call.inputs[0].dtype(), [&](auto tag) {
    using P = typename decltype(tag)::type;
    const P* pred = data<P>(call.inputs[0]);
    if (call.inputs[0].size() == 1 && numel(call.out_shape) > 1) {  // one branch is taken
      const bool take_a = static_cast<compute_t<P>>(pred[0]) != compute_t<P>(0);
      const W* src = take_a ? a : b;
      const Index step = call.inputs[take_a ? 1 : 2].size() == 1 ? 0 : 1;
      parallel_for(numel(call.out_shape), kGrain, [&](Index begin, Index end) {
        for (Index i = begin; i < end; ++i) out[i] = src[i * step];
      });
      return;
    }
    // A one-element branch is read at 0 for every element (the core keeps it one element).
    const Index a_step = call.inputs[1].size() == 1 ? 0 : 1;
    const Index b_step = call.inputs[2].size() == 1 ? 0 : 1;
    parallel_for(numel(call.out_shape), kGrain, [&](Index begin, Index end) {
      for (Index i = begin; i < end; ++i) {
        out[i] =
            static_cast<compute_t<P>>(pred[i]) != compute_t<P>(0) ? a[i * a_step] : b[i * b_step];
      }
    });
  });
}

template <class T>
void run_clip(const OpCall& call, T* out) {
  using C = compute_t<T>;
  const T* x = data<T>(call.inputs[0]);
  const T* lo = data<T>(call.inputs[1]);
  const T* hi = data<T>(call.inputs[2]);
  // A one-element bound is read at 0 for every element (the core keeps it one element).
  const Index lo_step = call.inputs[1].size() == 1 ? 0 : 1;
  const Index hi_step = call.inputs[2].size() == 1 ? 0 : 1;
  parallel_for(numel(call.out_shape), kGrain, [&](Index b, Index e) {
    for (Index i = b; i < e; ++i) {
      // Written so that a NaN x stays NaN (both comparisons are false).
      C v = static_cast<C>(x[i]);
      const C l = static_cast<C>(lo[i * lo_step]), h = static_cast<C>(hi[i * hi_step]);
      v = v < l ? l : v;
      v = v > h ? h : v;
      out[i] = T(v);
    }
  });
}

// a + b wrapping for integers (no signed overflow), in compute_t for floats.
template <class T>
T add_values(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return T(static_cast<compute_t<T>>(a) + static_cast<compute_t<T>>(b));
  }
}

template <class T>
void run_indexed_update(const OpCall& call, T* out) {
  const Tensor& t = call.inputs[0];
  const Tensor& indices = call.inputs[1];
  const Axes& axes = call.get<GatherParams>().axes;
  parallel_memcpy(out, data<T>(t), static_cast<Index>(t.nbytes()));
  const Index m = indices.dim(0), k = indices.dim(1);
  const Index rest = m == 0 ? 0 : call.inputs[2].size() / m;
  const Index* idx = data<Index>(indices);
  const T* upd = data<T>(call.inputs[2]);
  const auto strides = contiguous_strides(t.shape());
  // Base offset of each row, or -1 when an index is out of range (the row is skipped).
  std::vector<Index> base(static_cast<std::size_t>(m), 0);
  for (Index i = 0; i < m; ++i) {
    Index& bo = base[static_cast<std::size_t>(i)];
    for (Index j = 0; j < k && bo >= 0; ++j) {
      const auto a = static_cast<std::size_t>(axes[static_cast<std::size_t>(j)]);
      const Index v = idx[i * k + j];
      bo = (v < 0 || v >= t.shape()[a]) ? -1 : bo + v * strides[a];
    }
  }
  std::vector<Index> offsets = rest_offsets(t.shape(), axes);
  if (offsets.empty()) {
    offsets.resize(static_cast<std::size_t>(rest));
    for (Index r = 0; r < rest; ++r) offsets[static_cast<std::size_t>(r)] = r;
  }
  const bool add = call.op == Op::indexed_add;
  // Threads split the rest elements; each applies every row in order, so duplicates
  // accumulate (add) or the last one wins (put) exactly as in a serial loop.
  parallel_for(rest, std::max<Index>(1, kGrain / std::max<Index>(m, 1)), [&](Index b, Index e) {
    for (Index i = 0; i < m; ++i) {
      const Index bo = base[static_cast<std::size_t>(i)];
      if (bo < 0) continue;
      const T* u = upd + i * rest;
      if (add) {
        for (Index r = b; r < e; ++r) {
          T& o = out[bo + offsets[static_cast<std::size_t>(r)]];
          o = add_values(o, u[r]);
        }
      } else {
        for (Index r = b; r < e; ++r) out[bo + offsets[static_cast<std::size_t>(r)]] = u[r];
      }
    }
  });
}

}  // namespace

Tensor run_indexing(const OpCall& call) {
  Tensor out = make_output(call);
  if (out.size() == 0) return out;
  switch (call.op) {
    case Op::clip:  // real only (op table): complex has no order
      visit_dtype(call.out_dtype, [&](auto tag) {
        run_clip(call, mutable_data<typename decltype(tag)::type>(out));
      });
      return out;
    case Op::indexed_add:
    case Op::indexed_put:
      visit_any_dtype(call.out_dtype, [&](auto tag) {
        run_indexed_update(call, mutable_data<typename decltype(tag)::type>(out));
      });
      return out;
    default:
      break;
  }
  visit_width(call.out_dtype, [&](auto tag) {
    using W = typename decltype(tag)::type;
    W* o = mutable_data<W>(out);
    switch (call.op) {
      case Op::gather:
        run_gather(call, o);
        break;
      case Op::take:
        run_take(call, o);
        break;
      case Op::take_along_axis:
        run_take_along_axis(call, o);
        break;
      case Op::select:
        run_select(call, o);
        break;
      default:
        throw Unsupported("[" + std::string(op_name(call.op)) + "] is not an indexing op");
    }
  });
  return out;
}

}  // namespace vkt::cpu_kernels
