// Programs with a dot and an elementwise epilogue, shared by the vkt::compile dot-group tests
// (unit and conformance): an MLP layer with gelu, and values to feed it.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "vkt/vkt.h"

namespace vkt::testing {

// Values in [-1, 1], varying along every axis (no two rows or columns alike).
inline std::vector<float> dot_values(std::size_t n, float phase = 0.0f) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::sin(static_cast<float>(i) * 0.61f + phase);
  return v;
}

// dot + bias, then gelu in its tanh form: 0.5 h (1 + tanh(sqrt(2/pi) (h + 0.044715 h^3))).
inline Tensor mlp_gelu(const Tensor& x, const Tensor& w, const Tensor& bias) {
  const Tensor h = add(dot(x, w), bias);
  const Tensor inner =
      multiply(add(h, multiply(multiply(multiply(h, h), h), 0.044715f)), 0.7978845608f);
  return multiply(multiply(h, 0.5f), add(tanh(inner), 1.0f));
}

}  // namespace vkt::testing
