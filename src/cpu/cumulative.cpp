// cumulative_sum / product / min / max on the cpu: scans along one axis, forward or
// reverse. The input is seen as (outer, axis, inner). With inner == 1 each row is one
// sequential scan; otherwise a running row of accumulators is combined with whole input
// rows (vectorisable across the inner axis). Integers wrap (accumulated in uint64), half
// floats accumulate in float, NaN propagates (the rules of reduce_ops.h).
#include <algorithm>

#include "cpu/kernels.h"
#include "cpu/reduce_ops.h"

namespace vkt::cpu_kernels {
namespace {

template <class T, class Rule>
void scan(const T* in, T* out, std::int64_t outer, std::int64_t axis_size, std::int64_t inner,
          bool reverse) {
  using C = typename Rule::C;
  using Lane = typename Rule::Lane;
  // Row r of the scan order is input row r (forward) or axis_size - 1 - r (reverse).
  auto row_of = [&](std::int64_t r) { return reverse ? axis_size - 1 - r : r; };
  if (inner == 1) {
    parallel_for(outer, std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(axis_size, 1)),
                 [&](std::int64_t b, std::int64_t e) {
                   for (std::int64_t o = b; o < e; ++o) {
                     const T* x = in + o * axis_size;
                     T* y = out + o * axis_size;
                     Lane acc = Rule::lane_init();
                     for (std::int64_t r = 0; r < axis_size; ++r) {
                       const std::int64_t i = row_of(r);
                       acc = Rule::step(acc, static_cast<C>(x[i]));
                       y[i] = to_output<T>(acc);
                     }
                   }
                 });
    return;
  }
  constexpr std::int64_t kTile = 1024;
  const std::int64_t tiles = (inner + kTile - 1) / kTile;
  const std::int64_t grain = std::max<std::int64_t>(
      1, kGrain / std::max<std::int64_t>(std::min(kTile, inner) * axis_size, 1));
  parallel_for(outer * tiles, grain, [&](std::int64_t b, std::int64_t e) {
    Lane acc[kTile];
    for (std::int64_t task = b; task < e; ++task) {
      const std::int64_t o = task / tiles, j0 = (task % tiles) * kTile;
      const std::int64_t n = std::min(kTile, inner - j0);
      for (std::int64_t j = 0; j < n; ++j) acc[j] = Rule::lane_init();
      for (std::int64_t r = 0; r < axis_size; ++r) {
        const std::int64_t offset = (o * axis_size + row_of(r)) * inner + j0;
        const T* x = in + offset;
        T* y = out + offset;
        for (std::int64_t j = 0; j < n; ++j) {
          acc[j] = Rule::step(acc[j], static_cast<C>(x[j]));
          y[j] = to_output<T>(acc[j]);
        }
      }
    }
  });
}

}  // namespace

Tensor run_cumulative(const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  const CumulativeParams& p = call.get<CumulativeParams>();
  const Combine kind = rule_of(call.op);
  Tensor out = make_output(call);
  if (out.size() == 0) return out;
  const auto axis = static_cast<std::size_t>(p.axis);
  std::int64_t outer = 1, inner = 1;
  for (std::size_t i = 0; i < axis; ++i) outer *= in.shape()[i];
  for (std::size_t i = axis + 1; i < in.shape().size(); ++i) inner *= in.shape()[i];
  visit_any_dtype(in.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    visit_rule(kind, [&](auto rule_tag) {
      using Rule = typename decltype(rule_tag)::template type<T>;
      // all/any are reductions only; their rules never reach a scan (nor min/max complex).
      if constexpr (!std::is_same_v<Rule, AllRule<T>> && !std::is_same_v<Rule, AnyRule<T>> &&
                    kRuleAccepts<T, Rule>) {
        scan<T, Rule>(data<T>(in), mutable_data<T>(out), outer, in.shape()[axis], inner, p.reverse);
      }
    });
  });
  return out;
}

}  // namespace vkt::cpu_kernels
