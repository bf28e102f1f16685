// top_k: the indices from the sort family's kernel, the values gathered along the axis.
// Its own file because take_along_axis belongs to the indexing family: code that sorts but
// never calls top_k does not link against it.
#include "core/top_k.h"
#include "vkt/ops.h"

namespace vkt {

std::pair<Tensor, Tensor> top_k(const Tensor& t, std::int64_t k) {
  Tensor indices = detail::top_k_indices(t, k);
  Tensor values = take_along_axis(t, indices, -1);
  return {std::move(values), std::move(indices)};
}

}  // namespace vkt
