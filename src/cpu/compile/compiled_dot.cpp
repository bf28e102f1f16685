// vkt::compile's dot groups on the cpu: the dot by the backend's own GEMM (OpenBLAS, as
// eager), then its epilogue as a fused group over cache-sized blocks of C (compiled.cpp), C
// read once instead of once per op. C's values are eager's, so results are eager's bit for
// bit. Not done: GEMM by row panels with the epilogue applied while a panel is in cache.
#include "cpu/compile/compiled_dot.h"

#include "cpu/compile/compiled.h"
#include "cpu/kernels.h"

namespace vkt::cpu_kernels {
namespace {

class CpuDotKernel final : public detail::FusedKernel {
 public:
  CpuDotKernel(const detail::FusedGroup& g, std::unique_ptr<detail::FusedKernel> epilogue,
               std::vector<std::size_t> c_positions)
      : params_(g.dot_params),
        dtype_(g.values.at(static_cast<std::size_t>(g.dot)).dtype),
        shape_(g.shape),
        epilogue_(std::move(epilogue)),
        c_positions_(std::move(c_positions)) {}

  // leaves: the dot's operands, then the epilogue's other leaves (in the group's order).
  std::vector<Tensor> run(const std::vector<Tensor>& leaves) override {
    const Tensor c =
        run_linalg(OpCall{Op::dot, {leaves.at(0), leaves.at(1)}, params_, dtype_, shape_, nullptr});
    std::vector<Tensor> rest(leaves.begin() + 2, leaves.end());
    rest.push_back(c);
    std::vector<Tensor> outs = epilogue_->run(rest);
    for (std::size_t k : c_positions_)
      outs.insert(outs.begin() + static_cast<std::ptrdiff_t>(k), c);
    return outs;
  }

 private:
  DotParams params_;
  DType dtype_;
  Shape shape_;
  std::unique_ptr<detail::FusedKernel> epilogue_;
  std::vector<std::size_t> c_positions_;  // where among the outputs C itself is (ascending)
};

}  // namespace

std::unique_ptr<detail::FusedKernel> compile_dot(const detail::FusedGroup& group) {
  detail::FusedGroup e = detail::epilogue_only(group);
  // C written as it is comes from the dot, not the epilogue's kernel.
  const int c_value = [&] {
    for (std::size_t k = 0; k < e.values.size(); ++k) {
      if (e.values[k].kind == detail::FusedValue::Kind::leaf &&
          e.values[k].leaf == static_cast<int>(e.leaf_dtypes.size()) - 1)
        return static_cast<int>(k);
    }
    return -1;
  }();
  std::vector<std::size_t> c_positions;
  std::vector<int> outputs;
  for (std::size_t k = 0; k < e.outputs.size(); ++k) {
    if (e.outputs[k] == c_value) {
      c_positions.push_back(k);
    } else {
      outputs.push_back(e.outputs[k]);
    }
  }
  e.outputs = outputs;
  std::unique_ptr<detail::FusedKernel> epilogue = compile_fused(e);
  if (!epilogue) return nullptr;
  return std::make_unique<CpuDotKernel>(group, std::move(epilogue), std::move(c_positions));
}

}  // namespace vkt::cpu_kernels
