// window_sum / product / max / min on the cpu. Each output element reduces its window;
// per axis only the window positions that land inside the input are visited (padding holds
// the rule's identity, so skipping it is exact), with the innermost axis as a tight loop.
#include <algorithm>
#include <vector>

#include "cpu/kernels.h"
#include "cpu/reduce_ops.h"

namespace vkt::cpu_kernels {
namespace {

template <class T, class Rule>
void window_reduce(const T* in, T* out, const Shape& in_shape, const Shape& out_shape,
                   const WindowParams& p) {
  using C = typename Rule::C;
  using Lane = typename Rule::Lane;
  const std::size_t rank = in_shape.size();
  const std::int64_t outputs = numel(out_shape);
  if (rank == 0) {
    out[0] = to_output<T>(
        Rule::absorb(Rule::total_init(), Rule::step(Rule::lane_init(), static_cast<C>(in[0]))));
    return;
  }
  const std::vector<std::int64_t> in_strides = contiguous_strides(in_shape);
  const std::int64_t volume = numel(p.dims);
  parallel_for(
      outputs, std::max<std::int64_t>(1, kGrain / volume), [&](std::int64_t b, std::int64_t e) {
        // idx: the output position; [k_lo, k_hi): the window positions inside the input;
        // k: the odometer over the outer window axes.
        std::vector<std::int64_t> idx(rank), k_lo(rank), k_hi(rank), k(rank), step(rank);
        for (std::size_t a = 0; a < rank; ++a) step[a] = p.dilations[a] * in_strides[a];
        std::int64_t rest = b;
        for (std::size_t a = rank; a-- > 0;) {
          idx[a] = rest % out_shape[a];
          rest /= out_shape[a];
        }
        const std::size_t last = rank - 1;
        for (std::int64_t o = b; o < e; ++o) {
          bool empty = false;
          std::int64_t base = 0;
          for (std::size_t a = 0; a < rank; ++a) {
            const std::int64_t start = idx[a] * p.strides[a] - p.padding[a].first;
            const std::int64_t dil = p.dilations[a], dim = in_shape[a];
            const std::int64_t lo = start < 0 ? (-start + dil - 1) / dil : 0;
            const std::int64_t hi =
                start > dim - 1 ? 0 : std::min(p.dims[a], (dim - 1 - start) / dil + 1);
            if (lo >= hi) empty = true;
            k_lo[a] = lo;
            k_hi[a] = hi;
            base += (start + lo * dil) * in_strides[a];
          }
          Lane acc = Rule::lane_init();
          if (!empty) {
            const std::int64_t inner_count = k_hi[last] - k_lo[last], inner_step = step[last];
            std::copy(k_lo.begin(), k_lo.end(), k.begin());
            std::int64_t offset = base;
            while (true) {
              const T* x = in + offset;
              for (std::int64_t i = 0; i < inner_count; ++i) {
                acc = Rule::step(acc, static_cast<C>(x[i * inner_step]));
              }
              // Advance the odometer over the outer window axes.
              std::size_t a = last;
              while (a-- > 0) {
                if (++k[a] < k_hi[a]) {
                  offset += step[a];
                  break;
                }
                offset -= (k[a] - 1 - k_lo[a]) * step[a];
                k[a] = k_lo[a];
              }
              if (a == static_cast<std::size_t>(-1)) break;
            }
          }
          out[o] = to_output<T>(Rule::absorb(Rule::total_init(), acc));
          for (std::size_t a = rank; a-- > 0;) {
            if (++idx[a] < out_shape[a]) break;
            idx[a] = 0;
          }
        }
      });
}

}  // namespace

Tensor run_window(const OpCall& call) {
  const Tensor& in = call.inputs.at(0);
  const Combine kind = rule_of(call.op);
  Tensor out = make_output(call);
  if (out.size() == 0) return out;
  visit_any_dtype(in.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    visit_rule(kind, [&](auto rule_tag) {
      using Rule = typename decltype(rule_tag)::template type<T>;
      // all/any have no window form; their rules never reach here (nor min/max complex).
      if constexpr (!std::is_same_v<Rule, AllRule<T>> && !std::is_same_v<Rule, AnyRule<T>> &&
                    kRuleAccepts<T, Rule>) {
        window_reduce<T, Rule>(data<T>(in), mutable_data<T>(out), in.shape(), call.out_shape,
                               call.get<WindowParams>());
      }
    });
  });
  return out;
}

}  // namespace vkt::cpu_kernels
