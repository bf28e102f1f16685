// Axis collapse for a strided walk over two operands, shared by the cpu's strided copies
// and the Vulkan word shaders' views (each backend used to carry its own copy): fewer,
// longer axes mean fewer loops on the cpu and fewer divisions in a shader.
#pragma once

#include <cstdint>
#include <vector>

namespace vkt::common {

// Drops size-1 axes and merges neighbours that are contiguous in both stride lists (in
// elements; strides may be 0 or negative). A walk with a 0-size axis becomes {0} with
// strides {1}; one of size-1 axes only becomes rank 0.
inline void collapse_axes(std::vector<std::int64_t>& shape, std::vector<std::int64_t>& a,
                          std::vector<std::int64_t>& b) {
  std::vector<std::int64_t> s, sa, sb;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) {
      s = {0}, sa = {1}, sb = {1};
      break;
    }
    if (shape[i] == 1) continue;
    if (!s.empty() && sa.back() == a[i] * shape[i] && sb.back() == b[i] * shape[i]) {
      s.back() *= shape[i];
      sa.back() = a[i];
      sb.back() = b[i];
      continue;
    }
    s.push_back(shape[i]);
    sa.push_back(a[i]);
    sb.push_back(b[i]);
  }
  shape = std::move(s);
  a = std::move(sa);
  b = std::move(sb);
}

}  // namespace vkt::common
