// slice / put_slice with start indices held in scalar integer tensors. On the cpu the
// starts are read (no transfer); with a start on a device the clamped positions are built
// there (iota + clip) and the op runs as gather / indexed_put, so nothing is read back.
#include <string>

#include "core/checks.h"
#include "vkt/ops.h"

namespace vkt {
namespace {

// Rank, shape and dtype of each start; the device among the starts (nullptr: all on cpu).
Backend* check_starts(const char* op, const Tensor& t, const StartTensors& start) {
  if (static_cast<std::int64_t>(start.values.size()) != t.rank()) {
    detail::fail<ShapeError>(op, std::to_string(start.values.size()) +
                                     " start tensors given for the rank-" +
                                     std::to_string(t.rank()) + " tensor " + detail::describe(t));
  }
  Backend* device = nullptr;
  for (std::size_t i = 0; i < start.values.size(); ++i) {
    const Tensor& s = start.values[i];
    detail::check_defined(op, s);
    if (s.rank() != 0) {
      detail::fail<ShapeError>(op, "start " + std::to_string(i) + " must be a scalar tensor, got " +
                                       detail::describe(s));
    }
    if (!is_integer(s.dtype())) {
      detail::fail<TypeError>(op, "start " + std::to_string(i) +
                                      " must have an integer dtype, got " + detail::describe(s));
    }
    if (!s.backend().is_cpu()) device = &s.backend();
  }
  return device;
}

std::vector<std::int64_t> read_starts(const StartTensors& start) {
  std::vector<std::int64_t> out;
  for (const Tensor& s : start.values) out.push_back(s.item<std::int64_t>());
  return out;
}

// Per axis: clip(start, 0, limit[a]) + iota along a (times stride), stacked on a last axis:
// the t position of every element of a `shape` block, built on `device`.
Tensor positions(const StartTensors& start, const Shape& shape,
                 const std::vector<std::int64_t>& strides, const std::vector<std::int64_t>& limit,
                 Backend& device) {
  std::vector<Tensor> per_axis;
  for (std::size_t a = 0; a < shape.size(); ++a) {
    const Tensor first = clip(as_type(start.values[a], DType::s64), 0, limit[a]);
    const Tensor steps =
        multiply(iota(shape, DType::s64, static_cast<std::int64_t>(a), &device), strides[a]);
    per_axis.push_back(add(steps, first));
  }
  return stack(per_axis, -1);
}

}  // namespace

Tensor slice(const Tensor& t, const StartTensors& start, const std::vector<std::int64_t>& lengths,
             const std::vector<std::int64_t>& strides) {
  detail::check_defined("slice", t);
  Backend* device = check_starts("slice", t, start);
  std::vector<Tensor> all = start.values;
  all.push_back(t);
  detail::check_backends("slice", all);
  if (device == nullptr) return slice(t, read_starts(start), lengths, strides);
  std::vector<std::int64_t> st = strides;
  if (st.empty()) st.assign(lengths.size(), 1);
  if (lengths.size() != start.values.size() || st.size() != start.values.size()) {
    detail::fail<ShapeError>("slice", "lengths and strides need " +
                                          std::to_string(start.values.size()) +
                                          " entries (the tensor's rank)");
  }
  std::vector<std::int64_t> limit(lengths.size());
  bool empty = false;
  for (std::size_t a = 0; a < lengths.size(); ++a) {
    const std::string axis = "axis " + std::to_string(a);
    if (st[a] < 1) detail::fail<ShapeError>("slice", "stride of " + axis + " must be >= 1");
    const std::int64_t span =
        lengths[a] > 0
            ? detail::checked_add(
                  "slice", "the span of " + axis,
                  detail::checked_mul("slice", "the span of " + axis, lengths[a] - 1, st[a]), 1)
            : 0;
    if (lengths[a] < 0 || span > t.shape()[a]) {
      detail::fail<ShapeError>("slice", "length " + std::to_string(lengths[a]) + " with stride " +
                                            std::to_string(st[a]) + " does not fit " +
                                            detail::describe(t) + " (" + axis + ")");
    }
    limit[a] = t.shape()[a] - span;
    empty = empty || lengths[a] == 0;
  }
  // An empty slice: the start values cannot matter.
  if (empty || t.rank() == 0) {
    return transfer(slice(t, std::vector<std::int64_t>(lengths.size(), 0), lengths, st), *device);
  }
  return gather(t, positions(start, lengths, st, limit, *device));
}

Tensor put_slice(const Tensor& t, const StartTensors& start, const Tensor& update) {
  detail::check_defined("put_slice", t);
  detail::check_defined("put_slice", update);
  Backend* device = check_starts("put_slice", t, start);
  std::vector<Tensor> all = start.values;
  all.push_back(t);
  all.push_back(update);
  detail::check_backends("put_slice", all);
  if (device == nullptr) return put_slice(t, read_starts(start), update);
  // A rank mismatch (an error) or an empty update (the base tensor): the integer form
  // answers without the start values.
  if (update.rank() != t.rank() || update.size() == 0) {
    return put_slice(t, std::vector<std::int64_t>(start.values.size(), 0), update);
  }
  std::vector<std::int64_t> limit(static_cast<std::size_t>(t.rank()));
  for (std::size_t a = 0; a < limit.size(); ++a) {
    if (update.shape()[a] > t.shape()[a]) {
      detail::fail<ShapeError>("put_slice", "update of shape " + shape_str(update.shape()) +
                                                " does not fit the tensor " + shape_str(t.shape()) +
                                                " (axis " + std::to_string(a) + ")");
    }
    limit[a] = t.shape()[a] - update.shape()[a];
  }
  const DType dtype = promote(t.dtype(), update.dtype());
  const std::vector<std::int64_t> ones(limit.size(), 1);
  const Tensor idx =
      reshape(positions(start, update.shape(), ones, limit, *device), {update.size(), t.rank()});
  return indexed_put(as_type(t, dtype), idx, reshape(as_type(update, dtype), {update.size()}));
}

}  // namespace vkt
