#include <cstdio>

#include "vkt/backend/op_call.h"
#include "vkt/vkt.h"

// The implementer headers are installed too, and the op table's rows are usable as data.
static_assert(vkt::op_info(vkt::Op::logical_not).family == vkt::OpFamily::unary);

int main() {
  const vkt::Tensor t = vkt::iota({4}, vkt::DType::s32);
  const auto v = vkt::as_type(t, vkt::DType::f64).to_vector<double>();
  std::printf("%g %g %g %g\n", v[0], v[1], v[2], v[3]);
  return v[3] == 3.0 ? 0 : 1;
}
