// Does f32 arithmetic flush subnormals on this device? Float controls cannot say: lavapipe
// and NVIDIA both report neither shaderDenormPreserveFloat32 nor FlushToZero, and only
// NVIDIA flushes (on the H200 c64 log of a subnormal part gave -inf). So it is measured.
#include <cstring>

#include "vkt/error.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {

bool probe_f32_flush(VulkanBackend& b) {
  if (b.context().caps().float_controls.preserve32) return false;  // DenormPreserve is set
  try {
    const float tiny = 1e-20f;
    const Tensor a(DType::f32, {1}, b.from_host(&tiny, sizeof tiny));
    const Tensor product = run_binary(b, OpCall{Op::multiply, {a, a}, NoParams{}, DType::f32, {1}});
    const std::vector<std::byte> bytes = product.to_bytes();
    float got = 0;
    std::memcpy(&got, bytes.data(), sizeof got);
    return got == 0.0f;
  } catch (const Error&) {
    return true;  // unknown: the careful answer
  }
}

}  // namespace vkt::vk
