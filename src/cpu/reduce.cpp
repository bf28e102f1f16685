// Reductions over a set of axes (all, any, sum, product, reduce_max, reduce_min) and the
// arg-reductions (argmax, argmin, in argreduce.h) on the cpu.
//
// The input is seen as groups of adjacent axes that are all reduced or all kept (size-1
// axes dropped). When the innermost group is reduced, each output reduces contiguous
// segments with several vector accumulators; when it is kept, whole rows are added into a
// row of accumulators (row-wise vector adds, never a strided loop per output).
#include <algorithm>
#include <vector>

#include "common/reduce_groups.h"
#include "cpu/argreduce.h"
#include "cpu/extreme_simd.h"
#include "cpu/kernels.h"
#include "cpu/reduce_contiguous.h"
#include "cpu/reduce_ops.h"

namespace vkt::cpu_kernels {
namespace {

struct Group {
  std::int64_t size, stride;
};

struct ReduceLayout {
  std::vector<Group> kept;     // kept groups, outermost first, without the innermost group
  std::vector<Group> reduced;  // reduced groups, outermost first, without the innermost group
  bool tail_reduced = true;    // is the innermost group reduced?
  std::int64_t tail = 1;       // size of the innermost group (contiguous in memory)
  std::int64_t outputs = 1;    // product of `kept` sizes
  std::int64_t rows = 1;       // product of `reduced` sizes
};

// Element offset of position `index` of the row-major walk over `groups`.
std::int64_t offset_of(std::int64_t index, const std::vector<Group>& groups) {
  if (groups.size() == 1) return index * groups[0].stride;
  std::int64_t off = 0;
  for (auto g = groups.rbegin(); g != groups.rend(); ++g) {
    off += (index % g->size) * g->stride;
    index /= g->size;
  }
  return off;
}

ReduceLayout make_layout(const Shape& shape, const Axes& axes) {
  std::vector<common::ReduceGroup> merged = common::reduce_groups(shape, axes);
  if (merged.empty()) merged.push_back({1, 1, true});  // one element in, one out
  ReduceLayout layout;
  layout.tail_reduced = merged.back().reduced;
  layout.tail = merged.back().size;
  merged.pop_back();
  for (const common::ReduceGroup& m : merged) {
    if (m.reduced) {
      layout.reduced.push_back({m.size, m.stride});
      layout.rows *= m.size;
    } else {
      layout.kept.push_back({m.size, m.stride});
      layout.outputs *= m.size;
    }
  }
  return layout;
}

// Innermost group reduced: output o reduces `rows` contiguous segments of `tail` elements.
// Few outputs with much work each are split into per-thread chunks merged in order.
template <class T, class Rule, class Out>
void reduce_segments(const T* in, Out* out, const ReduceLayout& layout) {
  using Total = typename Rule::Total;
  const std::int64_t per_output = layout.rows * layout.tail;
  auto partial = [&](std::int64_t o, std::int64_t k0, std::int64_t k1) {
    Total t = Rule::total_init();
    const T* base = in + offset_of(o, layout.kept);
    while (k0 < k1) {
      const std::int64_t r = k0 / layout.tail, j = k0 % layout.tail;
      const std::int64_t len = std::min(layout.tail - j, k1 - k0);
      t = reduce_contiguous<T, Rule>(base + offset_of(r, layout.reduced) + j, len, t);
      k0 += len;
    }
    return t;
  };
  const std::int64_t threads = max_threads();
  const std::int64_t chunks = (layout.outputs < threads && per_output >= 2 * kGrain) ? threads : 1;
  if (chunks == 1) {
    parallel_for(layout.outputs, std::max<std::int64_t>(1, kGrain / per_output),
                 [&](std::int64_t b, std::int64_t e) {
                   for (std::int64_t o = b; o < e; ++o) {
                     out[o] = to_output<Out>(partial(o, 0, per_output));
                   }
                 });
    return;
  }
  std::vector<Total> parts(static_cast<std::size_t>(layout.outputs * chunks));
  parallel_for(layout.outputs * chunks, 1, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t task = b; task < e; ++task) {
      const std::int64_t o = task / chunks, c = task % chunks;
      parts[static_cast<std::size_t>(task)] =
          partial(o, per_output * c / chunks, per_output * (c + 1) / chunks);
    }
  });
  for (std::int64_t o = 0; o < layout.outputs; ++o) {
    Total t = Rule::total_init();
    for (std::int64_t c = 0; c < chunks; ++c) {
      t = Rule::merge(t, parts[static_cast<std::size_t>(o * chunks + c)]);
    }
    out[o] = to_output<Out>(t);
  }
}

// Innermost group kept: output row o (of `tail` elements) accumulates `rows` input rows
// with row-wise vector adds over wide column tiles (whole rows up to kTile, so each input
// row streams sequentially); lanes are absorbed into Totals every kFlush rows. When there
// are too few (row, tile) tasks to occupy the threads, the rows are split into chunks too.
template <class T, class Rule, class Out>
void reduce_rows(const T* in, Out* out, const ReduceLayout& layout) {
  using C = typename Rule::C;
  using Lane = typename Rule::Lane;
  using Total = typename Rule::Total;
  constexpr std::int64_t kTile = 16384, kFlush = 64;
  const std::int64_t width = layout.tail, rows = layout.rows;
  const std::int64_t tiles = (width + kTile - 1) / kTile;
  const std::int64_t tile_width = std::min(kTile, width);
  const std::int64_t threads = max_threads();
  const std::int64_t chunks = (layout.outputs * tiles < threads && rows * width >= 2 * kGrain)
                                  ? std::min(threads, rows)
                                  : 1;
  // Accumulates rows [r0, r1) of tile `tile` of output row o into dst[0, tile width).
  auto partial = [&](std::int64_t o, std::int64_t tile, std::int64_t r0, std::int64_t r1, Lane* acc,
                     Total* dst) {
    const std::int64_t j0 = tile * kTile, n = std::min(kTile, width - j0);
    const T* base = in + offset_of(o, layout.kept) + j0;
    for (std::int64_t j = 0; j < n; ++j) dst[j] = Rule::total_init();
    for (std::int64_t r = r0; r < r1; r += kFlush) {
      const std::int64_t r_end = std::min(r1, r + kFlush);
      for (std::int64_t j = 0; j < n; ++j) acc[j] = Rule::lane_init();
      // Four rows per pass over the accumulators: a quarter of the accumulator traffic.
      std::int64_t rr = r;
      for (; rr + 4 <= r_end; rr += 4) {
        const T* r0 = base + offset_of(rr, layout.reduced);
        const T* r1 = base + offset_of(rr + 1, layout.reduced);
        const T* r2 = base + offset_of(rr + 2, layout.reduced);
        const T* r3 = base + offset_of(rr + 3, layout.reduced);
        for (std::int64_t j = 0; j < n; ++j) {
          Lane a = Rule::step(acc[j], static_cast<C>(r0[j]));
          a = Rule::step(a, static_cast<C>(r1[j]));
          a = Rule::step(a, static_cast<C>(r2[j]));
          acc[j] = Rule::step(a, static_cast<C>(r3[j]));
        }
      }
      for (; rr < r_end; ++rr) {
        const T* row = base + offset_of(rr, layout.reduced);
        for (std::int64_t j = 0; j < n; ++j) acc[j] = Rule::step(acc[j], static_cast<C>(row[j]));
      }
      for (std::int64_t j = 0; j < n; ++j) dst[j] = Rule::absorb(dst[j], acc[j]);
    }
  };
  const std::int64_t tasks = layout.outputs * tiles * chunks;
  const std::int64_t work_per_task = tile_width * std::max<std::int64_t>(rows / chunks, 1);
  const std::int64_t grain = std::max<std::int64_t>(1, kGrain / work_per_task);
  if (chunks == 1) {
    parallel_for(tasks, grain, [&](std::int64_t b, std::int64_t e) {
      std::vector<Lane> acc(static_cast<std::size_t>(tile_width));
      std::vector<Total> tot(static_cast<std::size_t>(tile_width));
      for (std::int64_t task = b; task < e; ++task) {
        const std::int64_t o = task / tiles, tile = task % tiles;
        partial(o, tile, 0, rows, acc.data(), tot.data());
        Out* dst = out + o * width + tile * kTile;
        const std::int64_t n = std::min(kTile, width - tile * kTile);
        for (std::int64_t j = 0; j < n; ++j) dst[j] = to_output<Out>(tot[j]);
      }
    });
    return;
  }
  // parts[(o * chunks + c) * width + j]: chunk c's partial result for column j of row o.
  std::vector<Total> parts(static_cast<std::size_t>(layout.outputs * chunks * width));
  parallel_for(tasks, grain, [&](std::int64_t b, std::int64_t e) {
    std::vector<Lane> acc(static_cast<std::size_t>(tile_width));
    for (std::int64_t task = b; task < e; ++task) {
      const std::int64_t c = task % chunks, tile = (task / chunks) % tiles;
      const std::int64_t o = task / (chunks * tiles);
      partial(o, tile, rows * c / chunks, rows * (c + 1) / chunks, acc.data(),
              parts.data() + (o * chunks + c) * width + tile * kTile);
    }
  });
  for (std::int64_t o = 0; o < layout.outputs; ++o) {
    for (std::int64_t j = 0; j < width; ++j) {
      Total t = Rule::total_init();
      for (std::int64_t c = 0; c < chunks; ++c) {
        t = Rule::merge(t, parts[static_cast<std::size_t>((o * chunks + c) * width + j)]);
      }
      out[o * width + j] = to_output<Out>(t);
    }
  }
}

template <class T, class Rule, class Out>
void run_typed_reduce(const OpCall& call, const Tensor& out) {
  const Tensor& in = call.inputs.at(0);
  Out* o = mutable_data<Out>(out);
  if (out.size() == 0) return;
  if (in.size() == 0) {  // every output reduces nothing: the identity
    std::fill(o, o + out.size(), to_output<Out>(Rule::total_init()));
    return;
  }
  const ReduceLayout layout = make_layout(in.shape(), call.get<ReduceParams>().axes);
  if (layout.tail_reduced) {
    reduce_segments<T, Rule, Out>(data<T>(in), o, layout);
  } else {
    reduce_rows<T, Rule, Out>(data<T>(in), o, layout);
  }
}

}  // namespace

Tensor run_reduce(const OpCall& call) {
  if (op_family(call.op) == OpFamily::argreduce) return run_argreduce(call);
  const Combine kind = rule_of(call.op);
  Tensor out = make_output(call);
  visit_any_dtype(call.inputs.at(0).dtype(), [&](auto in_tag) {
    using T = typename decltype(in_tag)::type;
    visit_rule(kind, [&](auto rule_tag) {
      using Rule = typename decltype(rule_tag)::template type<T>;
      using Out = reduce_output_t<T, Rule>;
      if constexpr (!kRuleAccepts<T, Rule>) {
        throw TypeError("[" + std::string(op_name(call.op)) + "] has no order on " +
                        std::string(dtype_name(dtype_of_v<T>)));
      } else {
        if (dtype_of_v<Out> != call.out_dtype) {
          throw Unsupported("[" + std::string(op_name(call.op)) + "] cannot produce " +
                            std::string(dtype_name(call.out_dtype)) + " from " +
                            std::string(dtype_name(dtype_of_v<T>)));
        }
        run_typed_reduce<T, Rule, Out>(call, out);
      }
    });
  });
  return out;
}

}  // namespace vkt::cpu_kernels
