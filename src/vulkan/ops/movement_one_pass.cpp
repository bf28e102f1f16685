// concatenate and put_slice in one dispatch each (shaders/movement_concat.comp,
// movement_put_slice.comp). The copy paths record a command per input (or a copy of t, a
// barrier and the update's copy); each command in a command buffer adds to an op's fixed
// cost on a GPU.
#include "vulkan/ops/movement_one_pass.h"

#include <array>
#include <numeric>
#include <string>
#include <vector>

#include "common/settings.h"
#include "vkt/error.h"
#include "vulkan/ops/movement_words.h"

namespace vkt::vk {
namespace {

struct ConcatPush {
  std::uint32_t n, cols, magic, shift, row_len, col0, end0, end1;
};

struct PutSlicePush {
  std::uint32_t n, shifts;
  std::uint32_t dim[kMaxViewRank - 1];  // axes 1..
  std::uint32_t magic[kMaxViewRank - 1];
  std::uint32_t lo[kMaxViewRank];
  std::uint32_t len[kMaxViewRank];
};

// Sources one concatenate pass reads (bindings 0-2 of movement_concat.comp).
constexpr std::size_t kConcatSources = 3;

bool inputs_share_dtype(const OpCall& call) {
  for (const Tensor& t : call.inputs) {
    if (t.dtype() != call.out_dtype) return false;
  }
  return true;
}

// A box {lo, len} on t's axes, collapsed: size-1 axes dropped, and an axis the box covers
// whole merged into the axis outside it (the box stays one run there).
struct Box {
  std::vector<std::int64_t> dim, lo, len;
};
Box collapsed_box(const Shape& t, const Shape& update, const std::vector<std::int64_t>& start) {
  Box box;
  for (std::size_t a = 0; a < t.size(); ++a) {
    if (t[a] == 1) continue;
    const bool whole = start[a] == 0 && update[a] == t[a];
    if (whole && !box.dim.empty()) {
      box.dim.back() *= t[a];
      box.lo.back() *= t[a];
      box.len.back() *= t[a];
    } else {
      box.dim.push_back(t[a]);
      box.lo.push_back(start[a]);
      box.len.push_back(update[a]);
    }
  }
  if (box.dim.empty()) box = {{1}, {0}, {1}};
  return box;
}

// Outer-axis concatenate and put_slice take the one pass where the device's measured copy
// path is the shader (copy_path.cpp): there it saves a command per input. Where
// vkCmdCopyBuffer copies faster (lavapipe: a memcpy) they keep the copies.
// Overrides::one_pass_movement forces either. Inner-axis concatenate has only the one pass.
bool one_pass_rule(const VulkanBackend& b) {
  return vkt::overrides()->one_pass_movement.value_or(b.copy_path() == CopyPath::compute_shader);
}

}  // namespace

bool concatenate_one_pass(const VulkanBackend& b, const OpCall& call, bool outer_axis) {
  return word_shaders_ok(b, call) && inputs_share_dtype(call) && (!outer_axis || one_pass_rule(b));
}

bool put_slice_one_pass(const VulkanBackend& b, const OpCall& call) {
  return word_shaders_ok(b, call) && inputs_share_dtype(call) && one_pass_rule(b);
}

bool run_concatenate_one_pass(VulkanBackend& b, const OpCall& call, const Tensor& out) {
  const auto axis = static_cast<std::size_t>(call.get<AxisParams>().axis);
  std::int64_t rows = 1;
  for (std::size_t a = 0; a < axis; ++a) rows *= call.out_shape[a];
  const std::uint64_t item = itemsize(call.out_dtype);
  // Each input's run per row in bytes; the word is the widest dividing every run.
  std::vector<const Tensor*> inputs;
  std::vector<std::uint64_t> run_bytes;
  std::uint64_t common = 0;
  for (const Tensor& t : call.inputs) {
    if (t.size() == 0) continue;
    inputs.push_back(&t);
    run_bytes.push_back(static_cast<std::uint64_t>(t.size() / rows) * item);
    common = std::gcd(common, run_bytes.back());
  }
  if (inputs.empty()) return false;
  const std::size_t word = widest_word(common);
  const std::uint64_t row_len = out.nbytes() / static_cast<std::uint64_t>(rows) / word;
  const Pipeline pl = b.pipelines().get(word_variant(WordShader::concat, word), 4, {});
  std::uint64_t col0 = 0;
  for (std::size_t first = 0; first < inputs.size(); first += kConcatSources) {
    const std::size_t count = std::min(kConcatSources, inputs.size() - first);
    std::array<std::uint64_t, kConcatSources> ends{};
    std::uint64_t cols = 0;
    std::vector<std::pair<const Tensor*, bool>> buffers;
    for (std::size_t k = 0; k < kConcatSources; ++k) {
      const std::size_t i = first + (k < count ? k : 0);
      if (k < count) cols += run_bytes[i] / word;
      ends[k] = cols;
      buffers.push_back({inputs[i], false});
    }
    buffers.push_back({&out, true});
    const std::uint64_t n = static_cast<std::uint64_t>(rows) * cols;
    const FastDivisor div(cols);
    const ConcatPush push{static_cast<std::uint32_t>(n),
                          static_cast<std::uint32_t>(cols),
                          div.magic,
                          div.shift,
                          static_cast<std::uint32_t>(row_len),
                          static_cast<std::uint32_t>(col0),
                          static_cast<std::uint32_t>(ends[0]),
                          static_cast<std::uint32_t>(ends[1])};
    b.dispatch(pl, buffers, &push, sizeof(push), grid_stride_threads(n));
    col0 += cols;
  }
  return true;
}

bool run_put_slice_one_pass(VulkanBackend& b, const OpCall& call, const Tensor& out) {
  const Tensor& t = call.inputs[0];
  const Tensor& update = call.inputs[1];
  if (update.size() == 0) return false;  // nothing to bind; the copy path copies t
  Box box = collapsed_box(t.shape(), update.shape(), call.get<PutSliceParams>().start);
  if (box.dim.size() > kMaxViewRank) return false;
  // The innermost axis is contiguous on both sides: move the widest word dividing its
  // extent, the box's start and length there.
  const auto item = static_cast<std::int64_t>(itemsize(call.out_dtype));
  const std::uint64_t common = std::gcd(std::gcd(static_cast<std::uint64_t>(box.dim.back() * item),
                                                 static_cast<std::uint64_t>(box.lo.back() * item)),
                                        static_cast<std::uint64_t>(box.len.back() * item));
  const auto word = static_cast<std::int64_t>(widest_word(common));
  box.dim.back() = box.dim.back() * item / word;
  box.lo.back() = box.lo.back() * item / word;
  box.len.back() = box.len.back() * item / word;
  PutSlicePush push{};
  push.n = static_cast<std::uint32_t>(numel(box.dim));
  for (std::size_t a = 0; a < box.dim.size(); ++a) {
    if (a > 0) {
      const FastDivisor div(static_cast<std::uint64_t>(box.dim[a]));
      push.dim[a - 1] = static_cast<std::uint32_t>(box.dim[a]);
      push.magic[a - 1] = div.magic;
      push.shifts |= div.shift << (6 * (a - 1));
    }
    push.lo[a] = static_cast<std::uint32_t>(box.lo[a]);
    push.len[a] = static_cast<std::uint32_t>(box.len[a]);
  }
  const Pipeline pl =
      b.pipelines().get(word_variant(WordShader::put_slice, static_cast<std::size_t>(word)), 3,
                        {static_cast<std::uint32_t>(box.dim.size())});
  b.dispatch(pl, {{&t, false}, {&update, false}, {&out, true}}, &push, sizeof(push),
             grid_stride_threads(push.n));
  return true;
}

}  // namespace vkt::vk
