#include "vkt/shape.h"

#include <algorithm>

#include "vkt/error.h"

namespace vkt {

std::int64_t numel(std::span<const std::int64_t> shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) {
    if (__builtin_mul_overflow(n, d, &n)) {
      throw ShapeError("[numel] shape " + shape_str(shape) + " has more elements than int64 holds");
    }
  }
  return n;
}

std::vector<std::int64_t> contiguous_strides(std::span<const std::int64_t> shape) {
  std::vector<std::int64_t> strides(shape.size());
  std::int64_t s = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

std::string shape_str(std::span<const std::int64_t> shape) {
  std::string s = "{";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "}";
}

Shape broadcast_shapes(const char* op, const Shape& a, const Shape& b) {
  const std::size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const std::int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      throw ShapeError(std::string("[") + op + "] shapes " + shape_str(a) + " and " + shape_str(b) +
                       " cannot be broadcast together (axis " + std::to_string(i) + ": " +
                       std::to_string(da) + " vs " + std::to_string(db) + ")");
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::int64_t normalize_axis(const char* op, std::int64_t axis, std::int64_t rank) {
  const std::int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) {
    throw AxisError(std::string("[") + op + "] axis " + std::to_string(axis) +
                    " is out of range for a tensor of rank " + std::to_string(rank));
  }
  return a;
}

Axes normalize_axes(const char* op, const Axes& axes, std::int64_t rank) {
  Axes out;
  out.reserve(axes.size());
  for (std::int64_t a : axes) out.push_back(normalize_axis(op, a, rank));
  std::sort(out.begin(), out.end());
  if (std::adjacent_find(out.begin(), out.end()) != out.end()) {
    throw AxisError(std::string("[") + op + "] axes " + shape_str(axes) + " contain a duplicate");
  }
  return out;
}

}  // namespace vkt
