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

template <class W>
void run_pad(const OpCall& call, const Tensor& in, W* out) {
  const PadParams& p = call.get<PadParams>();
  W fill_word{};
  visit_dtype(call.out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = p.value.as<T>();
    static_assert(sizeof(T) <= sizeof(std::uint64_t));
    if constexpr (sizeof(T) == sizeof(W)) std::memcpy(&fill_word, &v, sizeof(W));
  });
  const std::int64_t n = numel(call.out_shape);
  parallel_for(n, stream_grain(sizeof(W)),
               [&](std::int64_t b, std::int64_t e) { std::fill(out + b, out + e, fill_word); });

  // Input element i of an axis lands at lo + i * (interior + 1); keep those inside the output.
  const auto in_strides = contiguous_strides(in.shape());
  const auto out_strides = contiguous_strides(call.out_shape);
  StridedCopy plan;
  std::int64_t src_off = 0, dst_off = 0;
  for (std::size_t a = 0; a < p.config.size(); ++a) {
    const PadAxis& c = p.config[a];
    const std::int64_t step = c.interior + 1, d = in.shape()[a], od = call.out_shape[a];
    const std::int64_t first = c.lo < 0 ? (-c.lo + step - 1) / step : 0;
    const std::int64_t end = od - c.lo <= 0 ? 0 : std::min(d, (od - c.lo + step - 1) / step);
    const std::int64_t count = std::max<std::int64_t>(0, end - first);
    if (count == 0) return;
    plan.shape.push_back(count);
    plan.src_strides.push_back(in_strides[a]);
    plan.dst_strides.push_back(out_strides[a] * step);
    src_off += first * in_strides[a];
    dst_off += (c.lo + first * step) * out_strides[a];
  }
  copy_strided(out + dst_off, data<W>(in) + src_off, std::move(plan));
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
