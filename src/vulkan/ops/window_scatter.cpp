// window_scatter_max / min on the device for 32-bit dtypes (f32, s32, u32; others fall
// back): one pass per window chooses its input position (shaders/window_scatter_select.comp),
// then one pass per output element adds the source values of the windows that chose it, in
// window order (shaders/window_scatter_add.comp), so the sums are the cpu's, without atomics.
#include <cstring>

#include "vulkan/runtime/backend.h"

namespace vkt::vk {
namespace {

constexpr std::size_t kMaxAxes = 5;

struct ScatterPush {
  std::uint32_t rank, init_bits;
  std::uint32_t a[6 * kMaxAxes];
};
static_assert(sizeof(ScatterPush) <= Pipelines::kPushBytes);

bool word_dtype(DType d) {
  return d == DType::f32 || d == DType::s32 || d == DType::u32;
}

ScatterPush make_push(const OpCall& call) {
  const WindowScatterParams& s = call.get<WindowScatterParams>();
  const WindowParams& p = s.window;
  const Shape& in = call.inputs.at(0).shape();
  const Shape& windows = call.inputs.at(1).shape();
  ScatterPush push{};
  push.rank = static_cast<std::uint32_t>(in.size());
  for (std::size_t a = 0; a < in.size(); ++a) {
    const std::int64_t values[6] = {windows[a],         in[a],         p.dims[a], p.strides[a],
                                    p.padding[a].first, p.dilations[a]};
    for (std::size_t i = 0; i < 6; ++i) push.a[6 * a + i] = static_cast<std::uint32_t>(values[i]);
  }
  visit_dtype(call.out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (sizeof(T) == 4) {
      const T v = s.init_value.as<T>();
      std::memcpy(&push.init_bits, &v, 4);
    }
  });
  return push;
}

}  // namespace

bool window_scatter_supported(const VulkanBackend& b, const OpCall& call) {
  (void)b;
  const Tensor& t = call.inputs.at(0);
  if (!word_dtype(t.dtype()) || !word_dtype(call.out_dtype)) return false;
  if (static_cast<std::size_t>(t.rank()) > kMaxAxes) return false;
  // Every per-axis value and the products the shaders form stay in 32-bit arithmetic.
  constexpr std::int64_t kMax = std::int64_t{1} << 30;
  const WindowParams& p = call.get<WindowScatterParams>().window;
  const Shape& windows = call.inputs.at(1).shape();
  for (std::size_t a = 0; a < t.shape().size(); ++a) {
    const std::int64_t in = t.shape()[a], lo = p.padding[a].first;
    if (in >= kMax || windows[a] >= kMax || p.dims[a] >= kMax || p.strides[a] >= kMax ||
        lo >= kMax || p.dilations[a] >= kMax || in + lo >= kMax ||
        windows[a] * p.strides[a] >= kMax || p.dims[a] * p.dilations[a] >= kMax) {
      return false;
    }
  }
  return true;
}

Tensor run_window_scatter(VulkanBackend& b, const OpCall& call) {
  const Tensor& t = call.inputs.at(0);
  const Tensor& source = call.inputs.at(1);
  Tensor out = b.make_output(call);
  if (out.size() == 0) return out;
  const ScatterPush push = make_push(call);
  // One u32 per window: the flat input index it chose (a stand-in when there are none).
  OpCall temporary = call;
  temporary.out_dtype = DType::u32;
  temporary.out_shape = {std::max<std::int64_t>(1, source.size())};
  const Tensor chosen = b.make_output(temporary);
  const auto dtype_code = [](DType d) { return static_cast<std::uint32_t>(d); };
  if (source.size() > 0) {
    const std::uint32_t want_max = call.op == Op::window_scatter_max ? 1u : 0u;
    b.dispatch(b.pipelines().get("window_scatter_select", 2, {dtype_code(t.dtype()), want_max}),
               {{&t, false}, {&chosen, true}}, &push, sizeof(push),
               static_cast<std::uint64_t>(source.size()));
  }
  // Without windows nothing is read from source: the stand-in is bound in its place.
  const Tensor& src = source.size() > 0 ? source : chosen;
  b.dispatch(b.pipelines().get("window_scatter_add", 3, {dtype_code(call.out_dtype)}),
             {{&chosen, false}, {&src, false}, {&out, true}}, &push, sizeof(push),
             static_cast<std::uint64_t>(out.size()));
  return out;
}

}  // namespace vkt::vk
