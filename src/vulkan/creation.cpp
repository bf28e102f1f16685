// full, iota, eye on the device (shaders/creation.comp).
#include <cstring>

#include "vulkan/backend.h"

namespace vkt::vk {
namespace {

struct CreationPush {
  std::uint32_t n, inner, dim, rows, cols, lo, hi;
};

// The dtype's bit pattern of `value`, replicated to fill 32-bit words (lo, hi for 8 bytes).
std::pair<std::uint32_t, std::uint32_t> fill_pattern(const Scalar& value, DType d) {
  std::uint64_t bits = 0;
  visit_dtype(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = value.as<T>();
    std::memcpy(&bits, &v, sizeof(T));
  });
  switch (itemsize(d)) {
    case 1:
      bits = (bits & 0xFF) * 0x0101010101010101ull;
      break;
    case 2:
      bits = (bits & 0xFFFF) * 0x0001000100010001ull;
      break;
    case 4:
      bits = (bits & 0xFFFFFFFFull) * 0x0000000100000001ull;
      break;
    default:
      break;
  }
  return {static_cast<std::uint32_t>(bits), static_cast<std::uint32_t>(bits >> 32)};
}

}  // namespace

bool creation_supported(const VulkanBackend& b, const OpCall& call) {
  return b.dtype_supported(call.out_dtype);
}

Tensor run_creation(VulkanBackend& b, const OpCall& call) {
  Tensor out = b.make_output(call);
  const std::uint64_t n = static_cast<std::uint64_t>(out.size());
  if (n == 0) return out;
  CreationPush push{static_cast<std::uint32_t>(n), 1, 1, 1, 1, 0, 0};
  std::uint32_t op = 0;
  std::uint64_t threads = n;
  std::string shader = b.variant("creation", {call.out_dtype});
  switch (call.op) {
    case Op::full: {
      op = 0;
      std::tie(push.lo, push.hi) = fill_pattern(call.get<FullParams>().value, call.out_dtype);
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
  const Pipeline p = b.pipelines().get(shader, 1, {op, static_cast<std::uint32_t>(call.out_dtype)});
  b.dispatch(p, {{&out, true}}, &push, sizeof(push), grid_stride_threads(threads));
  return out;
}

}  // namespace vkt::vk
