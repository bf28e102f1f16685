// vkt::compile on Vulkan: a row group (FusedGroup::rows: softmax, layer norm) as one
// generated kernel. `lanes` invocations share a row, each holding its elements in
// registers (at most 16 in eager's geometry), so the row is read once; each reduction combines the
// lanes' values through subgroup shuffles and shared memory and every lane reads the result back,
// then the values that follow are evaluated and written. The row's geometry and combine
// order are eager's reduce.comp rows pass (lanes, four-element steps, then the tail, the
// same tree), and eager never splits rows this short, so results equal eager bit for bit.
// A RowVariant (compiled_rows_variant.h; tests and vkt-bench set it) reshapes the kernel: fewer
// invocations per row each hold several of eager's lanes (their sums kept apart, then
// combined as eager's tree would), several rows per workgroup, the loops rolled; a row that
// fits one subgroup is combined by shuffles alone. The per-element arithmetic takes what the
// row knows (compiled_rows_math.h): max/min from the extremes of the bits, a divisor decoded
// once per row, exp of x - max without its overflow test; each gives eager's bits.
#include <algorithm>
#include <atomic>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "vkt/backend.h"
#include "vkt/compile.h"
#include "vkt/error.h"
#include "vkt/ops.h"
#include "vkt/tensor.h"
#include "vulkan/compile/compiled_glsl.h"
#include "vulkan/compile/compiled_rows_math.h"
#include "vulkan/compile/compiled_rows_source.h"
#include "vulkan/compile/compiled_rows_variant.h"
#include "vulkan/compile/kernel_cache.h"
#include "vulkan/compile/later_tier.h"
#include "vulkan/runtime/context.h"
#include "vulkan/runtime/test_override.h"
#include "vulkan/runtime/testing.h"

namespace vkt::vk {
namespace {

using namespace fused_glsl;
using row_kernel::acc_type;
using row_kernel::build_rows;
using row_kernel::device_variant;
using row_kernel::Geometry;
using row_kernel::RowBuild;
using row_kernel::RowReduction;

// Compile tiers (compile_rows): the test hook's setting and the kernels promoted so far.
TestOverride<bool> g_tiers_override;
std::atomic<std::uint64_t> g_promotions{0};
std::atomic<std::uint64_t> g_rare_reruns{0};   // flagged first-tier runs redone by the full kernel
std::atomic<std::uint64_t> g_unfused_runs{0};  // calls run unfused while flagged
std::atomic<bool> g_later_held{false};         // testing::hold_later_tiers

class VulkanRowKernel final : public detail::FusedKernel {
 public:
  // flagged: `p` is a first tier with first_rare=flag (one more binding, its rare flag); a
  // later tier (take_later) must follow.
  VulkanRowKernel(VulkanBackend& b, const detail::FusedGroup& g, Pipeline p, Geometry geo,
                  bool flagged)
      : b_(b), pipeline_(p), geo_(geo), out_shapes_(g.output_shapes), flagged_(flagged) {
    for (int o : g.outputs) out_dtypes_.push_back(g.values[static_cast<std::size_t>(o)].dtype);
  }

  VulkanRowKernel(const VulkanRowKernel&) = delete;
  VulkanRowKernel& operator=(const VulkanRowKernel&) = delete;

  // The faster kernel, made on another thread (LaterTier says when). A flagged first tier
  // that met a rare operand asks for it at once.
  void take_later(std::function<std::pair<Pipeline, Geometry>()> make) {
    later_.set(std::move(make));
  }

  // A flagged first tier's calls wait for their run to read the flag: only the first call
  // takes it (it makes the full kernel's source ready); until the full kernel arrives, the
  // later ones run the group's ops unfused, which give eager's bits without a wait. On the
  // H200 such calls each cost a little host time, with no wait, until the full kernel came.
  bool runs_without_waiting() override {
    if (!flagged_.load()) return true;
    bool now = true;
    b_.locked([&] {
      if (later_.ready()) {
        try {
          promote();
        } catch (const Error&) {
          later_failed_ = true;  // the flagged tier alone is not exact: unfused from now on
        }
      }
      now = !flagged_.load() || (later_.runs() == 0 && !later_failed_);
      if (!now) later_.ran();  // the first result was taken: make the full kernel
    });
    if (!now) g_unfused_runs.fetch_add(1);
    return now;
  }

  std::vector<Tensor> run(const std::vector<Tensor>& leaves) override {
    std::vector<Tensor> outs;
    // The flag starts at 0 (a host tensor of 4 bytes: a memcpy where the device allows).
    const bool may_flag = flagged_.load();
    const Tensor flag = may_flag ? transfer(full({1}, 0, DType::u32, &cpu()), b_) : Tensor();
    bool flag_bound = false;
    b_.locked(
        [&] {
          if (later_.ready()) promote();
          for (std::size_t k = 0; k < out_dtypes_.size(); ++k) {
            outs.push_back(b_.make_output(
                OpCall{Op::add, {}, NoParams{}, out_dtypes_[k], out_shapes_[k], nullptr}));
          }
          flag_bound = flagged_.load() && may_flag;
          record(leaves, outs, flag_bound ? &flag : nullptr);
          later_.ran();
        },
        [&] { return label(); });
    // The flagged tier's results stand only where no rare path was met: read the flag (this
    // call waits for its run), else run the full kernel over the same outputs.
    if (flag_bound && flag.to_vector<std::uint32_t>().at(0) != 0) {
      b_.locked(
          [&] {
            if (flagged_.load()) {
              if (!later_.started()) {
                throw Error("[compile] the full row kernel is missing: it failed to compile");
              }
              later_.now();
              promote();  // waits for it; a compile error propagates
            }
            record(leaves, outs, nullptr);
          },
          [&] { return label() + " (rerun)"; });
      g_rare_reruns.fetch_add(1);
    }
    return outs;
  }

 private:
  std::string label() const {
    std::string s = "fused rows";
    for (const Shape& shape : out_shapes_) s += " " + shape_str(shape);
    return s;
  }

  // Takes the later tier (with the lock held; waits for it where not ready). A compile error
  // leaves the first tier: eager's bits unless it is flagged, and a flagged one throws then.
  void promote() {
    try {
      std::tie(pipeline_, geo_) = later_.take();
      flagged_.store(false);
      g_promotions.fetch_add(1);
    } catch (const Error&) {
      if (flagged_.load()) throw;
    }
  }

  void record(const std::vector<Tensor>& leaves, const std::vector<Tensor>& outs,
              const Tensor* flag) {
    std::vector<std::pair<const Tensor*, bool>> buffers;
    for (const Tensor& t : leaves) buffers.emplace_back(&t, false);
    for (const Tensor& t : outs) buffers.emplace_back(&t, true);
    if (flag != nullptr) buffers.emplace_back(flag, true);
    const std::uint32_t push = 0;
    const auto groups =
        static_cast<std::uint64_t>((geo_.rows + geo_.per_group - 1) / geo_.per_group);
    b_.dispatch(pipeline_, buffers, &push, sizeof push, groups * geo_.workgroup);
  }

  VulkanBackend& b_;
  Pipeline pipeline_;
  Geometry geo_;
  std::vector<Shape> out_shapes_;
  std::vector<DType> out_dtypes_;
  std::atomic<bool> flagged_;
  bool later_failed_ = false;  // the full kernel failed to compile (with the lock held)
  LaterTier<std::pair<Pipeline, Geometry>> later_;
};

}  // namespace

std::unique_ptr<detail::FusedKernel> compile_rows(VulkanBackend& b, const detail::FusedGroup& g) {
  const std::size_t bindings = g.leaf_dtypes.size() + g.outputs.size();
  const std::uint64_t n = static_cast<std::uint64_t>(numel(g.shape));
  if (bindings > 8 || n == 0 || n >= (std::uint64_t{1} << 31) || g.shape.back() > kMaxFusedRow)
    return nullptr;
  const std::uint64_t limit = b.context().limits().max_storage_range;
  for (const detail::FusedValue& v : g.values) {
    if (is_complex(v.dtype) || glsl_type(v.dtype) == nullptr || n * itemsize(v.dtype) > limit)
      return nullptr;
  }
  if (!natively_supported(b, g)) return nullptr;
  std::vector<RowReduction> reductions;
  for (std::size_t k = 0; k < g.values.size(); ++k) {
    const detail::FusedValue& v = g.values[k];
    if (v.kind != detail::FusedValue::Kind::op || !detail::reduction_op(v.op)) continue;
    const DType in = g.values[static_cast<std::size_t>(v.args.at(0))].dtype;
    const Axes axes{static_cast<std::int64_t>(g.shape.size()) - 1};
    const OpCall call{
        v.op, {placeholder(b, in, g.shape)}, ReduceParams{axes, true}, v.dtype, v.shape, nullptr};
    const bool subgroups =
        reduce_variant_defines(b, call).find("#define VKT_SUBGROUP\n") != std::string::npos;
    reductions.push_back({static_cast<int>(k), acc_type(v.op, in), subgroups});
  }
  const RowVariant variant = device_variant(b.context());
  const auto built = [&](const RowVariant& v) { return build_rows(b, g, reductions, v); };
  const std::optional<RowBuild> wanted = built(variant);
  if (!wanted) return nullptr;
  // Tiers: where the first tier's kernel (split in 2 or 4 parts, its loops unrolled or not:
  // less code for the driver; first=, first_loop=) differs, the first call runs it and the
  // wanted kernel's pipeline is created on another thread (when: see take_later); later calls
  // take that one once ready. Both give eager's bits.
  RowVariant quick = variant;
  quick.split = variant.first_split;
  quick.unrolled = variant.unrolled && variant.first_unrolled;
  // The flag takes one more binding, within the 8 a row group may have.
  quick.rare_flag = variant.first_rare_flag && variant.rare_once && bindings < 8;
  const std::optional<RowBuild> first =
      compile_tiers(b) && variant.split == 1 ? built(quick) : std::nullopt;
  const bool tiered = first && first->source != wanted->source;
  const RowBuild& now = tiered ? *first : *wanted;
  if (compile_dump()) std::cerr << "vkt::compile: generated GLSL\n" << now.source;
  const auto pipeline_of = [&b, bindings](const RowBuild& r, bool unoptimized) {
    const KernelBinary bin = kernel_binary(b.context(), r.source);
    return b.pipelines().get_generated(bin.key, bin.words,
                                       static_cast<std::uint32_t>(bindings + (r.rare_flag ? 1 : 0)),
                                       {}, r.geo.workgroup, unoptimized);
  };
  // Outside the backend's lock: Pipelines creates a pipeline outside its own. A flagged
  // kernel is only run with its full kernel on the way (exact where the flag is set).
  const bool flagged = tiered && now.rare_flag;
  auto kernel = std::make_unique<VulkanRowKernel>(
      b, g, pipeline_of(now, tiered && !variant.first_optimized), now.geo, flagged);
  if (tiered) {
    if (compile_dump())
      std::cerr << "vkt::compile: the full kernel, on another thread\n" << wanted->source;
    kernel->take_later([pipeline_of, later = *wanted] {
      return std::make_pair(pipeline_of(later, false), later.geo);
    });
  }
  return kernel;
}

bool compile_tiers(const VulkanBackend& b) {
  if (const std::optional<bool> on = g_tiers_override.get()) return *on;
  return is_gpu(b.context());
}

void testing::set_compile_tiers(const std::optional<bool>& on) {
  g_tiers_override.set(on);
}

std::uint64_t testing::row_kernel_promotions() {
  return g_promotions.load();
}

std::uint64_t testing::row_kernel_rare_reruns() {
  return g_rare_reruns.load();
}

std::uint64_t testing::row_kernel_unfused_runs() {
  return g_unfused_runs.load();
}

void testing::hold_later_tiers(bool held) {
  g_later_held.store(held);
}

bool later_tiers_held() {
  return g_later_held.load();
}

}  // namespace vkt::vk