// Shape and movement ops: reshape, squeeze (storage aliases), broadcast, transpose, pad,
// reverse, slice, put_slice, concatenate, stack. Validation and shapes here; copies in the
// backends.
#include <algorithm>
#include <string>

#include "core/checks.h"
#include "core/dispatch.h"
#include "vkt/ops.h"

namespace vkt {
namespace {

std::string list_str(const std::vector<std::int64_t>& v) {
  return shape_str(v);
}

void check_rank_match(const char* op, const char* what, std::size_t got, const Tensor& t) {
  if (static_cast<std::int64_t>(got) != t.rank()) {
    detail::fail<ShapeError>(op, std::string(what) + " has " + std::to_string(got) +
                                     " entries but the tensor " + shape_str(t.shape()) +
                                     " has rank " + std::to_string(t.rank()));
  }
}

}  // namespace

Tensor reshape(const Tensor& t, const Shape& shape) {
  detail::check_defined("reshape", t);
  Shape out = shape;
  std::int64_t inferred = -1, known = 1;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == -1 && inferred < 0) {
      inferred = static_cast<std::int64_t>(i);
    } else if (out[i] < 0) {
      detail::fail<ShapeError>("reshape", "target shape " + shape_str(shape) +
                                              " has a negative dimension or more than one -1");
    } else if (__builtin_mul_overflow(known, out[i], &known)) {
      detail::fail<ShapeError>(
          "reshape", "target shape " + shape_str(shape) + " has more elements than int64 holds");
    }
  }
  if (inferred >= 0) {
    if (known == 0 || t.size() % known != 0) {
      detail::fail<ShapeError>("reshape", "cannot infer the -1 in " + shape_str(shape) +
                                              " for a tensor of shape " + shape_str(t.shape()));
    }
    out[static_cast<std::size_t>(inferred)] = t.size() / known;
  }
  if (numel(out) != t.size()) {
    detail::fail<ShapeError>("reshape", "cannot reshape a tensor of shape " + shape_str(t.shape()) +
                                            " (" + std::to_string(t.size()) + " elements) into " +
                                            shape_str(shape));
  }
  return Tensor(t.dtype(), out, t.storage());
}

Tensor squeeze(const Tensor& t, const Axes& axes) {
  detail::check_defined("squeeze", t);
  const Axes norm = normalize_axes("squeeze", axes, t.rank());
  Shape out;
  for (std::int64_t a = 0; a < t.rank(); ++a) {
    const std::int64_t d = t.dim(a);
    const bool listed = std::find(norm.begin(), norm.end(), a) != norm.end();
    if (listed && d != 1) {
      detail::fail<ShapeError>("squeeze", "axis " + std::to_string(a) + " of shape " +
                                              shape_str(t.shape()) + " has size " +
                                              std::to_string(d) + ", not 1");
    }
    if (norm.empty() ? d != 1 : !listed) out.push_back(d);
  }
  return Tensor(t.dtype(), out, t.storage());
}

Tensor broadcast(const Tensor& t, const Shape& shape, const Axes& axes) {
  detail::check_defined("broadcast", t);
  const std::int64_t out_rank = static_cast<std::int64_t>(shape.size());
  for (std::int64_t d : shape) {
    if (d < 0)
      detail::fail<ShapeError>("broadcast",
                               "target shape " + shape_str(shape) + " has a negative dimension");
  }
  if (t.rank() > out_rank) {
    detail::fail<ShapeError>("broadcast", "cannot broadcast shape " + shape_str(t.shape()) +
                                              " to the lower-rank shape " + shape_str(shape));
  }
  Axes map = axes;
  if (map.empty() && t.rank() > 0) {
    for (std::int64_t i = 0; i < t.rank(); ++i) map.push_back(out_rank - t.rank() + i);
  }
  if (static_cast<std::int64_t>(map.size()) != t.rank()) {
    detail::fail<AxisError>("broadcast", "axes " + list_str(axes) +
                                             " must have one entry per axis of shape " +
                                             shape_str(t.shape()));
  }
  for (std::size_t i = 0; i < map.size(); ++i) {
    map[i] = normalize_axis("broadcast", map[i], out_rank);
    if (i > 0 && map[i] <= map[i - 1]) {
      detail::fail<AxisError>("broadcast",
                              "axes " + list_str(axes) + " must be strictly increasing");
    }
  }
  for (std::size_t i = 0; i < map.size(); ++i) {
    const std::int64_t d = t.dim(static_cast<std::int64_t>(i));
    const std::int64_t target = shape[static_cast<std::size_t>(map[i])];
    if (d != 1 && d != target) {
      detail::fail<ShapeError>(
          "broadcast", "cannot broadcast shape " + shape_str(t.shape()) + " to " +
                           shape_str(shape) + " (input axis " + std::to_string(i) + " has size " +
                           std::to_string(d) + ", target axis " + std::to_string(map[i]) +
                           " has size " + std::to_string(target) + ")");
    }
  }
  if (shape == t.shape()) return t;  // axes strictly increasing and equal rank: identity
  return detail::dispatch({Op::broadcast, {t}, BroadcastParams{map}, t.dtype(), shape});
}

Tensor transpose(const Tensor& t, const Axes& perm) {
  detail::check_defined("transpose", t);
  const std::int64_t rank = t.rank();
  Axes p = perm;
  if (p.empty()) {
    for (std::int64_t i = rank - 1; i >= 0; --i) p.push_back(i);
  }
  if (static_cast<std::int64_t>(p.size()) != rank) {
    detail::fail<AxisError>("transpose",
                            "permutation " + list_str(perm) + " has " + std::to_string(p.size()) +
                                " entries for a tensor of rank " + std::to_string(rank));
  }
  std::vector<bool> seen(static_cast<std::size_t>(rank), false);
  Shape out(static_cast<std::size_t>(rank));
  bool identity = true;
  for (std::size_t i = 0; i < p.size(); ++i) {
    p[i] = normalize_axis("transpose", p[i], rank);
    if (seen[static_cast<std::size_t>(p[i])]) {
      detail::fail<AxisError>(
          "transpose", "permutation " + list_str(perm) + " repeats axis " + std::to_string(p[i]));
    }
    seen[static_cast<std::size_t>(p[i])] = true;
    out[i] = t.dim(p[i]);
    identity = identity && p[i] == static_cast<std::int64_t>(i);
  }
  if (identity) return t;
  return detail::dispatch({Op::transpose, {t}, TransposeParams{p}, t.dtype(), out});
}

Tensor pad(const Tensor& t, Scalar value, const std::vector<PadAxis>& config) {
  detail::check_defined("pad", t);
  check_rank_match("pad", "config", config.size(), t);
  Shape out(config.size());
  bool identity = true;
  for (std::size_t i = 0; i < config.size(); ++i) {
    const PadAxis& c = config[i];
    const std::int64_t d = t.shape()[i];
    if (c.interior < 0) {
      detail::fail<ShapeError>("pad", "interior padding " + std::to_string(c.interior) +
                                          " on axis " + std::to_string(i) + " is negative");
    }
    const std::string where = "padding on axis " + std::to_string(i);
    out[i] = detail::checked_add(
        "pad", where, detail::checked_add("pad", where, c.lo, c.hi),
        detail::checked_add(
            "pad", where, d,
            detail::checked_mul("pad", where, std::max<std::int64_t>(d - 1, 0), c.interior)));
    if (out[i] < 0) {
      detail::fail<ShapeError>(
          "pad", "padding {" + std::to_string(c.lo) + ", " + std::to_string(c.hi) + ", " +
                     std::to_string(c.interior) + "} on axis " + std::to_string(i) + " of shape " +
                     shape_str(t.shape()) + " gives a negative size " + std::to_string(out[i]));
    }
    identity = identity && c.lo == 0 && c.hi == 0 && (c.interior == 0 || d <= 1);
  }
  if (identity) return t;
  return detail::dispatch({Op::pad, {t}, PadParams{value, config}, t.dtype(), out});
}

Tensor pad(const Tensor& t, const Tensor& value, const std::vector<PadAxis>& config) {
  detail::check_defined("pad", t);
  detail::check_rank_zero("pad", "the pad value", value);
  detail::check_backends("pad", {t, value});
  const DType out = promote(t.dtype(), value.dtype());
  const Tensor converted = as_type(t, out);
  // The scalar pad checks the config, and returns its input itself where nothing changes.
  const Tensor padded = pad(converted, 0, config);
  if (padded.storage() == converted.storage()) return padded;
  // Where t's elements landed: the value goes everywhere else, bit for bit (NaN, -0).
  const Tensor inside = pad(full(t.shape(), 1, DType::u8, &t.backend()), 0, config);
  return select(inside, padded, value);
}

Tensor reverse(const Tensor& t, const Axes& axes) {
  detail::check_defined("reverse", t);
  Axes norm;
  if (axes.empty()) {
    for (std::int64_t i = 0; i < t.rank(); ++i) norm.push_back(i);
  } else {
    norm = normalize_axes("reverse", axes, t.rank());
  }
  // Axes of size <= 1 read the same either way.
  std::erase_if(norm, [&](std::int64_t a) { return t.dim(a) <= 1; });
  if (norm.empty()) return t;
  return detail::dispatch({Op::reverse, {t}, AxesParams{norm}, t.dtype(), t.shape()});
}

Tensor slice(const Tensor& t, const std::vector<std::int64_t>& start,
             const std::vector<std::int64_t>& lengths, const std::vector<std::int64_t>& strides) {
  detail::check_defined("slice", t);
  check_rank_match("slice", "start", start.size(), t);
  check_rank_match("slice", "lengths", lengths.size(), t);
  std::vector<std::int64_t> st = strides;
  if (st.empty()) st.assign(start.size(), 1);
  check_rank_match("slice", "strides", st.size(), t);
  std::vector<std::int64_t> clamped(start.size());
  for (std::size_t i = 0; i < start.size(); ++i) {
    const std::int64_t d = t.shape()[i];
    if (st[i] < 1) {
      detail::fail<ShapeError>(
          "slice", "strides " + list_str(st) + " must be >= 1 (axis " + std::to_string(i) + ")");
    }
    // A huge stride must not wrap the span into a small (or negative) one that "fits".
    const std::int64_t span =
        lengths[i] > 0 ? detail::checked_add(
                             "slice", "the span of axis " + std::to_string(i),
                             detail::checked_mul("slice", "the span of axis " + std::to_string(i),
                                                 lengths[i] - 1, st[i]),
                             1)
                       : 0;
    if (lengths[i] < 0 || span > d) {
      detail::fail<ShapeError>("slice", "lengths " + list_str(lengths) + " with strides " +
                                            list_str(st) + " do not fit shape " +
                                            shape_str(t.shape()) + " (axis " + std::to_string(i) +
                                            ")");
    }
    clamped[i] = std::clamp<std::int64_t>(start[i], 0, d - span);
  }
  if (lengths == t.shape()) return t;  // fits only with start 0 (and any stride when len <= 1)
  return detail::dispatch({Op::slice, {t}, SliceParams{clamped, lengths, st}, t.dtype(), lengths});
}

Tensor put_slice(const Tensor& t, const std::vector<std::int64_t>& start, const Tensor& update) {
  detail::check_defined("put_slice", t);
  detail::check_defined("put_slice", update);
  detail::check_backends("put_slice", std::vector<Tensor>{t, update});
  check_rank_match("put_slice", "start", start.size(), t);
  if (update.rank() != t.rank()) {
    detail::fail<ShapeError>("put_slice", "update of shape " + shape_str(update.shape()) +
                                              " must have the rank of the tensor " +
                                              shape_str(t.shape()));
  }
  std::vector<std::int64_t> clamped(start.size());
  for (std::size_t i = 0; i < start.size(); ++i) {
    const std::int64_t d = t.shape()[i], u = update.shape()[i];
    if (u > d) {
      detail::fail<ShapeError>("put_slice", "update of shape " + shape_str(update.shape()) +
                                                " does not fit the tensor " + shape_str(t.shape()) +
                                                " (axis " + std::to_string(i) + ")");
    }
    clamped[i] = std::clamp<std::int64_t>(start[i], 0, d - u);
  }
  const DType dtype = promote(t.dtype(), update.dtype());
  const Tensor base = as_type(t, dtype);
  if (update.size() == 0) return base;
  return detail::dispatch(
      {Op::put_slice, {base, as_type(update, dtype)}, PutSliceParams{clamped}, dtype, t.shape()});
}

Tensor concatenate(const std::vector<Tensor>& tensors, std::int64_t axis) {
  if (tensors.empty()) detail::fail<ShapeError>("concatenate", "needs at least one tensor");
  for (const Tensor& t : tensors) detail::check_defined("concatenate", t);
  detail::check_backends("concatenate", tensors);
  const Tensor& first = tensors.front();
  if (first.rank() == 0) {
    detail::fail<ShapeError>("concatenate", "cannot concatenate rank-0 tensors (shape {})");
  }
  const std::int64_t a = normalize_axis("concatenate", axis, first.rank());
  Shape out = first.shape();
  out[static_cast<std::size_t>(a)] = 0;
  DType dtype = first.dtype();
  for (const Tensor& t : tensors) {
    bool ok = t.rank() == first.rank();
    for (std::int64_t i = 0; ok && i < t.rank(); ++i) ok = i == a || t.dim(i) == first.dim(i);
    if (!ok) {
      detail::fail<ShapeError>("concatenate", "shapes " + shape_str(first.shape()) + " and " +
                                                  shape_str(t.shape()) + " differ outside axis " +
                                                  std::to_string(a));
    }
    out[static_cast<std::size_t>(a)] += t.dim(a);
    dtype = promote(dtype, t.dtype());
  }
  std::vector<Tensor> inputs;
  for (const Tensor& t : tensors) inputs.push_back(as_type(t, dtype));
  if (inputs.size() == 1) return inputs.front();
  return detail::dispatch({Op::concatenate, std::move(inputs), AxisParams{a}, dtype, out});
}

Tensor stack(const std::vector<Tensor>& tensors, std::int64_t axis) {
  if (tensors.empty()) detail::fail<ShapeError>("stack", "needs at least one tensor");
  for (const Tensor& t : tensors) detail::check_defined("stack", t);
  detail::check_backends("stack", tensors);
  const Tensor& first = tensors.front();
  const std::int64_t a = normalize_axis("stack", axis, first.rank() + 1);
  std::vector<Tensor> expanded;
  for (const Tensor& t : tensors) {
    if (t.shape() != first.shape()) {
      detail::fail<ShapeError>("stack", "shapes " + shape_str(first.shape()) + " and " +
                                            shape_str(t.shape()) + " differ");
    }
    Shape s = t.shape();
    s.insert(s.begin() + a, 1);
    expanded.push_back(reshape(t, s));
  }
  return concatenate(expanded, a);
}

}  // namespace vkt
