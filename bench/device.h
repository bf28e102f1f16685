// The device side of a bench run: which Vulkan backend (if any) and its measured
// device-to-host read rate.
#pragma once

#include <optional>
#include <string>

#include "vkt/backend.h"

namespace vkt::bench {

// The device index that means "cpu columns only".
inline constexpr int kNoDevice = -2;

// The Vulkan backend at `index` (-1: default), or null with a note on stderr when the
// machine has none.
Backend* find_device(int index);

// Consumer-visible device-to-host rate in bytes per microsecond, measured with a large
// read (median of several), printed once.
double measure_d2h_bytes_per_us(Backend& device, std::size_t bytes);

}  // namespace vkt::bench
