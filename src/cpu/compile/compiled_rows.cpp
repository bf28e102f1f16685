// vkt::compile on the cpu: a row group (softmax, layer norm) over blocks of whole rows. In
// a block each value is computed by the backend's own kernels as {rows, len} (per element)
// or {rows, 1} (per row, the reductions by reduce.cpp with the axis kept), float arithmetic
// by their wide twins (compiled_rows_wide.h), so a block of rows stays in cache from its
// read to its writes and results are eager's bit for bit.
#include "cpu/compile/compiled_rows.h"

#include <cstring>
#include <optional>

#include "cpu/block_arena.h"
#include "cpu/borrowed_storage.h"
#include "cpu/compile/compiled.h"
#include "cpu/compile/compiled_rows_wide.h"
#include "vkt/ledger.h"

namespace vkt::cpu_kernels {
namespace {

Shape stripped(const Shape& s) {
  std::size_t k = 0;
  while (k < s.size() && s[k] == 1) ++k;
  return Shape(s.begin() + static_cast<std::ptrdiff_t>(k), s.end());
}

// How a leaf reads for a block of rows: all of it, one value per row, one row for all, one.
enum class LeafForm { whole, per_row, one_row, one };

std::optional<LeafForm> leaf_form(const Shape& leaf, const Shape& rows) {
  Shape kept = rows;
  kept.back() = 1;
  if (numel(leaf) == 1) return LeafForm::one;
  if (numel(leaf) == numel(rows)) return LeafForm::whole;
  if (stripped(leaf) == stripped(kept)) return LeafForm::per_row;
  if (stripped(leaf) == Shape{rows.back()}) return LeafForm::one_row;
  return std::nullopt;
}

// A block value ({}, {rows, 1}, {1, cols} or {rows, cols}) written out at {rows, cols}.
Tensor expand_to(const Tensor& t, std::int64_t rows, std::int64_t cols) {
  if (t.rank() == 2 && t.shape()[0] == rows && t.shape()[1] == cols) return t;
  Tensor out = make_tensor(t.dtype(), {rows, cols});
  const std::size_t item = itemsize(t.dtype());
  const auto* src = static_cast<const std::byte*>(t.storage()->host_data());
  auto* dst = mutable_data<std::byte>(out);
  const bool per_row = t.rank() == 2 && t.shape()[1] == 1 && t.shape()[0] == rows;
  const bool one_row = t.rank() == 2 && t.shape()[0] == 1 && t.shape()[1] == cols;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c) {
      const std::int64_t from = per_row ? r : one_row ? c : 0;
      std::memcpy(dst + static_cast<std::size_t>(r * cols + c) * item,
                  src + static_cast<std::size_t>(from) * item, item);
    }
  }
  return out;
}

// Where a block of an output lies: its rows of the output's memory.
struct OutputRows {
  std::byte* data;
  std::size_t bytes;
};

// Per value, the first output it is (-1: none): that output's rows are where its kernel
// writes it.
std::vector<int> outputs_of(const detail::FusedGroup& g) {
  std::vector<int> of(g.values.size(), -1);
  for (std::size_t k = g.outputs.size(); k-- > 0;)
    of[static_cast<std::size_t>(g.outputs[k])] = static_cast<int>(k);
  return of;
}

// Bytes the group reads and writes per element of its shape: leaves read whole, per-element
// values and their per-element operands, reductions' inputs, per-element outputs. Per-row
// traffic is a 1/len share and left out.
std::int64_t row_work_bytes(const detail::FusedGroup& g, const std::vector<LeafForm>& forms) {
  std::int64_t bytes = 0;
  auto element = [&](int i) {
    const detail::FusedValue& v = g.values[static_cast<std::size_t>(i)];
    if (v.kind == detail::FusedValue::Kind::leaf)
      return forms[static_cast<std::size_t>(v.leaf)] == LeafForm::whole;
    return v.kind == detail::FusedValue::Kind::op && !v.per_row;
  };
  for (std::size_t i = 0; i < g.values.size(); ++i) {
    const detail::FusedValue& v = g.values[i];
    if (v.kind == detail::FusedValue::Kind::leaf && element(static_cast<int>(i)))
      bytes += static_cast<std::int64_t>(itemsize(v.dtype));
    if (v.kind != detail::FusedValue::Kind::op) continue;
    if (element(static_cast<int>(i))) bytes += static_cast<std::int64_t>(itemsize(v.dtype));
    for (int a : v.args) {
      if (element(a))
        bytes += static_cast<std::int64_t>(itemsize(g.values[static_cast<std::size_t>(a)].dtype));
    }
  }
  for (std::size_t k = 0; k < g.outputs.size(); ++k) {
    if (numel(g.output_shapes[k]) == numel(g.shape))
      bytes += static_cast<std::int64_t>(
          itemsize(g.values[static_cast<std::size_t>(g.outputs[k])].dtype));
  }
  return std::max<std::int64_t>(bytes, 1);
}

class CpuRowKernel final : public detail::FusedKernel {
 public:
  CpuRowKernel(detail::FusedGroup group, std::vector<LeafForm> forms)
      : g_(std::move(group)),
        forms_(std::move(forms)),
        last_use_(last_uses(g_)),
        output_of_(outputs_of(g_)),
        work_bytes_(row_work_bytes(g_, forms_)) {}

  std::vector<Tensor> run(const std::vector<Tensor>& leaves) override {
    std::vector<Tensor> outs;
    for (std::size_t k = 0; k < g_.outputs.size(); ++k) {
      outs.push_back(make_tensor(g_.values[static_cast<std::size_t>(g_.outputs[k])].dtype,
                                 g_.output_shapes[k]));
    }
    const std::int64_t len = g_.shape.back(), rows = numel(g_.shape) / len;
    const std::int64_t per_block = std::max<std::int64_t>(1, kFusedBlockElements / len);
    // Rows, not blocks, are split over the threads: 256 rows of 8-row blocks on 24 threads
    // would give some threads two blocks and others one.
    parallel_for(rows, row_group_grain(work_bytes_, len), [&](std::int64_t b, std::int64_t e) {
      // Block values from this thread's arena (block_arena.h), not the shared host pool:
      // without it 16 threads ran compiled softmax slower than eager (on the H200 host).
      const BlockArena arena;
      for (std::int64_t r0 = b; r0 < e; r0 += per_block)
        block(leaves, outs, r0, std::min(per_block, e - r0));
    });
    return outs;
  }

 private:
  Tensor leaf_block(const Tensor& leaf, LeafForm form, std::int64_t r0, std::int64_t m) const {
    const auto* base = static_cast<const std::byte*>(leaf.storage()->host_data());
    const std::size_t item = itemsize(leaf.dtype());
    const std::int64_t len = g_.shape.back();
    switch (form) {
      case LeafForm::whole:
        return borrowed(base + static_cast<std::size_t>(r0 * len) * item, leaf.dtype(), {m, len});
      case LeafForm::per_row:
        return borrowed(base + static_cast<std::size_t>(r0) * item, leaf.dtype(), {m, 1});
      case LeafForm::one_row:
        return borrowed(base, leaf.dtype(), {1, len});
      case LeafForm::one:
        break;
    }
    return borrowed(base, leaf.dtype(), {});
  }

  // Rows r0 .. r0 + m of the output that value k is, as the bytes its block would take
  // (nullopt where value k is no output).
  std::optional<OutputRows> output_rows(const std::vector<Tensor>& outs, std::size_t k,
                                        std::int64_t r0, std::int64_t m) const {
    const int o = output_of_[k];
    if (o < 0) return std::nullopt;
    const Tensor& out = outs[static_cast<std::size_t>(o)];
    const std::int64_t cols = out.size() == numel(g_.shape) ? g_.shape.back() : 1;
    const std::size_t item = itemsize(out.dtype());
    return OutputRows{mutable_data<std::byte>(out) + static_cast<std::size_t>(r0 * cols) * item,
                      static_cast<std::size_t>(m * cols) * item};
  }

  // Value fv's block; where it is an output, its kernel is given the output's rows to write
  // (the arena's placement, taken when the result is of the output's size).
  Tensor op_block(const detail::FusedValue& fv, const std::vector<Tensor>& v, std::int64_t m,
                  const std::optional<OutputRows>& dst) const {
    std::optional<BlockArena::Placement> placed;
    auto place = [&] {
      if (dst && BlockArena::current() != nullptr)
        placed.emplace(*BlockArena::current(), dst->data, dst->bytes);
    };
    const std::int64_t len = g_.shape.back();
    if (detail::reduction_op(fv.op)) {
      const Tensor in = expand_to(v[static_cast<std::size_t>(fv.args.at(0))], m, len);
      place();
      return run_reduce(OpCall{fv.op, {in}, ReduceParams{{1}, true}, fv.dtype, {m, 1}, nullptr});
    }
    OpCall call{fv.op, {}, NoParams{}, fv.dtype, {}, nullptr};
    for (int a : fv.args) {
      call.inputs.push_back(v[static_cast<std::size_t>(a)]);
      call.out_shape =
          broadcast_shapes(op_name(fv.op).data(), call.out_shape, call.inputs.back().shape());
    }
    // select and clip take operands of the output's shape or of one element (clip's x
    // always of the output's), as compiled.cpp gives them.
    if ((fv.op == Op::select || fv.op == Op::clip) && call.out_shape.size() == 2) {
      for (std::size_t k = 0; k < call.inputs.size(); ++k) {
        Tensor& in = call.inputs[k];
        const bool keep =
            in.shape() == call.out_shape || (in.size() == 1 && (fv.op == Op::select || k > 0));
        if (!keep) in = expand_to(in, call.out_shape[0], call.out_shape[1]);
      }
    }
    const OpFamily f = op_family(fv.op);
    place();
    if (f == OpFamily::binary) {
      if (Tensor wide = wide_row_binary(call); wide.defined()) return wide;
    }
    return f == OpFamily::unary      ? run_unary(call)
           : f == OpFamily::binary   ? run_binary(call)
           : f == OpFamily::indexing ? run_indexing(call)
                                     : run_conversion(call);
  }

  void block(const std::vector<Tensor>& leaves, const std::vector<Tensor>& outs, std::int64_t r0,
             std::int64_t m) const {
    std::vector<Tensor> v(g_.values.size());
    for (std::size_t k = 0; k < g_.values.size(); ++k) {
      const detail::FusedValue& fv = g_.values[k];
      switch (fv.kind) {
        case detail::FusedValue::Kind::scalar:
          v[k] = borrowed(fv.scalar.data(), fv.dtype, {});
          break;
        case detail::FusedValue::Kind::leaf: {
          const auto leaf = static_cast<std::size_t>(fv.leaf);
          v[k] = leaf_block(leaves[leaf], forms_[leaf], r0, m);
          break;
        }
        case detail::FusedValue::Kind::op:
          v[k] = op_block(fv, v, m, output_rows(outs, k, r0, m));
          break;
      }
      // Values read for the last time go back to the arena: the next op reuses a cached buffer.
      for (int a : fv.args) {
        if (last_use_[static_cast<std::size_t>(a)] == k) v[static_cast<std::size_t>(a)] = Tensor();
      }
      if (last_use_[k] == k) v[k] = Tensor();
    }
    const std::int64_t len = g_.shape.back();
    for (std::size_t k = 0; k < g_.outputs.size(); ++k) {
      const bool per_element = numel(g_.output_shapes[k]) == numel(g_.shape);
      const std::int64_t cols = per_element ? len : 1;
      const std::size_t item = itemsize(outs[k].dtype());
      std::byte* dst =
          mutable_data<std::byte>(outs[k]) + static_cast<std::size_t>(r0 * cols) * item;
      const Tensor& value = v[static_cast<std::size_t>(g_.outputs[k])];
      if (value.storage()->host_data() == dst) continue;  // its kernel wrote it in place
      const Tensor r = expand_to(value, m, cols);
      std::memcpy(dst, r.storage()->host_data(), static_cast<std::size_t>(m * cols) * item);
    }
  }

  detail::FusedGroup g_;
  std::vector<LeafForm> forms_;
  std::vector<std::size_t> last_use_;
  std::vector<int> output_of_;
  std::int64_t work_bytes_;
};

}  // namespace

std::int64_t row_group_grain(std::int64_t work_bytes, std::int64_t len) {
  const std::int64_t elements = std::min(stream_grain(work_bytes), kGrain);
  return std::max<std::int64_t>(1, elements / std::max<std::int64_t>(len, 1));
}

std::unique_ptr<detail::FusedKernel> compile_rows(const detail::FusedGroup& group) {
  if (group.shape.empty() || group.shape.back() > kMaxFusedRow || numel(group.shape) == 0)
    return nullptr;
  std::vector<LeafForm> forms;
  for (const Shape& s : group.leaf_shapes) {
    const std::optional<LeafForm> form = leaf_form(s, group.shape);
    if (!form) return nullptr;
    forms.push_back(*form);
  }
  for (const detail::FusedValue& v : group.values) {
    if (is_complex(v.dtype)) return nullptr;
  }
  ledger::record_kernel_compile();
  return std::make_unique<CpuRowKernel>(group, std::move(forms));
}

}  // namespace vkt::cpu_kernels
