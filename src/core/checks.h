// Error helpers for op validation: every message starts with "[op]".
#pragma once

#include <string>
#include <string_view>

#include "vkt/error.h"
#include "vkt/tensor.h"

namespace vkt::detail {

template <class E>
[[noreturn]] void fail(std::string_view op, const std::string& message) {
  throw E("[" + std::string(op) + "] " + message);
}

inline void check_defined(std::string_view op, const Tensor& t) {
  if (!t.defined()) fail<Error>(op, "got an empty (default-constructed) tensor");
}

inline std::string describe(const Tensor& t) {
  return std::string(dtype_name(t.dtype())) + " " + shape_str(t.shape());
}

}  // namespace vkt::detail
