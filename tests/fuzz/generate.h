// Random fuzz programs: leaves of every dtype and rank 0..5 (size-0 and size-1 axes
// included), then a chain or tree of ops over them with arguments drawn from the shapes
// the cpu actually produced, so most programs are valid and some are errors on purpose.
#pragma once

#include <cstdint>

#include "fuzz/program.h"

namespace vkt::fuzz {

Program generate(std::uint64_t seed);

}  // namespace vkt::fuzz
