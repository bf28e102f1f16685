// Narrow dtypes in the core: Nx's packed binary layout, and the rewrite that runs ops on them
// (their wide type for ops that read values, their u8 storage for ops that only move words).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "vkt/backend/op_call.h"
#include "vkt/tensor.h"

namespace vkt::detail {

// Storage codes (a byte each) to Nx's binary: s2/s4/u2/u4 packed (binary_nbytes), others
// copied; and back. `binary` holds binary_nbytes(d, codes.size()) bytes.
void pack_narrow(DType d, std::span<const std::uint8_t> codes, std::span<std::byte> binary);
void unpack_narrow(DType d, std::span<const std::byte> binary, std::span<std::uint8_t> codes);

// Whether `call` has a narrow operand or result and is not as_type or copy, which every
// backend runs on narrow dtypes itself.
bool needs_narrow_rewrite(const OpCall& call);
// Runs `call` by dispatching it in wide types (or, for ops that only move words, on the
// operands' u8 storage) and converting back to the narrow result dtype.
Tensor dispatch_narrow(OpCall call);

}  // namespace vkt::detail
