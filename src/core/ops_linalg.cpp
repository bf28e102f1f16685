// dot (Nx.dot/6 and Nx.dot/2) and matmul: axis/shape validation, promotion, dispatch.
#include <algorithm>
#include <optional>
#include <string>

#include "core/checks.h"
#include "core/dispatch.h"
#include "vkt/ops.h"

namespace vkt {
namespace {

std::string axes_str(const Axes& axes) {
  return shape_str(axes);
}

// Normalises each axis in place, keeping the caller's order (pairs matter).
Axes normalize_in_order(const Axes& axes, std::int64_t rank) {
  Axes out;
  out.reserve(axes.size());
  for (std::int64_t ax : axes) out.push_back(normalize_axis("dot", ax, rank));
  return out;
}

// Every axis of `which` may appear once among its contracting and batch axes.
void check_unique(const char* which, const Axes& contract, const Axes& batch, std::int64_t rank) {
  std::vector<int> seen(static_cast<std::size_t>(rank), 0);
  for (const Axes* list : {&contract, &batch}) {
    for (std::int64_t ax : *list) {
      if (seen[static_cast<std::size_t>(ax)]++) {
        detail::fail<AxisError>("dot", std::string("axis ") + std::to_string(ax) + " of " + which +
                                           " is repeated in contracting axes " +
                                           axes_str(contract) + " and batch axes " +
                                           axes_str(batch));
      }
    }
  }
}

void check_pairs(const char* kind, const Tensor& a, const Axes& axes_a, const Tensor& b,
                 const Axes& axes_b) {
  if (axes_a.size() != axes_b.size()) {
    detail::fail<AxisError>("dot", std::string(kind) + " axes " + axes_str(axes_a) + " of a and " +
                                       axes_str(axes_b) + " of b differ in count");
  }
  for (std::size_t i = 0; i < axes_a.size(); ++i) {
    const std::int64_t da = a.shape()[static_cast<std::size_t>(axes_a[i])];
    const std::int64_t db = b.shape()[static_cast<std::size_t>(axes_b[i])];
    if (da != db) {
      detail::fail<ShapeError>("dot", std::string(kind) + " axis " + std::to_string(axes_a[i]) +
                                          " of a (size " + std::to_string(da) + ") and axis " +
                                          std::to_string(axes_b[i]) + " of b (size " +
                                          std::to_string(db) + ") differ; shapes " +
                                          shape_str(a.shape()) + " and " + shape_str(b.shape()));
    }
  }
}

void append_free_dims(Shape& out, const Tensor& t, const Axes& contract, const Axes& batch) {
  for (std::int64_t ax : dot_free_axes(t.rank(), contract, batch)) {
    out.push_back(t.shape()[static_cast<std::size_t>(ax)]);
  }
}

// The 16-bit float type a product into f32 keeps its operands in, when one holds them
// exactly: f16 (which holds both f8 formats), or bf16. The backends multiply such
// operands exactly and add in f32, on tensor cores where the device has them, where
// widening both to f32 first would take the f32 kernel, which has none.
std::optional<DType> half_operand_type(DType operands) {
  switch (operands) {
    case DType::f16:
    case DType::f8:
    case DType::f8_e4m3fn:
      return DType::f16;
    case DType::bf16:
      return DType::bf16;
    default:
      return std::nullopt;
  }
}

// Same storage, another shape with the same element count (row-major).
Tensor alias(const Tensor& t, Shape shape) {
  return Tensor(t.dtype(), std::move(shape), t.storage());
}

}  // namespace

Tensor dot(const Tensor& a, const Axes& contract_a, const Axes& batch_a, const Tensor& b,
           const Axes& contract_b, const Axes& batch_b, std::optional<DType> preferred) {
  detail::check_defined("dot", a);
  detail::check_defined("dot", b);
  detail::check_backends("dot", std::vector<Tensor>{a, b});
  const Axes ca = normalize_in_order(contract_a, a.rank());
  const Axes ba = normalize_in_order(batch_a, a.rank());
  const Axes cb = normalize_in_order(contract_b, b.rank());
  const Axes bb = normalize_in_order(batch_b, b.rank());
  check_unique("a", ca, ba, a.rank());
  check_unique("b", cb, bb, b.rank());
  check_pairs("contracting", a, ca, b, cb);
  check_pairs("batch", a, ba, b, bb);

  Shape out_shape;
  for (std::int64_t ax : ba) out_shape.push_back(a.shape()[static_cast<std::size_t>(ax)]);
  append_free_dims(out_shape, a, ca, ba);
  append_free_dims(out_shape, b, cb, bb);
  const DType operands = promote(a.dtype(), b.dtype());
  if (preferred && promote(operands, *preferred) != *preferred) {
    detail::fail<TypeError>("dot", "preferred type " + std::string(dtype_name(*preferred)) +
                                       " cannot hold the operands' " +
                                       std::string(dtype_name(operands)));
  }
  const DType dtype = preferred.value_or(operands);
  const std::optional<DType> half = half_operand_type(operands);
  const DType operand_type = dtype == DType::f32 && half ? *half : dtype;
  return detail::dispatch({Op::dot,
                           {as_type(a, operand_type), as_type(b, operand_type)},
                           DotParams{ca, ba, cb, bb},
                           dtype,
                           out_shape});
}

Tensor dot(const Tensor& a, const Tensor& b, std::optional<DType> preferred) {
  detail::check_defined("dot", a);
  detail::check_defined("dot", b);
  // A scalar operand: no contraction, an outer product, which is the elementwise product.
  if (a.rank() == 0 || b.rank() == 0) return dot(a, {}, {}, b, {}, {}, preferred);
  const std::int64_t contract_b = b.rank() == 1 ? 0 : b.rank() - 2;
  return dot(a, {a.rank() - 1}, {}, b, {contract_b}, {}, preferred);
}

Tensor matmul(const Tensor& a, const Tensor& b) {
  detail::check_defined("matmul", a);
  detail::check_defined("matmul", b);
  detail::check_backends("matmul", std::vector<Tensor>{a, b});
  if (a.rank() < 1 || b.rank() < 1) {
    detail::fail<ShapeError>("matmul", "needs operands of rank >= 1, got " + detail::describe(a) +
                                           " and " + detail::describe(b));
  }
  const std::int64_t ka = a.shape().back();
  const std::int64_t kb = b.rank() == 1 ? b.shape()[0] : b.shape()[b.shape().size() - 2];
  if (ka != kb) {
    detail::fail<ShapeError>("matmul", "contracting dims differ: " + std::to_string(ka) + " (a " +
                                           shape_str(a.shape()) + ") vs " + std::to_string(kb) +
                                           " (b " + shape_str(b.shape()) + ")");
  }
  // A 1-D operand, or a b without batch dims: a plain contraction gives NumPy's layout.
  if (a.rank() == 1 || b.rank() <= 2) return dot(a, b);

  // Both have rank >= 2 and b has batch dims. Leading size-1 dims are free to alias away
  // or add, so batch shapes that agree after left-padding with 1s become batch axes.
  const std::int64_t rank = std::max(a.rank(), b.rank());
  auto padded = [&](const Tensor& t) {
    Shape s(static_cast<std::size_t>(rank - t.rank()), 1);
    s.insert(s.end(), t.shape().begin(), t.shape().end());
    return s;
  };
  const Shape sa = padded(a), sb = padded(b);
  if (!std::equal(sa.begin(), sa.end() - 2, sb.begin())) {
    detail::fail<ShapeError>("matmul", "batch dims of " + shape_str(a.shape()) + " and " +
                                           shape_str(b.shape()) +
                                           " must be equal (batch broadcasting is supported only "
                                           "against a 2-D b)");
  }
  Axes batch;
  for (std::int64_t i = 0; i < rank - 2; ++i) batch.push_back(i);
  return dot(alias(a, sa), {rank - 1}, batch, alias(b, sb), {rank - 2}, batch);
}

}  // namespace vkt
