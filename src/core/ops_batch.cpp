// to_batched: Nx.to_batched, splitting axis 0 into batches of slices (native on a device).
#include <string>

#include "core/checks.h"
#include "vkt/ops.h"

namespace vkt {

std::vector<Tensor> to_batched(const Tensor& t, std::int64_t batch_size, Leftover leftover) {
  detail::check_defined("to_batched", t);
  if (t.rank() == 0) {
    detail::fail<ShapeError>("to_batched",
                             "cannot batch a scalar tensor (" + detail::describe(t) + ")");
  }
  if (batch_size < 1) {
    detail::fail<ShapeError>("to_batched",
                             "batch_size " + std::to_string(batch_size) + " must be >= 1");
  }
  const std::int64_t n = t.dim(0);
  if (n < batch_size) {
    detail::fail<ShapeError>("to_batched", "batch_size " + std::to_string(batch_size) +
                                               " is larger than axis 0 of " + detail::describe(t));
  }
  std::vector<std::int64_t> start(static_cast<std::size_t>(t.rank()), 0);
  std::vector<std::int64_t> lengths(t.shape().begin(), t.shape().end());
  lengths[0] = batch_size;
  std::vector<Tensor> batches;
  std::int64_t first = 0;
  for (; first + batch_size <= n; first += batch_size) {
    start[0] = first;
    batches.push_back(slice(t, start, lengths));
  }
  if (first < n && leftover == Leftover::repeat) {
    // The last batch wraps around: the tail, then the head again (Nx's :repeat).
    start[0] = first;
    lengths[0] = n - first;
    const Tensor tail = slice(t, start, lengths);
    start[0] = 0;
    lengths[0] = batch_size - (n - first);
    batches.push_back(concatenate({tail, slice(t, start, lengths)}, 0));
  }
  return batches;
}

}  // namespace vkt
