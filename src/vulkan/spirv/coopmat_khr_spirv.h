// SPV_NV_cooperative_matrix -> SPV_KHR_cooperative_matrix, on a compiled module's words.
// Debian 12's glslang compiles only the NV extension, whose matrices have no bf16 type;
// the KHR one has (with SPV_KHR_bfloat16). The NV matrix type of A, B and C is one type
// where KHR needs one per use: each matrix value's use is found from the multiplies it
// reaches through loads, stores, variables, access chains, phis, selects, conversions and
// element-wise arithmetic; matrices no multiply reads as A or B (C, its conversions, its
// stores) are accumulators.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace vkt::vk {

// The module with every NV cooperative-matrix type and instruction in its KHR form; with
// bf16_operands, A and B matrices of f16 components hold bf16 instead (the module must only
// load them and multiply). Throws vkt::Error naming the opcode or value where a matrix
// reaches a composite, a function parameter or call, or the length query, where one value
// would be both A and B, or where a load's layout is not a constant. Other instructions on
// matrices are not followed: their NV types are left, and the driver refuses the module.
std::vector<std::uint32_t> coopmat_nv_to_khr(std::span<const std::uint32_t> nv, bool bf16_operands);

}  // namespace vkt::vk
