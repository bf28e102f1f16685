// Reductions (all, any, sum, product, reduce_max, reduce_min) and arg-reductions (argmax,
// argmin): axis rules and output dtype/shape, then dispatch; the index type's check.
#include <string>

#include "core/checks.h"
#include "core/dispatch.h"
#include "core/reduce_shape.h"
#include "vkt/ops.h"

namespace vkt {
namespace {

// Nx: integer sums and products accumulate in 64 bits of the input's signedness; floats
// keep their type; all/any give u8; max/min keep the type.
DType reduce_out_dtype(Op op, DType in) {
  switch (op) {
    case Op::all:
    case Op::any:
      return DType::u8;
    case Op::sum:
    case Op::product:
      if (is_signed_integer(in)) return DType::s64;
      if (is_unsigned_integer(in)) return DType::u64;
      return in;
    default:
      return in;
  }
}

Tensor reduce(Op op, const Tensor& t, const Axes& axes, bool keep_axes) {
  const std::string name(op_name(op));
  detail::check_defined(name, t);
  detail::ReducedShape r = detail::reduced_shape(name.c_str(), t, axes, keep_axes);
  Axes reduced = std::move(r.axes);
  Shape out_shape = std::move(r.shape);
  return detail::dispatch({op,
                           {t},
                           ReduceParams{std::move(reduced), keep_axes},
                           reduce_out_dtype(op, t.dtype()),
                           std::move(out_shape)});
}

Tensor arg_reduce(Op op, const Tensor& t, std::optional<std::int64_t> axis, bool keep_axis,
                  TieBreak tie_break, DType type) {
  const std::string name(op_name(op));
  detail::check_defined(name, t);
  std::int64_t a = -1;
  std::int64_t reduced_size = t.size();
  Shape out_shape;
  if (axis) {
    a = normalize_axis(name.c_str(), *axis, t.rank());
    reduced_size = t.dim(a);
    for (std::int64_t i = 0; i < t.rank(); ++i) {
      if (i != a) {
        out_shape.push_back(t.dim(i));
      } else if (keep_axis) {
        out_shape.push_back(1);
      }
    }
  } else if (keep_axis) {
    out_shape.assign(t.shape().size(), 1);
  }
  if (reduced_size == 0) {
    detail::fail<ShapeError>(
        name, "cannot reduce " + std::string(axis ? "axis " + std::to_string(*axis) : "tensor") +
                  " of size 0 (input " + detail::describe(t) + ")");
  }
  detail::check_index_type(name, type, reduced_size - 1);
  const Tensor indices =
      detail::dispatch({op,
                        {t},
                        ArgReduceParams{a, keep_axis, tie_break == TieBreak::high},
                        DType::s64,
                        std::move(out_shape)});
  return type == DType::s64 ? indices : as_type(indices, type);
}

}  // namespace

namespace detail {

void check_index_type(std::string_view op, DType type, std::int64_t largest) {
  if (!is_integer(type)) {
    fail<TypeError>(
        op, "the index type must be an integer dtype, got " + std::string(dtype_name(type)));
  }
  const int value_bits = bit_width(type) - (is_signed_integer(type) ? 1 : 0);
  if (value_bits < 63 && largest > (std::int64_t{1} << value_bits) - 1) {
    fail<TypeError>(op, "index " + std::to_string(largest) + " does not fit the index type " +
                            std::string(dtype_name(type)) + " (s64 holds it)");
  }
}

}  // namespace detail

Tensor all(const Tensor& t, const Axes& axes, bool keep_axes) {
  return reduce(Op::all, t, axes, keep_axes);
}
Tensor any(const Tensor& t, const Axes& axes, bool keep_axes) {
  return reduce(Op::any, t, axes, keep_axes);
}
Tensor sum(const Tensor& t, const Axes& axes, bool keep_axes) {
  return reduce(Op::sum, t, axes, keep_axes);
}
Tensor product(const Tensor& t, const Axes& axes, bool keep_axes) {
  return reduce(Op::product, t, axes, keep_axes);
}
Tensor reduce_max(const Tensor& t, const Axes& axes, bool keep_axes) {
  return reduce(Op::reduce_max, t, axes, keep_axes);
}
Tensor reduce_min(const Tensor& t, const Axes& axes, bool keep_axes) {
  return reduce(Op::reduce_min, t, axes, keep_axes);
}

Tensor argmax(const Tensor& t, std::optional<std::int64_t> axis, bool keep_axis, TieBreak tie_break,
              DType type) {
  return arg_reduce(Op::argmax, t, axis, keep_axis, tie_break, type);
}
Tensor argmin(const Tensor& t, std::optional<std::int64_t> axis, bool keep_axis, TieBreak tie_break,
              DType type) {
  return arg_reduce(Op::argmin, t, axis, keep_axis, tie_break, type);
}

}  // namespace vkt
