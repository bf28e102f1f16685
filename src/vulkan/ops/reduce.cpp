// Reductions (sum, product, reduce_max, reduce_min, all, any) and arg-reductions (argmax,
// argmin) on the device (shaders/reduce.comp), transpose-free.
//
// The input's axes are merged into groups of adjacent axes that are all reduced or all
// kept (size-1 axes dropped). Each reduced group is one logical pass over a [outer, R,
// inner] view; non-adjacent reduced groups take one pass each, innermost first, through a
// pooled temporary in the accumulator's dtype (f16/bf16 sums stay f32 between passes, so
// nothing rounds early). Complex sum and any run as real reductions of the parts
// (parts_call). A pass is one dispatch, or two when R is split across workgroups
// (rows mode) or invocations (columns mode) to fill the device: the first writes partials
// [outer, splits, inner], the second reduces them.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <string>
#include <vector>

#include "common/reduce_groups.h"
#include "common/settings.h"
#include "vulkan/ops/op_support.h"
#include "vulkan/ops/reduce_locate.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {
namespace {

// Subgroup shuffles in the workgroup tree where the device offers them in compute shaders;
// the test hook (testing::set_subgroup_reductions) turns them off.
std::atomic<bool> g_subgroups_allowed{true};

bool subgroup_tree(const VulkanBackend& b) {
  const DeviceCaps& c = b.context().caps();
  const VkSubgroupFeatureFlags need =
      VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
  return g_subgroups_allowed.load() && c.subgroup_compute && (c.subgroup_ops & need) == need;
}

// Passes over f32 read 16 bytes per load (shaders/reduce_main.glsl, VEC4) on GPUs; element
// by element on CPU devices, where lavapipe's lanes already load adjacent elements as one
// vector and vec4 doubled reduce_max's time. Overrides::reduce_vec4 forces either.
bool vec4_allowed(const VulkanBackend& b) {
  return vkt::overrides()->reduce_vec4.value_or(is_gpu(b.context()));
}

enum Mode : std::uint32_t { kRows, kCols };

struct ReducePush {
  std::uint32_t outer, len, inner, chunk, splits, lanes;
  std::uint32_t zero = 0;  // vkt::compile's fused prologues XOR their literals with it
};

bool is_arg(Op op) {
  return op == Op::argmax || op == Op::argmin;
}

// The accumulator's dtype: what partials and intermediate passes hold.
DType acc_dtype(Op op, DType in) {
  if (op == Op::all || op == Op::any) return DType::u32;
  if (is_float(in)) return in == DType::f64 ? DType::f64 : DType::f32;
  if (op == Op::sum || op == Op::product) return DType::u64;  // wraps like the cpu's uint64
  if (itemsize(in) == 8) return in;
  return is_signed_integer(in) ? DType::s32 : DType::u32;
}

std::string acc_name(DType acc) {
  return "reduce_" + std::string(dtype_name(acc));
}

// A tensor of this dtype and shape with no device memory (a dry run's stand-in).
Tensor placeholder(Backend& b, DType d, const Shape& shape) {
  return Tensor(d, shape,
                std::make_shared<Storage>(b, static_cast<std::size_t>(numel(shape)) * itemsize(d)));
}

// Adjacent reduced / kept axes merged, size-1 axes dropped (the strides are unused here).
using Group = common::ReduceGroup;

// Invocations worth of parallel work to aim for (a large GPU holds ~250k resident).
constexpr std::uint64_t kTargetThreads = 1u << 17;
// Workgroups of 256 for a split rows pass: 1024 (about 8 per SM of a 132-SM H200, one
// resident wave) took argmax of 64M from 76.4 us on the device to 74.0 and left sum at 67 (run
// 52, mem/groups: 512 gave the same, 264 was slower); more groups only add per-group trees.
constexpr std::uint64_t kTargetGroups = 1024;

// Workgroups a split rows pass aims for: kTargetGroups, or Overrides::reduce_groups (tests
// move the splits and their tails with it).
std::uint64_t target_groups() {
  return vkt::overrides()->reduce_groups.value_or(kTargetGroups);
}
constexpr std::uint64_t kMinRowsChunk = 4096;  // elements per workgroup, at least
constexpr std::uint64_t kMinColsChunk = 64;    // elements per invocation, at least
constexpr std::int64_t kRowsFrom = 64;         // shorter rows: one invocation per output

struct Pass {
  std::uint64_t outer, len, inner;
};

// How a pass is dispatched: its mode, and R split into `splits` ranges of `chunk` elements.
struct Plan {
  Mode mode;
  std::uint64_t splits, chunk;
};

Plan plan_pass(const Pass& pass) {
  const bool rows = pass.inner == 1 && pass.len >= static_cast<std::uint64_t>(kRowsFrom);
  std::uint64_t splits = 1;
  if (rows) {
    const std::uint64_t want = (target_groups() + pass.outer - 1) / pass.outer;
    splits = std::min(want, (pass.len + kMinRowsChunk - 1) / kMinRowsChunk);
  } else if (pass.len > 0) {
    const std::uint64_t columns = pass.outer * pass.inner;
    const std::uint64_t want = (kTargetThreads + columns - 1) / columns;
    splits = std::min(want, (pass.len + kMinColsChunk - 1) / kMinColsChunk);
  }
  splits = std::max<std::uint64_t>(splits, 1);
  std::uint64_t chunk = pass.len == 0 ? 1 : (pass.len + splits - 1) / splits;
  if (rows && splits > 1) chunk = (chunk + 3) / 4 * 4;        // splits start on a vec4 (VEC4)
  if (pass.len > 0) splits = (pass.len + chunk - 1) / chunk;  // no empty split
  return {rows ? kRows : kCols, splits, chunk};
}

// Whether a pass reads its f32 source as vec4 (shaders/reduce_main.glsl, VEC4): rows mode,
// every row range starting on a multiple of 4 elements (one row, or rows of 4k elements;
// split starts are multiples of 4: Reducer::run).
// Rows up to kMaxFusedRow keep the element order: vkt::compile's row kernels
// (compiled_rows.cpp) repeat it bit for bit (arg indices are exact in either order).
bool vec4_pass(const VulkanBackend& b, Mode mode, DType src, const Pass& pass, bool arg) {
  return mode == kRows && src == DType::f32 && (pass.outer == 1 || pass.len % 4 == 0) &&
         (arg || pass.len > static_cast<std::uint64_t>(kMaxFusedRow)) && vec4_allowed(b);
}

// Columns mode reads four adjacent columns per invocation as vec4 where inner is a multiple
// of 4; each column keeps its order, so results are those of the element path.
bool vec4_cols_pass(const VulkanBackend& b, DType src, const Pass& pass) {
  return src == DType::f32 && pass.inner % 4 == 0 && vec4_allowed(b);
}

// Plans and records the dispatches of one call. src_dtype: what the current source holds
// (the input's dtype, then the accumulator's); store_dtype: what a non-arg pass stores
// (the output's dtype on the last pass, else the accumulator's).
struct Reducer {
  VulkanBackend& b;
  const OpCall& call;
  DType src_dtype;
  DType store_dtype;
  bool tie_high = false;
  // vkt::compile: the first dispatch runs this generated variant, which evaluates a fused
  // prologue from these leaves (bindings 4 on) instead of reading the source buffer.
  const FusedReduceSource* fused = nullptr;
  // Creates the pipelines the call's dispatches use and records nothing (prepare_reduce).
  bool prepare_only = false;

  Tensor temporary(DType d, std::int64_t n) const {
    if (prepare_only) return placeholder(b, d, {n});
    OpCall c = call;
    c.out_dtype = d;
    c.out_shape = {n};
    return b.make_output(c);
  }

  // Reduces `src` viewed as `pass` into `dst` (values, or for arg ops s64 indices);
  // `src_index`: the indices that go with arg partials (null on a first pass).
  void run(const Pass& pass, const Tensor& src, const Tensor* src_index, const Tensor& dst) {
    const Plan plan = plan_pass(pass);
    const Mode mode = plan.mode;
    const std::uint64_t splits = plan.splits, chunk = plan.chunk;
    if (splits == 1) {
      dispatch(mode, pass, 1, pass.len, src, src_index, dst, nullptr);
      return;
    }
    const DType acc = acc_dtype(call.op, src_dtype);
    const auto n = static_cast<std::int64_t>(pass.outer * splits * pass.inner);
    // Split f32 rows of an arg op: extremes by value, then their place (reduce_locate.h).
    if (is_arg(call.op) && mode == kRows && fused == nullptr && src_index == nullptr &&
        src_dtype == DType::f32 && vec4_pass(b, mode, src_dtype, pass, true) &&
        arg_locate_allowed(b)) {
      record_arg_locate(b, call.op == Op::argmax, tie_high, {pass.outer, pass.len, chunk, splits},
                        src, temporary(DType::u32, n), dst, prepare_only);
      return;
    }
    // Partials [outer, splits, inner] in the accumulator's dtype, then one more pass.
    const Tensor values = temporary(acc, n);
    if (is_arg(call.op)) {
      const Tensor indices = temporary(DType::u32, 2 * n);
      dispatch(mode, pass, splits, chunk, src, src_index, indices, &values);
      src_dtype = acc;
      run({pass.outer, splits, pass.inner}, values, &indices, dst);
    } else {
      dispatch(mode, pass, splits, chunk, src, src_index, values, nullptr);
      src_dtype = acc;
      run({pass.outer, splits, pass.inner}, values, nullptr, dst);
    }
  }

  // Non-arg ops store values into dst. Arg ops store indices into dst and, for partials,
  // values into *partial_values.
  void dispatch(Mode mode, const Pass& pass, std::uint64_t splits, std::uint64_t chunk,
                const Tensor& src, const Tensor* src_index, const Tensor& dst,
                const Tensor* partial_values) {
    const bool arg = is_arg(call.op);
    const bool partial = splits > 1;
    const DType acc = acc_dtype(call.op, src_dtype);
    const DType store = partial ? acc : arg ? DType::u32 : store_dtype;
    const DType in = call.inputs.at(0).dtype();
    const bool vec4 = mode == kRows ? vec4_pass(b, mode, src_dtype, pass, is_arg(call.op))
                                    : fused == nullptr && vec4_cols_pass(b, src_dtype, pass);
    const std::vector<std::uint32_t> constants = {static_cast<std::uint32_t>(src_dtype),
                                                  static_cast<std::uint32_t>(store),
                                                  combine_code(op_combine(call.op)),
                                                  mode,
                                                  tie_high ? 1u : 0u,
                                                  src_index != nullptr ? 1u : 0u,
                                                  partial ? 1u : 0u,
                                                  vec4 ? 1u : 0u};
    const FusedReduceSource* prologue = fused;
    fused = nullptr;  // later dispatches read real tensors
    const auto bindings = static_cast<std::uint32_t>(4 + (prologue ? prologue->leaves->size() : 0));
    const Pipeline p =
        prologue != nullptr
            ? b.pipelines().get_generated(prologue->key, prologue->words, bindings, constants)
            : b.pipelines().get(b.variant(acc_name(acc), {in, src_dtype, store, acc}) +
                                    (itemsize(acc) == 4 && subgroup_tree(b) ? "_sg" : ""),
                                4, constants);
    if (prepare_only) return;
    // Rows mode: invocations per row (a power of two dividing the workgroup): all 256 for
    // long or split rows, else about 8 elements each but at least 32 (coalesced reads).
    std::uint32_t lanes = Pipelines::kWorkgroupSize;
    if (mode == kRows && splits == 1) {
      lanes = 32;
      while (lanes < Pipelines::kWorkgroupSize && lanes * 8 < pass.len) lanes *= 2;
    }
    const std::uint64_t per_group = Pipelines::kWorkgroupSize / lanes;
    const ReducePush push{static_cast<std::uint32_t>(pass.outer),
                          static_cast<std::uint32_t>(pass.len),
                          static_cast<std::uint32_t>(pass.inner),
                          static_cast<std::uint32_t>(chunk),
                          static_cast<std::uint32_t>(splits),
                          lanes,
                          0};
    const std::uint64_t threads = mode == kRows ? (pass.outer + per_group - 1) / per_group *
                                                      splits * Pipelines::kWorkgroupSize
                                                : pass.outer * splits * pass.inner / (vec4 ? 4 : 1);
    // Unused read bindings are bound to the source, unused write bindings to dst: the
    // validation layer counts every binding the shader may write as written.
    // A fused first pass has no source tensor: its unused binding 0 holds a leaf (or dst).
    const Tensor& source = prologue == nullptr          ? src
                           : !prologue->leaves->empty() ? prologue->leaves->front()
                                                        : dst;
    const Tensor& index_in = src_index != nullptr ? *src_index : source;
    std::vector<std::pair<const Tensor*, bool>> buffers;
    if (arg) {
      const Tensor& values_out = partial_values != nullptr ? *partial_values : dst;
      buffers = {{&source, false}, {&index_in, false}, {&values_out, true}, {&dst, true}};
    } else {
      buffers = {{&source, false}, {&index_in, false}, {&dst, true}, {&dst, true}};
    }
    if (prologue != nullptr) {
      for (const Tensor& t : *prologue->leaves) buffers.emplace_back(&t, false);
    }
    b.dispatch(p, buffers, &push, sizeof(push), threads);
  }
};

// A complex sum is the real sum of its parts: the tensor read as [..., 2] of its part type
// with the pair axis kept. A complex any is the real any over the reduced axes and the pair
// axis (an element is nonzero where either part is); all is any over the pair axis alone
// (nonzero_call), then the real all of that. product falls back.
OpCall nonzero_call(const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  Shape shape = in.shape();
  shape.push_back(2);
  return OpCall{Op::any,
                {Tensor(to_real_type(in.dtype()), shape, in.storage())},
                ReduceParams{{in.rank()}, false},
                DType::u8,
                in.shape()};
}

OpCall parts_call(const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  Shape shape = in.shape();
  shape.push_back(2);
  ReduceParams params = call.get<ReduceParams>();
  OpCall c = call;
  c.inputs = {Tensor(to_real_type(in.dtype()), shape, in.storage())};
  if (call.op == Op::sum) {
    c.out_dtype = to_real_type(call.out_dtype);
    c.out_shape.push_back(2);
  } else {
    params.axes.push_back(in.rank());
    if (params.keep_axes) c.out_shape.push_back(1);
  }
  c.params = params;
  return c;
}

}  // namespace

namespace testing {
void set_subgroup_reductions(bool allowed) {
  g_subgroups_allowed = allowed;
}
bool subgroup_reductions() {
  return g_subgroups_allowed.load();
}
}  // namespace testing

bool reduce_supported(const VulkanBackend& b, const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  if (is_complex(in.dtype())) {
    if (call.op == Op::all) {
      OpCall second = call;
      second.inputs = {Tensor(DType::u8, in.shape(), in.storage())};  // dtype and shape only
      return reduce_supported(b, nonzero_call(call)) && reduce_supported(b, second);
    }
    if (call.op != Op::sum && call.op != Op::any) return false;
    if (call.op == Op::sum && call.out_dtype != in.dtype()) return false;
    return reduce_supported(b, parts_call(call));
  }
  const DType acc = acc_dtype(call.op, in.dtype());
  if (!b.dtype_supported(in.dtype()) || !b.dtype_supported(acc)) return false;
  if (!is_arg(call.op) && !b.dtype_supported(call.out_dtype)) return false;
  // Rows-mode grids count workgroups x 256 invocations in 32 bits.
  const auto n = static_cast<std::uint64_t>(in.size());
  if (n >= (std::uint64_t{1} << 30)) return false;
  if (is_arg(call.op)) return true;
  // Non-adjacent reduced groups: the first pass's result (the largest temporary, in the
  // accumulator's dtype) must fit one descriptor range. Partials are at most n/64 elements.
  const std::vector<Group> groups =
      common::reduce_groups(in.shape(), call.get<ReduceParams>().axes);
  if (std::count_if(groups.begin(), groups.end(), [](const Group& g) { return g.reduced; }) < 2) {
    return true;
  }
  std::uint64_t first = 1;
  bool innermost_seen = false;
  for (auto g = groups.rbegin(); g != groups.rend(); ++g) {
    if (g->reduced && !innermost_seen) {
      innermost_seen = true;
    } else {
      first *= static_cast<std::uint64_t>(g->size);
    }
  }
  return first * itemsize(acc) <= b.context().limits().max_storage_range;
}

namespace {
// The first dispatch run_fused_reduce records for a non-arg `call` with a non-empty input:
// its innermost reduced group's pass (see Reducer::run) and that pass's mode.
struct FirstPass {
  Pass pass;
  Mode mode;
};
FirstPass first_pass(const OpCall& call) {
  const std::vector<Group> groups =
      common::reduce_groups(call.inputs.at(0).shape(), call.get<ReduceParams>().axes);
  std::size_t g = groups.size();
  while (g > 0 && !groups[g - 1].reduced) --g;
  if (g == 0) return {{1, 1, 1}, kCols};  // only size-1 axes reduced: rows of length 1
  Pass pass{1, static_cast<std::uint64_t>(groups[g - 1].size), 1};
  for (std::size_t i = 0; i + 1 < g; ++i) pass.outer *= static_cast<std::uint64_t>(groups[i].size);
  for (std::size_t i = g; i < groups.size(); ++i)
    pass.inner *= static_cast<std::uint64_t>(groups[i].size);
  return {pass, pass.inner == 1 && pass.len >= kRowsFrom ? kRows : kCols};
}
}  // namespace

std::string reduce_variant_defines(const VulkanBackend& b, const OpCall& call) {
  const DType acc = acc_dtype(call.op, call.inputs.at(0).dtype());
  std::string name(dtype_name(acc));
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string defines = "#define ACC_" + name + "\n";
  if (!is_arg(call.op) && call.inputs.at(0).size() > 0) {
    const FirstPass first = first_pass(call);
    defines += "#define VKT_FUSED_MODE " + std::to_string(first.mode) + "u\n";
    // Eager's vec4 order of combining, so fused and eager results stay bit-identical.
    if (vec4_pass(b, first.mode, call.inputs.at(0).dtype(), first.pass, false))
      defines += "#define VKT_FUSED_VEC4\n";
  }
  if (itemsize(acc) == 4 && subgroup_tree(b)) defines += "#define VKT_SUBGROUP\n";
  const std::string v = b.variant("", {call.inputs.at(0).dtype(), call.out_dtype, acc});
  if (v.find("_i64") != std::string::npos) defines += "#ifndef VKT_I64\n#define VKT_I64\n#endif\n";
  if (v.find("_f64") != std::string::npos) defines += "#ifndef VKT_F64\n#define VKT_F64\n#endif\n";
  return defines;
}

namespace {
Tensor reduce_or_prepare(VulkanBackend& b, const OpCall& call, const FusedReduceSource* fused,
                         bool prepare_only);
}  // namespace

Tensor run_reduce(VulkanBackend& b, const OpCall& call) {
  return run_fused_reduce(b, call, nullptr);
}

Tensor run_fused_reduce(VulkanBackend& b, const OpCall& call, const FusedReduceSource* fused) {
  return reduce_or_prepare(b, call, fused, false);
}

void prepare_reduce(VulkanBackend& b, const OpCall& call, const FusedReduceSource* fused) {
  if (is_complex(call.inputs.at(0).dtype())) return;  // rare: created when first run
  (void)reduce_or_prepare(b, call, fused, true);
}

namespace {
// Runs `call`, or with prepare_only walks the same passes creating their pipelines only.
Tensor reduce_or_prepare(VulkanBackend& b, const OpCall& call, const FusedReduceSource* fused,
                         bool prepare_only) {
  const Tensor& in = call.inputs.at(0);
  if (is_complex(in.dtype()) && call.op == Op::all) {
    OpCall second = call;
    second.inputs = {run_reduce(b, nonzero_call(call))};
    return run_reduce(b, second);
  }
  if (is_complex(in.dtype())) {
    const Tensor parts = run_reduce(b, parts_call(call));
    return Tensor(call.out_dtype, call.out_shape, parts.storage());
  }
  Tensor out = prepare_only ? placeholder(b, call.out_dtype, call.out_shape) : b.make_output(call);
  if (out.size() == 0) return out;
  const DType acc = acc_dtype(call.op, in.dtype());
  Reducer r{b, call, in.dtype(), call.out_dtype};
  r.fused = fused;
  r.prepare_only = prepare_only;
  if (is_arg(call.op)) {
    const ArgReduceParams& p = call.get<ArgReduceParams>();
    r.tie_high = p.tie_high;
    std::uint64_t outer = 1, len = static_cast<std::uint64_t>(in.size()), inner = 1;
    if (p.axis >= 0) {
      const auto a = static_cast<std::size_t>(p.axis);
      len = static_cast<std::uint64_t>(in.shape()[a]);
      for (std::size_t i = 0; i < a; ++i) outer *= static_cast<std::uint64_t>(in.shape()[i]);
      for (std::size_t i = a + 1; i < in.shape().size(); ++i) {
        inner *= static_cast<std::uint64_t>(in.shape()[i]);
      }
    }
    r.run({outer, len, inner}, in, nullptr, out);
    return out;
  }
  if (in.size() == 0) {  // every output reduces nothing: the identity
    r.run({static_cast<std::uint64_t>(out.size()), 0, 1}, in, nullptr, out);
    return out;
  }
  std::vector<Group> groups = common::reduce_groups(in.shape(), call.get<ReduceParams>().axes);
  auto reduced_count = [&] {
    return std::count_if(groups.begin(), groups.end(), [](const Group& g) { return g.reduced; });
  };
  if (reduced_count() == 0) {  // only size-1 axes reduced: each output reduces one element
    r.run({static_cast<std::uint64_t>(out.size()), 1, 1}, in, nullptr, out);
    return out;
  }
  Tensor current = in;
  while (reduced_count() > 0) {
    // The innermost reduced group.
    std::size_t g = groups.size() - 1;
    while (!groups[g].reduced) --g;
    Pass pass{1, static_cast<std::uint64_t>(groups[g].size), 1};
    for (std::size_t i = 0; i < g; ++i) pass.outer *= static_cast<std::uint64_t>(groups[i].size);
    for (std::size_t i = g + 1; i < groups.size(); ++i) {
      pass.inner *= static_cast<std::uint64_t>(groups[i].size);
    }
    groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(g));
    const bool last = reduced_count() == 0;
    r.store_dtype = last ? call.out_dtype : acc;
    const Tensor next =
        last ? out : r.temporary(acc, static_cast<std::int64_t>(pass.outer * pass.inner));
    r.run(pass, current, nullptr, next);
    current = next;
    r.src_dtype = acc;
  }
  return out;
}

}  // namespace

}  // namespace vkt::vk
