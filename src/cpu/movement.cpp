// broadcast, transpose, pad, reverse, slice, put_slice, concatenate on the cpu. All of them
// move raw words of the element size; only pad converts a value (once).
#include <algorithm>
#include <cstring>

#include "cpu/strided.h"
#include "cpu/transpose.h"

namespace vkt::cpu_kernels {
namespace {

template <class W>
void run_broadcast(const OpCall& call, const Tensor& in, W* out) {
  const Axes& axes = call.get<BroadcastParams>().axes;
  const auto in_strides = contiguous_strides(in.shape());
  StridedCopy plan{call.out_shape, contiguous_strides(call.out_shape),
                   std::vector<std::int64_t>(call.out_shape.size(), 0)};
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (in.shape()[i] != 1) plan.src_strides[static_cast<std::size_t>(axes[i])] = in_strides[i];
  }
  copy_strided(out, data<W>(in), std::move(plan));
}

template <class W>
void run_transpose(const OpCall& call, const Tensor& in, W* out) {
  const Axes& perm = call.get<TransposeParams>().perm;
  const auto in_strides = contiguous_strides(in.shape());
  StridedCopy plan{call.out_shape, contiguous_strides(call.out_shape), {}};
  for (std::int64_t p : perm) plan.src_strides.push_back(in_strides[static_cast<std::size_t>(p)]);
  transpose_words(out, data<W>(in), std::move(plan));
}

// pad in one parallel pass over the output rows (all axes but the last): each thread fills
// its own rows, then copies the input elements that land in them. A fill of the whole
// output followed by a copy over it splits the rows differently between threads, so on
// the H200 host (16 cores, 2 MiB L2 each) the copy pulled every line from another core's
// cache: a 1M pad took 155 to 243 us against PyTorch's 75.
template <class W>
void run_pad(const OpCall& call, const Tensor& in, W* out) {
  const PadParams& p = call.get<PadParams>();
  W fill{};
  visit_any_dtype(call.out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = p.value.as<T>();  // a complex value keeps both parts
    if constexpr (sizeof(T) == sizeof(W)) std::memcpy(&fill, &v, sizeof(W));
  });
  const Shape& oshape = call.out_shape;
  if (oshape.empty()) {  // rank 0: the value itself
    *out = *data<W>(in);
    return;
  }
  const std::size_t last = oshape.size() - 1;
  const std::int64_t width = oshape[last];
  const std::int64_t rows = width == 0 ? 0 : numel(oshape) / width;
  const auto in_strides = contiguous_strides(in.shape());
  // Per axis: step between input elements in the output, and input index range that lands
  // inside it ([first, end)); an input element i sits at output lo + i * step.
  struct AxisMap {
    std::int64_t lo, step, first, end, in_stride;
  };
  std::vector<AxisMap> axes;
  for (std::size_t a = 0; a < oshape.size(); ++a) {
    const PadAxis& c = p.config[a];
    const std::int64_t step = c.interior + 1, d = in.shape()[a], od = oshape[a];
    const std::int64_t first = c.lo < 0 ? (-c.lo + step - 1) / step : 0;
    const std::int64_t end = od - c.lo <= 0 ? 0 : std::min(d, (od - c.lo + step - 1) / step);
    axes.push_back({c.lo, step, first, std::max(first, end), in_strides[a]});
  }
  const AxisMap inner = axes[last];
  const W* src = data<W>(in);
  // Each thread's rows go in blocks of about 32 KiB, filled then copied while in L1.
  const std::int64_t block = std::max<std::int64_t>(
      1, (std::int64_t{32} << 10) / (width * static_cast<std::int64_t>(sizeof(W))));
  auto pad_block = [&, fill](std::int64_t b, std::int64_t e) {
    W* __restrict chunk = out + b * width;
    const std::int64_t words = (e - b) * width;
    for (std::int64_t k = 0; k < words; ++k) chunk[k] = fill;
    if (inner.end <= inner.first) return;
    const std::int64_t first = inner.first, end = inner.end, step = inner.step;
    auto copy_run = [=](W* __restrict d, const W* __restrict s) {
      if (step == 1) {
        for (std::int64_t i = first; i < end; ++i) d[i] = s[i];
      } else {
        for (std::int64_t i = first; i < end; ++i) d[i * step] = s[i];
      }
    };
    if (last == 1) {  // a matrix: the row index alone says which input row lands there
      const AxisMap m = axes[0];
      if (m.step == 1) {  // the rows holding input are one range: no division per row
        const std::int64_t r0 = std::max(b, m.lo + m.first), r1 = std::min(e, m.lo + m.end);
        for (std::int64_t row = r0; row < r1; ++row) {
          copy_run(out + row * width + inner.lo, src + (row - m.lo) * m.in_stride);
        }
        return;
      }
      for (std::int64_t row = b; row < e; ++row) {
        const std::int64_t t = row - m.lo;
        if (t < 0 || t % m.step != 0) continue;
        const std::int64_t i = t / m.step;
        if (i >= m.first && i < m.end)
          copy_run(out + row * width + inner.lo, src + i * m.in_stride);
      }
      return;
    }
    std::vector<std::int64_t> idx(last, 0);  // odometer over the outer output axes
    for (std::int64_t rem = b, k = static_cast<std::int64_t>(last); k-- > 0;) {
      idx[static_cast<std::size_t>(k)] = rem % oshape[static_cast<std::size_t>(k)];
      rem /= oshape[static_cast<std::size_t>(k)];
    }
    for (std::int64_t row = b; row < e; ++row) {
      std::int64_t soff = 0;
      bool holds = true;
      for (std::size_t a = 0; a < last && holds; ++a) {
        const std::int64_t t = idx[a] - axes[a].lo;
        const std::int64_t i = axes[a].step == 1 ? t : t / axes[a].step;
        holds = t >= 0 && (axes[a].step == 1 || t % axes[a].step == 0) && i >= axes[a].first &&
                i < axes[a].end;
        soff += i * axes[a].in_stride;
      }
      if (holds) copy_run(out + row * width + inner.lo, src + soff);
      for (std::size_t k = last; k-- > 0;) {
        if (++idx[k] < oshape[k]) break;
        idx[k] = 0;
      }
    }
  };
  parallel_for(rows, stream_grain(2 * width * static_cast<std::int64_t>(sizeof(W))),
               [&](std::int64_t b, std::int64_t e) {
                 for (std::int64_t r = b; r < e; r += block) pad_block(r, std::min(e, r + block));
               });
}

template <class W>
void run_reverse(const OpCall& call, const Tensor& in, W* out) {
  const auto strides = contiguous_strides(in.shape());
  StridedCopy plan{in.shape(), strides, strides};
  std::int64_t src_off = 0;
  for (std::int64_t a : call.get<AxesParams>().axes) {
    const auto i = static_cast<std::size_t>(a);
    src_off += (in.shape()[i] - 1) * strides[i];
    plan.src_strides[i] = -strides[i];
  }
  copy_strided(out, data<W>(in) + src_off, std::move(plan));
}

template <class W>
void run_slice(const OpCall& call, const Tensor& in, W* out) {
  const SliceParams& p = call.get<SliceParams>();
  const auto strides = contiguous_strides(in.shape());
  StridedCopy plan{p.lengths, contiguous_strides(p.lengths), {}};
  std::int64_t src_off = 0;
  for (std::size_t a = 0; a < strides.size(); ++a) {
    src_off += p.start[a] * strides[a];
    plan.src_strides.push_back(p.strides[a] * strides[a]);
  }
  copy_strided(out, data<W>(in) + src_off, std::move(plan));
}

template <class W>
void run_put_slice(const OpCall& call, W* out) {
  const Tensor& t = call.inputs[0];
  const Tensor& update = call.inputs[1];
  parallel_memcpy(out, data<W>(t), static_cast<std::int64_t>(t.nbytes()));
  const auto strides = contiguous_strides(t.shape());
  std::int64_t dst_off = 0;
  for (std::size_t a = 0; a < strides.size(); ++a) {
    dst_off += call.get<PutSliceParams>().start[a] * strides[a];
  }
  copy_strided(out + dst_off, data<W>(update),
               StridedCopy{update.shape(), strides, contiguous_strides(update.shape())});
}

// Each output row (the axes before `axis`) is the inputs' rows laid end to end.
void run_concatenate(const OpCall& call, std::byte* out) {
  const auto axis = static_cast<std::size_t>(call.get<AxisParams>().axis);
  const std::size_t item = itemsize(call.out_dtype);
  std::int64_t rows = 1, inner = 1;
  for (std::size_t a = 0; a < axis; ++a) rows *= call.out_shape[a];
  for (std::size_t a = axis + 1; a < call.out_shape.size(); ++a) inner *= call.out_shape[a];
  const std::int64_t out_row = call.out_shape[axis] * inner * static_cast<std::int64_t>(item);
  std::vector<const std::byte*> src;
  std::vector<std::int64_t> chunk, offset;
  std::int64_t off = 0;
  for (const Tensor& t : call.inputs) {
    src.push_back(static_cast<const std::byte*>(t.storage()->host_data()));
    chunk.push_back(t.dim(static_cast<std::int64_t>(axis)) * inner *
                    static_cast<std::int64_t>(item));
    offset.push_back(off);
    off += chunk.back();
  }
  // Many short rows: rows across threads; few long rows: each memcpy split across threads.
  if (rows >= 2 * static_cast<std::int64_t>(max_threads()) && out_row <= (std::int64_t{1} << 20)) {
    const std::int64_t grain =
        std::max<std::int64_t>(1, stream_grain(2 * std::max<std::int64_t>(out_row, 1)));
    parallel_for(rows, grain, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t r = b; r < e; ++r) {
        for (std::size_t i = 0; i < src.size(); ++i) {
          if (chunk[i] == 0) continue;
          copy_bytes(out + r * out_row + offset[i], src[i] + r * chunk[i], chunk[i]);
        }
      }
    });
    return;
  }
  // One parallel region over all the bytes of the few long pieces.
  std::vector<std::int64_t> piece_start;  // output byte offset of piece (r, i)
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::size_t i = 0; i < src.size(); ++i) piece_start.push_back(r * out_row + offset[i]);
  }
  const std::int64_t total = rows * out_row;
  parallel_for(total, stream_grain(2), [&](std::int64_t b, std::int64_t e) {
    std::size_t p = static_cast<std::size_t>(
        std::upper_bound(piece_start.begin(), piece_start.end(), b) - piece_start.begin() - 1);
    for (std::int64_t pos = b; pos < e; ++p) {
      const std::int64_t r = static_cast<std::int64_t>(p / src.size());
      const std::size_t i = p % src.size();
      const std::int64_t in_piece = pos - piece_start[p];
      const std::int64_t n = std::min(e - pos, chunk[i] - in_piece);
      if (n > 0) {
        copy_bytes(out + pos, src[i] + r * chunk[i] + in_piece, n);
      }
      pos += std::max<std::int64_t>(n, 0);
    }
  });
}

}  // namespace

Tensor run_movement(const OpCall& call) {
  Tensor out = make_output(call);
  if (out.size() == 0) return out;
  if (call.op == Op::concatenate) {
    run_concatenate(call, mutable_data<std::byte>(out));
    return out;
  }
  const Tensor& in = call.inputs.at(0);
  visit_width(call.out_dtype, [&](auto tag) {
    using W = typename decltype(tag)::type;
    W* o = mutable_data<W>(out);
    switch (call.op) {
      case Op::broadcast:
        run_broadcast(call, in, o);
        break;
      case Op::transpose:
        run_transpose(call, in, o);
        break;
      case Op::pad:
        run_pad(call, in, o);
        break;
      case Op::reverse:
        run_reverse(call, in, o);
        break;
      case Op::slice:
        run_slice(call, in, o);
        break;
      case Op::put_slice:
        run_put_slice(call, o);
        break;
      default:
        throw Unsupported("[" + std::string(op_name(call.op)) + "] is not a movement op");
    }
  });
  return out;
}

}  // namespace vkt::cpu_kernels
