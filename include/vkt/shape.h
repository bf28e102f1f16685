// Shapes, strides, broadcasting and axis normalisation.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace vkt {

using Shape = std::vector<std::int64_t>;
using Axes = std::vector<std::int64_t>;

// The element count; ShapeError when it overflows int64.
std::int64_t numel(std::span<const std::int64_t> shape);
// Row-major element strides of a contiguous tensor of this shape.
std::vector<std::int64_t> contiguous_strides(std::span<const std::int64_t> shape);
std::string shape_str(std::span<const std::int64_t> shape);

// NumPy broadcasting of two shapes (aligned right); throws ShapeError naming op and shapes.
Shape broadcast_shapes(const char* op, const Shape& a, const Shape& b);
// Maps a possibly negative axis into [0, rank); throws AxisError naming op, axis and rank.
std::int64_t normalize_axis(const char* op, std::int64_t axis, std::int64_t rank);
// Normalises, then checks for duplicates; returns the axes sorted ascending.
Axes normalize_axes(const char* op, const Axes& axes, std::int64_t rank);

}  // namespace vkt
