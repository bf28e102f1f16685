// Indexing on the device, matching src/cpu/index.cpp word for word: gather, take,
// take_along_axis (shaders/index_gather.comp), select (index_select.comp), clip
// (index_clip.comp: bit-key comparisons) and indexed_put / indexed_add (a copy of t, then
// index_update.comp applying the rows in order per element: deterministic, no atomics; or,
// for a few rows on a GPU, indexed_put in one pass, index_put.comp).
// s64 indices are read as uint pairs and float adds are done on the bits, so no shaderInt64
// or shaderFloat64 is needed: every dtype is native wherever 8/16-bit storage exists.
#include <algorithm>
#include <string>

#include "common/settings.h"
#include "vulkan/ops/movement_words.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {
namespace {

// gather's and the indexed updates' push constants (index_gather.comp, index_update.comp).
struct IndexPush {
  std::uint32_t a, b, c, d;  // gather: n, rest, k, rest_rank; update: m, k, rest, rest_rank
  std::uint32_t rest_dim[kMaxViewRank];
  std::uint32_t rest_stride[kMaxViewRank];
  std::uint32_t ax_dim[kMaxViewRank];
  std::uint32_t ax_stride[kMaxViewRank];
  // gather / take: divisors a (rest or inner) and b (count); shifts 6 bits each.
  std::uint32_t magic_a = 1, magic_b = 1, shifts = 0;
};

// An indexed update walks each row's rest elements one invocation each; with few rest
// elements and many rows the cpu's loop is faster than one long-running invocation.
constexpr std::int64_t kMaxRowsForNarrowUpdate = 4096;
constexpr std::int64_t kNarrowRest = 64;

// t's axes split into the indexed ones (dims and strides, in `axes` order) and the rest (in
// t's order, contiguous neighbours merged). False when either part passes the view rank.
struct AxesSplit {
  std::vector<std::uint32_t> ax_dim, ax_stride, rest_dim, rest_stride;
  bool ok = true;
};
AxesSplit split_axes(const Shape& shape, const Axes& axes) {
  AxesSplit s;
  const auto strides = contiguous_strides(shape);
  for (std::int64_t a : axes) {
    s.ax_dim.push_back(static_cast<std::uint32_t>(shape[static_cast<std::size_t>(a)]));
    s.ax_stride.push_back(static_cast<std::uint32_t>(strides[static_cast<std::size_t>(a)]));
  }
  for (std::size_t a = 0; a < shape.size(); ++a) {
    if (std::find(axes.begin(), axes.end(), static_cast<std::int64_t>(a)) != axes.end()) continue;
    if (shape[a] == 1) continue;
    const auto dim = static_cast<std::uint32_t>(shape[a]);
    const auto stride = static_cast<std::uint32_t>(strides[a]);
    if (!s.rest_dim.empty() && s.rest_stride.back() == stride * dim) {
      s.rest_dim.back() *= dim;
      s.rest_stride.back() = stride;
      continue;
    }
    s.rest_dim.push_back(dim);
    s.rest_stride.push_back(stride);
  }
  s.ok = s.ax_dim.size() <= kMaxViewRank && s.rest_dim.size() <= kMaxViewRank;
  return s;
}

IndexPush index_push(const AxesSplit& s, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  IndexPush p{a, b, c, static_cast<std::uint32_t>(s.rest_dim.size()), {}, {}, {}, {}, 1, 1, 0};
  std::copy(s.rest_dim.begin(), s.rest_dim.end(), p.rest_dim);
  std::copy(s.rest_stride.begin(), s.rest_stride.end(), p.rest_stride);
  std::copy(s.ax_dim.begin(), s.ax_dim.end(), p.ax_dim);
  std::copy(s.ax_stride.begin(), s.ax_stride.end(), p.ax_stride);
  return p;
}

// t viewed as {outer, dim, inner} around `axis` (take, take_along_axis).
struct AxisView {
  std::int64_t outer = 1, dim = 1, inner = 1;
  AxisView(const Shape& shape, std::int64_t axis) {
    for (std::int64_t a = 0; a < static_cast<std::int64_t>(shape.size()); ++a) {
      const std::int64_t d = shape[static_cast<std::size_t>(a)];
      if (a < axis) outer *= d;
      if (a == axis) dim = d;
      if (a > axis) inner *= d;
    }
  }
};

// gather / take / take_along_axis: every output element's clamp needs a non-empty axis.
bool gather_supported(const OpCall& call) {
  const Tensor& t = call.inputs[0];
  if (call.inputs[1].dtype() != DType::s64 || t.dtype() != call.out_dtype) return false;
  if (numel(call.out_shape) == 0) return true;
  if (call.op == Op::gather) {
    const AxesSplit s = split_axes(t.shape(), call.get<GatherParams>().axes);
    return s.ok && std::find(s.ax_dim.begin(), s.ax_dim.end(), 0u) == s.ax_dim.end();
  }
  return AxisView(t.shape(), call.get<AxisParams>().axis).dim > 0;
}

bool update_supported(const OpCall& call) {
  const Tensor& t = call.inputs[0];
  if (call.inputs[1].dtype() != DType::s64 || t.dtype() != call.out_dtype ||
      call.inputs[2].dtype() != call.out_dtype) {
    return false;
  }
  const std::int64_t m = call.inputs[1].dim(0);
  const std::int64_t rest = m == 0 ? 0 : call.inputs[2].size() / m;
  if (rest < kNarrowRest && m > kMaxRowsForNarrowUpdate) return false;
  return split_axes(t.shape(), call.get<GatherParams>().axes).ok;
}

void run_gather_family(VulkanBackend& b, const OpCall& call, const Tensor& out) {
  const Tensor& t = call.inputs[0];
  const Tensor& idx = call.inputs[1];
  const auto n = static_cast<std::uint32_t>(out.size());
  IndexPush push{};
  std::uint32_t mode = 0;
  if (call.op == Op::gather) {
    const Shape& ishape = idx.shape();
    const std::int64_t batch =
        numel(std::span<const std::int64_t>(ishape.data(), ishape.size() - 1));
    const AxesSplit s = split_axes(t.shape(), call.get<GatherParams>().axes);
    push = index_push(s, n, static_cast<std::uint32_t>(out.size() / batch),
                      static_cast<std::uint32_t>(s.ax_dim.size()));
    const FastDivisor rest(push.b);
    push.magic_a = rest.magic;
    push.shifts = rest.shift;
    // A gather of single elements by one index each reads its indices as 16-byte loads and
    // stores four outputs at once (index_gather.comp, MODE 3).
    if (push.b == 1 && push.c == 1) mode = 3;
  } else {
    const std::int64_t axis = call.get<AxisParams>().axis;
    const AxisView v(t.shape(), axis);
    mode = call.op == Op::take ? 1 : 2;
    const std::int64_t count =
        call.op == Op::take ? idx.size() : call.out_shape[static_cast<std::size_t>(axis)];
    push.a = n;
    push.b = static_cast<std::uint32_t>(v.inner);
    push.c = static_cast<std::uint32_t>(v.dim);
    push.d = static_cast<std::uint32_t>(count);
    const FastDivisor inner(push.b), by_count(push.d);
    push.magic_a = inner.magic;
    push.magic_b = by_count.magic;
    push.shifts = inner.shift | (by_count.shift << 6);
  }
  const std::uint32_t rest_rank = call.op == Op::gather ? push.d : 0;
  const Pipeline p =
      b.pipelines().get(word_variant(WordShader::gather, out.dtype()), 3, {mode, rest_rank});
  // MODE 3 steps by quads of outputs.
  b.dispatch(p, {{&t, false}, {&idx, false}, {&out, true}}, &push, sizeof(push),
             grid_stride_threads(mode == 3 ? n / 4 : n));
}

void run_select(VulkanBackend& b, const OpCall& call, const Tensor& out) {
  const DType pred = call.inputs[0].dtype();
  const Pipeline p =
      b.pipelines().get(word_variant(WordShader::select, out.dtype()), 4,
                        {static_cast<std::uint32_t>(itemsize(pred)),
                         is_float(pred) || is_complex(pred) ? 1u : 0u, is_complex(pred) ? 1u : 0u});
  const auto n = static_cast<std::uint32_t>(out.size());
  // Steps 0 for a one-element operand (shaders/index_select.comp).
  const std::uint32_t push[4] = {n, call.inputs[0].size() == 1 ? 0u : 1u,
                                 call.inputs[1].size() == 1 ? 0u : 1u,
                                 call.inputs[2].size() == 1 ? 0u : 1u};
  b.dispatch(
      p,
      {{&call.inputs[0], false}, {&call.inputs[1], false}, {&call.inputs[2], false}, {&out, true}},
      push, sizeof(push), grid_stride_threads(n));
}

void run_clip(VulkanBackend& b, const OpCall& call, const Tensor& out) {
  const DType d = out.dtype();
  const std::uint32_t kind = is_float(d) ? 2 : is_signed_integer(d) ? 1 : 0;
  const std::uint32_t half = d == DType::f16 ? 1 : d == DType::bf16 ? 2 : 0;
  // 4-byte words: 16-byte loads and stores, four elements an invocation (index_clip.comp).
  const bool vec4 = itemsize(d) == 4;
  const Pipeline p = b.pipelines().get(word_variant(WordShader::clip, d), 4, {kind, half});
  // Steps 0 for a one-element bound (shaders/index_clip.comp).
  const std::uint32_t push[3] = {static_cast<std::uint32_t>(out.size()),
                                 call.inputs[1].size() == 1 ? 0u : 1u,
                                 call.inputs[2].size() == 1 ? 0u : 1u};
  b.dispatch(
      p,
      {{&call.inputs[0], false}, {&call.inputs[1], false}, {&call.inputs[2], false}, {&out, true}},
      push, sizeof(push), grid_stride_threads(vec4 ? (push[0] + 3) / 4 : push[0]));
}

// indexed_put in one pass (index_put.comp) on GPUs, where it saves the copy's command and
// barrier; on CPU devices a copy of t, a barrier and the update pass (index_update.comp):
// their copy command is a memcpy that their shaders come nowhere near (lavapipe: many times
// slower by the one pass at 1M). Overrides::fused_put forces either.
bool fused_put_allowed(const VulkanBackend& b) {
  return vkt::overrides()->fused_put.value_or(is_gpu(b.context()));
}

// index_put.comp keeps each row's first element in a register: at most this many rows.
constexpr std::int64_t kFusedPutRows = 8;

// indexed_put in one pass (index_put.comp): a copy of t with the rows put into its words,
// where the rows are few and each row's elements are one run of t (no rest axis before an
// indexed one): no separate copy and no barrier between it and the update pass.
bool fused_put(VulkanBackend& b, const OpCall& call, const Tensor& out, const AxesSplit& s) {
  const std::int64_t m = call.inputs[1].dim(0);
  const bool run_of_t = s.rest_dim.empty() || (s.rest_dim.size() == 1 && s.rest_stride[0] == 1);
  if (call.op != Op::indexed_put || m > kFusedPutRows || !run_of_t || !fused_put_allowed(b)) {
    return false;
  }
  struct {
    std::uint32_t n, m, k, rest;
    std::uint32_t ax_dim[kMaxViewRank], ax_stride[kMaxViewRank];
  } push{static_cast<std::uint32_t>(out.size()),
         static_cast<std::uint32_t>(m),
         static_cast<std::uint32_t>(s.ax_dim.size()),
         static_cast<std::uint32_t>(call.inputs[2].size() / m),
         {},
         {}};
  std::copy(s.ax_dim.begin(), s.ax_dim.end(), push.ax_dim);
  std::copy(s.ax_stride.begin(), s.ax_stride.end(), push.ax_stride);
  const std::uint64_t words = out.nbytes() / 16;
  const Pipeline p = b.pipelines().get(word_variant(WordShader::put, out.dtype()), 4,
                                       std::vector<std::uint32_t>{});
  b.dispatch(
      p,
      {{&call.inputs[0], false}, {&call.inputs[1], false}, {&call.inputs[2], false}, {&out, true}},
      &push, sizeof(push), grid_stride_threads(std::max<std::uint64_t>(words, 1)));
  return true;
}

void run_update(VulkanBackend& b, const OpCall& call, const Tensor& out) {
  const Tensor& idx = call.inputs[1];
  const Tensor& updates = call.inputs[2];
  const std::int64_t m = idx.dim(0), rest = m == 0 ? 0 : updates.size() / m;
  const AxesSplit s = split_axes(call.inputs[0].shape(), call.get<GatherParams>().axes);
  if (m > 0 && rest > 0 && fused_put(b, call, out, s)) return;
  copy_range(b, call.inputs[0], out, 0, 0, out.nbytes());
  if (m == 0 || rest == 0) return;
  const IndexPush push =
      index_push(s, static_cast<std::uint32_t>(m), static_cast<std::uint32_t>(idx.dim(1)),
                 static_cast<std::uint32_t>(rest));
  const bool add = call.op == Op::indexed_add;
  const Pipeline p =
      b.pipelines().get(word_variant(WordShader::update, out.dtype()), 3,
                        {add ? 1u : 0u, static_cast<std::uint32_t>(out.dtype()), push.d});
  b.dispatch(p, {{&out, true}, {&idx, false}, {&updates, false}}, &push, sizeof(push),
             static_cast<std::uint64_t>(rest));
}

}  // namespace

bool index_supported(const VulkanBackend& b, const OpCall& call) {
  if (!word_shaders_ok(b, call)) return false;
  switch (call.op) {
    case Op::gather:
    case Op::take:
    case Op::take_along_axis:
      return gather_supported(call);
    case Op::select:
      return call.inputs[1].dtype() == call.out_dtype && call.inputs[2].dtype() == call.out_dtype;
    case Op::clip:
      return std::all_of(call.inputs.begin(), call.inputs.end(),
                         [&](const Tensor& t) { return t.dtype() == call.out_dtype; });
    case Op::indexed_add:
    case Op::indexed_put:
      return update_supported(call);
    default:
      return false;
  }
}

Tensor run_index(VulkanBackend& b, const OpCall& call) {
  Tensor out = b.make_output(call);
  if (out.size() == 0) return out;
  switch (call.op) {
    case Op::gather:
    case Op::take:
    case Op::take_along_axis:
      run_gather_family(b, call, out);
      break;
    case Op::select:
      run_select(b, call, out);
      break;
    case Op::clip:
      run_clip(b, call, out);
      break;
    case Op::indexed_add:
    case Op::indexed_put:
      run_update(b, call, out);
      break;
    default:
      throw Unsupported("[" + std::string(op_name(call.op)) + "] has no native " + b.name() +
                        " kernel");
  }
  return out;
}

}  // namespace vkt::vk
