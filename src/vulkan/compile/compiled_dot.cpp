// vkt::compile's dot groups on Vulkan: the dot kernel eager's dot takes for that dtype and
// shape (linalg_dot_reg_main.glsl or linalg_dot_main.glsl, same tile and launch), its C
// values passed in registers through the group's elementwise epilogue (the generated
// dot_epilogue(), the VKT_DOT_EPILOGUE hook) and only the epilogue's outputs stored, plus C
// where the plan returns it too. Where eager splits K, its partial-sums pass runs as it is
// and the epilogue joins the pass that adds the partials (two dispatches, not three). Where
// it takes cooperative matrices the group is not compiled here (nullptr): the plan then
// runs the dot and the epilogue apart.
// Compile tiers (later_tier.h): a small dot's first calls run linalg_dot_simple_main.glsl
// with the epilogue (same C values, one dispatch) while those pipelines are made.
#include <future>
#include <iostream>
#include <optional>
#include <sstream>

#include "vkt/compile.h"
#include "vkt/ledger.h"
#include "vulkan/compile/compiled_glsl.h"
#include "vulkan/compile/kernel_cache.h"
#include "vulkan/compile/later_tier.h"
#include "vulkan/ops/linalg_gemm.h"
#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/testing.h"

namespace vkt::vk {
namespace {

using namespace fused_glsl;

// The epilogue's view of the group (epilogue_only): C its last leaf; which value that is.
int c_value_of(const detail::FusedGroup& e) {
  const int c_leaf = static_cast<int>(e.leaf_dtypes.size()) - 1;
  for (std::size_t k = 0; k < e.values.size(); ++k) {
    if (e.values[k].kind == detail::FusedValue::Kind::leaf && e.values[k].leaf == c_leaf)
      return static_cast<int>(k);
  }
  return -1;
}

// Bindings: a 0, b 1, C 2 (the dot's own), the epilogue's other leaves from 3, then its
// outputs other than C.
// main_file: the dot shader whose store calls dot_epilogue.
std::string generate_dot(const detail::FusedGroup& e, DType d, const std::string& main_file) {
  const int c = c_value_of(e);
  const std::size_t other_leaves = e.leaf_dtypes.size() - 1;
  std::ostringstream s;
  s << "#version 450\n// vkt::compile fused dot group: " << e.values.size()
    << " epilogue values, C " << shape_str(e.shape) << "\n";
  if (d == DType::f64 || needs_i64(e)) s << "#define VKT_I64\n";
  if (d == DType::f64) s << "#define VKT_F64\n";
  s << kept_ops(e) << "#define VKT_DOT_EPILOGUE\n#include \"" << main_file
    << "\"\n#include \"float_bits.glsl\"\n"
    << kElementwiseIncludes;
  for (std::size_t k = 0; k < other_leaves; ++k) {
    s << "layout(binding = " << 3 + k << ") readonly buffer Leaf" << k << " { "
      << buffer_type(e.leaf_dtypes[k]) << " v[]; } leaf" << k << ";\n";
  }
  std::size_t next = 3 + other_leaves, written = 0;
  for (int o : e.outputs) {
    if (o == c) continue;
    s << "layout(binding = " << next++ << ") writeonly buffer Out" << written << " { "
      << buffer_type(e.values[static_cast<std::size_t>(o)].dtype) << " v[]; } out" << written
      << ";\n";
    ++written;
  }
  s << "\nvoid dot_epilogue(uint at, ACC c) {\n";
  for (std::size_t k = 0; k < e.values.size(); ++k) {
    const detail::FusedValue& v = e.values[k];
    std::string pre, expr;
    if (static_cast<int>(k) == c) {  // C as eager's dot stores it and its readers load it
      expr = d == DType::f64 ? std::string("c") : narrowed(d, "float(c)");
    } else {
      expr = value_expression(
          e, k, [](int a) { return "v" + std::to_string(a); }, "at", pre);
    }
    s << pre << "  " << (is_float(v.dtype) ? "precise " : "") << glsl_type(v.dtype) << " v" << k
      << " = " << expr << ";\n";
  }
  written = 0;
  for (int o : e.outputs) {
    if (o == c) {
      s << "  store_c(at, c);\n";
      continue;
    }
    s << "  out" << written++
      << ".v[at] = " << store(e.values[static_cast<std::size_t>(o)].dtype, "v" + std::to_string(o))
      << ";\n";
  }
  s << "}\n";
  return s.str();
}

// The pass that stores C (the one kernel, or where K is split the adding pass, which follows
// eager's partial-sums pipeline).
struct DotPipelines {
  Pipeline main;
  std::optional<Pipeline> partials;
};

std::atomic<std::uint64_t> g_promotions{0};  // testing::dot_kernel_promotions

class VulkanDotKernel final : public detail::FusedKernel {
 public:
  VulkanDotKernel(VulkanBackend& b, const GemmLaunch& launch, const detail::FusedGroup& g)
      : b_(b),
        push_{launch.push, 0},
        groups_(launch.groups),
        splits_(launch.splits),
        acc_(launch.acc),
        shape_(g.shape) {
    for (int o : g.outputs) {
      out_dtypes_.push_back(g.values[static_cast<std::size_t>(o)].dtype);
      is_c_.push_back(o == g.dot);
    }
  }

  VulkanDotKernel(const VulkanDotKernel&) = delete;
  VulkanDotKernel& operator=(const VulkanDotKernel&) = delete;

  void use(DotPipelines p) { pipelines_ = p; }
  // Runs `quick` (the first tier) until `make`, on another thread, has made the pipelines.
  void use_quick(Pipeline quick, std::function<DotPipelines()> make) {
    quick_ = quick;
    later_.set(std::move(make));
  }

  // leaves: a, b, then the epilogue's other leaves; outputs in the group's order.
  std::vector<Tensor> run(const std::vector<Tensor>& leaves) override {
    std::vector<Tensor> outs;
    b_.locked(
        [&] {
          if (quick_ && later_.ready()) promote();
          for (DType d : out_dtypes_)
            outs.push_back(b_.make_output(OpCall{Op::add, {}, NoParams{}, d, shape_, nullptr}));
          // Binding 2 is C; where C is not returned the kernel never stores there, and an
          // epilogue output stands in for it.
          const Tensor* c = &outs[0];
          for (std::size_t k = 0; k < outs.size(); ++k) {
            if (is_c_[k]) c = &outs[k];
          }
          std::vector<std::pair<const Tensor*, bool>> buffers{
              {&leaves.at(0), false}, {&leaves.at(1), false}, {c, true}};
          for (std::size_t k = 2; k < leaves.size(); ++k) buffers.emplace_back(&leaves[k], false);
          for (std::size_t k = 0; k < outs.size(); ++k) {
            if (!is_c_[k]) buffers.emplace_back(&outs[k], true);
          }
          const std::int64_t elements = numel(shape_);
          if (quick_) {
            b_.dispatch(*quick_, buffers, &push_, sizeof push_,
                        static_cast<std::uint64_t>(elements));
            later_.ran();
            return;
          }
          if (!pipelines_.partials) {
            b_.dispatch_groups(pipelines_.main, buffers, &push_, sizeof push_, groups_);
            return;
          }
          // As eager: partial sums per K chunk into scratch, then the pass adding them in chunk
          // order (reading the scratch at bindings 0 and 1), here with the epilogue.
          const Tensor scratch = b_.make_output(OpCall{
              Op::dot, {}, NoParams{}, acc_, Shape{static_cast<std::int64_t>(splits_) * elements}});
          b_.dispatch_groups(*pipelines_.partials,
                             {{&leaves.at(0), false}, {&leaves.at(1), false}, {&scratch, true}},
                             &push_.dot, sizeof push_.dot, groups_);
          buffers[0] = {&scratch, false};
          buffers[1] = {&scratch, false};
          b_.dispatch(pipelines_.main, buffers, &push_, sizeof push_,
                      static_cast<std::uint64_t>(elements));
        },
        [&] { return "fused dot " + shape_str(shape_); });
    return outs;
  }

 private:
  // With the backend's lock held. A compile error keeps the first tier (the same values).
  void promote() {
    try {
      pipelines_ = later_.take();
      quick_.reset();
      g_promotions.fetch_add(1);
    } catch (const Error& e) {
      if (compile_dump()) std::cerr << "vkt::compile: the dot group's kernel failed: " << e.what();
    }
  }

  struct Push {
    DotPush dot;
    std::uint32_t zero;  // 0: see literal()
  };
  VulkanBackend& b_;
  DotPipelines pipelines_;
  std::optional<Pipeline> quick_;
  Push push_;
  std::array<std::uint32_t, 3> groups_;
  std::uint64_t splits_;
  DType acc_;
  Shape shape_;
  std::vector<DType> out_dtypes_;
  std::vector<bool> is_c_;
  LaterTier<DotPipelines> later_;  // last: destroyed first, while the rest still stands
};

// A quick first tier where its one invocation per element of C, summing K in turn, costs
// little beside the pipelines it spares: at most 2^32 multiply-adds, which it ran on the
// H200 in a small part of the time the tiled pipelines took to make in a cold first call.
bool quick_tier(const VulkanBackend& b, const GemmView& v) {
  constexpr double kMaxMultiplyAdds = 4294967296.0;
  return compile_tiers(b) && static_cast<double>(v.batch) * static_cast<double>(v.m) *
                                     static_cast<double>(v.n) * static_cast<double>(v.k) <=
                                 kMaxMultiplyAdds;
}

}  // namespace

std::unique_ptr<detail::FusedKernel> compile_dot(VulkanBackend& b, const detail::FusedGroup& g) {
  const detail::FusedValue& dot = g.values.at(static_cast<std::size_t>(g.dot));
  const DType d = dot.dtype;
  const detail::FusedValue& a = g.values.at(static_cast<std::size_t>(dot.args.at(0)));
  const detail::FusedValue& bv = g.values.at(static_cast<std::size_t>(dot.args.at(1)));
  if (!is_float(d) || is_complex(d) || !b.dtype_supported(d) || a.dtype != d || bv.dtype != d)
    return nullptr;
  const detail::FusedGroup e = detail::epilogue_only(g);
  // Under VKT_F64 the dot shaders accumulate in f64: an f64 epilogue needs an f64 dot.
  if (needs_f64(e) && d != DType::f64) return nullptr;
  const std::uint64_t n = static_cast<std::uint64_t>(numel(g.shape));
  if (n == 0 || n >= (std::uint64_t{1} << 31)) return nullptr;
  std::size_t bindings = 3 + e.leaf_dtypes.size() - 1;
  for (int o : g.outputs) bindings += o == g.dot ? 0 : 1;
  if (bindings > 8) return nullptr;
  const std::uint64_t limit = b.context().limits().max_storage_range;
  for (const detail::FusedValue& v : e.values) {
    if (glsl_type(v.dtype) == nullptr || n * itemsize(v.dtype) > limit) return nullptr;
  }
  const OpCall call{
      Op::dot,      {placeholder(b, a.dtype, a.shape), placeholder(b, bv.dtype, bv.shape)},
      g.dot_params, d,
      g.shape,      nullptr};
  if (!linalg_supported(b, call)) return nullptr;
  const std::optional<GemmView> view = gemm_view(call);
  if (!view) return nullptr;
  const GemmLaunch launch = gemm_launch(b, *view, d);
  if (launch.choice.kernel == DotKernel::coopmat) return nullptr;
  if (!natively_supported(b, e)) return nullptr;
  const bool split = launch.splits > 1;
  // The pass that stores C: the one kernel, or (split K) the tiled module's adding pass.
  const std::string main_file = split || launch.choice.kernel == DotKernel::tiled
                                    ? "linalg_dot_main.glsl"
                                    : "linalg_dot_reg_main.glsl";
  std::string source;
  {
    const PhaseTimer timed(ledger::Phase::codegen);
    source = generate_dot(e, d, main_file);
  }
  if (compile_dump()) std::cerr << "vkt::compile: generated GLSL (dot group)\n" << source;
  // The tiled kernel has constants 1..8, the register-blocked one 1..10 (linalg.cpp).
  std::vector<std::uint32_t> constants = split ? add_pass_constants(launch) : launch.constants;
  if (!split && launch.choice.kernel == DotKernel::tiled) constants.resize(8);
  const auto binding_count = static_cast<std::uint32_t>(bindings);
  auto make = [&b, launch, d, split, source, binding_count, constants] {
    // Eager's partial-sums pipeline is made on another thread meanwhile: made one after the
    // other, the two took most of a cold mlp first call on the H200.
    std::future<Pipeline> partials_made;
    if (split) {
      partials_made = std::async(std::launch::async,
                                 [&b, launch, d] { return gemm_pipeline(b, launch, d, 1); });
    }
    const KernelBinary bin = kernel_binary(b.context(), source);
    DotPipelines made{b.pipelines().get_generated(bin.key, bin.words, binding_count, constants),
                      std::nullopt};
    if (split) made.partials = partials_made.get();
    return made;
  };
  auto kernel = std::make_unique<VulkanDotKernel>(b, launch, g);
  if (!quick_tier(b, *view)) {
    kernel->use(make());
    return kernel;
  }
  std::string quick;
  {
    const PhaseTimer timed(ledger::Phase::codegen);
    quick = generate_dot(e, d, "linalg_dot_simple_main.glsl");
  }
  if (compile_dump()) std::cerr << "vkt::compile: its first tier\n" << quick;
  const KernelBinary bin = kernel_binary(b.context(), quick);
  // Constant 1, the dtype, is the first of every dot kernel's.
  kernel->use_quick(
      b.pipelines().get_generated(bin.key, bin.words, binding_count, {launch.constants.at(0)}),
      std::move(make));
  return kernel;
}

std::uint64_t testing::dot_kernel_promotions() {
  return g_promotions.load();
}

}  // namespace vkt::vk
