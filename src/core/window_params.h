// The window rule shared by window_*, window_scatter_* and window_reduce: validates the
// window and its options against t and gives the parameters and the window output shape.
#pragma once

#include <string>

#include "vkt/ops.h"

namespace vkt::detail {

WindowParams window_params(const std::string& name, const Tensor& t, const Shape& window,
                           const WindowOptions& opts, Shape& out_shape);

}  // namespace vkt::detail
