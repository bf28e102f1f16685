// conv (Nx.conv): option and shape validation, Nx's output shape, promotion to a float type,
// layouts by transpose, dispatch of the default-layout op.
#include <string>

#include "core/checks.h"
#include "core/dispatch.h"
#include "vkt/ops.h"

namespace vkt {
namespace {

constexpr const char* kOp = "conv";

std::string pairs_str(const std::vector<std::pair<std::int64_t, std::int64_t>>& pairs) {
  std::string s = "{";
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (i > 0) s += ", ";
    s += "{" + std::to_string(pairs[i].first) + ", " + std::to_string(pairs[i].second) + "}";
  }
  return s + "}";
}

// An option left empty is 1 on every spatial axis; otherwise one entry per axis, each >= 1.
std::vector<std::int64_t> per_spatial_axis(const char* what, const std::vector<std::int64_t>& given,
                                           std::size_t spatial) {
  if (given.empty()) return std::vector<std::int64_t>(spatial, 1);
  if (given.size() != spatial) {
    detail::fail<ShapeError>(kOp, std::string(what) + " " + shape_str(given) + " need " +
                                      std::to_string(spatial) + " entries (one per spatial axis)");
  }
  for (std::int64_t v : given) {
    if (v < 1) {
      detail::fail<ShapeError>(kOp,
                               std::string(what) + " " + shape_str(given) + " must all be >= 1");
    }
  }
  return given;
}

// A permutation of the rank's axes (empty: identity); AxisError otherwise.
Axes checked_permutation(const char* what, const Axes& perm, std::int64_t rank) {
  Axes out;
  if (perm.empty()) {
    for (std::int64_t i = 0; i < rank; ++i) out.push_back(i);
    return out;
  }
  std::vector<bool> seen(static_cast<std::size_t>(rank), false);
  bool ok = static_cast<std::int64_t>(perm.size()) == rank;
  for (std::int64_t ax : perm) {
    const std::int64_t a = ax < 0 ? ax + rank : ax;
    if (!ok || a < 0 || a >= rank || seen[static_cast<std::size_t>(a)]) {
      ok = false;
      break;
    }
    seen[static_cast<std::size_t>(a)] = true;
    out.push_back(a);
  }
  if (!ok) {
    detail::fail<AxisError>(kOp, std::string(what) + " " + shape_str(perm) +
                                     " is not a permutation of " + std::to_string(rank) + " axes");
  }
  return out;
}

bool is_identity(const Axes& perm) {
  for (std::size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] != static_cast<std::int64_t>(i)) return false;
  }
  return true;
}

void check_groups(const Tensor& input, const Tensor& kernel, std::int64_t fg, std::int64_t bg) {
  const std::string shapes =
      " (input " + shape_str(input.shape()) + ", kernel " + shape_str(kernel.shape()) + ")";
  if (fg < 1 || bg < 1) {
    detail::fail<ShapeError>(kOp, "feature_group_size " + std::to_string(fg) +
                                      " and batch_group_size " + std::to_string(bg) +
                                      " must be >= 1");
  }
  if (fg != 1 && bg != 1) {
    detail::fail<ShapeError>(kOp, "feature_group_size " + std::to_string(fg) +
                                      " and batch_group_size " + std::to_string(bg) +
                                      ": at least one must be 1");
  }
  const std::int64_t n = input.shape()[0], c = input.shape()[1];
  const std::int64_t o = kernel.shape()[0], kc = kernel.shape()[1];
  if (n % bg != 0) {
    detail::fail<ShapeError>(kOp, "batch_group_size " + std::to_string(bg) +
                                      " does not divide the input batch " + std::to_string(n) +
                                      shapes);
  }
  if (o % fg != 0 || o % bg != 0) {
    detail::fail<ShapeError>(kOp, "kernel output channels " + std::to_string(o) +
                                      " are not divisible by the group size " +
                                      std::to_string(fg * bg) + shapes);
  }
  if (c != kc * fg) {
    detail::fail<ShapeError>(kOp, "input channels " + std::to_string(c) +
                                      " must equal kernel input channels " + std::to_string(kc) +
                                      " times feature_group_size " + std::to_string(fg) + shapes);
  }
}

// Nx's :same: the dilated kernel's size minus one, split low-first.
std::vector<std::pair<std::int64_t, std::int64_t>> same_padding(
    const Tensor& kernel, const std::vector<std::int64_t>& kernel_dilation) {
  std::vector<std::pair<std::int64_t, std::int64_t>> pads;
  for (std::size_t i = 0; i < kernel_dilation.size(); ++i) {
    const std::int64_t k = kernel.shape()[i + 2];
    const std::int64_t total = std::max<std::int64_t>(
        detail::checked_mul(kOp, "the dilated kernel", k - 1, kernel_dilation[i]), 0);
    pads.push_back({total / 2, total - total / 2});
  }
  return pads;
}

Tensor conv_default_layout(const Tensor& input, const Tensor& kernel, const ConvOptions& opts) {
  if (input.rank() < 3 || kernel.rank() != input.rank()) {
    detail::fail<ShapeError>(kOp,
                             "needs an input of rank >= 3 and a kernel of the same rank, got " +
                                 detail::describe(input) + " and " + detail::describe(kernel));
  }
  const auto spatial = static_cast<std::size_t>(input.rank() - 2);
  check_groups(input, kernel, opts.feature_group_size, opts.batch_group_size);
  ConvParams p;
  p.strides = per_spatial_axis("strides", opts.strides, spatial);
  p.input_dilation = per_spatial_axis("input_dilation", opts.input_dilation, spatial);
  p.kernel_dilation = per_spatial_axis("kernel_dilation", opts.kernel_dilation, spatial);
  p.feature_groups = opts.feature_group_size;
  p.batch_groups = opts.batch_group_size;
  switch (opts.padding_mode) {
    case ConvPadding::valid:
      p.padding.assign(spatial, {0, 0});
      break;
    case ConvPadding::same:
      p.padding = same_padding(kernel, p.kernel_dilation);
      break;
    case ConvPadding::config:
      if (opts.padding.empty()) {
        p.padding.assign(spatial, {0, 0});
      } else if (opts.padding.size() != spatial) {
        detail::fail<ShapeError>(kOp, "padding " + pairs_str(opts.padding) + " needs " +
                                          std::to_string(spatial) +
                                          " entries (one per spatial axis)");
      } else {
        p.padding = opts.padding;
      }
      break;
  }

  Shape out_shape{input.shape()[0] / p.batch_groups, kernel.shape()[0]};
  for (std::size_t a = 0; a < spatial; ++a) {
    const std::string where = "spatial axis " + std::to_string(a);
    const std::int64_t in = input.shape()[a + 2];
    const std::int64_t dilated =
        in == 0 ? 0
                : detail::checked_add(kOp, "the dilated input of " + where,
                                      detail::checked_mul(kOp, "the dilated input of " + where,
                                                          in - 1, p.input_dilation[a]),
                                      1);
    const std::int64_t padded = detail::checked_add(
        kOp, "the padded input of " + where,
        detail::checked_add(kOp, "the padded input of " + where, dilated, p.padding[a].first),
        p.padding[a].second);
    const std::int64_t k = kernel.shape()[a + 2];
    // As Nx dilates (interior padding): an empty axis stays empty.
    const std::int64_t span =
        k == 0 ? 0
               : detail::checked_add(kOp, "the dilated kernel of " + where,
                                     detail::checked_mul(kOp, "the dilated kernel of " + where,
                                                         k - 1, p.kernel_dilation[a]),
                                     1);
    // Nx raises rather than returning an empty spatial axis.
    const std::int64_t out = padded < span ? 0 : (padded - span) / p.strides[a] + 1;
    if (out <= 0) {
      detail::fail<ShapeError>(
          kOp, "output size " + std::to_string(out) + " on " + where + " (padded input " +
                   std::to_string(padded) + ", dilated kernel " + std::to_string(span) +
                   ", stride " + std::to_string(p.strides[a]) + ") must be positive; input " +
                   shape_str(input.shape()) + ", kernel " + shape_str(kernel.shape()) +
                   ", padding " + pairs_str(p.padding));
    }
    out_shape.push_back(out);
  }
  const DType dtype = to_float_type(promote(input.dtype(), kernel.dtype()));
  detail::check_size(kOp, out_shape, dtype);
  return detail::dispatch(
      {Op::conv, {as_type(input, dtype), as_type(kernel, dtype)}, std::move(p), dtype, out_shape});
}

}  // namespace

Tensor conv(const Tensor& input, const Tensor& kernel, const ConvOptions& opts) {
  detail::check_defined(kOp, input);
  detail::check_defined(kOp, kernel);
  detail::check_backends(kOp, {input, kernel});
  const Axes in_perm =
      checked_permutation("input_permutation", opts.input_permutation, input.rank());
  const Axes k_perm =
      checked_permutation("kernel_permutation", opts.kernel_permutation, kernel.rank());
  const Axes out_perm =
      checked_permutation("output_permutation", opts.output_permutation, input.rank());
  const Tensor in = is_identity(in_perm) ? input : transpose(input, in_perm);
  const Tensor k = is_identity(k_perm) ? kernel : transpose(kernel, k_perm);
  Tensor out = conv_default_layout(in, k, opts);
  if (is_identity(out_perm)) return out;
  // The default layout's axis i goes to axis out_perm[i]: transpose by the inverse.
  Axes inverse(out_perm.size());
  for (std::size_t i = 0; i < out_perm.size(); ++i) {
    inverse[static_cast<std::size_t>(out_perm[i])] = static_cast<std::int64_t>(i);
  }
  return transpose(out, inverse);
}

}  // namespace vkt
