#include <cstdio>

#include "vkt/vkt.h"

int main() {
  const vkt::Tensor t = vkt::iota({4}, vkt::DType::s32);
  const auto v = vkt::as_type(t, vkt::DType::f64).to_vector<double>();
  std::printf("%g %g %g %g\n", v[0], v[1], v[2], v[3]);
  return v[3] == 3.0 ? 0 : 1;
}
