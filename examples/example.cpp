// A small tour: create tensors, run ops, read the result, and see what the bus cost.
#include <cstdio>
#include <vector>

#include "vkt/vkt.h"

int main() {
  vkt::Tensor a = vkt::iota({2, 3}, vkt::DType::f32);
  vkt::Tensor b = vkt::from_vector<float>({10, 20, 30});
  vkt::LedgerScope scope;
  vkt::Tensor c = vkt::add(vkt::multiply(a, 2.0), b);  // broadcasts b over a's rows
  vkt::Tensor s = vkt::sum(c, {1});
  for (float v : s.to_vector<float>()) std::printf("%g ", static_cast<double>(v));
  std::printf("\nbackend: %s; ledger: %s\n", s.backend().name().c_str(),
              scope.delta().to_string().c_str());
  return 0;
}
