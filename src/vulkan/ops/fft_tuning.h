// The FFT plans' tuning from the environment: VKT_VK_FFT="key=value,key=value" sets VkFFT
// configuration fields by name (the knobs that shape long transforms, swept on the H200
// with `vkt-bench fft`), plus vktensor's own `rows=wide|vendor|narrow`, `input=direct|copy`
// and `report=1`. Read once per backend (fft.h); src/vulkan/README.md lists the keys.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace vkt::vk {

// How many bytes per row the strided passes of a long power-of-two line read (VkFFT's
// coalescedMemory, for lines it gives three or more passes at its vendor default; fft.cpp
// coalescing_for): wide (128 or 64 bytes where the pass count stays), vendor (VkFFT's
// default), narrow (one point per row where that saves a pass).
enum class FftRows { wide, vendor, narrow };

struct FftTuning {
  // VkFFT configuration fields (their VkFFTConfiguration names) and the values given.
  std::map<std::string, std::uint64_t> vkfft;
  // direct: a transform whose input needs no conversion reads it where it is (VkFFT's
  // isInputFormatted) instead of copying it into the output first.
  bool direct_input = true;
  FftRows rows = FftRows::vendor;  // an explicit coalescedMemory overrides it
  bool report = false;  // print each new plan's shape (passes, splits, coalescing) to stderr
};

// The VkFFT fields the environment may set.
const std::vector<std::string_view>& fft_tuning_keys();

// Parses `text` ("" or null: no overrides). An unknown key, a missing '=' or a value that is
// not a number in the key's range throws vkt::Error naming it and the known keys.
FftTuning parse_fft_tuning(const char* text);

}  // namespace vkt::vk
