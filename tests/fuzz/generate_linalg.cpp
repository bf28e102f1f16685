// triangular_solve nodes for the fuzz programs (generate_linalg.h).
#include "fuzz/generate_linalg.h"

namespace vkt::fuzz {

bool triangular_solve_node(Builder& b, Rng& rng, const std::vector<DType>& dtypes, Node& n) {
  const std::int64_t order = rng.range(1, 6);
  Shape batch;
  for (std::int64_t i = rng.range(0, 2); i > 0; --i)
    batch.push_back(rng.chance(0.05) ? 0 : rng.range(1, 3));
  const bool lower = rng.chance(0.5), left = rng.chance(0.5);
  Shape as = batch;
  as.push_back(order);
  as.push_back(order);
  const std::vector<DType> floats = {DType::f32, DType::f32, DType::f64, DType::f16, DType::bf16};
  Node a = make_node("triangle", rng.pick(floats), as);
  a.ints["lower"] = {lower ? 1 : 0};
  a.data_seed = rng.next() % 1000000;
  const int ai = b.add(a);
  Shape bs = batch;
  const std::int64_t k = rng.range(0, 4);
  if (left && rng.chance(0.25)) {
    bs.push_back(order);
  } else {
    bs.push_back(left ? order : k);
    bs.push_back(left ? k : order);
  }
  if (rng.chance(0.03)) bs.back() += 1;  // does not fit: a ShapeError on both sides
  Node rhs = make_node("values", rng.chance(0.6) ? a.dtype : rng.pick(dtypes), bs);
  rhs.data_seed = rng.next() % 1000000;
  const int bi = b.add(rhs);
  if (ai < 0 || bi < 0) return false;
  n.op = "triangular_solve";
  n.args = {ai, bi};
  n.ints["left"] = {left ? 1 : 0};
  n.ints["lower"] = {lower ? 1 : 0};
  n.ints["transform"] = {rng.range(0, 2)};
  return true;
}

}  // namespace vkt::fuzz
