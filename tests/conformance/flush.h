// Does the test device flush subnormals in float arithmetic? Where it offers
// shaderDenormPreserveFloat32/64 the shaders run with DenormPreserve and must not; elsewhere
// a probe decides (lavapipe's float controls report neither preserve nor flush).
//
// VKT_TEST_ASSUME_FLUSH=1 makes every float dtype (f16 aside) report flushing, so the tests'
// flush branches also run on a device that keeps subnormals (lavapipe): they must then accept
// the preserved answer as well as the flushed one.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "vkt/vkt.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {

inline bool assume_flush() {
  const char* v = std::getenv("VKT_TEST_ASSUME_FLUSH");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

// The probe for f32 or f64 (bf16 computes in f32, with f32's subnormals).
inline bool probe_flushes(DType d) {
  const vk::FloatControls fc = vk::testing::device_caps().float_controls;
  if (d == DType::f64 ? fc.preserve64 : fc.preserve32) return false;
  // 1e-20 * 1e-20 and 1e-40 + 0 are subnormal (1e-160 squared for f64): 0 means flushed.
  const double tiny = d == DType::f64 ? 1e-160 : 1e-20;
  const double sub = d == DType::f64 ? 1e-310 : 1e-40;
  const Tensor a = as_type(from_vector(std::vector<double>{tiny, sub}, &cpu()), d);
  const Tensor b = as_type(from_vector(std::vector<double>{tiny, 0.0}, &cpu()), d);
  const Tensor g = transfer(a, vulkan());
  const Tensor h = transfer(b, vulkan());
  const Tensor r = add(multiply(g, h), multiply(h, g));  // [2 tiny^2, 0]
  const Tensor s = add(g, multiply(h, 0.0));             // [tiny, sub]
  // Read as stored: a conversion on the device could flush by itself.
  if (d == DType::f64) {
    return r.to_vector<double>()[0] == 0.0 || s.to_vector<double>()[1] == 0.0;
  }
  return r.to_vector<float>()[0] == 0.0f || s.to_vector<float>()[1] == 0.0f;
}

// Whether float arithmetic in dtype d may flush subnormals on the test device. f16 computes
// in f32, where its subnormals are normal numbers: never. Probed once per process.
inline bool device_flushes(DType d) {
  if (d == DType::f16) return false;
  if (d == DType::bf16) d = DType::f32;
  if (d != DType::f32 && d != DType::f64) return false;
  if (assume_flush()) return true;
  static const bool f32 = probe_flushes(DType::f32);
  if (d == DType::f32) return f32;
  if (!vk::testing::device_caps().float64) return false;
  static const bool f64 = probe_flushes(DType::f64);
  return f64;
}

// Subnormal elements of a float tensor set to a zero of their sign (what a flush reads); a
// complex tensor's parts each on their own (a c64 kernel computes in f32: the H200 flushed a
// subnormal real part in a c64 dot, which the model missed: fuzz seed 52).
inline Tensor flushed(const Tensor& t) {
  std::vector<std::byte> bytes = t.to_bytes();
  const DType part = is_complex(t.dtype()) ? to_real_type(t.dtype()) : t.dtype();
  const std::size_t n = static_cast<std::size_t>(t.size()) * (is_complex(t.dtype()) ? 2 : 1);
  auto flush = [&](auto zero_mask, auto exp_mask, std::size_t width) {
    for (std::size_t i = 0; i < n; ++i) {
      decltype(zero_mask) v;
      std::memcpy(&v, bytes.data() + i * width, width);
      if ((v & exp_mask) == 0) v &= zero_mask;
      std::memcpy(bytes.data() + i * width, &v, width);
    }
  };
  if (part == DType::f32) flush(std::uint32_t{0x80000000u}, std::uint32_t{0x7f800000u}, 4);
  if (part == DType::bf16) flush(std::uint16_t{0x8000u}, std::uint16_t{0x7f80u}, 2);
  if (part == DType::f64) {
    flush(std::uint64_t{0x8000000000000000ull}, std::uint64_t{0x7ff0000000000000ull}, 8);
  }
  return from_bytes(bytes, t.dtype(), t.shape(), &cpu());
}

}  // namespace vkt::testing
