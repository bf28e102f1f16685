// full, iota, eye on the device (shaders/creation.comp).
#include <array>

#include "vulkan/ops/scalar_words.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {
namespace {

struct CreationPush {
  std::uint32_t n, inner, dim, rows, cols;
  std::array<std::uint32_t, 4> pattern;
};

// The dtype's bit pattern of `value` repeated over four 32-bit words (full writes words
// i % 4 of it): narrow dtypes replicated, 8-byte ones twice, c128 once.
std::array<std::uint32_t, 4> fill_pattern(const Scalar& value, DType d) {
  std::array<std::uint32_t, 4> w = scalar_words(value, d);
  switch (itemsize(d)) {
    case 1:
      w[0] = (w[0] & 0xFF) * 0x01010101u;
      break;
    case 2:
      w[0] = (w[0] & 0xFFFF) * 0x00010001u;
      break;
    default:
      break;
  }
  if (itemsize(d) <= 4) w[1] = w[0];
  if (itemsize(d) <= 8) {
    w[2] = w[0];
    w[3] = w[1];
  }
  return w;
}

}  // namespace

bool creation_supported(const VulkanBackend& b, const OpCall& call) {
  return b.dtype_supported(call.out_dtype);
}

Tensor run_creation(VulkanBackend& b, const OpCall& call) {
  Tensor out = b.make_output(call);
  const std::uint64_t n = static_cast<std::uint64_t>(out.size());
  if (n == 0) return out;
  CreationPush push{static_cast<std::uint32_t>(n), 1, 1, 1, 1, {}};
  std::uint32_t op = 0;
  std::uint64_t threads = n;
  std::string shader = b.variant("creation", {call.out_dtype});
  switch (call.op) {
    case Op::full: {
      op = 0;
      push.pattern = fill_pattern(call.get<FullParams>().value, call.out_dtype);
      // Whole 32-bit words: the pooled range is a multiple of 256 bytes, so the last word
      // stays inside it.
      threads = (out.nbytes() + 3) / 4;
      push.n = static_cast<std::uint32_t>(threads);
      shader = "creation";  // words only: no 64-bit types needed
      break;
    }
    case Op::iota: {
      op = 1;
      const std::int64_t axis = call.get<IotaParams>().axis;
      if (axis >= 0) {
        push.dim = static_cast<std::uint32_t>(call.out_shape[static_cast<std::size_t>(axis)]);
        for (std::size_t a = static_cast<std::size_t>(axis) + 1; a < call.out_shape.size(); ++a) {
          push.inner *= static_cast<std::uint32_t>(call.out_shape[a]);
        }
      } else {
        push.dim = static_cast<std::uint32_t>(n);
      }
      break;
    }
    case Op::eye: {
      op = 2;
      push.rows = static_cast<std::uint32_t>(call.out_shape[call.out_shape.size() - 2]);
      push.cols = static_cast<std::uint32_t>(call.out_shape.back());
      break;
    }
    default:
      throw Unsupported("[" + std::string(op_name(call.op)) + "] is not a creation op");
  }
  // iota and eye store a complex element's real part as the real dtype and a zero imaginary
  // part (shaders/creation.comp).
  const DType store = is_complex(call.out_dtype) ? to_real_type(call.out_dtype) : call.out_dtype;
  const Pipeline p = b.pipelines().get(
      shader, 1, {op, static_cast<std::uint32_t>(store), is_complex(call.out_dtype) ? 1u : 0u});
  b.dispatch(p, {{&out, true}}, &push, sizeof(push), grid_stride_threads(threads));
  return out;
}

}  // namespace vkt::vk
