// vkt::compile on the cpu: a fused group runs block by block. Each block of the output
// (kFusedBlockElements, sized to stay in L2) evaluates the group's values in order with the
// backend's own elementwise kernels, so results are eager's bit for bit, while
// intermediates live in cache instead of streaming through memory once per op. A group
// that ends in a reduction over its trailing axes reduces each block as it is evaluated,
// in the order and pieces of reduce.cpp (so sums are eager's bit for bit); over other axes
// its prologue is evaluated into one tensor and reduced by the backend's reduction.
#include "cpu/compile/compiled.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "common/reduce_groups.h"
#include "cpu/block_arena.h"
#include "cpu/borrowed_storage.h"
#include "cpu/compile/compiled_dot.h"
#include "cpu/compile/compiled_rows.h"
#include "cpu/compile/compiled_rows_wide.h"
#include "cpu/kernels.h"
#include "cpu/reduce_contiguous.h"
#include "vkt/ledger.h"

namespace vkt::cpu_kernels {

std::vector<std::size_t> last_uses(const detail::FusedGroup& g) {
  std::vector<std::size_t> last(g.values.size());
  for (std::size_t i = 0; i < g.values.size(); ++i) {
    last[i] = i;
    for (int a : g.values[i].args) last[static_cast<std::size_t>(a)] = i;
  }
  for (int o : g.outputs) last[static_cast<std::size_t>(o)] = g.values.size();
  return last;
}
namespace {

// `count` copies of one element of `item` bytes: a typed fill (a memcpy per element cost
// softmax's broadcast row maxima more than the rest of its group on the cpu).
void fill_items(std::byte* dst, const std::byte* one, std::size_t item, std::int64_t count) {
  auto fill = [&](auto tag) {
    using U = decltype(tag);
    U v;
    std::memcpy(&v, one, sizeof v);
    std::fill_n(reinterpret_cast<U*>(dst), count, v);
  };
  switch (item) {
    case 1:
      fill(std::uint8_t{});
      break;
    case 2:
      fill(std::uint16_t{});
      break;
    case 4:
      fill(std::uint32_t{});
      break;
    default:
      fill(std::uint64_t{});
      break;
  }
}

// A leaf broadcast to the group's shape, elements [begin, begin + len) of it.
Tensor broadcast_block(const Tensor& leaf, const Shape& out, std::int64_t begin, std::int64_t len) {
  const std::size_t rank = out.size();
  const Shape& s = leaf.shape();
  std::vector<std::int64_t> stride(rank, 0), coord(rank, 0);
  std::int64_t st = 1;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const std::size_t axis = s.size() - 1 - k, out_axis = rank - 1 - k;
    if (s[axis] != 1) stride[out_axis] = st;
    st *= s[axis];
  }
  std::int64_t rest = begin, offset = 0;
  for (std::size_t d = rank; d-- > 0;) {
    coord[d] = rest % out[d];
    rest /= out[d];
    offset += coord[d] * stride[d];
  }
  Tensor block = make_tensor(leaf.dtype(), {len});
  const std::size_t item = itemsize(leaf.dtype());
  const auto* src = static_cast<const std::byte*>(leaf.storage()->host_data());
  auto* dst = mutable_data<std::byte>(block);
  // Runs along the last axis: a copy where the leaf varies there (stride 1), a fill where
  // it is broadcast (stride 0); one element at a time cost softmax's row max and sum
  // broadcasts several times eager's time on the H200 host.
  const std::size_t last = rank - 1;
  std::int64_t i = 0;
  while (i < len) {
    const std::int64_t run = std::min(len - i, out[last] - coord[last]);
    std::byte* d = dst + static_cast<std::size_t>(i) * item;
    const std::byte* from = src + static_cast<std::size_t>(offset) * item;
    if (stride[last] == 1) {
      std::memcpy(d, from, static_cast<std::size_t>(run) * item);
    } else {
      fill_items(d, from, item, run);
    }
    i += run;
    offset += stride[last] * (run - 1);
    coord[last] += run - 1;
    for (std::size_t d2 = rank; d2-- > 0;) {  // odometer step past the run's last element
      offset += stride[d2];
      if (++coord[d2] < out[d2]) break;
      offset -= stride[d2] * out[d2];
      coord[d2] = 0;
    }
  }
  return block;
}

// A block value ({}, {n}, {rows, 1}, {1, cols} or full) as a tensor of shape `to`, {len}
// or {rows, cols}, written out: each row of the result repeats or copies the value's.
Tensor expand(const Tensor& t, const Shape& to) {
  Tensor out = make_tensor(t.dtype(), to);
  const std::size_t item = itemsize(t.dtype());
  const std::int64_t cols = to.empty() ? 1 : to.back(),
                     rows = numel(to) / std::max<std::int64_t>(cols, 1);
  const auto* src = static_cast<const std::byte*>(t.storage()->host_data());
  auto* dst = mutable_data<std::byte>(out);
  const std::int64_t t_cols = t.rank() == 0 ? 1 : t.shape().back();
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::byte* from = t.size() == 1      ? src
                            : t_cols == 1      ? src + static_cast<std::size_t>(r) * item
                            : t.size() == cols ? src
                                               : src + static_cast<std::size_t>(r * cols) * item;
    std::byte* d = dst + static_cast<std::size_t>(r * cols) * item;
    if (t_cols == 1) {
      fill_items(d, from, item, cols);
    } else {
      std::memcpy(d, from, static_cast<std::size_t>(cols) * item);
    }
  }
  return out;
}

class CpuFusedKernel final : public detail::FusedKernel {
 public:
  explicit CpuFusedKernel(detail::FusedGroup group)
      : g_(std::move(group)), last_use_(last_uses(g_)), grain_bytes_(work_bytes(g_)) {}

  std::vector<Tensor> run(const std::vector<Tensor>& leaves) override {
    if (g_.reduce) return run_reduction(leaves);
    std::vector<Tensor> outs;
    for (int o : g_.outputs)
      outs.push_back(make_tensor(g_.values[static_cast<std::size_t>(o)].dtype, g_.shape));
    write_outputs(leaves, outs);
    return outs;
  }

 private:
  // Bytes the group's kernels read and write per element, leaves and outputs included: its
  // whole work, in the unit of the measured streaming grain. The ops run in cache, so this
  // over-counts their cost, which only gives threads work earlier.
  static std::int64_t work_bytes(const detail::FusedGroup& g) {
    std::int64_t bytes = 0;
    for (const detail::FusedValue& v : g.values) {
      if (v.kind != detail::FusedValue::Kind::op) {
        if (v.kind == detail::FusedValue::Kind::leaf) bytes += itemsize(v.dtype);
        continue;
      }
      bytes += static_cast<std::int64_t>(itemsize(v.dtype));
      for (int a : v.args) bytes += itemsize(g.values[static_cast<std::size_t>(a)].dtype);
    }
    for (int o : g.outputs) bytes += itemsize(g.values[static_cast<std::size_t>(o)].dtype);
    return std::max<std::int64_t>(bytes, 1);
  }

  // Elements each thread needs to pay for itself: the measured streaming grain over the
  // group's work per element, at most the compute-bound grain (groups often hold costly ops).
  std::int64_t grain_elements() const { return std::min(stream_grain(grain_bytes_), kGrain); }

  // Evaluates the group over every element and writes `outs` (one per g_.outputs).
  void write_outputs(const std::vector<Tensor>& leaves, const std::vector<Tensor>& outs) const {
    const std::int64_t n = numel(g_.shape);
    const std::int64_t blocks = (n + kFusedBlockElements - 1) / kFusedBlockElements;
    const std::int64_t grain_blocks =
        std::max<std::int64_t>(1, grain_elements() / kFusedBlockElements);
    parallel_for(blocks, grain_blocks, [&](std::int64_t b0, std::int64_t b1) {
      const BlockArena arena;  // this thread's block values, reused block after block
      for (std::int64_t blk = b0; blk < b1; ++blk) {
        const std::int64_t begin = blk * kFusedBlockElements,
                           len = std::min(kFusedBlockElements, n - begin);
        const std::vector<Tensor> v = evaluate(leaves, begin, len, &outs);
        for (std::size_t k = 0; k < g_.outputs.size(); ++k)
          store_block(v[static_cast<std::size_t>(g_.outputs[k])], outs[k], begin, len);
      }
    });
  }

  std::int64_t row_length() const {
    return g_.shape.empty() ? 1 : std::max<std::int64_t>(g_.shape.back(), 1);
  }

  // A block's values' full shape: {rows, cols} for whole rows of the last axis or part of
  // one row, else {len}.
  Shape block_shape(std::int64_t begin, std::int64_t len) const {
    const std::int64_t inner = row_length();
    if (begin % inner == 0 && len % inner == 0) return {len / inner, inner};
    if (begin / inner == (begin + len - 1) / inner) return {1, len};
    return {len};
  }

  // The group's values over elements [begin, begin + len) of its shape. Where the block is
  // whole rows of the last axis, or part of one row, values are 2-D ({rows, cols}) and a
  // leaf broadcast per row ({rows, 1}) or the same row for all ({1, cols}, a bias) is read
  // in place, the kernels broadcasting it as eager's do; otherwise values are {len} and
  // broadcast leaves are copied out. A value of one element for the block is rank 0.
  // With `outs` (one per g_.outputs), the kernel that makes an output writes its block of
  // that output in place (the arena's placement), and store_block has nothing to copy.
  std::vector<Tensor> evaluate(const std::vector<Tensor>& leaves, std::int64_t begin,
                               std::int64_t len, const std::vector<Tensor>* outs = nullptr) const {
    const std::int64_t inner = row_length(), r0 = begin / inner, c0 = begin % inner;
    const Shape full = block_shape(begin, len);
    const bool two_d = full.size() == 2;
    std::vector<Tensor> v(g_.values.size());
    for (std::size_t i = 0; i < g_.values.size(); ++i) {
      const detail::FusedValue& fv = g_.values[i];
      switch (fv.kind) {
        case detail::FusedValue::Kind::scalar:
          v[i] = borrowed(fv.scalar.data(), fv.dtype, {});
          break;
        case detail::FusedValue::Kind::leaf: {
          const Tensor& leaf = leaves[static_cast<std::size_t>(fv.leaf)];
          const auto* base = static_cast<const std::byte*>(leaf.storage()->host_data());
          const std::size_t item = itemsize(leaf.dtype());
          const std::int64_t last = leaf.rank() == 0 ? 1 : leaf.shape().back();
          const std::int64_t leaf_rows = leaf.size() / std::max<std::int64_t>(last, 1);
          if (leaf.size() == 1) {
            v[i] = borrowed(base, leaf.dtype(), {});
          } else if (leaf.size() == numel(g_.shape)) {
            v[i] = borrowed(base + static_cast<std::size_t>(begin) * item, leaf.dtype(), full);
          } else if (two_d && last == 1 && leaf_rows == numel(g_.shape) / inner) {
            v[i] = borrowed(base + static_cast<std::size_t>(r0) * item, leaf.dtype(),
                            {full[0], 1});  // one value per row
          } else if (two_d && leaf_rows == 1 && last == inner) {
            v[i] = borrowed(base + static_cast<std::size_t>(c0) * item, leaf.dtype(),
                            {1, full[1]});  // the same row for every row
          } else {
            const Tensor flat = broadcast_block(leaf, g_.shape, begin, len);
            v[i] = Tensor(flat.dtype(), full, flat.storage());
          }
          break;
        }
        case detail::FusedValue::Kind::op: {
          OpCall call{fv.op, {}, NoParams{}, fv.dtype, {}, nullptr};
          for (int a : fv.args) {
            call.inputs.push_back(v[static_cast<std::size_t>(a)]);
            call.out_shape =
                broadcast_shapes(op_name(fv.op).data(), call.out_shape, call.inputs.back().shape());
          }
          // select and clip take operands of the output's shape or of one element (clip's x
          // always of the output's): others are expanded to it.
          if (fv.op == Op::select || fv.op == Op::clip) {
            for (std::size_t k = 0; k < call.inputs.size(); ++k) {
              Tensor& in = call.inputs[k];
              const bool keep = in.shape() == call.out_shape ||
                                (in.size() == 1 && (fv.op == Op::select || k > 0));
              if (!keep) in = expand(in, call.out_shape);
            }
          }
          std::optional<BlockArena::Placement> placed;
          const auto out = std::find(g_.outputs.begin(), g_.outputs.end(), static_cast<int>(i));
          if (outs != nullptr && out != g_.outputs.end() && BlockArena::current() != nullptr) {
            const Tensor& o = (*outs)[static_cast<std::size_t>(out - g_.outputs.begin())];
            const std::size_t item = itemsize(o.dtype());
            placed.emplace(*BlockArena::current(),
                           mutable_data<std::byte>(o) + static_cast<std::size_t>(begin) * item,
                           static_cast<std::size_t>(len) * item);
          }
          const OpFamily f = op_family(fv.op);
          if (f == OpFamily::binary) v[i] = wide_row_binary(call);  // float arithmetic
          if (v[i].defined()) break;
          v[i] = f == OpFamily::unary      ? run_unary(call)
                 : f == OpFamily::binary   ? run_binary(call)
                 : f == OpFamily::indexing ? run_indexing(call)  // select, clip
                                           : run_conversion(call);
          break;
        }
      }
      // Values read for the last time go back to the arena, so the block's working set is
      // the values live at once, not all of them, and the next op reuses a cached buffer.
      for (int a : fv.args) {
        if (last_use_[static_cast<std::size_t>(a)] == i) v[static_cast<std::size_t>(a)] = Tensor();
      }
      if (last_use_[i] == i) v[i] = Tensor();
    }
    return v;
  }

  // A value's block into elements [begin, begin + len) of `out`.
  void store_block(const Tensor& r, const Tensor& out, std::int64_t begin, std::int64_t len) const {
    const std::size_t item = itemsize(r.dtype());
    auto* dst = mutable_data<std::byte>(out) + static_cast<std::size_t>(begin) * item;
    if (r.storage()->host_data() == dst) return;  // its kernel wrote it in place
    const Tensor whole = r.size() == len ? r : expand(r, block_shape(begin, len));
    std::memcpy(dst, whole.storage()->host_data(), static_cast<std::size_t>(len) * item);
  }

  // The reduced value over [begin, begin + len) as a contiguous run of `len` elements; the
  // values written beside it (outputs 1...) are stored into `written` on the way.
  Tensor root_block(const std::vector<Tensor>& leaves, const std::vector<Tensor>& written,
                    std::int64_t begin, std::int64_t len) const {
    const std::vector<Tensor> v = evaluate(leaves, begin, len);
    for (std::size_t k = 1; k < g_.outputs.size(); ++k)
      store_block(v[static_cast<std::size_t>(g_.outputs[k])], written[k - 1], begin, len);
    const Tensor& r = v[static_cast<std::size_t>(g_.outputs[0])];
    return r.size() == len ? r : expand(r, block_shape(begin, len));
  }

  std::vector<Tensor> run_reduction(const std::vector<Tensor>& leaves) const {
    const detail::FusedReduce& r = *g_.reduce;
    std::vector<Tensor> written;
    for (std::size_t k = 1; k < g_.outputs.size(); ++k) {
      written.push_back(
          make_tensor(g_.values[static_cast<std::size_t>(g_.outputs[k])].dtype, g_.shape));
    }
    const DType in = g_.values[static_cast<std::size_t>(g_.outputs.at(0))].dtype;
    const std::vector<common::ReduceGroup> groups = common::reduce_groups(g_.shape, r.axes);
    const auto reduced = std::count_if(groups.begin(), groups.end(),
                                       [](const common::ReduceGroup& m) { return m.reduced; });
    // Each output reduces one contiguous run of the prologue: reduced axes trail the kept.
    const bool trailing =
        numel(g_.shape) > 0 && reduced == 1 && !groups.empty() && groups.back().reduced;
    Tensor out;
    if (trailing) {
      visit_dtype(in, [&](auto in_tag) {
        using T = typename decltype(in_tag)::type;
        visit_rule(rule_of(r.op), [&](auto rule_tag) {
          using Rule = typename decltype(rule_tag)::template type<T>;
          using Out = reduce_output_t<T, Rule>;
          if (dtype_of_v<Out> != r.dtype) return;  // the general path reports it as eager
          out = make_tensor(r.dtype, r.shape);
          reduce_trailing<T, Rule, Out>(leaves, written, mutable_data<Out>(out),
                                        groups.back().size);
        });
      });
    }
    if (!out.defined()) {
      // Other layouts: the prologue once, then the backend's reduction over it.
      std::vector<Tensor> outs = {make_tensor(in, g_.shape)};
      outs.insert(outs.end(), written.begin(), written.end());
      write_outputs(leaves, outs);
      out = run_reduce(
          OpCall{r.op, {outs[0]}, ReduceParams{r.axes, r.keep_axes}, r.dtype, r.shape, nullptr});
    }
    written.insert(written.begin(), out);
    return written;
  }

  // reduce.cpp's reduce_segments for a layout of contiguous outputs of `per` elements (one
  // segment each), the segments evaluated block by block: the same chunks per thread, and
  // blocks that split a segment at multiples of kContiguousBlock, so the same sums.
  template <class T, class Rule, class Out>
  void reduce_trailing(const std::vector<Tensor>& leaves, const std::vector<Tensor>& written,
                       Out* out, std::int64_t per) const {
    using Total = typename Rule::Total;
    static_assert(kFusedBlockElements % kContiguousBlock == 0);
    const std::int64_t outputs = numel(g_.shape) / per;
    // Output o's elements [k0, k1), piece by piece, added to t.
    auto partial = [&](std::int64_t o, std::int64_t k0, std::int64_t k1) {
      Total t = Rule::total_init();
      for (std::int64_t k = k0; k < k1; k += kFusedBlockElements) {
        const std::int64_t len = std::min(kFusedBlockElements, k1 - k);
        const Tensor block = root_block(leaves, written, o * per + k, len);
        t = reduce_contiguous<T, Rule>(data<T>(block), len, t);
      }
      return t;
    };
    const std::int64_t threads = max_threads();
    const std::int64_t chunks = (outputs < threads && per >= 2 * kGrain) ? threads : 1;
    if (chunks == 1) {
      // Short segments: one block holds several whole outputs.
      const std::int64_t rows = std::max<std::int64_t>(1, kFusedBlockElements / per);
      parallel_for(outputs, std::max<std::int64_t>(1, grain_elements() / per),
                   [&](std::int64_t b, std::int64_t e) {
                     const BlockArena arena;
                     if (per > kFusedBlockElements) {
                       for (std::int64_t o = b; o < e; ++o)
                         out[o] = to_output<Out>(partial(o, 0, per));
                       return;
                     }
                     for (std::int64_t o = b; o < e; o += rows) {
                       const std::int64_t m = std::min(rows, e - o);
                       const Tensor block = root_block(leaves, written, o * per, m * per);
                       const T* x = data<T>(block);
                       for (std::int64_t j = 0; j < m; ++j) {
                         out[o + j] = to_output<Out>(
                             reduce_contiguous<T, Rule>(x + j * per, per, Rule::total_init()));
                       }
                     }
                   });
      return;
    }
    std::vector<Total> parts(static_cast<std::size_t>(outputs * chunks));
    parallel_for(outputs * chunks, 1, [&](std::int64_t b, std::int64_t e) {
      const BlockArena arena;
      for (std::int64_t task = b; task < e; ++task) {
        const std::int64_t o = task / chunks, c = task % chunks;
        parts[static_cast<std::size_t>(task)] =
            partial(o, per * c / chunks, per * (c + 1) / chunks);
      }
    });
    for (std::int64_t o = 0; o < outputs; ++o) {
      Total t = Rule::total_init();
      for (std::int64_t c = 0; c < chunks; ++c)
        t = Rule::merge(t, parts[static_cast<std::size_t>(o * chunks + c)]);
      out[o] = to_output<Out>(t);
    }
  }

  detail::FusedGroup g_;
  std::vector<std::size_t> last_use_;
  std::int64_t grain_bytes_;
};

}  // namespace

std::unique_ptr<detail::FusedKernel> compile_fused(const detail::FusedGroup& group) {
  if (group.rows) return compile_rows(group);  // compiled_rows.cpp
  // A dot and its epilogue: compiled_dot.cpp.
  if (group.dot >= 0) return compile_dot(group);
  // Groups touching c64/c128 run op by op through dispatch (the plan's unfused path), so
  // compiled graphs give eager's results; complex fusion is not written yet.
  for (const detail::FusedValue& v : group.values) {
    if (is_complex(v.dtype)) return nullptr;
  }
  ledger::record_kernel_compile();
  return std::make_unique<CpuFusedKernel>(group);
}

}  // namespace vkt::cpu_kernels
