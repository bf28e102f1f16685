// Movement on the device, matching src/cpu/movement.cpp word for word: broadcast, transpose
// (a shared-memory tiled path for batched 2-D swaps, else strided), pad (one gather pass with
// the fill), reverse, slice, put_slice and concatenate (one gather pass each,
// movement_one_pass.cpp; where the device copies faster by command: a copy of t, then the
// update's strided copy, and a device copy per input of an outer-axis concatenate). Shaders
// move words of the element size (shaders/movement_*.comp).
#include <array>
#include <atomic>
#include <optional>
#include <string>

#include "vkt/ledger.h"
#include "vulkan/ops/movement_one_pass.h"
#include "vulkan/ops/movement_words.h"
#include "vulkan/ops/scalar_words.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {
namespace {

struct CopyPush {
  std::uint32_t n, src_offset, dst_offset;
};

// Divisor shifts are packed 6 bits per axis from axis 1 (axis a at bit 6(a - 1): five axes
// fit 32 bits; axis 0 needs no division), read by the shaders' shift_at(shifts, a - 1).
struct StridedPush {
  std::uint32_t n, shifts;
  std::int32_t src_offset, dst_offset;
  std::uint32_t shape[kMaxViewRank];
  std::int32_t src_stride[kMaxViewRank];
  std::int32_t dst_stride[kMaxViewRank];
  std::uint32_t magic[kMaxViewRank];
};

// out_dim and magic hold axes 1.. (the outermost axis needs no division).
struct PadPush {
  std::uint32_t n, shifts, fill_lo, fill_hi;
  std::uint32_t out_dim[kMaxViewRank - 1];
  std::uint32_t magic[kMaxViewRank - 1];
  std::int32_t lo[kMaxViewRank];
  std::uint32_t step[kMaxViewRank];
  std::uint32_t in_dim[kMaxViewRank];
};

struct TransposePush {
  std::uint32_t batch, rows, cols, tiles_r, tiles_c;
};

constexpr std::int64_t kTile = 32;

std::atomic<TransposePath> g_transpose_path{TransposePath::by_device};

bool use_tiled_transpose(const VulkanBackend& b, DType d) {
  if (itemsize(d) > 8) return false;  // no movement_transpose_w16 (CMakeLists.txt)
  switch (g_transpose_path.load()) {
    case TransposePath::tiled:
      return true;
    case TransposePath::strided:
      return false;
    default:
      return is_gpu(b.context());
  }
}

bool outer_axis_concatenate(const OpCall& call) {
  const std::int64_t axis = call.get<AxisParams>().axis;
  for (std::int64_t a = 0; a < axis; ++a) {
    if (call.out_shape[static_cast<std::size_t>(a)] != 1) return false;
  }
  for (const Tensor& t : call.inputs) {
    if (t.dtype() != call.out_dtype) return false;
  }
  return true;
}

// The view of a single-input op (broadcast, transpose, reverse, slice) from input to output.
StridedView single_input_view(const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  const auto in_strides = contiguous_strides(in.shape());
  StridedView v{call.out_shape, {}, contiguous_strides(call.out_shape)};
  switch (call.op) {
    case Op::broadcast: {
      v.src.assign(call.out_shape.size(), 0);
      const Axes& axes = call.get<BroadcastParams>().axes;
      for (std::size_t i = 0; i < axes.size(); ++i) {
        if (in.shape()[i] != 1) v.src[static_cast<std::size_t>(axes[i])] = in_strides[i];
      }
      break;
    }
    case Op::transpose:
      for (std::int64_t p : call.get<TransposeParams>().perm) {
        v.src.push_back(in_strides[static_cast<std::size_t>(p)]);
      }
      break;
    case Op::reverse:
      v.src = in_strides;
      for (std::int64_t a : call.get<AxesParams>().axes) {
        const auto i = static_cast<std::size_t>(a);
        v.src_offset += (in.shape()[i] - 1) * in_strides[i];
        v.src[i] = -in_strides[i];
      }
      break;
    case Op::slice: {
      const SliceParams& p = call.get<SliceParams>();
      for (std::size_t a = 0; a < in_strides.size(); ++a) {
        v.src_offset += p.start[a] * in_strides[a];
        v.src.push_back(p.strides[a] * in_strides[a]);
      }
      break;
    }
    default:
      throw Unsupported("[" + std::string(op_name(call.op)) + "] has no strided view");
  }
  return collapse(v);
}

// A collapsed transpose view that is {batch, cols, rows} <- {batch, rows, cols}.
struct Tiled {
  std::int64_t batch, rows, cols;
};
std::optional<Tiled> tiled_transpose(const StridedView& v) {
  const std::size_t r = v.shape.size();
  if (r < 2 || v.src[r - 2] != 1 || v.src[r - 1] != v.shape[r - 2]) return std::nullopt;
  std::int64_t batch = 1;
  for (std::size_t a = 0; a + 2 < r; ++a) {
    if (v.src[a] != v.dst[a]) return std::nullopt;
    batch *= v.shape[a];
  }
  const Tiled t{batch, v.shape[r - 1], v.shape[r - 2]};
  // Thin matrices waste most of a 32x32 tile; the strided path serves them.
  if (t.rows < 8 || t.cols < 8) return std::nullopt;
  return t;
}

StridedView put_slice_view(const OpCall& call) {
  const Tensor& t = call.inputs[0];
  const Tensor& update = call.inputs[1];
  const auto strides = contiguous_strides(t.shape());
  StridedView v{update.shape(), contiguous_strides(update.shape()), strides};
  for (std::size_t a = 0; a < strides.size(); ++a) {
    v.dst_offset += call.get<PutSliceParams>().start[a] * strides[a];
  }
  return collapse(v);
}

void run_pad(VulkanBackend& b, const OpCall& call, const Tensor& out) {
  const Tensor& in = call.inputs[0];
  const PadParams& p = call.get<PadParams>();
  PadPush push{};
  push.n = static_cast<std::uint32_t>(out.size());
  const std::array<std::uint32_t, 4> fill = scalar_words(p.value, call.out_dtype);
  push.fill_lo = fill[0];
  push.fill_hi = fill[1];
  for (std::size_t a = 0; a < p.config.size(); ++a) {
    if (a > 0) {
      const FastDivisor div(static_cast<std::uint64_t>(call.out_shape[a]));
      push.out_dim[a - 1] = static_cast<std::uint32_t>(call.out_shape[a]);
      push.magic[a - 1] = div.magic;
      push.shifts |= div.shift << (6 * (a - 1));
    }
    push.lo[a] = static_cast<std::int32_t>(p.config[a].lo);
    push.step[a] = static_cast<std::uint32_t>(p.config[a].interior + 1);
    push.in_dim[a] = static_cast<std::uint32_t>(in.shape()[a]);
  }
  const Pipeline pl = b.pipelines().get(word_variant(WordShader::pad, call.out_dtype), 2,
                                        {static_cast<std::uint32_t>(p.config.size())});
  b.dispatch(pl, {{&in, false}, {&out, true}}, &push, sizeof(push),
             grid_stride_threads(out.size()));
}

// c128 pad (its fill's four words pass the 128 bytes of push constants every device has):
// the output filled by `full`, then the kept input elements copied to their places by one
// strided pass (negative lo crops, interior spaces them out).
StridedView pad_copy_view(const OpCall& call) {
  const Tensor& in = call.inputs[0];
  const PadParams& p = call.get<PadParams>();
  const auto in_strides = contiguous_strides(in.shape());
  const auto out_strides = contiguous_strides(call.out_shape);
  StridedView v;
  for (std::size_t a = 0; a < p.config.size(); ++a) {
    const std::int64_t lo = p.config[a].lo, step = p.config[a].interior + 1;
    const std::int64_t dim = in.shape()[a], out_dim = call.out_shape[a];
    // Input indices i with 0 <= lo + i * step < out_dim.
    const std::int64_t first = lo < 0 ? (-lo + step - 1) / step : 0;
    const std::int64_t last =
        out_dim - 1 - lo < 0 ? -1 : std::min(dim - 1, (out_dim - 1 - lo) / step);
    const std::int64_t count = std::max<std::int64_t>(0, last - first + 1);
    v.shape.push_back(count);
    v.src.push_back(in_strides[a]);
    v.dst.push_back(step * out_strides[a]);
    v.src_offset += first * in_strides[a];
    v.dst_offset += (lo + first * step) * out_strides[a];
  }
  return collapse(v);
}

Tensor run_pad_by_copy(VulkanBackend& b, const OpCall& call) {
  const OpCall fill{
      Op::full, {}, FullParams{call.get<PadParams>().value}, call.out_dtype, call.out_shape};
  Tensor out = run_creation(b, fill);
  const StridedView v = pad_copy_view(call);
  if (numel(v.shape) > 0) run_strided(b, call.inputs[0], out, v);
  return out;
}

constexpr std::int64_t kWideTile = 64;
constexpr std::uint32_t kWideTileBytes = kWideTile * (kWideTile + 1) * 4;

// shaders/movement_transpose_wide.comp: 4-byte words, whole aligned quads (rows and cols
// multiples of 4), its 64x65 tile within the device's shared memory.
bool wide_transpose(const VulkanBackend& b, DType d, const Tiled& t) {
  return itemsize(d) == 4 && t.rows % 4 == 0 && t.cols % 4 == 0 &&
         b.context().limits().max_shared_bytes >= kWideTileBytes;
}
static_assert(Pipelines::kWorkgroupSize == 256, "movement_transpose_wide.comp: 16 rows a pass");

void run_transpose_tiled(VulkanBackend& b, const Tensor& in, const Tensor& out, const Tiled& t) {
  if (wide_transpose(b, in.dtype(), t)) {
    const TransposePush push{static_cast<std::uint32_t>(t.batch),
                             static_cast<std::uint32_t>(t.rows), static_cast<std::uint32_t>(t.cols),
                             static_cast<std::uint32_t>((t.rows + kWideTile - 1) / kWideTile),
                             static_cast<std::uint32_t>((t.cols + kWideTile - 1) / kWideTile)};
    const Pipeline pl = b.pipelines().get("movement_transpose_wide", 2, {});
    const std::uint64_t groups = std::uint64_t{push.batch} * push.tiles_r * push.tiles_c;
    b.dispatch(pl, {{&in, false}, {&out, true}}, &push, sizeof(push), groups * pl.workgroup_size);
    return;
  }
  const TransposePush push{static_cast<std::uint32_t>(t.batch), static_cast<std::uint32_t>(t.rows),
                           static_cast<std::uint32_t>(t.cols),
                           static_cast<std::uint32_t>((t.rows + kTile - 1) / kTile),
                           static_cast<std::uint32_t>((t.cols + kTile - 1) / kTile)};
  const Pipeline pl = b.pipelines().get(word_variant(WordShader::transpose, in.dtype()), 2, {});
  const std::uint64_t groups = std::uint64_t{push.batch} * push.tiles_r * push.tiles_c;
  b.dispatch(pl, {{&in, false}, {&out, true}}, &push, sizeof(push), groups * pl.workgroup_size);
}

bool view_fits(const StridedView& v) {
  return v.shape.size() <= kMaxViewRank;
}

bool inputs_share_dtype(const OpCall& call) {
  for (const Tensor& t : call.inputs) {
    if (t.dtype() != call.out_dtype) return false;
  }
  return true;
}

}  // namespace

void set_transpose_path(TransposePath path) {
  g_transpose_path = path;
}

void record_copy(VulkanBackend& b, CopyPath path, const Tensor& src, const Tensor& dst,
                 std::uint64_t src_offset, std::uint64_t dst_offset, std::uint64_t bytes) {
  if (bytes == 0) return;
  const BufferRange& s = vulkan_storage(*src.storage()).range();
  const BufferRange& d = vulkan_storage(*dst.storage()).range();
  // The shader copies whole words; it is used only where nothing past `bytes` can be
  // clobbered and the words fit the descriptor range limit.
  const bool words_ok = src_offset % 4 == 0 && dst_offset % 4 == 0 &&
                        (bytes % 4 == 0 || dst_offset + bytes == dst.nbytes()) &&
                        std::max(s.size, d.size) <= b.context().limits().max_storage_range;
  if (path == CopyPath::compute_shader && words_ok) {
    const std::uint64_t words = (bytes + 3) / 4;
    const bool vec4 = src_offset % 16 == 0 && dst_offset % 16 == 0;
    const Pipeline p = b.pipelines().get("movement_copy", 2, {vec4 ? 1u : 0u});
    CopyPush push{static_cast<std::uint32_t>(words), static_cast<std::uint32_t>(src_offset / 4),
                  static_cast<std::uint32_t>(dst_offset / 4)};
    b.dispatch(p, {{&src, false}, {&dst, true}}, &push, sizeof(push), grid_stride_threads(words));
  } else {
    VkCommandBuffer cmd =
        b.recorder().begin_command({{s.buffer, s.offset + src_offset, bytes, false},
                                    {d.buffer, d.offset + dst_offset, bytes, true}});
    const VkBufferCopy region{s.offset + src_offset, d.offset + dst_offset, bytes};
    vkCmdCopyBuffer(cmd, s.buffer, d.buffer, 1, &region);
    b.recorder().end_command();
    b.recorder().hold(src.storage());
    b.recorder().hold(dst.storage());
  }
  ledger::record_device_copy(bytes);
}

void copy_range(VulkanBackend& b, const Tensor& src, const Tensor& dst, std::uint64_t src_offset,
                std::uint64_t dst_offset, std::uint64_t bytes) {
  record_copy(b, b.copy_path_for(bytes), src, dst, src_offset, dst_offset, bytes);
}

void run_strided(VulkanBackend& b, const Tensor& src, const Tensor& dst, const StridedView& v) {
  const std::int64_t n = numel(v.shape);
  if (n == 0) return;
  const auto item = static_cast<std::int64_t>(itemsize(dst.dtype()));
  if (v.shape.empty() || (v.shape.size() == 1 && v.src[0] == 1 && v.dst[0] == 1)) {
    copy_range(b, src, dst, static_cast<std::uint64_t>(v.src_offset * item),
               static_cast<std::uint64_t>(v.dst_offset * item),
               static_cast<std::uint64_t>(n * item));
    return;
  }
  StridedPush push{};
  push.n = static_cast<std::uint32_t>(n);
  push.src_offset = static_cast<std::int32_t>(v.src_offset);
  push.dst_offset = static_cast<std::int32_t>(v.dst_offset);
  for (std::size_t a = 0; a < v.shape.size(); ++a) {
    push.shape[a] = static_cast<std::uint32_t>(v.shape[a]);
    const FastDivisor div(static_cast<std::uint64_t>(v.shape[a]));
    push.magic[a] = div.magic;
    if (a > 0) push.shifts |= div.shift << (6 * (a - 1));
    push.src_stride[a] = static_cast<std::int32_t>(v.src[a]);
    push.dst_stride[a] = static_cast<std::int32_t>(v.dst[a]);
  }
  const bool dst_contiguous = v.dst_offset == 0 && v.dst == contiguous_strides(v.shape);
  const Pipeline p =
      b.pipelines().get(word_variant(WordShader::strided, dst.dtype()), 2,
                        {static_cast<std::uint32_t>(v.shape.size()), dst_contiguous ? 1u : 0u});
  b.dispatch(p, {{&src, false}, {&dst, true}}, &push, sizeof(push),
             grid_stride_threads(static_cast<std::uint64_t>(n)));
}

bool movement_supported(const VulkanBackend& b, const OpCall& call) {
  // An outer-axis concatenate can always take a device copy per input.
  if (call.op == Op::concatenate && outer_axis_concatenate(call)) return true;
  if (!word_shaders_ok(b, call) || !inputs_share_dtype(call)) return false;
  switch (call.op) {
    case Op::broadcast:
    case Op::reverse:
    case Op::slice:
      return view_fits(single_input_view(call));
    case Op::transpose: {
      const StridedView v = single_input_view(call);
      return view_fits(v) ||
             (tiled_transpose(v).has_value() && use_tiled_transpose(b, call.out_dtype));
    }
    case Op::pad:
      if (itemsize(call.out_dtype) > 8) return view_fits(pad_copy_view(call));
      return call.get<PadParams>().config.size() <= kMaxViewRank;
    case Op::put_slice:
      return view_fits(put_slice_view(call));
    case Op::concatenate:  // the one pass (any rank: it views the output as rows)
      return true;
    default:
      return false;
  }
}

Tensor run_movement(VulkanBackend& b, const OpCall& call) {
  if (call.op == Op::pad && itemsize(call.out_dtype) > 8) return run_pad_by_copy(b, call);
  Tensor out = b.make_output(call);
  if (out.size() == 0) return out;
  switch (call.op) {
    case Op::concatenate: {
      const bool outer = outer_axis_concatenate(call);
      if (concatenate_one_pass(b, call, outer) && run_concatenate_one_pass(b, call, out)) {
        return out;
      }
      // Inner axes have no other path (movement_supported admits them for the one pass).
      if (!outer) throw Unsupported("[concatenate] has no native " + b.name() + " kernel");
      std::uint64_t offset = 0;
      for (const Tensor& t : call.inputs) {
        copy_range(b, t, out, 0, offset, t.nbytes());
        offset += t.nbytes();
      }
      return out;
    }
    case Op::pad:
      run_pad(b, call, out);
      return out;
    case Op::put_slice:
      if (put_slice_one_pass(b, call) && run_put_slice_one_pass(b, call, out)) return out;
      copy_range(b, call.inputs[0], out, 0, 0, out.nbytes());
      run_strided(b, call.inputs[1], out, put_slice_view(call));
      return out;
    case Op::transpose: {
      const StridedView v = single_input_view(call);
      const auto t = tiled_transpose(v);
      if (t && use_tiled_transpose(b, call.out_dtype)) {
        run_transpose_tiled(b, call.inputs[0], out, *t);
      } else {
        run_strided(b, call.inputs[0], out, v);
      }
      return out;
    }
    case Op::broadcast:
    case Op::reverse:
    case Op::slice:
      run_strided(b, call.inputs[0], out, single_input_view(call));
      return out;
    default:
      throw Unsupported("[" + std::string(op_name(call.op)) + "] has no native " + b.name() +
                        " kernel");
  }
}

}  // namespace vkt::vk
