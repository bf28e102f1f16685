// Shared by movement.cpp and index.cpp: word-width shader variants, the limits a word shader
// must respect, and strided views of a copy (collapsed to few axes before a dispatch).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/collapse_axes.h"
#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/shader_limits.h"

namespace vkt::vk {

// Axes a shader's strided view holds (MAX_RANK in shaders/movement_word.glsl).
inline constexpr std::size_t kMaxViewRank = 6;

// The word shaders: CMakeLists.txt builds each once per word width (1, 2, 4, 8 and, for most,
// 16 bytes).
enum class WordShader {
  strided,
  pad,
  transpose,
  concat,
  put_slice,
  gather,
  select,
  clip,
  update,
  put
};

// "<shader>_w<bytes>" by shader and width (1, 2, 4, 8, 16 bytes): an op call names its
// pipeline without building a string. A width a shader is not built for fails at the
// pipeline lookup, naming it.
inline constexpr std::array<std::array<std::string_view, 5>, 10> kWordVariants = {{
    {"movement_strided_w1", "movement_strided_w2", "movement_strided_w4", "movement_strided_w8",
     "movement_strided_w16"},
    {"movement_pad_w1", "movement_pad_w2", "movement_pad_w4", "movement_pad_w8",
     "movement_pad_w16"},
    {"movement_transpose_w1", "movement_transpose_w2", "movement_transpose_w4",
     "movement_transpose_w8", "movement_transpose_w16"},
    {"movement_concat_w1", "movement_concat_w2", "movement_concat_w4", "movement_concat_w8",
     "movement_concat_w16"},
    {"movement_put_slice_w1", "movement_put_slice_w2", "movement_put_slice_w4",
     "movement_put_slice_w8", "movement_put_slice_w16"},
    {"index_gather_w1", "index_gather_w2", "index_gather_w4", "index_gather_w8",
     "index_gather_w16"},
    {"index_select_w1", "index_select_w2", "index_select_w4", "index_select_w8",
     "index_select_w16"},
    {"index_clip_w1", "index_clip_w2", "index_clip_w4", "index_clip_w8", "index_clip_w16"},
    {"index_update_w1", "index_update_w2", "index_update_w4", "index_update_w8",
     "index_update_w16"},
    {"index_put_w1", "index_put_w2", "index_put_w4", "index_put_w8", "index_put_w16"},
}};

// The variant of `shader` moving words of `bytes` (1, 2, 4, 8 or 16).
inline std::string_view word_variant(WordShader shader, std::size_t bytes) {
  return kWordVariants[static_cast<std::size_t>(shader)][std::bit_width(bytes) - 1];
}

// The variant moving words of d's element size.
inline std::string_view word_variant(WordShader shader, DType d) {
  return word_variant(shader, itemsize(d));
}

// Word shaders need 8/16-bit storage (no arithmetic features) and the shared shader limits.
inline bool word_shaders_ok(const VulkanBackend& b, const OpCall& call) {
  const DeviceCaps& c = b.context().caps();
  if (!c.storage8 || !c.storage16) return false;
  return within_shader_limits(call, b.context().limits().max_storage_range);
}

// n / d as (umulhi(n, magic) + n) >> shift, exact for n < 2^31 (every index here): shaders'
// fast_div (shaders/movement_word.glsl).
struct FastDivisor {
  std::uint32_t magic = 1, shift = 0;
  explicit FastDivisor(std::uint64_t d) {
    d = std::max<std::uint64_t>(d, 1);  // only 0-element views have a 0 dim; never divided
    while ((std::uint64_t{1} << shift) < d) ++shift;
    magic = static_cast<std::uint32_t>(
        ((std::uint64_t{1} << 32) * ((std::uint64_t{1} << shift) - d)) / d + 1);
  }
};

// dst[dst_offset + sum x_k dst[k]] = src[src_offset + sum x_k src[k]] over x in shape
// (element units; strides may be negative or 0).
struct StridedView {
  std::vector<std::int64_t> shape, src, dst;
  std::int64_t src_offset = 0, dst_offset = 0;
};

// Fewer axes, so the shader does as few divisions as the layout allows
// (common::collapse_axes). An empty (0-element) view keeps its zero.
inline StridedView collapse(const StridedView& v) {
  StridedView out = v;
  common::collapse_axes(out.shape, out.src, out.dst);
  return out;
}

// How a batched 2-D transpose runs: through a shared-memory tile on GPUs, by the strided
// path on CPU devices (lavapipe), where shared memory buys nothing and barriers cost (the
// strided path measured 2.3x faster there on 1024x1024). Tests force either (by_device is
// the default).
enum class TransposePath { by_device, tiled, strided };
void set_transpose_path(TransposePath path);

// Records the copy a collapsed view describes (src -> dst, both word-typed like dst's
// dtype): a device copy when it is one contiguous run, else one strided-shader dispatch.
void run_strided(VulkanBackend& b, const Tensor& src, const Tensor& dst, const StridedView& v);

}  // namespace vkt::vk
