// The complex stage of a fuzz program: c64 / c128 leaves (parts across magnitudes with
// zeros, signed zeros, infinities and NaNs; real leaves converted; complex fills), then a
// few ops over them, chosen from the op table's rows that take complex operands.
#pragma once

#include "fuzz/builder.h"
#include "fuzz/rng.h"

namespace vkt::fuzz {

// Appends the stage's nodes to b, drawing only from rng (the stage's own stream).
void complex_stage(Builder& b, Rng& rng);

}  // namespace vkt::fuzz
