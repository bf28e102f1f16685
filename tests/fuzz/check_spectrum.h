// The fuzzer's rule for the transforms (fft, ifft, fft2, ifft2, rfft, irfft): line by line
// along the transformed axes, as the FFT tests compare (support/fft_check.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fuzz/program.h"

namespace vkt::fuzz {

bool is_spectral(const std::string& op);

// nullopt when every line of `device` is within the transform bound of the cpu's `host`
// (same dtype and shape, checked before); else what differs.
std::optional<std::string> compare_spectrum(const Node& n, const std::vector<Tensor>& inputs,
                                            const Tensor& device, const Tensor& host);

}  // namespace vkt::fuzz
