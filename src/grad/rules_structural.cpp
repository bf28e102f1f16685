// Derivative rules of the ops that move, reduce, join or contract values: each sends the
// output's cotangent back to where each input element went.
#include <algorithm>

#include "grad/rules.h"
#include "vkt/ops.h"

namespace vkt::detail {
namespace {

using Tensors = std::vector<Tensor>;

// The reduced axes (every axis where none are named) and x's shape with them kept as 1.
Axes reduced_axes(const ReduceParams& p, std::int64_t rank) {
  if (!p.axes.empty()) return p.axes;
  Axes all;
  for (std::int64_t a = 0; a < rank; ++a) all.push_back(a);
  return all;
}
Shape kept_shape(const Shape& x, const Axes& axes) {
  Shape s = x;
  for (std::int64_t a : axes) s[static_cast<std::size_t>(a)] = 1;
  return s;
}

Tensors d_sum(const RuleArgs& r) {
  const Tensor& x = r.in[0];
  const Axes axes = reduced_axes(std::get<ReduceParams>(r.node.params), x.rank());
  return {broadcast(reshape(r.g, kept_shape(x.shape(), axes)), x.shape())};
}
// Nx and JAX: the cotangent is shared equally among the elements equal to the extreme.
Tensors d_reduce_extreme(const RuleArgs& r) {
  const Tensor& x = r.in[0];
  const Axes axes = reduced_axes(std::get<ReduceParams>(r.node.params), x.rank());
  const Shape kept = kept_shape(x.shape(), axes);
  const Tensor hits = as_type(equal(x, reshape(r.out, kept)), r.g.dtype());
  const Tensor share = divide(reshape(r.g, kept), sum(hits, axes, true));
  return {multiply(hits, share)};
}
// Nx: d/dx_i of a product is the product of the others: y / x_i where x_i != 0; the
// product of the nonzero elements for a line's only zero; 0 where a line has two zeros.
Tensors d_product(const RuleArgs& r) {
  const Tensor& x = r.in[0];
  const Axes axes = reduced_axes(std::get<ReduceParams>(r.node.params), x.rank());
  const Shape kept = kept_shape(x.shape(), axes);
  const Tensor g = reshape(r.g, kept);
  const Tensor y = reshape(r.out, kept);
  const Tensor zero = equal(x, 0);
  const Tensor x_or_one = select(zero, scalar_like(x, 1), x);
  const Tensor zeros = sum(as_type(zero, DType::s32), axes, true);
  const Tensor others = select(equal(zeros, 1), product(x_or_one, axes, true), scalar_like(x, 0));
  return {multiply(g, select(zero, broadcast(others, x.shape()), divide(y, x_or_one)))};
}
// d/dx_j of y_i = x_0...x_i (i >= j) is y_i / x_j: suffix sums of g y over x. A line's
// first zero z gets the suffix sums of g y', y' the scan with x_z taken as 1 (the products
// without it); the elements after it get 0, as every y_i they reach holds x_z.
Tensors d_cumulative_product(const RuleArgs& r) {
  const auto& p = std::get<CumulativeParams>(r.node.params);
  const Tensor& x = r.in[0];
  const Tensor zero = equal(x, 0);
  const Tensor first_zero =
      logical_and(zero, equal(cumulative_sum(as_type(zero, DType::s32), p.axis, p.reverse), 1));
  const Tensor x_or_one = select(zero, scalar_like(x, 1), x);
  const Tensor through = cumulative_sum(multiply(r.g, r.out), p.axis, !p.reverse);
  const Tensor without_first_zero =
      cumulative_product(select(first_zero, scalar_like(x, 1), x), p.axis, p.reverse);
  const Tensor at_zero = cumulative_sum(multiply(r.g, without_first_zero), p.axis, !p.reverse);
  return {select(zero, select(first_zero, at_zero, scalar_like(x, 0)), divide(through, x_or_one))};
}
Tensors d_cumulative_sum(const RuleArgs& r) {
  const auto& p = std::get<CumulativeParams>(r.node.params);
  return {cumulative_sum(r.g, p.axis, !p.reverse)};
}
Tensors d_transpose(const RuleArgs& r) {
  const Axes& perm = std::get<TransposeParams>(r.node.params).perm;
  Axes inverse(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) {
    inverse[static_cast<std::size_t>(perm[i])] = static_cast<std::int64_t>(i);
  }
  return {transpose(r.g, inverse)};
}
// Input axis i went to output axis axes[i]: sum over the other output axes and over the
// mapped ones the input had at size 1.
Tensors d_broadcast(const RuleArgs& r) {
  const Shape& in = r.in[0].shape();
  const Axes& map = std::get<BroadcastParams>(r.node.params).axes;
  Axes summed;
  for (std::int64_t o = 0; o < r.g.rank(); ++o) {
    const auto at = std::find(map.begin(), map.end(), o);
    const bool kept = at != map.end() && in[static_cast<std::size_t>(at - map.begin())] ==
                                             r.g.shape()[static_cast<std::size_t>(o)];
    if (!kept) summed.push_back(o);
  }
  return {reshape(summed.empty() ? r.g : sum(r.g, summed), in)};
}
Tensors d_reverse(const RuleArgs& r) {
  return {reverse(r.g, std::get<AxesParams>(r.node.params).axes)};
}
// The input's elements sit at lo + i (interior + 1): undo the edges, then step over the
// interior (an edge below zero cropped the input; padding the cotangent back restores it).
Tensors d_pad(const RuleArgs& r) {
  const auto& config = std::get<PadParams>(r.node.params).config;
  const Shape& in = r.in[0].shape();
  std::vector<PadAxis> undo;
  std::vector<std::int64_t> start, lengths, strides;
  for (std::size_t a = 0; a < config.size(); ++a) {
    undo.push_back({-config[a].lo, -config[a].hi, 0});
    start.push_back(0);
    lengths.push_back(in[a]);
    strides.push_back(config[a].interior + 1);
  }
  if (numel(in) == 0) return {full(in, 0, r.g.dtype(), &r.g.backend())};
  return {slice(pad(r.g, 0, undo), start, lengths, strides)};
}
Tensors d_slice(const RuleArgs& r) {
  const auto& p = std::get<SliceParams>(r.node.params);
  const Shape& in = r.in[0].shape();
  if (r.g.size() == 0) return {full(in, 0, r.g.dtype(), &r.g.backend())};
  std::vector<PadAxis> back;
  for (std::size_t a = 0; a < in.size(); ++a) {
    const std::int64_t last = p.start[a] + (p.lengths[a] - 1) * p.strides[a];
    back.push_back({p.start[a], in[a] - 1 - last, p.strides[a] - 1});
  }
  return {pad(r.g, 0, back)};
}
Tensors d_concatenate(const RuleArgs& r) {
  const std::int64_t axis = std::get<AxisParams>(r.node.params).axis;
  Tensors out;
  std::vector<std::int64_t> start(static_cast<std::size_t>(r.g.rank()), 0);
  for (const Tensor& x : r.in) {
    std::vector<std::int64_t> lengths(x.shape().begin(), x.shape().end());
    out.push_back(slice(r.g, start, lengths, {}));
    start[static_cast<std::size_t>(axis)] += x.shape()[static_cast<std::size_t>(axis)];
  }
  return out;
}
Tensors d_select(const RuleArgs& r) {
  const Tensor zero = scalar_like(r.g, 0);
  return {Tensor(), unbroadcast(select(r.in[0], r.g, zero), r.in[1].shape()),
          unbroadcast(select(r.in[0], zero, r.g), r.in[2].shape())};
}
Tensors d_identity(const RuleArgs& r) {  // as_type (back to the input's dtype) and copy
  return {r.g};
}

// out = [batch, a's free, b's free]. Each operand's cotangent is g contracted with the
// other operand over the other's free axes, then its axes put back in the operand's order.
Tensor dot_operand_cotangent(const Tensor& g, const Tensor& other, std::int64_t batch,
                             std::int64_t own_free, bool own_is_a, const Axes& own_contract,
                             const Axes& own_batch, const Axes& other_contract,
                             const Axes& other_batch, std::int64_t own_rank) {
  const Axes other_free = dot_free_axes(other.rank(), other_contract, other_batch);
  Axes g_contract, g_batch;
  const std::int64_t other_start = own_is_a ? batch + own_free : batch;
  for (std::size_t k = 0; k < other_free.size(); ++k) {
    g_contract.push_back(other_start + static_cast<std::int64_t>(k));
  }
  for (std::int64_t k = 0; k < batch; ++k) g_batch.push_back(k);
  // The product's axes: g's batch, g's axes of own's free dims, then other's contracted
  // axes in other's order.
  const Tensor product = dot(g, g_contract, g_batch, other, other_free, other_batch);
  Axes sorted_other_contract = other_contract;
  std::sort(sorted_other_contract.begin(), sorted_other_contract.end());
  const Axes own_free_axes = dot_free_axes(own_rank, own_contract, own_batch);
  Axes perm(static_cast<std::size_t>(own_rank));
  for (std::size_t j = 0; j < own_batch.size(); ++j) {
    perm[static_cast<std::size_t>(own_batch[j])] = static_cast<std::int64_t>(j);
  }
  for (std::size_t p = 0; p < own_free_axes.size(); ++p) {
    perm[static_cast<std::size_t>(own_free_axes[p])] = batch + static_cast<std::int64_t>(p);
  }
  for (std::size_t q = 0; q < own_contract.size(); ++q) {
    const auto at =
        std::find(sorted_other_contract.begin(), sorted_other_contract.end(), other_contract[q]);
    perm[static_cast<std::size_t>(own_contract[q])] =
        batch + own_free + static_cast<std::int64_t>(at - sorted_other_contract.begin());
  }
  // perm[k] is the product axis holding own axis k: transpose's out axis k reads it.
  return transpose(product, perm);
}

Tensors d_dot(const RuleArgs& r) {
  const auto& p = std::get<DotParams>(r.node.params);
  const Tensor& a = r.in[0];
  const Tensor& b = r.in[1];
  const auto batch = static_cast<std::int64_t>(p.batch_a.size());
  const auto a_free =
      static_cast<std::int64_t>(dot_free_axes(a.rank(), p.contract_a, p.batch_a).size());
  const auto b_free =
      static_cast<std::int64_t>(dot_free_axes(b.rank(), p.contract_b, p.batch_b).size());
  return {r.wants(0) ? dot_operand_cotangent(r.g, b, batch, a_free, true, p.contract_a, p.batch_a,
                                             p.contract_b, p.batch_b, a.rank())
                     : Tensor(),
          r.wants(1) ? dot_operand_cotangent(r.g, a, batch, b_free, false, p.contract_b, p.batch_b,
                                             p.contract_a, p.batch_a, b.rank())
                     : Tensor()};
}

}  // namespace

Rule structural_rule(Op op) {
  switch (op) {
    case Op::sum:
      return d_sum;
    case Op::reduce_max:
    case Op::reduce_min:
      return d_reduce_extreme;
    case Op::product:
      return d_product;
    case Op::cumulative_sum:
      return d_cumulative_sum;
    case Op::cumulative_product:
      return d_cumulative_product;
    case Op::transpose:
      return d_transpose;
    case Op::broadcast:
      return d_broadcast;
    case Op::reverse:
      return d_reverse;
    case Op::pad:
      return d_pad;
    case Op::slice:
      return d_slice;
    case Op::concatenate:
      return d_concatenate;
    case Op::select:
      return d_select;
    case Op::as_type:
    case Op::copy:
      return d_identity;
    case Op::dot:
      return d_dot;
    default:
      return nullptr;
  }
}

}  // namespace vkt::detail
