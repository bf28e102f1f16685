// vkt::compile on the cpu: a fused group runs block by block. Each block of the output
// (kBlock elements, sized to stay in L2) evaluates the group's values in order with the
// backend's own elementwise kernels, so results are eager's bit for bit, while
// intermediates live in cache instead of streaming through memory once per op.
#include "cpu/compiled.h"

#include <algorithm>
#include <cstring>

#include "cpu/kernels.h"
#include "vkt/ledger.h"

namespace vkt::cpu_kernels {
namespace {

constexpr std::int64_t kBlock = 8192;

// Host bytes the group does not own (a leaf's block, an inline scalar), as a tensor.
class BorrowedStorage final : public Storage {
 public:
  BorrowedStorage(const void* data, std::size_t nbytes) : Storage(cpu(), nbytes), data_(data) {}
  const void* host_data() const override { return data_; }

 private:
  const void* data_;
};

Tensor borrowed(const void* data, DType dtype, Shape shape) {
  const std::size_t bytes = static_cast<std::size_t>(numel(shape)) * itemsize(dtype);
  return Tensor(dtype, std::move(shape), std::make_shared<BorrowedStorage>(data, bytes));
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
  // broadcasts 4.9 times eager's time on the H200 host (bench_results/h200/run15-a0ba954).
  const std::size_t last = rank - 1;
  std::int64_t i = 0;
  while (i < len) {
    const std::int64_t run = std::min(len - i, out[last] - coord[last]);
    std::byte* d = dst + static_cast<std::size_t>(i) * item;
    const std::byte* from = src + static_cast<std::size_t>(offset) * item;
    if (stride[last] == 1) {
      std::memcpy(d, from, static_cast<std::size_t>(run) * item);
    } else {
      for (std::int64_t j = 0; j < run; ++j)
        std::memcpy(d + static_cast<std::size_t>(j) * item, from, item);
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

class CpuFusedKernel final : public detail::FusedKernel {
 public:
  explicit CpuFusedKernel(detail::FusedGroup group) : g_(std::move(group)) {}

  std::vector<Tensor> run(const std::vector<Tensor>& leaves) override {
    std::vector<Tensor> outs;
    for (int o : g_.outputs)
      outs.push_back(make_tensor(g_.values[static_cast<std::size_t>(o)].dtype, g_.shape));
    const std::int64_t n = numel(g_.shape);
    const std::int64_t blocks = (n + kBlock - 1) / kBlock;
    // A thread per block range once it moves the measured streaming minimum (the bytes of
    // the leaves and outputs per element; the ops in between run in cache), or earlier,
    // at the compute-bound grain, since fused groups usually hold costly ops too.
    std::int64_t bytes_per_element = 0;
    for (const Tensor& t : leaves)
      bytes_per_element += static_cast<std::int64_t>(itemsize(t.dtype()));
    for (const Tensor& t : outs)
      bytes_per_element += static_cast<std::int64_t>(itemsize(t.dtype()));
    const std::int64_t grain_blocks =
        std::max<std::int64_t>(1, std::min(stream_grain(bytes_per_element), kGrain) / kBlock);
    parallel_for(blocks, grain_blocks, [&](std::int64_t b0, std::int64_t b1) {
      for (std::int64_t blk = b0; blk < b1; ++blk) {
        const std::int64_t begin = blk * kBlock;
        run_block(leaves, outs, begin, std::min(kBlock, n - begin));
      }
    });
    return outs;
  }

 private:
  void run_block(const std::vector<Tensor>& leaves, const std::vector<Tensor>& outs,
                 std::int64_t begin, std::int64_t len) const {
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
          if (leaf.size() == 1) {
            v[i] = borrowed(base, leaf.dtype(), {});
          } else if (leaf.size() == numel(g_.shape)) {
            v[i] = borrowed(base + static_cast<std::size_t>(begin) * itemsize(leaf.dtype()),
                            leaf.dtype(), {len});
          } else {
            v[i] = broadcast_block(leaf, g_.shape, begin, len);
          }
          break;
        }
        case detail::FusedValue::Kind::op: {
          OpCall call{fv.op, {}, NoParams{}, fv.dtype, {}, nullptr};
          for (int a : fv.args) {
            call.inputs.push_back(v[static_cast<std::size_t>(a)]);
            if (call.inputs.back().rank() == 1) call.out_shape = {len};
          }
          const OpFamily f = op_family(fv.op);
          v[i] = f == OpFamily::unary    ? run_unary(call)
                 : f == OpFamily::binary ? run_binary(call)
                                         : run_conversion(call);
          break;
        }
      }
    }
    for (std::size_t k = 0; k < g_.outputs.size(); ++k) {
      const Tensor& r = v[static_cast<std::size_t>(g_.outputs[k])];
      const std::size_t item = itemsize(r.dtype());
      auto* dst = mutable_data<std::byte>(outs[k]) + static_cast<std::size_t>(begin) * item;
      const auto* src = static_cast<const std::byte*>(r.storage()->host_data());
      if (r.rank() == 1) {
        std::memcpy(dst, src, static_cast<std::size_t>(len) * item);
      } else {
        for (std::int64_t i = 0; i < len; ++i)
          std::memcpy(dst + static_cast<std::size_t>(i) * item, src, item);
      }
    }
  }

  detail::FusedGroup g_;
};

}  // namespace

std::unique_ptr<detail::FusedKernel> compile_fused(const detail::FusedGroup& group) {
  // Groups touching c64/c128 run op by op through dispatch (the plan's unfused path), so
  // compiled graphs give eager's results; complex fusion is not written yet.
  for (const detail::FusedValue& v : group.values) {
    if (is_complex(v.dtype)) return nullptr;
  }
  ledger::record_kernel_compile();
  return std::make_unique<CpuFusedKernel>(group);
}

}  // namespace vkt::cpu_kernels
