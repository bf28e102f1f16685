// Derivative rules of conv, window_sum/product/max/min, window_scatter_max/min.
#include <algorithm>
#include <cstdint>
#include <utility>

#include "grad/rules.h"
#include "vkt/ops.h"

namespace vkt::detail {
namespace {

using Tensors = std::vector<Tensor>;
using Pairs = std::vector<std::pair<std::int64_t, std::int64_t>>;

// n elements with d - 1 holes between neighbours (an empty axis stays empty).
std::int64_t dilated(std::int64_t n, std::int64_t d) {
  return n == 0 ? 0 : (n - 1) * d + 1;
}

Tensor zeros(const Shape& shape, const Tensor& like) {
  return full(shape, 0, like.dtype(), &like.backend());
}

// {1, 0, 2, 3, ...}: a conv operand's batch (or out-channel) and channel axes swapped.
Axes swap_leading(std::int64_t rank) {
  Axes perm{1, 0};
  for (std::int64_t a = 2; a < rank; ++a) perm.push_back(a);
  return perm;
}

// The points of a dims[0] x dims[1] x ... grid in row-major order, each scaled by its
// axis's dilation: a window's (or a kernel's) element offsets.
std::vector<std::vector<std::int64_t>> grid_offsets(const std::vector<std::int64_t>& dims,
                                                    const std::vector<std::int64_t>& dilations) {
  std::vector<std::vector<std::int64_t>> starts{{}};
  for (std::size_t a = 0; a < dims.size(); ++a) {
    std::vector<std::vector<std::int64_t>> next;
    for (const auto& s : starts) {
      for (std::int64_t i = 0; i < dims[a]; ++i) {
        next.push_back(s);
        next.back().push_back(i * dilations[a]);
      }
    }
    starts = std::move(next);
  }
  return starts;
}

// ---- conv ----
// The node is always the default layout: conv() transposes for the permutations before it
// dispatches, and the transpose rule undoes them.

// The input cotangent, as JAX's _conv_general_dilated_transpose_lhs: g convolved with the
// kernel spatially reversed and in/out swapped within each group, the forward stride
// becoming the input dilation (and the input dilation the stride).
Tensor conv_input_cotangent(const Tensor& x, const Tensor& k, const Tensor& g,
                            const ConvParams& p) {
  const std::int64_t rank = x.rank();
  const std::int64_t groups = std::max(p.feature_groups, p.batch_groups);
  const std::int64_t o = k.shape()[0], kc = k.shape()[1];
  // {O, kc, ks...} -> {groups, O / groups, kc, ks...} -> {groups, kc, O / groups, ks...}
  // -> {groups * kc, O / groups, ks...}: group g's out channels become its in channels.
  Shape split{groups, o / groups, kc};
  Shape merged{groups * kc, o / groups};
  Axes perm{0, 2, 1};
  Axes spatial_axes;
  for (std::int64_t a = 2; a < rank; ++a) {
    split.push_back(k.shape()[static_cast<std::size_t>(a)]);
    merged.push_back(k.shape()[static_cast<std::size_t>(a)]);
    perm.push_back(a + 1);
    spatial_axes.push_back(a);
  }
  const Tensor swapped = reverse(reshape(transpose(reshape(k, split), perm), merged), spatial_axes);

  ConvOptions opts;
  opts.strides = p.input_dilation;
  opts.input_dilation = p.strides;
  opts.kernel_dilation = p.kernel_dilation;
  opts.feature_group_size = groups;
  for (std::size_t a = 0; a < p.strides.size(); ++a) {
    const std::int64_t in = dilated(x.shape()[a + 2], p.input_dilation[a]);
    const std::int64_t span = dilated(k.shape()[a + 2], p.kernel_dilation[a]);
    const std::int64_t out = dilated(g.shape()[a + 2], p.strides[a]);
    const std::int64_t before = span - p.padding[a].first - 1;
    opts.padding.emplace_back(before, in + span - 1 - out - before);
  }
  Tensor dx = conv(g, swapped, opts);
  if (p.batch_groups == 1) return dx;
  // {N / B, B * C, ...}: batch group b's channels belong to input batches b * N / B + n.
  const std::int64_t b = p.batch_groups, n = g.shape()[0];
  Shape by_group{n, b, kc};
  Shape back{n * b, kc};
  for (std::int64_t a = 2; a < rank; ++a) {
    by_group.push_back(x.shape()[static_cast<std::size_t>(a)]);
    back.push_back(x.shape()[static_cast<std::size_t>(a)]);
  }
  Axes outer{1, 0};
  for (std::int64_t a = 2; a <= rank; ++a) outer.push_back(a);
  return reshape(transpose(reshape(dx, by_group), outer), back);
}

// The kernel cotangent, as JAX's _conv_general_dilated_transpose_rhs: the input with batch
// and channels swapped, convolved with g (batch and channels swapped) as the kernel; the
// forward stride becomes the kernel dilation, and the feature and batch groups trade places.
Tensor conv_kernel_cotangent(const Tensor& x, const Tensor& k, const Tensor& g,
                             const ConvParams& p) {
  const Axes swap = swap_leading(x.rank());
  ConvOptions opts;
  opts.strides = p.kernel_dilation;
  opts.input_dilation = p.input_dilation;
  opts.kernel_dilation = p.strides;
  opts.feature_group_size = p.batch_groups;
  opts.batch_group_size = p.feature_groups;
  for (std::size_t a = 0; a < p.strides.size(); ++a) {
    const std::int64_t in = dilated(x.shape()[a + 2], p.input_dilation[a]);
    const std::int64_t span = dilated(k.shape()[a + 2], p.kernel_dilation[a]);
    const std::int64_t out = dilated(g.shape()[a + 2], p.strides[a]);
    const std::int64_t lo = p.padding[a].first;
    opts.padding.emplace_back(lo, out - in + span - lo - 1);
  }
  // {C / feature_groups, O, ks...} -> the kernel's {O, C / feature_groups, ks...}.
  return transpose(conv(transpose(x, swap), transpose(g, swap), opts), swap);
}

Tensors d_conv(const RuleArgs& r) {
  const auto& p = std::get<ConvParams>(r.node.params);
  const Tensor& x = r.in[0];
  const Tensor& k = r.in[1];
  // Nothing flows through an empty operand or output (and the transposed convs would
  // have empty kernels).
  if (r.g.size() == 0 || x.size() == 0 || k.size() == 0) {
    return {zeros(x.shape(), r.g), zeros(k.shape(), r.g)};
  }
  return {r.wants(0) ? conv_input_cotangent(x, k, r.g, p) : Tensor(),
          r.wants(1) ? conv_kernel_cotangent(x, k, r.g, p) : Tensor()};
}

// ---- window reductions ----

WindowOptions options_of(const WindowParams& p) {
  WindowOptions o;
  o.strides = p.strides;
  o.padding = p.padding;
  o.dilations = p.dilations;
  return o;
}

// The window's element offsets in row-major order, each as its start in the padded input.
std::vector<std::vector<std::int64_t>> window_offsets(const WindowParams& p) {
  return grid_offsets(p.dims, p.dilations);
}

std::vector<PadAxis> window_padding(const WindowParams& p) {
  std::vector<PadAxis> cfg;
  for (const auto& [lo, hi] : p.padding) cfg.push_back({lo, hi, 0});
  return cfg;
}

// The element at `start` of every window: a strided view of the padded input, out-shaped.
Tensor at_offset(const Tensor& padded, const std::vector<std::int64_t>& start, const Shape& out,
                 const WindowParams& p) {
  return slice(padded, start, std::vector<std::int64_t>(out.begin(), out.end()), p.strides);
}

// at_offset's transpose: c (out-shaped) put back where it was read, in the padded shape.
Tensor from_offset(const Tensor& c, const std::vector<std::int64_t>& start, const Shape& padded,
                   const WindowParams& p) {
  std::vector<PadAxis> cfg;
  for (std::size_t a = 0; a < start.size(); ++a) {
    const std::int64_t last = start[a] + (c.shape()[a] - 1) * p.strides[a];
    cfg.push_back({start[a], padded[a] - 1 - last, p.strides[a] - 1});
  }
  return pad(c, 0, cfg);
}

// The padded input's shape cropped back to the input's.
Tensor unpad(const Tensor& t, const WindowParams& p, const Shape& in) {
  std::vector<std::int64_t> start;
  for (const auto& pad_axis : p.padding) start.push_back(pad_axis.first);
  return slice(t, start, std::vector<std::int64_t>(in.begin(), in.end()));
}

// Every input element receives the sum of g over the windows holding it: as JAX's
// reduce_window_sum transpose, g spread by the strides and padded so a stride-1 window_sum
// (with the same dilations) lands on the input's shape.
Tensors d_window_sum(const RuleArgs& r) {
  const auto& p = std::get<WindowParams>(r.node.params);
  const Tensor& x = r.in[0];
  if (r.g.size() == 0 || x.size() == 0) return {zeros(x.shape(), r.g)};
  std::vector<PadAxis> cfg;
  for (std::size_t a = 0; a < p.dims.size(); ++a) {
    const std::int64_t span = dilated(p.dims[a], p.dilations[a]);
    const std::int64_t out = dilated(r.g.shape()[a], p.strides[a]);
    const std::int64_t before = span - p.padding[a].first - 1;
    cfg.push_back({before, x.shape()[a] + span - 1 - out - before, p.strides[a] - 1});
  }
  WindowOptions o;
  o.dilations = p.dilations;
  return {window_sum(pad(r.g, 0, cfg), p.dims, o)};
}

// d out_w / d x_k is the product of the window's other elements: exclusive prefix and
// suffix products over the window's offsets (no division, so zeros are exact, as Nx's
// product rule), each offset's share put back where it was read.
Tensors d_window_product(const RuleArgs& r) {
  const auto& p = std::get<WindowParams>(r.node.params);
  const Tensor& x = r.in[0];
  if (r.g.size() == 0 || x.size() == 0) return {zeros(x.shape(), r.g)};
  const Tensor padded = pad(x, 1, window_padding(p));  // padding holds product's identity
  const auto offsets = window_offsets(p);
  Tensors at;
  for (const auto& s : offsets) at.push_back(at_offset(padded, s, r.g.shape(), p));
  const std::size_t n = at.size();
  // others[i] = g * prod_{j < i} at[j] * prod_{j > i} at[j]; undefined stands for g alone.
  Tensors others(n);
  Tensor prefix;
  for (std::size_t i = 0; i < n; ++i) {
    others[i] = prefix.defined() ? multiply(r.g, prefix) : r.g;
    prefix = prefix.defined() ? multiply(prefix, at[i]) : at[i];
  }
  Tensor suffix;
  Tensor sum_padded;
  for (std::size_t i = n; i-- > 0;) {
    const Tensor share = suffix.defined() ? multiply(others[i], suffix) : others[i];
    suffix = suffix.defined() ? multiply(suffix, at[i]) : at[i];
    const Tensor back = from_offset(share, offsets[i], padded.shape(), p);
    sum_padded = sum_padded.defined() ? add(sum_padded, back) : back;
  }
  return {unpad(sum_padded, p, x.shape())};
}

// Nx: the cotangent goes to the element each window selects, through window_scatter_max
// (min) itself, so ties go where that op sends them (the last in row-major window order).
Tensors d_window_extreme(const RuleArgs& r) {
  const auto& p = std::get<WindowParams>(r.node.params);
  const Tensor& x = r.in[0];
  if (r.node.op == Op::window_max) return {window_scatter_max(x, r.g, 0, p.dims, options_of(p))};
  return {window_scatter_min(x, r.g, 0, p.dims, options_of(p))};
}

// window_scatter_max (min) adds source[w] at the position window w selects: source's
// cotangent is g read back at that position. The selection is replayed over the window's
// offsets exactly as the op makes it (in-bounds positions only, in row-major order, a later
// one taken on >= (<=), so ties go last and NaN is never taken over an earlier number).
// The operand only steers the selection: piecewise constant, no cotangent (Nx: zero). The
// init_value is a parameter, not an input, so its cotangent (Nx: sum(g)) has nowhere to go.
Tensors d_window_scatter(const RuleArgs& r) {
  const auto& p = std::get<WindowScatterParams>(r.node.params).window;
  const Tensor& t = r.in[0];
  const Tensor& source = r.in[1];
  if (source.size() == 0 || r.g.size() == 0) return {Tensor(), zeros(source.shape(), r.g)};
  const bool want_max = r.node.op == Op::window_scatter_max;
  const std::vector<PadAxis> cfg = window_padding(p);
  const Tensor padded_t = pad(t, 0, cfg);
  const Tensor padded_g = pad(r.g, 0, cfg);
  const Tensor inside = pad(full(t.shape(), 1, DType::u8, &t.backend()), 0, cfg);
  const Shape& out = source.shape();
  Tensor best, picked, seen;
  for (const auto& s : window_offsets(p)) {
    const Tensor xs = at_offset(padded_t, s, out, p);
    const Tensor valid = at_offset(inside, s, out, p);
    const Tensor gs = at_offset(padded_g, s, out, p);
    if (!best.defined()) {
      best = xs;
      picked = gs;  // g was padded with 0: a padding position picks 0
      seen = valid;
      continue;
    }
    const Tensor better = want_max ? greater_equal(xs, best) : less_equal(xs, best);
    const Tensor take = logical_and(valid, logical_or(logical_not(seen), better));
    best = select(take, xs, best);
    picked = select(take, gs, picked);
    seen = logical_or(seen, valid);
  }
  return {Tensor(), picked};
}

}  // namespace

Rule window_rule(Op op) {
  switch (op) {
    case Op::conv:
      return d_conv;
    case Op::window_sum:
      return d_window_sum;
    case Op::window_product:
      return d_window_product;
    case Op::window_max:
    case Op::window_min:
      return d_window_extreme;
    case Op::window_scatter_max:
    case Op::window_scatter_min:
      return d_window_scatter;
    default:
      return nullptr;
  }
}

}  // namespace vkt::detail
