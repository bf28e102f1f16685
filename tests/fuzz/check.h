// Whether a device result is acceptable for a node: bit-exact for integer dtypes and for
// movement and indexing ops, value-exact for ops decided on the bits, within the conformance
// suite's per-op tolerance for float arithmetic, and, where the device flushes subnormals,
// also the flushed answer that docs/semantics-elementwise.md allows for that op.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fuzz/program.h"

namespace vkt::fuzz {

// Does the test device flush subnormals of `d` in arithmetic (cached probe; f16 never:
// it computes in f32, where its subnormals are normal numbers)?
bool flushes(DType d);

// nullopt when `device` is acceptable for node `n` whose cpu result is `host` (computed
// from `inputs`, on the cpu); else what differs.
std::optional<std::string> compare(const Node& n, const std::vector<Tensor>& inputs,
                                   const Tensor& device, const Tensor& host);

}  // namespace vkt::fuzz
