// Shared by movement.cpp and index.cpp: word-width shader variants, the limits a word shader
// must respect, and strided views of a copy (collapsed to few axes before a dispatch).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "common/collapse_axes.h"
#include "vulkan/backend.h"
#include "vulkan/shader_limits.h"

namespace vkt::vk {

// Axes a shader's strided view holds (MAX_RANK in shaders/movement_word.glsl).
inline constexpr std::size_t kMaxViewRank = 6;

// "<shader>_w<bytes>": the variant moving words of d's element size.
inline std::string word_variant(const std::string& shader, DType d) {
  return shader + "_w" + std::to_string(itemsize(d));
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
