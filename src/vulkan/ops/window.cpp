// window_sum / product / max / min on the device (shaders/window.comp): one invocation per
// output element. Axes the window leaves alone (size 1, stride 1, no padding) are merged
// with their neighbours so the per-axis parameters fit the push constants (5 axes).
#include <vector>

#include "vulkan/ops/op_support.h"
#include "vulkan/runtime/backend.h"

namespace vkt::vk {
namespace {

constexpr std::size_t kMaxAxes = 5;

struct WindowAxis {
  std::uint64_t out, in, window, stride, pad, dilation, pad_hi;
  // The window takes each element alone: the output axis is the input axis.
  bool trivial() const {
    return window == 1 && pad == 0 && pad_hi == 0 && (stride == 1 || in == 1);
  }
};

struct WindowPush {
  std::uint32_t rank;
  std::uint32_t a[6 * kMaxAxes];
};
static_assert(sizeof(WindowPush) <= Pipelines::kPushBytes);

// The call's axes, adjacent trivial ones merged (rank 0 as one trivial axis of size 1).
std::vector<WindowAxis> merged_axes(const OpCall& call) {
  const WindowParams& p = call.get<WindowParams>();
  const Shape& in = call.inputs.at(0).shape();
  std::vector<WindowAxis> axes;
  for (std::size_t a = 0; a < in.size(); ++a) {
    const WindowAxis w{
        static_cast<std::uint64_t>(call.out_shape[a]),  static_cast<std::uint64_t>(in[a]),
        static_cast<std::uint64_t>(p.dims[a]),          static_cast<std::uint64_t>(p.strides[a]),
        static_cast<std::uint64_t>(p.padding[a].first), static_cast<std::uint64_t>(p.dilations[a]),
        static_cast<std::uint64_t>(p.padding[a].second)};
    const bool merge = w.trivial() && !axes.empty() && axes.back().trivial();
    if (merge) {
      axes.back().out *= w.out;
      axes.back().in *= w.in;
    } else {
      axes.push_back(w);
    }
    // A trivial axis keeps stride 1 so a later merge stays one contiguous axis.
    if (axes.back().trivial()) axes.back().stride = 1;
  }
  if (axes.empty()) axes.push_back({1, 1, 1, 1, 0, 1, 0});
  return axes;
}

// Every per-axis value the shader handles in 32-bit signed arithmetic.
bool fits_int32(const WindowAxis& w) {
  constexpr std::uint64_t kMax = std::uint64_t{1} << 30;
  return w.out < kMax && w.in < kMax && w.window < kMax && w.stride < kMax && w.pad < kMax &&
         w.dilation < kMax && w.out * w.stride < kMax && w.window * w.dilation < kMax;
}

}  // namespace

namespace {
// A complex window_sum is the real one of its parts: the tensor read as [..., 2] of its part
// type, the pair axis a window of 1 (window_product, a complex multiply, falls back).
OpCall parts_call(const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  Shape shape = in.shape();
  shape.push_back(2);
  WindowParams params = call.get<WindowParams>();
  params.dims.push_back(1);
  params.strides.push_back(1);
  params.dilations.push_back(1);
  params.padding.emplace_back(0, 0);
  OpCall c = call;
  c.inputs = {Tensor(to_real_type(in.dtype()), shape, in.storage())};
  c.out_dtype = to_real_type(call.out_dtype);
  c.out_shape.push_back(2);
  c.params = params;
  return c;
}
}  // namespace

bool window_supported(const VulkanBackend& b, const OpCall& call) {
  if (is_complex(call.inputs.at(0).dtype())) {
    return call.op == Op::window_sum && call.out_dtype == call.inputs[0].dtype() &&
           window_supported(b, parts_call(call));
  }
  if (!b.dtype_supported(call.inputs.at(0).dtype())) return false;
  const std::vector<WindowAxis> axes = merged_axes(call);
  if (axes.size() > kMaxAxes) return false;
  for (const WindowAxis& w : axes) {
    if (!fits_int32(w)) return false;
  }
  return true;
}

Tensor run_window(VulkanBackend& b, const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  if (is_complex(in.dtype())) {
    const Tensor parts = run_window(b, parts_call(call));
    return Tensor(call.out_dtype, call.out_shape, parts.storage());
  }
  Tensor out = b.make_output(call);
  if (out.size() == 0) return out;
  const std::vector<WindowAxis> axes = merged_axes(call);
  WindowPush push{};
  push.rank = static_cast<std::uint32_t>(axes.size());
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const WindowAxis& w = axes[a];
    const std::uint64_t values[6] = {w.out, w.in, w.window, w.stride, w.pad, w.dilation};
    for (std::size_t i = 0; i < 6; ++i) push.a[6 * a + i] = static_cast<std::uint32_t>(values[i]);
  }
  const DType d = in.dtype();
  const Pipeline pipeline =
      b.pipelines().get(b.variant("window", {d}), 2,
                        {static_cast<std::uint32_t>(d), combine_code(op_combine(call.op))});
  // An empty input (every window is padding) binds a one-element stand-in that is never read.
  Tensor src = in;
  if (in.size() == 0) {
    OpCall stand_in = call;
    stand_in.out_shape = {1};
    src = b.make_output(stand_in);
  }
  b.dispatch(pipeline, {{&src, false}, {&out, true}}, &push, sizeof(push),
             static_cast<std::uint64_t>(out.size()));
  return out;
}

}  // namespace vkt::vk
