// Linear-algebra nodes of a fuzz program whose operands need a structure of their own.
#pragma once

#include <vector>

#include "fuzz/builder.h"
#include "fuzz/rng.h"

namespace vkt::fuzz {

// triangular_solve of a well-conditioned triangle (data.h) with a right-hand side of random
// values (of the triangle's dtype, or one of `dtypes`): left or right side, either triangle,
// each transform, batched, vectors. Fills n and returns true, or false when an operand was
// too large to keep. Draws from rng in a fixed order, so recorded programs replay.
bool triangular_solve_node(Builder& b, Rng& rng, const std::vector<DType>& dtypes, Node& n);

}  // namespace vkt::fuzz
