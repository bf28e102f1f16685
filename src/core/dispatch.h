// The dispatch core: picks the backend for a call, runs it natively or by host fallback.
// This is the one place the fallback rule lives.
#pragma once

#include <string>

#include "vkt/backend/op_call.h"

namespace vkt::detail {

// Runs a validated call. Inputs on a losing backend are moved to the winner; a fallback
// runs on the cpu and its result stays there (unless the legacy policy says upload).
Tensor dispatch(OpCall call);

// "dtypes (f32, s64) shapes ({2, 3}, {3})": how errors and warnings describe a call.
std::string describe_inputs(const OpCall& call);

}  // namespace vkt::detail
