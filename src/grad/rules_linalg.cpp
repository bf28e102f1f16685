// Derivative rules of triangular_solve, cholesky, solve, determinant, qr, lu, eigh, svd.
#include "grad/rules.h"
#include "vkt/ops.h"

namespace vkt::detail {

Rule linalg_rule(Op op) {
  switch (op) {
    default:
      return nullptr;
  }
}

}  // namespace vkt::detail
